/*
 * timerfd - timers read from a file descriptor (fs/timerfd.c):
 * timerfd_create's clocks, flags and errors (EPERM for the alarm clocks
 * without CAP_WAKE_ALARM), timerfd_settime's and timerfd_gettime's errors,
 * one-shot, periodic and absolute timers, the old value, read (8 bytes,
 * EAGAIN, EINVAL for a short buffer, EINTR), poll, select and epoll,
 * TFD_IOC_SET_TICKS, /proc/self/fdinfo and /proc/self/fd, fork, exec and
 * close; TFD_TIMER_CANCEL_ON_SET with clock_settime and settimeofday (and
 * their errors); absolute timers in a time namespace. Every line holds on
 * Linux and here: times are checked against bounds, never printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef TFD_IOC_SET_TICKS
#define TFD_IOC_SET_TICKS _IOW('T', 0, uint64_t)
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x80
#endif
#define MS 1000000LL

static const char *ename(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case EAGAIN: return "EAGAIN";
	case EPERM: return "EPERM";
	case EBADF: return "EBADF";
	case ECANCELED: return "ECANCELED";
	case EINTR: return "EINTR";
	case ENOTTY: return "ENOTTY";
	case ESPIPE: return "ESPIPE";
	default: return "other";
	}
}

/* musl's settimeofday does nothing without a time: the system call. */
static long ksettimeofday(const struct timeval *tv, const struct timezone *tz)
{
	return syscall(SYS_settimeofday, tv, tz);
}

static void show(const char *what, long r)
{
	if (r < 0)
		printf("%s: %s\n", what, ename(errno));
	else
		printf("%s: %s\n", what, r == 0 ? "0" : "positive");
	fflush(stdout);
}

static void yes(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "yes" : "NO");
	fflush(stdout);
}

static long long now_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long settime(int fd, int flags, long long value_ns, long long interval_ns, struct itimerspec *old)
{
	struct itimerspec v = { { interval_ns / 1000000000, interval_ns % 1000000000 },
				{ value_ns / 1000000000, value_ns % 1000000000 } };
	return timerfd_settime(fd, flags, &v, old);
}

static long long ts_ns(struct timespec t)
{
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The time left on fd, in ns (-1 on error). */
static long long left_ns(int fd, long long *interval)
{
	struct itimerspec cur;
	if (timerfd_gettime(fd, &cur) < 0)
		return -1;
	if (interval)
		*interval = ts_ns(cur.it_interval);
	return ts_ns(cur.it_value);
}

/* read's result: the count, or -errno. */
static long long read_ticks(int fd)
{
	uint64_t n;
	ssize_t r = read(fd, &n, sizeof(n));
	return r == 8 ? (long long)n : r < 0 ? -errno : -1000;
}

static void show_read(const char *what, int fd)
{
	long long r = read_ticks(fd);
	if (r < 0)
		printf("%s: %s\n", what, ename(-r));
	else
		printf("%s: %lld\n", what, r);
	fflush(stdout);
}

static int readable(int fd, int timeout_ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	return poll(&p, 1, timeout_ms) == 1 ? p.revents : 0;
}

/* Run f in a child that has given up root (and so every capability). */
static void as_nobody(void (*f)(int), int arg)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(1);
		f(arg);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void nobody_create(int unused)
{
	(void)unused;
	show("nobody: create REALTIME_ALARM", timerfd_create(CLOCK_REALTIME_ALARM, 0));
	show("nobody: create BOOTTIME_ALARM", timerfd_create(CLOCK_BOOTTIME_ALARM, 0));
	show("nobody: create BOOTTIME", timerfd_create(CLOCK_BOOTTIME, 0));
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	show("nobody: clock_settime", clock_settime(CLOCK_REALTIME, &ts));
	show("nobody: settimeofday", ksettimeofday(NULL, &(struct timezone){ 0, 0 }));
}

static void nobody_settime(int alarm_fd)
{
	show("nobody: settime of an alarm timer", settime(alarm_fd, 0, 1000 * MS, 0, NULL));
	show("nobody: gettime of an alarm timer", left_ns(alarm_fd, NULL) >= 0 ? 0 : -1);
}

static void test_create(void)
{
	static const int bad_clocks[] = { CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID,
					  CLOCK_MONOTONIC_RAW, CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE,
					  CLOCK_TAI, 10, -1, 100 };
	char what[64];

	for (unsigned i = 0; i < sizeof(bad_clocks) / sizeof(bad_clocks[0]); i++) {
		snprintf(what, sizeof(what), "create clock %d", bad_clocks[i]);
		show(what, timerfd_create(bad_clocks[i], 0));
	}
	show("create flags 1", timerfd_create(CLOCK_MONOTONIC, 1));
	show("create flags O_RDWR", timerfd_create(CLOCK_MONOTONIC, O_RDWR));
	show("create bad clock and flags", timerfd_create(100, 1));
	int clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_REALTIME_ALARM,
			 CLOCK_BOOTTIME_ALARM };
	for (unsigned i = 0; i < 5; i++) {
		int fd = timerfd_create(clocks[i], 0);
		snprintf(what, sizeof(what), "create clock %d (root)", clocks[i]);
		show(what, fd);
		close(fd);
	}
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	printf("NONBLOCK|CLOEXEC: access mode %s, O_NONBLOCK %d, FD_CLOEXEC %d\n",
	       (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR ? "O_RDWR" : "other",
	       !!(fcntl(fd, F_GETFL) & O_NONBLOCK), fcntl(fd, F_GETFD) & FD_CLOEXEC);
	struct stat st;
	fstat(fd, &st);
	printf("fstat: mode 0%o, size %lld\n", st.st_mode, (long long)st.st_size);
	char link[64] = "";
	snprintf(what, sizeof(what), "/proc/self/fd/%d", fd);
	readlink(what, link, sizeof(link) - 1);
	printf("/proc/self/fd: %s\n", link);
	close(fd);
	as_nobody(nobody_create, 0);
}

static void test_errors(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0), p[2];
	struct itimerspec v = { { 0, 0 }, { 1, 0 } };

	pipe(p);
	show("settime flags 4", timerfd_settime(fd, 4, &v, NULL));
	show("settime fd -1", timerfd_settime(-1, 0, &v, NULL));
	show("settime fd -1, flags 4", timerfd_settime(-1, 4, &v, NULL));
	show("settime on a pipe", timerfd_settime(p[0], 0, &v, NULL));
	show("settime NULL", timerfd_settime(fd, 0, NULL, NULL));
	show("settime bad old", timerfd_settime(fd, 0, &v, (void *)1));
	v.it_value.tv_nsec = 1000000000;
	show("settime nsec 10^9", timerfd_settime(fd, 0, &v, NULL));
	v.it_value = (struct timespec){ -1, 0 };
	show("settime sec -1", timerfd_settime(fd, 0, &v, NULL));
	v.it_value = (struct timespec){ 1, 0 };
	v.it_interval.tv_nsec = -1;
	show("settime interval nsec -1", timerfd_settime(fd, 0, &v, NULL));
	show("gettime fd 999", syscall(SYS_timerfd_gettime, 999, &v));
	show("gettime on a pipe", syscall(SYS_timerfd_gettime, p[1], &v));
	show("gettime NULL", syscall(SYS_timerfd_gettime, fd, NULL));
	int ofd = open("/proc/self/status", O_PATH);
	show("gettime on O_PATH", syscall(SYS_timerfd_gettime, ofd, &v));
	char small[4];
	show("read 4 bytes", read(fd, small, sizeof(small)));
	show("write", write(fd, "12345678", 8));
	show("pread", pread(fd, small, 8, 0));
	show("lseek", lseek(fd, 0, SEEK_CUR));
	show("ioctl FIONREAD", ioctl(fd, FIONREAD, small));
	close(ofd);
	close(p[0]);
	close(p[1]);
	close(fd);
	int afd = timerfd_create(CLOCK_BOOTTIME_ALARM, 0);
	as_nobody(nobody_settime, afd);
	close(afd);
}

static void test_oneshot(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	long long interval, left;

	yes("unarmed: gettime 0", left_ns(fd, &interval) == 0 && interval == 0);
	show_read("unarmed: read", fd);
	yes("unarmed: not readable", readable(fd, 0) == 0);
	settime(fd, 0, 60 * MS, 0, NULL);
	left = left_ns(fd, &interval);
	yes("armed 60 ms: time left in (0, 60 ms]", left > 0 && left <= 60 * MS && interval == 0);
	show_read("before expiry: read", fd);
	long long t0 = now_ns(CLOCK_MONOTONIC);
	int ev = readable(fd, 5000);
	long long took = now_ns(CLOCK_MONOTONIC) - t0;
	printf("poll: revents 0x%x\n", ev);
	yes("fired not before its time", took >= 50 * MS && took < 3000 * MS);
	yes("expired: gettime 0", left_ns(fd, &interval) == 0 && interval == 0);
	show_read("expired: read", fd);
	show_read("again: read", fd);
	/* Disarming: it_value 0. */
	settime(fd, 0, 10000 * MS, 0, NULL);
	struct itimerspec old;
	settime(fd, 0, 0, 0, &old);
	yes("disarm: old value in (9 s, 10 s]", ts_ns(old.it_value) > 9000 * MS && ts_ns(old.it_value) <= 10000 * MS);
	yes("disarmed: gettime 0", left_ns(fd, NULL) == 0);
	/* An alarm timer disarmed shows what was left of its old time (Linux's
	 * alarm timers keep their expiry). */
	int afd = timerfd_create(CLOCK_BOOTTIME_ALARM, 0);
	settime(afd, 0, 10000 * MS, 0, NULL);
	settime(afd, 0, 0, 0, NULL);
	left = left_ns(afd, NULL);
	yes("BOOTTIME_ALARM disarmed: gettime shows (9 s, 10 s]", left > 9000 * MS && left <= 10000 * MS);
	close(afd);
	/* A blocking read waits for the expiry. */
	int bfd = timerfd_create(CLOCK_BOOTTIME, 0);
	settime(bfd, 0, 30 * MS, 0, NULL);
	show_read("blocking read", bfd);
	char big[16];
	settime(bfd, 0, 1, 0, NULL);
	printf("read 16 bytes: %zd\n", read(bfd, big, sizeof(big)));
	settime(bfd, 0, 1, 0, NULL);
	readable(bfd, 5000);
	show("read into a bad buffer", read(bfd, (void *)1, 8));
	show_read("after the bad buffer: ticks lost, nonblocking", fcntl(bfd, F_SETFL, O_NONBLOCK) ? -1 : bfd);
	close(bfd);
	close(fd);
}

static void test_periodic(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	long long interval, left;
	struct itimerspec old;

	long long t0 = now_ns(CLOCK_MONOTONIC);
	settime(fd, 0, 20 * MS, 20 * MS, NULL);
	usleep(200000);
	long long n = read_ticks(fd), took = now_ns(CLOCK_MONOTONIC) - t0;
	long long want = took / (20 * MS);
	yes("periodic 20 ms: ticks as many as the intervals gone (within 2)", n >= want - 2 && n <= want + 1 && n >= 5);
	if (!(n >= want - 2 && n <= want + 1))
		printf("  ticks %lld, intervals %lld\n", n, want);
	left = left_ns(fd, &interval);
	yes("periodic: time left in (0, 20 ms], interval 20 ms", left > 0 && left <= 20 * MS && interval == 20 * MS);
	n = read_ticks(fd);
	yes("next read: 1 to 3 ticks", n >= 1 && n <= 3);
	/* gettime re-arms an expired periodic timer; its ticks stay. */
	settime(fd, 0, 10 * MS, 30 * MS, NULL);
	usleep(100000);
	left = left_ns(fd, &interval);
	yes("gettime after expiries: time left in (0, 30 ms]", left > 0 && left <= 30 * MS);
	n = read_ticks(fd);
	yes("read after gettime: the ticks gone meanwhile (2 to 5)", n >= 2 && n <= 5);
	/* settime's old value of a periodic timer. */
	settime(fd, 0, 5000 * MS, 7000 * MS, NULL);
	settime(fd, 0, 1000 * MS, 0, &old);
	yes("old value: in (4 s, 5 s], interval 7 s",
	    ts_ns(old.it_value) > 4000 * MS && ts_ns(old.it_value) <= 5000 * MS && ts_ns(old.it_interval) == 7000 * MS);
	settime(fd, 0, 0, 1000 * MS, &old);
	left = left_ns(fd, &interval);
	yes("it_value 0 with an interval: disarmed, interval kept", left == 0 && interval == 1000 * MS);
	/* A huge interval saturates, it does not wrap. */
	struct itimerspec huge = { { 0x7fffffffffffffffLL, 999999999 }, { 0, 1 } };
	show("settime huge interval", timerfd_settime(fd, 0, &huge, NULL));
	readable(fd, 5000);
	show_read("huge interval: read", fd);
	left = left_ns(fd, &interval);
	yes("huge interval: far away", left > 1000000000LL * 1000000000LL / 1000);
	close(fd);
}

static void test_abstime(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	long long now = now_ns(CLOCK_MONOTONIC), left;

	settime(fd, TFD_TIMER_ABSTIME, now + 100 * MS, 0, NULL);
	left = left_ns(fd, NULL);
	yes("abs +100 ms: time left in (0, 100 ms]", left > 0 && left <= 100 * MS);
	printf("abs +100 ms: poll revents 0x%x\n", readable(fd, 5000));
	yes("abs: fired at its time", now_ns(CLOCK_MONOTONIC) >= now + 100 * MS);
	show_read("abs: read", fd);
	show("abs 1 ns", settime(fd, TFD_TIMER_ABSTIME, 1, 0, NULL));
	printf("abs in the past: poll revents 0x%x\n", readable(fd, 5000));
	show_read("abs in the past: read", fd);
	/* Periodic, started 300 ms ago with 30 ms: the intervals gone count
	 * (the tests before took more than 300 ms since the boot). */
	settime(fd, TFD_TIMER_ABSTIME, now_ns(CLOCK_MONOTONIC) - 300 * MS, 30 * MS, NULL);
	readable(fd, 5000);
	long long n = read_ticks(fd);
	yes("abs periodic from 300 ms ago: 10 or 11 ticks at once", n >= 10 && n <= 12);
	if (n < 10 || n > 12)
		printf("  ticks %lld\n", n);
	close(fd);
	fd = timerfd_create(CLOCK_REALTIME, 0);
	settime(fd, TFD_TIMER_ABSTIME, now_ns(CLOCK_REALTIME) + 50 * MS, 0, NULL);
	show_read("REALTIME abs +50 ms: blocking read", fd);
	close(fd);
}

static void test_poll_kinds(void)
{
	int a = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK), b = timerfd_create(CLOCK_BOOTTIME, TFD_NONBLOCK);
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.u32 = 1 }, out[2];

	epoll_ctl(ep, EPOLL_CTL_ADD, a, &ev);
	ev.data.u32 = 2;
	epoll_ctl(ep, EPOLL_CTL_ADD, b, &ev);
	printf("epoll, none armed: %d\n", epoll_wait(ep, out, 2, 0));
	settime(a, 0, 2000 * MS, 0, NULL);
	settime(b, 0, 30 * MS, 0, NULL);
	int n = epoll_wait(ep, out, 2, 5000);
	printf("epoll: %d ready, item %u, events 0x%x\n", n, out[0].data.u32, out[0].events);
	fd_set r, w;
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(a, &r);
	FD_SET(b, &r);
	FD_SET(a, &w);
	struct timeval tv = { 0, 0 };
	n = select((a > b ? a : b) + 1, &r, &w, NULL, &tv);
	printf("select: %d, a readable %d, b readable %d, a writable %d\n", n, FD_ISSET(a, &r), FD_ISSET(b, &r),
	       FD_ISSET(a, &w));
	read_ticks(b);
	printf("epoll after the read: %d\n", epoll_wait(ep, out, 2, 0));
	/* An armed timer closed: no expiry reaches anyone, nothing breaks. */
	close(a);
	close(b);
	close(ep);
}

static void test_ioctl(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	uint64_t v = 5;

	show("SET_TICKS 5", ioctl(fd, TFD_IOC_SET_TICKS, &v));
	printf("SET_TICKS: poll revents 0x%x\n", readable(fd, 0));
	show_read("SET_TICKS: read", fd);
	v = 0;
	show("SET_TICKS 0", ioctl(fd, TFD_IOC_SET_TICKS, &v));
	show("SET_TICKS bad pointer", ioctl(fd, TFD_IOC_SET_TICKS, (void *)1));
	show("ioctl other", ioctl(fd, _IOW('T', 1, uint64_t), &v));
	close(fd);
}

/* /proc/self/fdinfo/fd: the timer's own lines (and pos, flags); the time
 * left is checked, not printed. */
static void print_fdinfo(int fd, long long lo, long long hi)
{
	char path[64], line[128];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, ns;
		if (!strncmp(line, "mnt_id:", 7) || !strncmp(line, "ino:", 4))
			continue;
		if (sscanf(line, "it_value: (%llu, %llu)", &s, &ns) == 2) {
			long long v = s * 1000000000LL + ns;
			printf("  it_value: %s\n", v >= lo && v <= hi ? "in bounds" : line);
			continue;
		}
		printf("  %s", line);
	}
	if (f)
		fclose(f);
}

static void test_fdinfo(void)
{
	int fd = timerfd_create(CLOCK_BOOTTIME, TFD_NONBLOCK | TFD_CLOEXEC);
	uint64_t v = 3;

	printf("fdinfo, unarmed:\n");
	print_fdinfo(fd, 0, 0);
	settime(fd, 0, 100000 * MS, 2500 * MS, NULL);
	ioctl(fd, TFD_IOC_SET_TICKS, &v);
	printf("fdinfo, 100 s, interval 2.5 s, 3 ticks:\n");
	print_fdinfo(fd, 99000 * MS, 100000 * MS);
	close(fd);
	fd = timerfd_create(CLOCK_REALTIME, 0);
	settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, now_ns(CLOCK_REALTIME) + 50000 * MS, 0, NULL);
	printf("fdinfo, REALTIME abs +50 s, cancel on set:\n");
	print_fdinfo(fd, 49000 * MS, 50000 * MS);
	close(fd);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void test_eintr(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);

	sigaction(SIGALRM, &sa, NULL);
	settime(fd, 0, 100000 * MS, 0, NULL);
	alarm(1);
	show_read("blocking read, SIGALRM without SA_RESTART", fd);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	settime(fd, 0, 1500 * MS, 0, NULL);
	alarm(1);
	show_read("blocking read, SIGALRM with SA_RESTART", fd);
	close(fd);
}

static void test_fork_exec(const char *self)
{
	int shared = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	int keep = timerfd_create(CLOCK_MONOTONIC, 0);
	int gone = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

	settime(shared, 0, 20 * MS, 0, NULL);
	readable(shared, 5000);
	pid_t pid = fork();
	if (pid == 0) {
		show_read("fork child: read the shared timer", shared);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	show_read("parent after the child read", shared);
	settime(keep, 0, 50 * MS, 0, NULL);
	settime(gone, 0, 50 * MS, 0, NULL);
	pid = fork();
	if (pid == 0) {
		char a[16], b[16];
		snprintf(a, sizeof(a), "%d", keep);
		snprintf(b, sizeof(b), "%d", gone);
		execl(self, self, "exec-child", a, b, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
	close(shared);
	close(keep);
	close(gone);
}

static void exec_child(int keep, int gone)
{
	char path[64], link[64] = "";
	snprintf(path, sizeof(path), "/proc/self/fd/%d", keep);
	readlink(path, link, sizeof(link) - 1);
	printf("after exec: kept fd is %s\n", link);
	show("after exec: TFD_CLOEXEC fd fcntl", fcntl(gone, F_GETFD));
	show_read("after exec: blocking read of the kept timer", keep);
}

/* ---- setting the clock ---- */

static void test_cancel_on_set(void)
{
	struct timespec ts;
	struct timeval tv;
	int abs_cancel = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	int rel_cancel = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	int mono = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	int alarm_fd = timerfd_create(CLOCK_REALTIME_ALARM, TFD_NONBLOCK);
	uint64_t v = 2;

	show("clock_settime MONOTONIC", clock_settime(CLOCK_MONOTONIC, &(struct timespec){ 100, 0 }));
	show("clock_settime PROCESS_CPUTIME", clock_settime(CLOCK_PROCESS_CPUTIME_ID, &(struct timespec){ 100, 0 }));
	show("clock_settime BOOTTIME", clock_settime(CLOCK_BOOTTIME, &(struct timespec){ 100, 0 }));
	show("clock_settime 99", clock_settime(99, &(struct timespec){ 100, 0 }));
	show("clock_settime NULL", clock_settime(CLOCK_REALTIME, NULL));
	show("clock_settime nsec 10^9", clock_settime(CLOCK_REALTIME, &(struct timespec){ 2000000000, 1000000000 }));
	show("clock_settime sec -1", clock_settime(CLOCK_REALTIME, &(struct timespec){ -1, 0 }));
	show("clock_settime before the boot", clock_settime(CLOCK_REALTIME, &(struct timespec){ 0, 0 }));
	show("settimeofday usec 10^6", ksettimeofday(&(struct timeval){ 2000000000, 1000000 }, NULL));
	show("settimeofday usec -1", ksettimeofday(&(struct timeval){ 2000000000, -1 }, NULL));
	show("settimeofday bad pointer", ksettimeofday((void *)1, NULL));
	show("settimeofday tz 16 h", ksettimeofday(NULL, &(struct timezone){ 16 * 60, 0 }));
	show("settimeofday tz 60 min", ksettimeofday(NULL, &(struct timezone){ 60, 0 }));
	struct timezone tz = { -1, -1 };
	syscall(SYS_gettimeofday, &tv, &tz);
	printf("gettimeofday syscall tz: %d %d\n", tz.tz_minuteswest, tz.tz_dsttime);
	ksettimeofday(NULL, &(struct timezone){ 0, 0 });
	show("settimeofday NULL NULL", ksettimeofday(NULL, NULL));

	long long now = now_ns(CLOCK_REALTIME);
	settime(abs_cancel, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, now + 7200000 * MS, 0, NULL);
	settime(rel_cancel, TFD_TIMER_CANCEL_ON_SET, 100000 * MS, 0, NULL);
	settime(mono, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, now_ns(CLOCK_MONOTONIC) + 100000 * MS, 0, NULL);
	settime(alarm_fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, now + 7200000 * MS, 0, NULL);
	show_read("before the clock is set: read", abs_cancel);
	/* The wall clock one hour on. */
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 3600;
	show("clock_settime +1 h", clock_settime(CLOCK_REALTIME, &ts));
	yes("the wall clock moved on", now_ns(CLOCK_REALTIME) >= now + 3600000 * MS);
	long long left = left_ns(abs_cancel, NULL);
	yes("abs timer at +2 h: 1 h left", left > 3500000 * MS && left <= 3600000 * MS);
	printf("abs cancel-on-set: poll revents 0x%x\n", readable(abs_cancel, 0));
	show_read("abs cancel-on-set: read", abs_cancel);
	show_read("abs cancel-on-set: read again", abs_cancel);
	show_read("REALTIME_ALARM cancel-on-set: read", alarm_fd);
	/* A relative time on CLOCK_REALTIME runs on the monotonic clock: the
	 * jump does not touch it. */
	printf("relative 100 s with CANCEL_ON_SET: poll revents 0x%x\n", readable(rel_cancel, 200));
	show_read("relative with CANCEL_ON_SET: read", rel_cancel);
	left = left_ns(rel_cancel, NULL);
	yes("relative: 100 s left still", left > 90000 * MS && left <= 100000 * MS);
	show_read("MONOTONIC abs with CANCEL_ON_SET: read", mono);
	/* Cancelled again, then TFD_IOC_SET_TICKS and settime see it. */
	gettimeofday(&tv, NULL);
	tv.tv_sec -= 3600;
	show("settimeofday -1 h", ksettimeofday(&tv, NULL));
	show("SET_TICKS after the clock was set", ioctl(abs_cancel, TFD_IOC_SET_TICKS, &v));
	show("SET_TICKS again", ioctl(abs_cancel, TFD_IOC_SET_TICKS, &v));
	show_read("read the ticks set", abs_cancel);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	clock_settime(CLOCK_REALTIME, &ts);
	show("settime after the clock was set",
	     settime(abs_cancel, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, now_ns(CLOCK_REALTIME) + 100000 * MS, 0, NULL));
	yes("armed all the same", left_ns(abs_cancel, NULL) > 90000 * MS);
	show_read("then: read", abs_cancel);
	/* Without CANCEL_ON_SET, no ECANCELED: the clock set back fires the
	 * timer early (an absolute time that has come). */
	settime(abs_cancel, TFD_TIMER_ABSTIME, now_ns(CLOCK_REALTIME) + 1000 * MS, 0, NULL);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 2;
	clock_settime(CLOCK_REALTIME, &ts);
	printf("abs +1 s, clock +2 s: poll revents 0x%x\n", readable(abs_cancel, 5000));
	show_read("abs +1 s, clock +2 s: read", abs_cancel);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec -= 3;
	clock_settime(CLOCK_REALTIME, &ts);
	close(abs_cancel);
	close(rel_cancel);
	close(mono);
	close(alarm_fd);
}

/* ---- time namespaces ---- */

static void timens_child(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK), bfd = timerfd_create(CLOCK_BOOTTIME_ALARM, 0);
	long long now = now_ns(CLOCK_MONOTONIC), left;

	yes("in the namespace: monotonic clock 1000 s on", now >= 1000000 * MS);
	settime(fd, TFD_TIMER_ABSTIME, now + 100000 * MS, 0, NULL);
	left = left_ns(fd, NULL);
	yes("abs +100 s: time left in (99 s, 100 s]", left > 99000 * MS && left <= 100000 * MS);
	show_read("abs +100 s: read", fd);
	settime(fd, TFD_TIMER_ABSTIME, 500000 * MS, 0, NULL);
	printf("abs 500 s (before the offset): poll revents 0x%x\n", readable(fd, 5000));
	show_read("abs 500 s: read", fd);
	long long t0 = now_ns(CLOCK_BOOTTIME);
	settime(bfd, TFD_TIMER_ABSTIME, t0 + 100 * MS, 0, NULL);
	show_read("BOOTTIME_ALARM abs +100 ms: blocking read", bfd);
	long long took = now_ns(CLOCK_BOOTTIME) - t0;
	yes("BOOTTIME_ALARM: fired at its time", took >= 100 * MS && took < 5000 * MS);
	close(fd);
	close(bfd);
}

static void test_timens(void)
{
	if (unshare(CLONE_NEWTIME)) {
		printf("unshare(CLONE_NEWTIME): %s\n", ename(errno));
		return;
	}
	int fd = open("/proc/self/timens_offsets", O_WRONLY);
	const char *offs = "monotonic 1000 0\nboottime 2000 0\n";
	if (fd < 0 || write(fd, offs, strlen(offs)) != (ssize_t)strlen(offs))
		printf("timens_offsets: %s\n", ename(errno));
	close(fd);
	pid_t pid = fork();
	if (pid == 0) {
		timens_child();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

/* Many timers created, armed and closed: none is refused. */
static void test_many(void)
{
	int ok = 1;
	for (int i = 0; i < 2000 && ok; i++) {
		int fd = timerfd_create(i & 1 ? CLOCK_MONOTONIC : CLOCK_REALTIME, TFD_NONBLOCK);
		ok = fd >= 0 && settime(fd, i & 2 ? TFD_TIMER_ABSTIME : 0, 1000000 * MS, 1, NULL) == 0;
		close(fd);
	}
	yes("2000 timers created, armed and closed", ok);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "exec-child")) {
		exec_child(atoi(argv[2]), atoi(argv[3]));
		return 0;
	}
	mount("proc", "/proc", "proc", 0, NULL); /* init does not, for tests */
	test_create();
	test_errors();
	test_oneshot();
	test_periodic();
	test_abstime();
	test_poll_kinds();
	test_ioctl();
	test_fdinfo();
	test_eintr();
	test_fork_exec(argv[0]);
	test_cancel_on_set();
	test_timens();
	test_many();
	return 0;
}
