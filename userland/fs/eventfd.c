/*
 * eventfd - eventfd(2) and eventfd2(2): the file (anon_inode:[eventfd],
 * flags, fdinfo), the counter's read and write rules (8 bytes, the
 * overflow limit, EFD_SEMAPHORE), waiting woken by another process or
 * ended by a signal, and poll, select and epoll readiness.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mount.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *err(long ret) { return ret < 0 ? strerror(errno) : "ok"; }

static long put(int fd, uint64_t v) { return write(fd, &v, sizeof(v)); }

/* read's result, and the value when 8 bytes came. */
static void get(const char *what, int fd)
{
	uint64_t v = 0;
	long n = read(fd, &v, sizeof(v));

	if (n < 0)
		printf("  %s: %s\n", what, strerror(errno));
	else
		printf("  %s: %ld bytes, %llu\n", what, n, (unsigned long long)v);
}

static void show(int fd)
{
	char path[64], line[256];
	struct stat st;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, line, sizeof(line) - 1);
	line[n < 0 ? 0 : n] = 0;
	fstat(fd, &st);
	printf("  %s, mode 0%o, F_GETFL 0%o, F_GETFD %d\n", line, st.st_mode, fcntl(fd, F_GETFL), fcntl(fd, F_GETFD));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "eventfd-", 8) == 0)
			printf("  fdinfo %s", line);
	if (f)
		fclose(f);
}

static unsigned int poll_events(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
	return poll(&p, 1, 0) < 0 ? 0xffff : p.revents;
}

static void on_alarm(int sig) { (void)sig; }

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	mount("proc", "/proc", "proc", 0, NULL);
	int fd = syscall(SYS_eventfd, 0), nb;
	char small[4];
	uint64_t v;

	printf("eventfd(0): %s\n", err(fd));
	show(fd);
	printf("  poll: 0x%x\n", poll_events(fd));
	printf("  write 5: %ld, ", put(fd, 5));
	printf("write 2: %ld, poll: 0x%x\n", put(fd, 2), poll_events(fd));
	show(fd);
	get("read", fd);
	printf("  read 4 bytes: %s, ", err(read(fd, small, 4)));
	printf("write 4 bytes: %s\n", err(write(fd, small, 4)));
	printf("  write 2^64-1: %s\n", err(put(fd, UINT64_MAX)));
	printf("  lseek: %ld, ", (long)lseek(fd, 0, SEEK_CUR));
	printf("pread: %s\n", err(pread(fd, &v, 8, 0)));
	uint64_t big[2] = { 3, 0 };
	printf("  write 16 bytes: %ld, ", (long)write(fd, big, 16));
	printf("read 16 bytes: %ld\n", (long)read(fd, big, 16));
	close(fd);

	printf("eventfd2(bad flags): %s\n", err(eventfd(0, 4)));
	nb = eventfd(3, EFD_NONBLOCK | EFD_CLOEXEC | EFD_SEMAPHORE);
	printf("eventfd2(3, NONBLOCK | CLOEXEC | SEMAPHORE): %s\n", err(nb));
	show(nb);
	get("read", nb);
	get("read", nb);
	get("read", nb);
	get("read", nb);
	printf("  write 0xfffffffffffffffe: %ld, ", put(nb, 0xfffffffffffffffeULL));
	printf("poll: 0x%x, ", poll_events(nb));
	printf("write 1: %s, ", err(put(nb, 1)));
	printf("write 0: %s\n", err(put(nb, 0)));
	show(nb);

	/* A blocked reader, woken by a child's write. */
	fd = eventfd(0, 0);
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000);
		put(fd, 42);
		_exit(0);
	}
	get("blocking read, the child writes", fd);
	waitpid(pid, NULL, 0);
	/* A blocked writer, woken by a child's read. */
	put(fd, 0xfffffffffffffff0ULL);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		read(fd, &v, 8);
		_exit(0);
	}
	printf("  blocking write past the limit, the child reads: %ld\n", put(fd, 100));
	waitpid(pid, NULL, 0);
	get("read", fd);

	/* A signal ends the wait. */
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	get("blocking read, SIGALRM without SA_RESTART", fd);

	/* select and epoll, woken by a child. */
	fd_set rd;
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	struct timeval tv = { 0, 0 };
	printf("  select, empty: %d\n", select(fd + 1, &rd, NULL, NULL, &tv));
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = 77 }, out;
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		put(fd, 9);
		_exit(0);
	}
	int n = epoll_wait(ep, &out, 1, 5000);
	printf("  epoll_wait, the child writes: %d, events 0x%x, data %u\n", n, out.events, out.data.u32);
	waitpid(pid, NULL, 0);
	FD_SET(fd, &rd);
	printf("  select now: %d, ", select(fd + 1, &rd, NULL, NULL, &tv));
	printf("poll: 0x%x\n", poll_events(fd));
	get("read", fd);
	return 0;
}
