/*
 * poll_edges - poll, ppoll, select and pselect at the edges sysfuzz found:
 * a pollfd array that is not aligned (the kernel wrote revents through a
 * misaligned struct pointer, undefined behaviour that UBSAN reported), and
 * timeouts so long that their nanoseconds overflowed 64 bits (the call
 * then returned at once, where Linux waits: until the signal here).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static void on_alarm(int sig)
{
	(void)sig;
}

/* Arm a one-shot SIGALRM 200 ms from now. */
static void alarm_soon(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 200000 } };
	setitimer(ITIMER_REAL, &it, NULL);
}

static void report(const char *what, long ret)
{
	if (ret < 0)
		printf("%s: %s\n", what, strerror(errno));
	else
		printf("%s: %ld\n", what, ret);
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int p[2];
	char raw[64] __attribute__((aligned(8)));

	sigaction(SIGALRM, &sa, NULL);
	if (pipe(p))
		return 1;

	/* An array at an odd address: revents must still come back. */
	struct pollfd *odd = (struct pollfd *)(raw + 1);
	struct pollfd one = { .fd = p[1], .events = POLLOUT };
	memcpy(odd, &one, sizeof(one));
	report("poll of a misaligned array", poll(odd, 1, 0));
	memcpy(&one, odd, sizeof(one));
	printf("revents: %#x\n", one.revents);

	/* An empty pipe and a very long timeout: only the signal ends it. */
	struct pollfd rd = { .fd = p[0], .events = POLLIN };
	struct timespec huge = { 10000000000LL, 0 }; /* 317 years */
	alarm_soon();
	report("ppoll for 10^10 s", ppoll(&rd, 1, &huge, NULL));
	alarm_soon();
	report("poll for INT_MAX ms", poll(&rd, 1, 0x7fffffff));
	/* Its nanoseconds are 2^64 - 709551616: -0.7 s if they wrap. */
	struct timespec wraps = { 18446744073LL, 0 };
	alarm_soon();
	report("ppoll for 18446744073 s", ppoll(&rd, 1, &wraps, NULL));

	fd_set set;
	struct timeval tv = { 10000000000LL, 0 };
	FD_ZERO(&set);
	FD_SET(p[0], &set);
	alarm_soon();
	report("select for 10^10 s", syscall(SYS_select, p[0] + 1, &set, NULL, NULL, &tv));

	struct timeval max = { INT64_MAX, 999999 };
	FD_SET(p[0], &set);
	alarm_soon();
	report("select for INT64_MAX s", syscall(SYS_select, p[0] + 1, &set, NULL, NULL, &max));

	/* Whole seconds folded out of tv_usec that overflow (the system call
	 * itself: the C library would clamp them). */
	struct timeval wrap = { INT64_MAX, 1000000 };
	FD_SET(p[0], &set);
	alarm_soon();
	report("select for INT64_MAX s + 10^6 us", syscall(SYS_select, p[0] + 1, &set, NULL, NULL, &wrap));

	struct timespec tmax = { INT64_MAX, 999999999 };
	FD_SET(p[0], &set);
	alarm_soon();
	report("pselect for INT64_MAX s", pselect(p[0] + 1, &set, NULL, NULL, &tmax, NULL));
	return 0;
}
