/*
 * fs_pipe - pipes, FIFOs, poll and select between processes: what the host
 * unit test cannot show because it needs a second process or a signal.
 * Every line it prints is the same on Linux (tests/cases/fs/fs_pipe.expected).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *status_text(int status)
{
	static char buf[64];
	if (WIFEXITED(status))
		snprintf(buf, sizeof buf, "exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, sizeof buf, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, sizeof buf, "status %#x", status);
	return buf;
}

static int got_usr1;
static void on_usr1(int sig) { (void)sig; got_usr1++; }

static void big_transfer(void)
{
	int p[2], status;
	static char buf[100000];
	long total = 0, n;

	pipe(p);
	if (fork() == 0) {
		close(p[0]);
		memset(buf, 'a', sizeof buf);
		/* More than the pipe holds: the writer sleeps until we read. */
		n = write(p[1], buf, sizeof buf);
		_exit(n == sizeof buf ? 0 : 1);
	}
	close(p[1]);
	msleep(100);
	while ((n = read(p[0], buf, 7000)) > 0)
		total += n;
	say("big transfer: read %ld bytes, then %ld (end of file)\n", total, n);
	wait(&status);
	say("writer %s\n", status_text(status));
	close(p[0]);
}

static void broken_pipe(void)
{
	int p[2], status;

	pipe(p);
	close(p[0]);
	if (fork() == 0) {
		write(p[1], "x", 1);
		_exit(0);
	}
	wait(&status);
	say("writer to a pipe without readers: %s\n", status_text(status));
	signal(SIGPIPE, SIG_IGN);
	ssize_t n = write(p[1], "x", 1);
	say("with SIGPIPE ignored: write = %zd (%s)\n", n, strerror(errno));
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);
}

static void capacity(void)
{
	int p[2];
	long total = 0, n;
	char buf[1000];

	pipe2(p, O_NONBLOCK);
	memset(buf, 'c', sizeof buf);
	while ((n = write(p[1], buf, sizeof buf)) > 0)
		total += n;
	say("capacity: %ld bytes, then %s; F_GETPIPE_SZ %d\n", total, strerror(errno),
	    fcntl(p[1], F_GETPIPE_SZ));
	close(p[0]);
	close(p[1]);
}

static void poll_and_select(void)
{
	int p[2], status;
	struct pollfd pfd;
	fd_set rfds;
	struct timeval tv = { 0, 150000 };
	long t0;

	pipe(p);
	pfd = (struct pollfd){ p[0], POLLIN, 0 };
	t0 = now_ms();
	say("poll on an empty pipe, 120 ms: %d", poll(&pfd, 1, 120));
	say(", waited long enough: %s\n", now_ms() - t0 >= 110 ? "yes" : "no");
	FD_ZERO(&rfds);
	FD_SET(p[0], &rfds);
	t0 = now_ms();
	say("select on an empty pipe, 150 ms: %d", select(p[0] + 1, &rfds, NULL, NULL, &tv));
	say(", waited long enough: %s, time left %ld.%06ld\n", now_ms() - t0 >= 140 ? "yes" : "no",
	    (long)tv.tv_sec, (long)tv.tv_usec);
	if (fork() == 0) {
		msleep(100);
		write(p[1], "w", 1);
		msleep(100);
		_exit(0);
	}
	say("poll until a child writes: %d", poll(&pfd, 1, -1));
	say(", revents %#x\n", pfd.revents);
	FD_ZERO(&rfds);
	FD_SET(p[0], &rfds);
	say("select then: %d, ready %d\n", select(p[0] + 1, &rfds, NULL, NULL, NULL), FD_ISSET(p[0], &rfds));
	close(p[1]);
	char c;
	read(p[0], &c, 1);
	wait(&status);
	say("after the last writer is gone: poll %d", poll(&pfd, 1, -1));
	say(", revents %#x, read %zd\n", pfd.revents, read(p[0], &c, 1));
	close(p[0]);
}

static void interrupted(void)
{
	int p[2], status;
	char buf[16];
	struct sigaction sa = { .sa_handler = on_usr1 };
	pid_t parent = getpid();

	pipe(p);
	sigaction(SIGUSR1, &sa, NULL);
	if (fork() == 0) {
		msleep(100);
		kill(parent, SIGUSR1);
		msleep(100);
		write(p[1], "late", 4);
		_exit(0);
	}
	ssize_t n = read(p[0], buf, sizeof buf);
	say("read interrupted by a handler: %zd (%s), handler ran %d\n", n, strerror(errno), got_usr1);
	n = read(p[0], buf, sizeof buf);
	say("read again: %zd\n", n);
	wait(&status);

	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	if (fork() == 0) {
		msleep(100);
		kill(parent, SIGUSR1);
		msleep(100);
		write(p[1], "restarted", 9);
		_exit(0);
	}
	n = read(p[0], buf, sizeof buf);
	say("with SA_RESTART the read goes on: %zd '%.*s', handler ran %d\n", n, (int)(n > 0 ? n : 0), buf,
	    got_usr1);
	wait(&status);

	/* poll is never restarted after a handler, even with SA_RESTART. */
	if (fork() == 0) {
		msleep(100);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	struct pollfd pfd = { p[0], POLLIN, 0 };
	int r = poll(&pfd, 1, 5000);
	say("poll interrupted: %d (%s), handler ran %d\n", r, strerror(errno), got_usr1);
	wait(&status);

	/* ppoll's mask lets a blocked signal through for the call only. */
	sigset_t block, empty;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigemptyset(&empty);
	sigprocmask(SIG_BLOCK, &block, NULL);
	kill(getpid(), SIGUSR1);
	say("blocked, handler ran %d\n", got_usr1);
	struct timespec ts = { 5, 0 };
	r = ppoll(&pfd, 1, &ts, &empty);
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	say("ppoll with an empty mask: %d (%s), handler ran %d, SIGUSR1 blocked again: %d\n", r, strerror(errno),
	    got_usr1, sigismember(&now, SIGUSR1));
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	close(p[0]);
	close(p[1]);
}

static void atomic_writes(void)
{
	int p[2], status, bad = 0;
	static char buf[4096];
	long chunks = 0;

	pipe(p);
	for (int k = 0; k < 2; k++) {
		if (fork() == 0) {
			close(p[0]);
			memset(buf, 'A' + k, sizeof buf);
			for (int i = 0; i < 50; i++)
				write(p[1], buf, sizeof buf);
			_exit(0);
		}
	}
	close(p[1]);
	for (;;) {
		size_t got = 0;
		ssize_t n = 0;
		while (got < sizeof buf && (n = read(p[0], buf + got, sizeof buf - got)) > 0)
			got += n;
		if (got == 0)
			break;
		for (size_t i = 1; i < got; i++)
			if (buf[i] != buf[0])
				bad++;
		chunks++;
	}
	wait(&status);
	wait(&status);
	say("two writers of 4096-byte blocks: %ld blocks read, %d mixed\n", chunks, bad);
	close(p[0]);
}

static void fifos(void)
{
	int status, fd;
	char buf[16];

	mkdir("/tmp", 01777);
	unlink("/tmp/fifo");
	say("mkfifo: %d\n", mkfifo("/tmp/fifo", 0600));
	fd = open("/tmp/fifo", O_WRONLY | O_NONBLOCK);
	say("open for writing, nonblocking, no reader: %d (%s)\n", fd, strerror(errno));
	if (fork() == 0) {
		/* Sleeps until the parent opens the other end. */
		int w = open("/tmp/fifo", O_WRONLY);
		write(w, "through a fifo", 14);
		_exit(0);
	}
	msleep(100);
	fd = open("/tmp/fifo", O_RDONLY);
	ssize_t n = read(fd, buf, sizeof buf);
	say("read %zd '%.*s'\n", n, (int)(n > 0 ? n : 0), buf);
	say("then end of file: %zd\n", read(fd, buf, sizeof buf));
	wait(&status);
	close(fd);
	struct stat st;
	stat("/tmp/fifo", &st);
	say("S_ISFIFO %d, size %ld\n", S_ISFIFO(st.st_mode), (long)st.st_size);
	unlink("/tmp/fifo");
}

int main(void)
{
	big_transfer();
	broken_pipe();
	capacity();
	poll_and_select();
	interrupted();
	atomic_writes();
	fifos();
	return 0;
}
