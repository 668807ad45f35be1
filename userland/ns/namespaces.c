/*
 * namespaces - unshare(2), setns(2), clone's CLONE_NEW* flags and
 * /proc/PID/ns, compared with Linux.
 *
 *   /usr/lib/exec-tests/namespaces [uts|mnt|pid|all]
 *	Runs as root. Each case forks, so that what it changes stays in the
 *	child; every line names the case and what was seen. Namespace inode
 *	numbers are printed only for the initial namespaces (Linux's fixed
 *	ones); a new namespace's number is only compared.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define NS_GET_NSTYPE 0xb703

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case EBADF: return "EBADF";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENOTTY: return "ENOTTY";
	case EACCES: return "EACCES";
	case ENOSPC: return "ENOSPC";
	default: return "E?";
	}
}

#define CHECK(what, call) printf("%s: %s\n", what, (call) < 0 ? errname(errno) : "0")

/* Run fn in a child, wait for it. */
static void in_child(void (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void link_of(const char *path, char *buf, size_t size)
{
	ssize_t n = readlink(path, buf, size - 1);
	buf[n < 0 ? 0 : n] = '\0';
	if (n < 0)
		snprintf(buf, size, "(%s)", errname(errno));
}

static void hostname_now(const char *who)
{
	struct utsname u;
	char proc[80] = "";
	FILE *f = fopen("/proc/sys/kernel/hostname", "r");

	if (f) {
		if (fgets(proc, sizeof(proc), f))
			proc[strcspn(proc, "\n")] = '\0';
		fclose(f);
	}
	uname(&u);
	printf("%s: uname %s, /proc %s\n", who, u.nodename, proc);
}

/* ---- uts ------------------------------------------------------------------ */

static int pipe_go[2], pipe_ready[2];

static void uts_basic(void)
{
	char before[64], after[64];
	struct stat st;

	link_of("/proc/self/ns/uts", before, sizeof(before));
	printf("initial uts link: %s\n", before);
	stat("/proc/self/ns/uts", &st);
	printf("initial uts st_ino: %lu, mode %o\n", (unsigned long)st.st_ino, st.st_mode);
	CHECK("unshare(CLONE_NEWUTS)", unshare(CLONE_NEWUTS));
	link_of("/proc/self/ns/uts", after, sizeof(after));
	stat("/proc/self/ns/uts", &st);
	unsigned long n = strtoul(after + 5, NULL, 10);
	printf("new uts link differs: %s, st_ino matches its number: %s\n",
	       strcmp(before, after) ? "yes" : "no", st.st_ino == n ? "yes" : "no");
	CHECK("sethostname inner", sethostname("inner", 5));
	hostname_now("inner child");
	int fd = open("/proc/sys/kernel/hostname", O_WRONLY);
	CHECK("write /proc/sys/kernel/hostname", write(fd, "inner2\n", 7));
	close(fd);
	hostname_now("inner child");
	fd = open("/proc/self/ns/uts", O_RDONLY);
	printf("NS_GET_NSTYPE: %#x\n", ioctl(fd, NS_GET_NSTYPE));
	close(fd);
}

/* A child in a new UTS namespace named "other" that waits to be visited. */
static pid_t spawn_named_child(void)
{
	char c;

	if (pipe(pipe_go) || pipe(pipe_ready))
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		unshare(CLONE_NEWUTS);
		sethostname("other", 5);
		write(pipe_ready[1], "r", 1);
		read(pipe_go[0], &c, 1);
		_exit(0);
	}
	read(pipe_ready[0], &c, 1);
	return pid;
}

static void finish_child(pid_t pid)
{
	write(pipe_go[1], "g", 1);
	waitpid(pid, NULL, 0);
	close(pipe_go[0]);
	close(pipe_go[1]);
	close(pipe_ready[0]);
	close(pipe_ready[1]);
}

static pid_t target;

static void setns_by_fd(void)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/uts", target);
	fd = open(path, O_RDONLY);
	CHECK("setns(uts fd, CLONE_NEWNS)", setns(fd, CLONE_NEWNS));
	CHECK("setns(uts fd, CLONE_NEWPID)", setns(fd, CLONE_NEWPID));
	CHECK("setns(uts fd, CLONE_NEWUTS)", setns(fd, CLONE_NEWUTS));
	hostname_now("setns child");
	CHECK("setns(uts fd, 0)", setns(fd, 0));
	close(fd);
	CHECK("setns(closed fd)", setns(fd, 0));
	fd = open("/dev/null", O_RDONLY);
	CHECK("setns(/dev/null)", setns(fd, 0));
	close(fd);
	/* A non-root cannot enter it. */
	snprintf(path, sizeof(path), "/proc/%d/ns/uts", getppid());
	fd = open(path, O_RDONLY);
	if (setuid(1000) == 0)
		CHECK("setns as uid 1000", setns(fd, CLONE_NEWUTS));
}

static void setns_by_pidfd(void)
{
	int pidfd = syscall(SYS_pidfd_open, target, 0);

	if (pidfd < 0) {
		printf("pidfd_open: %s\n", errname(errno));
		return;
	}
	CHECK("setns(pidfd, 0)", setns(pidfd, 0));
	CHECK("setns(pidfd, CLONE_NEWUTS|CLONE_VM)", setns(pidfd, CLONE_NEWUTS | CLONE_VM));
	CHECK("setns(pidfd, CLONE_NEWUTS)", setns(pidfd, CLONE_NEWUTS));
	hostname_now("pidfd setns child");
}

static void unshare_errors(void)
{
	CHECK("unshare(0)", unshare(0));
	CHECK("unshare(CSIGNAL bit)", unshare(1));
	CHECK("unshare(CLONE_FS|CLONE_FILES)", unshare(CLONE_FS | CLONE_FILES));
	CHECK("unshare(CLONE_NEWUTS) as uid 1000", (setuid(1000), unshare(CLONE_NEWUTS)));
	CHECK("unshare(CLONE_FILES) as uid 1000", unshare(CLONE_FILES));
}

static void clone_errors(void)
{
	long r = syscall(SYS_clone, CLONE_NEWNS | CLONE_FS | SIGCHLD, 0, 0, 0, 0);
	printf("clone(CLONE_NEWNS|CLONE_FS): %s\n", r < 0 ? errname(errno) : "made");
	if (r == 0)
		_exit(0);
	r = syscall(SYS_clone, CLONE_NEWPID | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM, 0, 0, 0, 0);
	printf("clone(CLONE_NEWPID|CLONE_THREAD...): %s\n", r < 0 ? errname(errno) : "made");
	if (setuid(1000) == 0) {
		r = syscall(SYS_clone, CLONE_NEWUTS | SIGCHLD, 0, 0, 0, 0);
		printf("clone(CLONE_NEWUTS) as uid 1000: %s\n", r < 0 ? errname(errno) : "made");
		if (r == 0)
			_exit(0);
	}
}

static void clone_newuts(void)
{
	long r = syscall(SYS_clone, CLONE_NEWUTS | SIGCHLD, 0, 0, 0, 0);
	if (r == 0) {
		sethostname("cloned", 6);
		hostname_now("clone(CLONE_NEWUTS) child");
		fflush(stdout);
		_exit(0);
	}
	waitpid(r, NULL, 0);
	hostname_now("its parent");
}

/* unshare(CLONE_FILES) in a child that shares the parent's table. */
static int shared_fd;
static char child_stack[65536];
static int files_child(void *arg)
{
	(void)arg;
	CHECK("unshare(CLONE_FILES) in a CLONE_FILES child", unshare(CLONE_FILES));
	close(shared_fd);
	return 0;
}

static void unshare_files(void)
{
	shared_fd = open("/dev/null", O_RDONLY);
	fflush(stdout);
	pid_t pid = clone(files_child, child_stack + sizeof(child_stack), CLONE_FILES | SIGCHLD, NULL);
	waitpid(pid, NULL, 0);
	printf("parent's fd still open: %s\n", fcntl(shared_fd, F_GETFD) >= 0 ? "yes" : "no");
}

static void test_uts(void)
{
	sethostname("host", 4);
	in_child(uts_basic);
	hostname_now("parent");
	target = spawn_named_child();
	in_child(setns_by_fd);
	in_child(setns_by_pidfd);
	finish_child(target);
	in_child(unshare_errors);
	in_child(clone_errors);
	in_child(clone_newuts);
	in_child(unshare_files);
}

/* ---- mnt ------------------------------------------------------------------ */

static void show_mounts_of(const char *who, const char *file);
static void show_ns_mounts(const char *who)
{
	show_mounts_of(who, "/proc/self/mounts");
}

/* The mount points of /proc/self/mounts under /tmp/ns. */
static void show_mounts_of(const char *who, const char *file)
{
	char line[256], dev[64], dir[128];
	FILE *f = fopen(file, "r");

	printf("%s mounts:", who);
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %127s", dev, dir) == 2 && !strncmp(dir, "/tmp/ns", 7))
			printf(" %s", dir);
	printf("\n");
	if (f)
		fclose(f);
}

static void mnt_child(void)
{
	char before[64], after[64];

	link_of("/proc/self/ns/mnt", before, sizeof(before));
	CHECK("unshare(CLONE_NEWNS)", unshare(CLONE_NEWNS));
	link_of("/proc/self/ns/mnt", after, sizeof(after));
	printf("new mnt link differs: %s\n", strcmp(before, after) ? "yes" : "no");
	mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL); /* Linux's / may be shared */
	CHECK("mount tmpfs /tmp/ns/b", mount("none", "/tmp/ns/b", "tmpfs", 0, NULL));
	close(open("/tmp/ns/b/inside", O_CREAT | O_WRONLY, 0644));
	CHECK("umount /tmp/ns/a in the child", umount("/tmp/ns/a"));
	show_ns_mounts("child");
	printf("child sees /tmp/ns/a/file: %s\n", access("/tmp/ns/a/file", F_OK) ? "no" : "yes");
	write(pipe_ready[1], "r", 1);
	char c;
	read(pipe_go[0], &c, 1);
}

static void test_mnt(void)
{
	char c;

	mkdir("/tmp/ns", 0755);
	mkdir("/tmp/ns/a", 0755);
	mkdir("/tmp/ns/b", 0755);
	mount("none", "/tmp/ns/a", "tmpfs", 0, NULL);
	close(open("/tmp/ns/a/file", O_CREAT | O_WRONLY, 0644));
	pipe(pipe_go);
	pipe(pipe_ready);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		mnt_child();
		fflush(stdout);
		_exit(0);
	}
	read(pipe_ready[0], &c, 1);
	show_ns_mounts("parent");
	printf("parent sees /tmp/ns/b/inside: %s\n", access("/tmp/ns/b/inside", F_OK) ? "no" : "yes");
	/* Enter the child's namespace in another child. */
	fflush(stdout);
	pid_t visitor = fork();
	if (visitor == 0) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
		int fd = open(path, O_RDONLY);
		CHECK("setns(mnt fd, CLONE_NEWNS)", setns(fd, CLONE_NEWNS));
		show_ns_mounts("visitor");
		printf("visitor sees /tmp/ns/b/inside: %s\n", access("/tmp/ns/b/inside", F_OK) ? "no" : "yes");
		fflush(stdout);
		_exit(0);
	}
	waitpid(visitor, NULL, 0);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mounts", pid);
	show_mounts_of("/proc/CHILD/mounts read by the parent:", path);
	write(pipe_go[1], "g", 1);
	waitpid(pid, NULL, 0);
	CHECK("umount /tmp/ns/a in the parent", umount("/tmp/ns/a"));
	show_ns_mounts("parent at the end");
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "all";
	char buf[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access("/proc/self", F_OK)) {
		mkdir("/proc", 0555);
		mount("proc", "/proc", "proc", 0, NULL);
	}
	if (!strcmp(what, "uts") || !strcmp(what, "all")) {
		link_of("/proc/self/ns/mnt", buf, sizeof(buf));
		printf("initial mnt link: %s\n", buf);
		test_uts();
	}
	if (!strcmp(what, "mnt") || !strcmp(what, "all"))
		test_mnt();
	return 0;
}
