/*
 * pidns_leak - pid namespaces give back all they took. 300 rounds, each:
 * a child in a new pid and mount namespace mounts its own /proc, opens
 * its /proc/self/ns/pid, makes a nested namespace by unshare(CLONE_NEWPID)
 * and a child there, leaves an orphan and a sleeper behind and exits, so
 * that its death kills them; the parent, meanwhile, holds the child's
 * pid_for_children file and enters the namespace with setns before it
 * goes. Free memory before and after is the same.
 */
#define _GNU_SOURCE
#include "leakcheck.h"
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static int ready[2];

/* The init of the new namespace: its own /proc, a nested namespace,
 * an orphan and a sleeper that its end kills. */
static void ns_init(void)
{
	mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	int fd = open("/proc/self/ns/pid", O_RDONLY);
	pid_t maker = fork();
	if (maker == 0) { /* leaves an orphan to us */
		if (fork() == 0)
			_exit(0);
		_exit(0);
	}
	if (fork() == 0) { /* killed when we die */
		pause();
		_exit(0);
	}
	unshare(CLONE_NEWPID);
	pid_t nested = fork(); /* init of a namespace below */
	if (nested == 0)
		_exit(0);
	write(ready[1], "r", 1);
	waitpid(maker, NULL, 0);
	waitpid(nested, NULL, 0);
	close(fd);
	_exit(0);
}

static void one_round(void)
{
	char path[64], c;
	long pid;

	pipe(ready);
	pid = syscall(SYS_clone, CLONE_NEWPID | CLONE_NEWNS | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0)
		ns_init();
	close(ready[1]);
	read(ready[0], &c, 1);
	close(ready[0]);
	snprintf(path, sizeof(path), "/proc/%ld/ns/pid", pid);
	int fd = open(path, O_RDONLY);
	int self = open("/proc/self/ns/pid", O_RDONLY);
	if (fd >= 0 && setns(fd, CLONE_NEWPID) == 0) {
		long k = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
		if (k == 0)
			_exit(0);
		waitpid(k, NULL, 0);
		setns(self, CLONE_NEWPID);
	}
	close(self);
	waitpid(pid, NULL, 0);
	if (fd >= 0)
		close(fd); /* the namespace's last reference */
}

int main(void)
{
	return leak_check_rounds(one_round, 300, "pid namespaces");
}
