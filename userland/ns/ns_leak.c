/*
 * ns_leak - namespaces give back all they took: 500 children each make a
 * new UTS, mount and network namespace (clone(CLONE_NEWUTS | CLONE_NEWNS |
 * CLONE_NEWNET)), name it, mount a tmpfs in it, bind an abstract AF_UNIX
 * name in it, unshare the mount and network namespaces again, open its
 * nsfs file, make a time namespace with offsets and a child in it, and exit, and 500 unshare(CLONE_NEWUTS) and setns back and forth; free
 * memory before and after is the same. (Pid namespaces join when they
 * exist here.)
 */
#define _GNU_SOURCE
#include "leakcheck.h"
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/wait.h>
#include <time.h>

static void one_round(int initial_uts)
{
	long pid = syscall(SYS_clone, CLONE_NEWUTS | CLONE_NEWNS | CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0);

	if (pid == 0) {
		static const char name[] = { AF_UNIX, 0, 0, 'l', 'e', 'a', 'k' };
		int sock = socket(AF_UNIX, SOCK_DGRAM, 0);

		sethostname("leak", 4);
		mount("none", "/tmp", "tmpfs", 0, NULL); /* dropped with the namespace */
		bind(sock, (const struct sockaddr *)name, sizeof(name)); /* holds the namespace */
		unshare(CLONE_NEWNS | CLONE_NEWNET);
		if (unshare(CLONE_NEWTIME) == 0) {
			int off = open("/proc/self/timens_offsets", O_WRONLY);
			write(off, "monotonic 100 0", 15);
			close(off);
			struct timespec ts;
			if (fork() == 0) {
				clock_gettime(CLOCK_MONOTONIC, &ts); /* maps the namespace's [vvar] page */
				_exit(0);
			}
			wait(NULL);
			/* Enter it too: the namespace then ends with this process,
			 * whose memory still maps its page. */
			int fd = open("/proc/self/ns/time_for_children", O_RDONLY);
			setns(fd, CLONE_NEWTIME);
			close(fd);
			clock_gettime(CLOCK_MONOTONIC, &ts);
		}
		int fd = open("/proc/self/ns/uts", O_RDONLY);
		unshare(CLONE_NEWUTS);
		setns(initial_uts, CLONE_NEWUTS);
		if (fd >= 0)
			setns(fd, CLONE_NEWUTS);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

int main(void)
{
	if (access("/proc/self", F_OK)) {
		mkdir("/proc", 0555);
		mount("proc", "/proc", "proc", 0, NULL);
	}
	int initial_uts = open("/proc/self/ns/uts", O_RDONLY);

	if (initial_uts < 0) {
		printf("ns_leak: /proc/self/ns/uts: cannot open\n");
		return 1;
	}
	for (int i = 0; i < 20; i++)
		one_round(initial_uts);
	warm_stack();
	long long before = settled_free_kib();
	for (int i = 0; i < 500; i++)
		one_round(initial_uts);
	long long after = settled_free_kib();
	return report_free(before, after, 500, "UTS, mount, network and time namespaces");
}
