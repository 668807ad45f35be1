/*
 * userns_leak - user and cgroup namespaces give back all they took: 300
 * children each clone a child in new user, UTS, network and cgroup
 * namespaces, which maps its ids, nests three more user namespaces, and
 * opens and enters their nsfs files; and 300 unshare and setns a user
 * namespace as uid 1000. Free memory before and after is the same.
 */
#define _GNU_SOURCE
#include "leakcheck.h"
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		write(fd, text, strlen(text));
		close(fd);
	}
}

/* In a new user namespace: root mapped to the parent's root. */
static void map_root(void)
{
	write_file("/proc/self/uid_map", "0 0 1");
	write_file("/proc/self/setgroups", "deny");
	write_file("/proc/self/gid_map", "0 0 1");
}

static void inside(void)
{
	int first = open("/proc/self/ns/user", O_RDONLY);

	map_root();
	sethostname("leak", 4);
	for (int i = 0; i < 3; i++) {
		unshare(CLONE_NEWUSER | (i == 1 ? CLONE_NEWUTS | CLONE_NEWCGROUP : 0));
		map_root();
	}
	int fd = open("/proc/self/ns/user", O_RDONLY);
	int cg = open("/proc/self/ns/cgroup", O_RDONLY);
	setns(first, CLONE_NEWUSER); /* EPERM: above us now */
	close(fd);
	close(cg);
	_exit(0);
}

static void one_round(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		long c = syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWCGROUP | SIGCHLD,
				 0, 0, 0, 0);
		if (c == 0)
			inside();
		waitpid((pid_t)c, NULL, 0);
		/* As uid 1000: unshare, map, and enter a sibling's namespace. */
		if (setgroups(0, NULL) || setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(1);
		prctl(PR_SET_DUMPABLE, 1);
		int before = open("/proc/self/ns/user", O_RDONLY);
		unshare(CLONE_NEWUSER);
		write_file("/proc/self/uid_map", "0 1000 1");
		setns(before, CLONE_NEWUSER); /* EPERM */
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

int main(void)
{
	return leak_check_rounds(one_round, 300, "user and cgroup namespaces");
}
