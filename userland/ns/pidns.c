/*
 * pidns - pid namespaces, compared with Linux: clone(CLONE_NEWPID) and
 * unshare(CLONE_NEWPID), the numbers each side sees (getpid, getppid 0,
 * wait, /proc/PID/status's NSpid), nested namespaces, the init that reaps
 * orphans, signals to init, a process group that outlives its leader,
 * kill(-1) within the namespace, the death of
 * init killing the namespace, clone3's set_tid, setns into a namespace,
 * NS_GET_PARENT, a proc mount of the namespace and ns_last_pid.
 *
 * Runs as root. Only numbers of the new namespaces are printed: those of
 * the initial one differ from Linux's (it has many kernel threads).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *err(long r)
{
	if (r >= 0)
		return "0";
	switch (errno) {
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case ENOMEM: return "ENOMEM";
	case ESRCH: return "ESRCH";
	case ENOENT: return "ENOENT";
	case EAGAIN: return "EAGAIN";
	default: return "E?";
	}
}

/* clone3's argument (Linux's uapi struct clone_args, size 88). */
struct clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};
#define NS_GET_PARENT 0xb702
#ifndef SYS_clone3
#define SYS_clone3 435
#endif

static pid_t clone_flags(unsigned long flags)
{
	fflush(stdout);
	return syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
}

/* clone3 with set_tid[0..n) (the child's namespace first). */
static pid_t clone3_tid(uint64_t flags, pid_t *set_tid, size_t n)
{
	struct clone_args a = { .flags = flags, .exit_signal = SIGCHLD,
				.set_tid = (uintptr_t)set_tid, .set_tid_size = n };
	fflush(stdout);
	return syscall(SYS_clone3, &a, sizeof(a));
}

/* How a child ended: "exit N" or "signal N". */
static const char *how(int st)
{
	static char buf[32];
	if (WIFEXITED(st))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(st));
	else
		snprintf(buf, sizeof(buf), "signal %d", WTERMSIG(st));
	return buf;
}

/* The NSpid line of /proc/PID/status: its count of numbers, and the last. */
static void nspid_of(pid_t pid, const char *who)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (!(f = fopen(path, "r"))) {
		printf("%s: %s: cannot open\n", who, path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "NSpid:", 6))
			continue;
		int n = 0;
		char *last = NULL;
		for (char *p = strtok(line + 6, "\t\n"); p; p = strtok(NULL, "\t\n"))
			n++, last = p;
		printf("%s: NSpid has %d numbers, the last %s\n", who, n, last ? last : "-");
	}
	fclose(f);
}

/* ---- nested namespaces and what each sees --------------------------------- */

static int sync_ready[2], sync_go[2], sync_printed[2];

/* It prints once its parent has (on two CPUs the two would race). */
static void grandchild_level2(void)
{
	char c;

	read(sync_printed[0], &c, 1);
	printf("level 2 init: getpid %d getppid %d\n", getpid(), getppid());
	_exit(0);
}

static int level1_init(void)
{
	int st;
	char c;

	printf("level 1 init: getpid %d getppid %d\n", getpid(), getppid());
	pipe(sync_printed);
	pid_t k = clone_flags(CLONE_NEWPID);
	if (k == 0)
		grandchild_level2();
	printf("level 1 init: its child in a new namespace is %d\n", k);
	write(sync_printed[1], "p", 1);
	printf("level 1 init: waitpid %s\n", waitpid(k, &st, 0) == k ? "the same pid" : "other");
	write(sync_ready[1], "r", 1); /* let the parent look at us, then end */
	read(sync_go[0], &c, 1);
	return 0;
}

static void nested(void)
{
	int st;
	char c;

	pipe(sync_ready);
	pipe(sync_go);
	pid_t k = clone_flags(CLONE_NEWPID);
	if (k == 0)
		_exit(level1_init());
	read(sync_ready[0], &c, 1);
	nspid_of(k, "outside sees level 1 init");
	write(sync_go[1], "g", 1);
	printf("outside: waitpid %s, %s\n", waitpid(k, &st, 0) == k ? "the same pid" : "other", how(st));
}

/* ---- init: orphans, signals, kill(-1), death --------------------------------- */

static void orphan_maker(void)
{
	pid_t b = fork();
	if (b == 0) {
		usleep(100000); /* until its parent is gone */
		printf("orphan %d: getppid %d\n", getpid(), getppid());
		_exit(3);
	}
	_exit(2);
}

static int reaper_init(void)
{
	int st;
	pid_t a = fork();

	if (a == 0)
		orphan_maker();
	for (int i = 0; i < 2; i++) {
		pid_t w = wait(&st);
		printf("init reaped %d: %s\n", w, how(st));
	}
	/* Signals from inside that init has no handler for: ignored. */
	printf("kill(1, SIGTERM) from init's child: ");
	fflush(stdout);
	pid_t k = fork();
	if (k == 0) {
		printf("%s, ", err(kill(1, SIGTERM)));
		printf("kill(1, SIGKILL): %s\n", err(kill(1, SIGKILL)));
		_exit(0);
	}
	waitpid(k, NULL, 0);
	printf("init still here\n");
	return 0;
}

static void reaping(void)
{
	int st;
	pid_t c = clone_flags(CLONE_NEWPID);

	if (c == 0)
		_exit(reaper_init());
	waitpid(c, &st, 0);
	printf("reaper init: %s\n", how(st));
}

/* A process group outlives its leader: its number stays. */
static int pgrp_init(void)
{
	int go[2];
	char c;

	pipe(go);
	pid_t a = fork();
	if (a == 0) {
		setpgid(0, 0);
		if (fork() == 0) {
			read(go[0], &c, 1); /* until the leader is reaped */
			printf("member: getpgrp %d, getpgid(0) %d, kill(-%d, 0): %s\n", getpgrp(),
			       getpgid(0), getpgrp(), err(kill(-getpgrp(), 0)));
			_exit(0);
		}
		_exit(0);
	}
	waitpid(a, NULL, 0);
	write(go[1], "g", 1);
	while (wait(NULL) > 0)
		;
	return 0;
}

static void pgrp_outlives(void)
{
	pid_t c = clone_flags(CLONE_NEWPID);

	if (c == 0)
		_exit(pgrp_init());
	waitpid(c, NULL, 0);
}

/* kill(-1, SIGKILL) from inside: every process of the namespace but init
 * and the caller, nobody outside (or this test would die). */
static int kill_all_init(void)
{
	int st;
	pid_t sleeper = fork();

	if (sleeper == 0) {
		pause();
		_exit(0);
	}
	pid_t killer = fork();
	if (killer == 0)
		_exit(kill(-1, SIGKILL) ? 1 : 0);
	waitpid(killer, &st, 0);
	printf("killer: %s\n", how(st));
	waitpid(sleeper, &st, 0);
	printf("sleeper: %s\n", how(st));
	return 0;
}

static void kill_all(void)
{
	int st;
	pid_t c = clone_flags(CLONE_NEWPID);

	if (c == 0)
		_exit(kill_all_init());
	waitpid(c, &st, 0);
	printf("kill(-1) init: %s\n", how(st));
}

/* init dies: the rest of the namespace is killed. The sleeper holds a
 * pipe's write end: the read end sees end of file once it is gone. */
static void init_death(void)
{
	int p[2], st;
	char c;

	pipe(p);
	pid_t init = clone_flags(CLONE_NEWPID);
	if (init == 0) {
		close(p[0]);
		if (fork() == 0) {
			pause();
			_exit(0);
		}
		if (fork() == 0) { /* a grandchild, orphaned when its parent goes */
			if (fork() == 0) {
				pause();
				_exit(0);
			}
			_exit(0);
		}
		usleep(100000);
		_exit(7);
	}
	close(p[1]);
	waitpid(init, &st, 0);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	long n = read(p[0], &c, 1);
	printf("init died (%s): the others %s\n", how(st), n == 0 ? "are gone" : "live on");
	close(p[0]);
	/* Killed from outside, init dies of SIGKILL. */
	init = clone_flags(CLONE_NEWPID);
	if (init == 0) {
		pause();
		_exit(0);
	}
	usleep(50000);
	printf("kill(init, SIGTERM) from outside: %s\n", err(kill(init, SIGTERM)));
	usleep(50000);
	printf("kill(init, SIGKILL) from outside: %s\n", err(kill(init, SIGKILL)));
	waitpid(init, &st, 0);
	printf("init: %s\n", how(st));
}

/* ---- unshare(CLONE_NEWPID): the next child is init ------------------------- */

static void unshare_pid_child(void)
{
	pid_t me = getpid();
	char buf[64];
	int st;

	printf("unshare(CLONE_NEWPID): %s, getpid unchanged: %s\n", err(unshare(CLONE_NEWPID)),
	       getpid() == me ? "yes" : "no");
	long n = readlink("/proc/self/ns/pid_for_children", buf, sizeof(buf));
	printf("pid_for_children before a child: %s\n", err(n));
	int said[2];
	char x;
	pipe(said);
	pid_t c = clone_flags(0);
	if (c == 0) {
		printf("first child: getpid %d getppid %d\n", getpid(), getppid());
		write(said[1], "s", 1);
		usleep(100000);
		_exit(0);
	}
	read(said[0], &x, 1);
	n = readlink("/proc/self/ns/pid_for_children", buf, sizeof(buf));
	printf("pid_for_children with one: %s\n", err(n));
	printf("unshare(CLONE_NEWPID) again: %s\n", err(unshare(CLONE_NEWPID)));
	printf("a thread now: %s\n", err(clone_flags(CLONE_THREAD | CLONE_SIGHAND | CLONE_VM)));
	pid_t d = clone_flags(0);
	if (d == 0) {
		printf("second child: getpid %d getppid %d\n", getpid(), getppid());
		_exit(0);
	}
	waitpid(d, &st, 0);
	waitpid(c, &st, 0);
	printf("after init's end, fork: %s\n", err(clone_flags(0)));
}

/* In a child: the caller's own children stay in the new namespace. */
static void unshare_pid(void)
{
	pid_t c = clone_flags(0);

	if (c == 0) {
		unshare_pid_child();
		_exit(0);
	}
	waitpid(c, NULL, 0);
}

/* ---- clone3's set_tid --------------------------------------------------------- */

static void try_set_tid(const char *what, uint64_t flags, pid_t *tids, size_t n)
{
	int st;
	pid_t c = clone3_tid(flags, tids, n);

	if (c == 0) {
		printf("%s: child getpid %d\n", what, getpid());
		_exit(0);
	}
	if (c < 0) {
		printf("%s: %s\n", what, err(c));
		return;
	}
	waitpid(c, &st, 0);
}

static int set_tid_init(void)
{
	pid_t t50[] = { 50 }, t0[] = { 0 }, three[] = { 60, 1, 1 }, big[] = { 32768 };

	try_set_tid("set_tid {50}", 0, t50, 1);
	pid_t held = clone3_tid(0, t50, 1);
	if (held == 0) {
		usleep(200000);
		_exit(0);
	}
	try_set_tid("set_tid {50} while 50 lives", 0, t50, 1);
	try_set_tid("set_tid {0}", 0, t0, 1);
	try_set_tid("set_tid {32768}", 0, big, 1);
	try_set_tid("set_tid of 3 at level 1", 0, three, 3);
	if (fork() == 0) {
		setuid(65534);
		try_set_tid("set_tid {70} without CAP_SYS_ADMIN", 0, (pid_t[]){ 70 }, 1);
		_exit(0);
	}
	wait(NULL);
	waitpid(held, NULL, 0);
	return 0;
}

static void set_tid(void)
{
	pid_t one[] = { 1 }, two[] = { 2 };
	int st;

	try_set_tid("CLONE_NEWPID set_tid {2}", CLONE_NEWPID, two, 1);
	pid_t c = clone3_tid(CLONE_NEWPID, one, 1);
	if (c == 0)
		_exit(set_tid_init());
	if (c < 0) {
		printf("CLONE_NEWPID set_tid {1}: %s\n", err(c));
		return;
	}
	waitpid(c, &st, 0);
	printf("set_tid init: %s\n", how(st));
}

/* ioctl(NS_GET_PARENT): the child's namespace's parent is ours; ours
 * (the initial one) has none we may see; a UTS namespace has no parent. */
static void ns_get_parent(int child_ns, int self)
{
	struct stat a, b;
	int up = ioctl(child_ns, NS_GET_PARENT);

	fstat(self, &a);
	if (up >= 0)
		fstat(up, &b);
	printf("NS_GET_PARENT of the child's: %s, ours: %s\n", err(up),
	       up >= 0 && a.st_ino == b.st_ino ? "yes" : "no");
	printf("NS_GET_PARENT of ours: %s\n", err(ioctl(self, NS_GET_PARENT)));
	int uts = open("/proc/self/ns/uts", O_RDONLY);
	printf("NS_GET_PARENT of a UTS namespace: %s\n", err(ioctl(uts, NS_GET_PARENT)));
	close(uts);
	if (up >= 0)
		close(up);
}

/* ---- setns into a child's namespace -------------------------------------------- */

static void setns_pid(void)
{
	int go[2], st;
	char path[64], c;

	pipe(go);
	pid_t init = clone_flags(CLONE_NEWPID);
	if (init == 0) {
		read(go[0], &c, 1);
		_exit(0);
	}
	if (init < 0) {
		printf("clone(CLONE_NEWPID): %s\n", err(init));
		return;
	}
	int self = open("/proc/self/ns/pid", O_RDONLY);
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", init);
	int fd = open(path, O_RDONLY);
	ns_get_parent(fd, self);
	printf("setns(child's pid ns): %s\n", err(setns(fd, CLONE_NEWPID)));
	printf("getpid unchanged: %s\n", getpid() > 1 ? "yes" : "no");
	pid_t k = clone_flags(0);
	if (k == 0) {
		printf("entered: getpid %d getppid %d\n", getpid(), getppid());
		printf("entered: setns back up: %s\n", err(setns(self, CLONE_NEWPID)));
		_exit(0);
	}
	waitpid(k, &st, 0);
	printf("setns back to our own: %s\n", err(setns(self, CLONE_NEWPID)));
	write(go[1], "x", 1);
	waitpid(init, &st, 0);
	close(fd);
	close(self);
}

/* ---- a proc mount of the namespace, ns_last_pid ---------------------------------- */

/* The numeric entries of /proc, as readdir gives them (in-process: a
 * pipeline's processes would race with its ls). */
static void list_proc(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	printf("/proc lists:");
	while (d && (e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			printf(" %s", e->d_name);
	printf("\n");
	if (d)
		closedir(d);
}

static int proc_init(void)
{
	char buf[32];
	long n;

	mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL);
	printf("mount proc: %s\n", err(mount("proc", "/proc", "proc", 0, NULL)));
	n = readlink("/proc/self", buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = 0;
	printf("/proc/self -> %s\n", buf);
	list_proc();
	nspid_of(1, "init itself");
	int fd = open("/proc/sys/kernel/ns_last_pid", O_RDWR);
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = 0;
	printf("ns_last_pid: %s", buf);
	printf("write 99: %s\n", err(pwrite(fd, "99", 2, 0)));
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	printf("next fork: %d\n", c);
	waitpid(c, NULL, 0);
	close(fd);
	return 0;
}

static void proc_mount_ns(void)
{
	int st;
	pid_t c = clone_flags(CLONE_NEWPID | CLONE_NEWNS);

	if (c == 0)
		_exit(proc_init());
	waitpid(c, &st, 0);
	printf("proc init: %s\n", how(st));
}


int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access("/proc/self", F_OK)) {
		mkdir("/proc", 0555);
		mount("proc", "/proc", "proc", 0, NULL);
	}
	(void)argc, (void)argv;
	nested();
	reaping();
	pgrp_outlives();
	kill_all();
	init_death();
	unshare_pid();
	set_tid();
	setns_pid();
	proc_mount_ns();
	return 0;
}
