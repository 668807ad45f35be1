/*
 * exectest.h - what the exec and permission tests share: running a case
 * in a child and reporting how it ended, errno names (the same with musl
 * and glibc, unlike strerror), making files, becoming another user.
 *
 * A case is a function run in a forked child: it prints nothing itself if
 * it execs something (the new program prints), or returns -errno, which
 * is printed as "  -> ENAME". The parent waits, and says "  exit N" for a
 * child that exited with a status other than 0, "  killed by signal N".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static inline const char *ename(int e)
{
	static const char *const names[] = {
		[0] = "0", [EPERM] = "EPERM", [ENOENT] = "ENOENT", [ESRCH] = "ESRCH",
		[EINTR] = "EINTR", [EIO] = "EIO", [ENXIO] = "ENXIO", [E2BIG] = "E2BIG",
		[ENOEXEC] = "ENOEXEC", [EBADF] = "EBADF", [ECHILD] = "ECHILD", [EAGAIN] = "EAGAIN",
		[ENOMEM] = "ENOMEM", [EACCES] = "EACCES", [EFAULT] = "EFAULT", [EBUSY] = "EBUSY",
		[EEXIST] = "EEXIST", [EXDEV] = "EXDEV", [ENODEV] = "ENODEV", [ENOTDIR] = "ENOTDIR",
		[EISDIR] = "EISDIR", [EINVAL] = "EINVAL", [EMFILE] = "EMFILE", [ENOTTY] = "ENOTTY",
		[ETXTBSY] = "ETXTBSY", [EFBIG] = "EFBIG", [ENOSPC] = "ENOSPC", [ESPIPE] = "ESPIPE",
		[EROFS] = "EROFS", [EMLINK] = "EMLINK", [EPIPE] = "EPIPE", [ERANGE] = "ERANGE",
		[ENAMETOOLONG] = "ENAMETOOLONG", [ENOSYS] = "ENOSYS", [ENOTEMPTY] = "ENOTEMPTY",
		[ELOOP] = "ELOOP", [ELIBBAD] = "ELIBBAD",
	};
	static char buf[16];

	if (e >= 0 && e < (int)(sizeof(names) / sizeof(names[0])) && names[e])
		return names[e];
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* A system call's result as the tests print it: its value, or ENAME. */
static inline const char *res(long r)
{
	static char buf[32];

	if (r < 0)
		return ename(errno);
	snprintf(buf, sizeof(buf), "%ld", r);
	return buf;
}

/* Print a line and make sure it is out before a fork or an exec. */
static inline void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* Run fn(arg) in a child, titled; report how it ended. */
static inline void run_case(const char *title, int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid;

	say("%s\n", title);
	pid = fork();
	if (pid == 0) {
		int r = fn(arg);
		if (r < 0)
			say("  -> %s\n", ename(-r));
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		say("  fork/wait: %s\n", ename(errno));
		return;
	}
	if (WIFSIGNALED(status))
		say("  killed by signal %d\n", WTERMSIG(status));
	else if (WEXITSTATUS(status))
		say("  exit %d\n", WEXITSTATUS(status));
}

/* A raw execveat: -errno on failure. */
static inline int xexecveat(int dfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	return syscall(SYS_execveat, dfd, path, argv, envp, flags) < 0 ? -errno : 0;
}

static inline void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		say("write_file %s: %s\n", path, ename(errno));
		exit(1);
	}
	close(fd);
	chmod(path, mode);
}

static inline void copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[8192];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (in < 0 || out < 0) {
		say("copy_file %s %s: %s\n", from, to, ename(errno));
		exit(1);
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			exit(1);
	close(in);
	close(out);
	chmod(to, mode);
}

/* /proc, for /proc/self and /dev/fd (a symlink to /proc/self/fd), unless
 * it is there already (mounted again, it would hide what is mounted in it). */
static inline void mount_proc(void)
{
	if (access("/proc/self", F_OK) == 0)
		return;
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL);
}

/* Become uid/gid, with no supplementary groups but those given. */
static inline void become(uid_t uid, gid_t gid, int ngroups, const gid_t *groups)
{
	if (setgroups(ngroups, groups) < 0 || setresgid(gid, gid, gid) < 0 ||
	    setresuid(uid, uid, uid) < 0) {
		say("become %u: %s\n", uid, ename(errno));
		exit(1);
	}
}
