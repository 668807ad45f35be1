/*
 * ipc_ns_leak - IPC namespaces give back all they took: 300 children each
 * make a new IPC namespace (clone(CLONE_NEWIPC)), fill it (a segment left
 * attached, one not, a semaphore set with a SEM_UNDO adjustment, a queue
 * holding a message, a changed limit), unshare another, fill that, setns
 * back into the first through its nsfs file, and exit; free memory before
 * and after is the same. Each namespace, and all in it, goes with its
 * last user.
 */
#define _GNU_SOURCE
#include "leakcheck.h"
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* Objects of every kind in the caller's namespace. */
static void fill(void)
{
	struct { long type; char text[64]; } m = { 1, "message" };
	struct sembuf op = { 0, 1, SEM_UNDO };
	int shm = shmget(IPC_PRIVATE, 8192, 0600);
	char *p = shmat(shm, NULL, 0);

	if (p != (void *)-1)
		memset(p, 1, 8192); /* stays attached until exit */
	shmget(0x1eaf, 4096, IPC_CREAT | 0600);
	int sem = semget(IPC_PRIVATE, 4, 0600);
	semop(sem, &op, 1);
	msgsnd(msgget(IPC_PRIVATE, 0600), &m, sizeof(m.text), 0);
	int fd = open("/proc/sys/kernel/msgmni", O_WRONLY);
	if (fd >= 0) {
		write(fd, "100", 3);
		close(fd);
	}
}

static void one_round(void)
{
	long pid = syscall(SYS_clone, CLONE_NEWIPC | SIGCHLD, 0, 0, 0, 0);

	if (pid == 0) {
		fill();
		int first = open("/proc/self/ns/ipc", O_RDONLY);
		unshare(CLONE_NEWIPC);
		fill();
		if (first >= 0)
			setns(first, CLONE_NEWIPC);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

int main(void)
{
	return leak_check_rounds(one_round, 300, "IPC namespaces");
}
