/*
 * signalfd - signalfd(2) and signalfd4(2): the file (anon_inode:[signalfd],
 * flags, fdinfo's sigmask without SIGKILL and SIGSTOP), the siginfo a read
 * gives for kill, sigqueue, tgkill and SIGCHLD, several at once, the
 * errors, a new mask on an existing fd, and waiting in read and poll until
 * another process sends a signal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *err(long ret) { return ret < 0 ? strerror(errno) : "ok"; }
static pid_t self, child;

static const char *who(unsigned int pid) { return pid == (unsigned)self ? "self" : pid == (unsigned)child ? "child" : "other"; }

/* Read up to n siginfos and print them. */
static void take(int fd, int n)
{
	struct signalfd_siginfo si[4];
	long got = read(fd, si, n * sizeof(si[0]));

	if (got < 0) {
		printf("  read: %s\n", strerror(errno));
		return;
	}
	printf("  read: %ld bytes\n", got);
	for (long i = 0; i < got / (long)sizeof(si[0]); i++)
		printf("    signo %u code %d pid %s uid %u int %d status %d\n", si[i].ssi_signo, si[i].ssi_code,
		       who(si[i].ssi_pid), si[i].ssi_uid, si[i].ssi_int, si[i].ssi_status);
}

static void show(int fd)
{
	char path[64], line[256];
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, line, sizeof(line) - 1);
	line[n < 0 ? 0 : n] = 0;
	printf("  %s, F_GETFL 0%o, F_GETFD %d\n", line, fcntl(fd, F_GETFL), fcntl(fd, F_GETFD));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "sigmask:", 8) == 0)
			printf("  fdinfo %s", line);
	if (f)
		fclose(f);
}

static unsigned int poll_in(int fd, int timeout)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, timeout) < 0 ? 0xffff : p.revents;
}

int main(void)
{
	sigset_t mask;
	char buf[256];

	setvbuf(stdout, NULL, _IONBF, 0);
	mount("proc", "/proc", "proc", 0, NULL);
	self = getpid();
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGRTMIN);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sigaddset(&mask, SIGKILL);
	sigaddset(&mask, SIGSTOP);

	int fd = signalfd(-1, &mask, SFD_NONBLOCK);
	printf("signalfd(USR1 USR2 RTMIN CHLD KILL STOP, NONBLOCK): %s\n", err(fd));
	show(fd);
	printf("  poll, none pending: 0x%x\n", poll_in(fd, 0));
	take(fd, 1);
	printf("  read 127 bytes: %s\n", err(read(fd, buf, 127)));
	printf("  lseek: %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	kill(self, SIGUSR1);
	printf("  poll after kill: 0x%x\n", poll_in(fd, 0));
	take(fd, 1);
	union sigval val = { .sival_int = 42 };
	sigqueue(self, SIGRTMIN, val);
	kill(self, SIGUSR2);
	syscall(SYS_tgkill, self, self, SIGUSR1);
	take(fd, 4);

	/* SIGCHLD of a child that exits with 3. */
	child = fork();
	if (child == 0)
		_exit(3);
	waitid(P_PID, child, NULL, WEXITED | WNOWAIT);
	take(fd, 1);
	waitpid(child, NULL, 0);

	/* Errors. */
	printf("signalfd(fd, size 4): %s\n", err(syscall(SYS_signalfd4, -1, &mask, 4, 0)));
	printf("signalfd(bad flags): %s\n", err(signalfd(-1, &mask, 1)));
	printf("signalfd(bad fd 99): %s\n", err(signalfd(99, &mask, 0)));
	printf("signalfd(fd 0, not a signalfd): %s\n", err(signalfd(0, &mask, 0)));
	printf("signalfd(bad mask pointer): %s\n", err(syscall(SYS_signalfd4, -1, (void *)8, 8, 0)));

	/* A new set on the same fd. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	printf("signalfd(fd, USR2): returns the same fd: %s\n", signalfd(fd, &mask, 0) == fd ? "yes" : "no");
	show(fd);
	kill(self, SIGUSR1);
	take(fd, 1);
	kill(self, SIGUSR2);
	take(fd, 1);

	/* A blocking read and a poll, each woken by a child's signal. */
	int bfd = signalfd(-1, &mask, SFD_CLOEXEC);
	show(bfd);
	child = fork();
	if (child == 0) {
		usleep(100000);
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	take(bfd, 1);
	waitpid(child, NULL, 0);
	child = fork();
	if (child == 0) {
		usleep(100000);
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	printf("  poll, the child sends USR2: 0x%x\n", poll_in(bfd, 5000));
	take(bfd, 1);
	waitpid(child, NULL, 0);
	sigset_t pending;
	sigpending(&pending);
	printf("still pending: USR1 %d, CHLD %d\n", sigismember(&pending, SIGUSR1), sigismember(&pending, SIGCHLD));
	return 0;
}
