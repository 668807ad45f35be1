/*
 * cred - changing user and group ids as Linux allows: root may set
 * anything, others only move between the ids they hold. Supplementary
 * groups up to Linux's 65536. Ends with RLIMIT_NPROC, which binds a
 * non-root user's fork.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void ids(const char *when)
{
	uid_t r, e, s;
	gid_t gr, ge, gs;
	getresuid(&r, &e, &s);
	getresgid(&gr, &ge, &gs);
	printf("%s: uid %u/%u/%u gid %u/%u/%u groups %d\n", when, r, e, s, gr, ge, gs, getgroups(0, NULL));
}

static void check(const char *what, int ret)
{
	printf("%s: %s\n", what, ret == 0 ? "ok" : strerror(errno));
}

/* Up to NGROUPS_MAX (65536) supplementary groups, kept sorted. */
static void many_groups(void)
{
	static gid_t many[65537], got[65537];
	int n;

	for (int i = 0; i < 65537; i++)
		many[i] = 100000 - i;
	check("setgroups(65536 groups, in decreasing order)", setgroups(65536, many));
	n = getgroups(65537, got);
	printf("getgroups: %d, from %u to %u\n", n, n > 0 ? got[0] : 0, n > 0 ? got[n - 1] : 0);
	check("setgroups(65537 groups)", setgroups(65537, many));
	printf("getgroups(1, list): %d (%s)\n", getgroups(1, got), strerror(errno));
}

int main(void)
{
	gid_t groups[] = { 10, 20 };

	ids("start");
	many_groups();
	check("setgroups(2)", setgroups(2, groups));
	ids("after setgroups");
	check("setresgid(100, 100, 0)", setresgid(100, 100, 0));
	check("setresuid(1000, 1000, 0)", setresuid(1000, 1000, 0));
	ids("as 1000 with saved 0");
	check("setgroups as non-root", setgroups(0, NULL));
	check("seteuid(0) from saved id", seteuid(0));
	ids("euid back to 0");
	check("setuid(1000) as root", setuid(1000));
	ids("all 1000");
	check("setuid(0) now", setuid(0));
	check("setreuid(-1, 2000)", setreuid(-1, 2000));

	struct rlimit rl = { 1, 1 };
	check("setrlimit(RLIMIT_NPROC, 1)", setrlimit(RLIMIT_NPROC, &rl));
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	printf("fork over RLIMIT_NPROC: %s\n", pid < 0 ? strerror(errno) : "ok");
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return 0;
}
