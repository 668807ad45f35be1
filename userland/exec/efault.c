/*
 * efault - pass bad pointers to system calls. Linux answers every case
 * below with EFAULT; a kernel must never fault itself on a user pointer.
 *
 * Each case runs in a child process, so one that kills the process (or,
 * for execve, succeeds) cannot hide the others. The child exits with the
 * errno of the call, or 0 if it succeeded; the parent prints one line per
 * case: "read(buf=0x1): EFAULT". Errno names come from our own small table,
 * so the output does not depend on the C library's strerror text.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KERNEL_PTR ((void *)0xffff800000000000UL)	/* upper half */
#define NONCANON_PTR ((void *)0x0000800000000000UL)	/* first non-canonical */
#define TOP_PTR ((void *)0x00007ffffffffff0UL)		/* runs past user space */
#define BAD_PTR ((void *)1)

static int fd;				/* this program's own file */
static char *good_argv[] = { "/usr/lib/exec-tests/true", NULL };
static char *good_envp[] = { "A=1", NULL };
static const char read_only[4096] = "lives in a read-only page";

static long read_bad(void) { return syscall(SYS_read, fd, BAD_PTR, 16); }
static long read_kernel(void) { return syscall(SYS_read, fd, KERNEL_PTR, 16); }
static long read_noncanon(void) { return syscall(SYS_read, fd, NONCANON_PTR, 16); }
static long read_ro(void) { return syscall(SYS_read, fd, read_only, 16); }
static long write_bad(void) { return syscall(SYS_write, 1, BAD_PTR, 16); }
static long write_kernel(void) { return syscall(SYS_write, 1, KERNEL_PTR, 16); }
static long write_top(void) { return syscall(SYS_write, 1, TOP_PTR, 32); }
static long write_minus1(void) { return syscall(SYS_write, 1, (void *)-1L, 16); }
static long open_bad(void) { return syscall(SYS_open, BAD_PTR, O_RDONLY); }
static long open_kernel(void) { return syscall(SYS_open, KERNEL_PTR, O_RDONLY); }
static long exec_bad(void) { return syscall(SYS_execve, BAD_PTR, good_argv, good_envp); }
static long exec_kernel(void) { return syscall(SYS_execve, KERNEL_PTR, good_argv, good_envp); }
static long exec_argv(void) { return syscall(SYS_execve, "/usr/lib/exec-tests/true", BAD_PTR, good_envp); }
static long exec_envp(void) { return syscall(SYS_execve, "/usr/lib/exec-tests/true", good_argv, BAD_PTR); }

static long exec_argv1(void)
{
	char *argv[] = { "/usr/lib/exec-tests/true", BAD_PTR, NULL };
	return syscall(SYS_execve, "/usr/lib/exec-tests/true", argv, good_envp);
}

static long exec_envp0(void)
{
	char *envp[] = { BAD_PTR, NULL };
	return syscall(SYS_execve, "/usr/lib/exec-tests/true", good_argv, envp);
}

static long readv_bad(void) { return syscall(SYS_readv, fd, BAD_PTR, 1); }

static long writev_bad(void)
{
	struct iovec iov = { .iov_base = BAD_PTR, .iov_len = 16 };
	return syscall(SYS_writev, 1, &iov, 1);
}

static long fstat_bad(void) { return syscall(SYS_fstat, fd, BAD_PTR); }
static long uname_kernel(void) { return syscall(SYS_uname, KERNEL_PTR); }
static long clock_bad(void) { return syscall(SYS_clock_gettime, CLOCK_MONOTONIC, BAD_PTR); }
static long getcwd_bad(void) { return syscall(SYS_getcwd, BAD_PTR, 64); }

static const struct {
	const char *name;
	long (*call)(void);
} cases[] = {
	{ "read(buf=0x1)", read_bad },
	{ "read(buf=kernel)", read_kernel },
	{ "read(buf=non-canonical)", read_noncanon },
	{ "read(buf=read-only)", read_ro },
	{ "write(buf=0x1)", write_bad },
	{ "write(buf=kernel)", write_kernel },
	{ "write(buf=end of user space)", write_top },
	{ "write(buf=-1)", write_minus1 },
	{ "open(path=0x1)", open_bad },
	{ "open(path=kernel)", open_kernel },
	{ "execve(path=0x1)", exec_bad },
	{ "execve(path=kernel)", exec_kernel },
	{ "execve(argv=0x1)", exec_argv },
	{ "execve(argv[1]=0x1)", exec_argv1 },
	{ "execve(envp=0x1)", exec_envp },
	{ "execve(envp[0]=0x1)", exec_envp0 },
	{ "readv(iov=0x1)", readv_bad },
	{ "writev(iov_base=0x1)", writev_bad },
	{ "fstat(buf=0x1)", fstat_bad },
	{ "uname(buf=kernel)", uname_kernel },
	{ "clock_gettime(tp=0x1)", clock_bad },
	{ "getcwd(buf=0x1)", getcwd_bad },
};

static const char *errno_name(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EIO: return "EIO";
	case E2BIG: return "E2BIG";
	case ENOEXEC: return "ENOEXEC";
	case EBADF: return "EBADF";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case ENOTDIR: return "ENOTDIR";
	case EINVAL: return "EINVAL";
	case ENOTTY: return "ENOTTY";
	case ERANGE: return "ERANGE";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ENOSYS: return "ENOSYS";
	default: return NULL;
	}
}

int main(int argc, char *argv[])
{
	(void)argc;
	fd = open(argv[0], O_RDONLY);
	if (fd < 0) {
		perror("efault: open own file");
		return 1;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int status;
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("efault: fork");
			return 1;
		}
		if (pid == 0)
			_exit(cases[i].call() < 0 ? errno : 0);
		if (waitpid(pid, &status, 0) < 0) {
			perror("efault: waitpid");
			return 1;
		}
		if (WIFSIGNALED(status)) {
			printf("%s: killed by signal %d\n", cases[i].name, WTERMSIG(status));
		} else if (WEXITSTATUS(status) == 0) {
			printf("%s: succeeded\n", cases[i].name);
		} else {
			const char *name = errno_name(WEXITSTATUS(status));
			if (name)
				printf("%s: %s\n", cases[i].name, name);
			else
				printf("%s: errno %d\n", cases[i].name, WEXITSTATUS(status));
		}
	}
	printf("efault: done\n");
	return 0;
}
