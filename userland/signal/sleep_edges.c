/*
 * sleep_edges - nanosleep and clock_nanosleep for times too long to count
 * in 64-bit nanoseconds (sysfuzz found them: the deadline wrapped around
 * and the sleep ended at once; Linux saturates it and sleeps until a
 * signal), absolute times long past, and malformed times; an interval
 * timer that long (it fired at once).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static void on_alarm(int sig)
{
	(void)sig;
}

static void alarm_soon(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 200000 } };
	setitimer(ITIMER_REAL, &it, NULL);
}

static void report(const char *what, long ret)
{
	printf("%s: %s\n", what, ret < 0 ? strerror(errno) : "0");
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct timespec rem = { 0, 0 };

	sigaction(SIGALRM, &sa, NULL);

	struct timespec long_ago = { 1LL << 62, 0 };
	alarm_soon();
	report("nanosleep 2^62 s", syscall(SYS_nanosleep, &long_ago, &rem));
	printf("time left more than 10^9 s: %s\n", rem.tv_sec > 1000000000 ? "yes" : "no");

	struct timespec max = { INT64_MAX, 999999999 };
	alarm_soon();
	report("nanosleep INT64_MAX s", syscall(SYS_nanosleep, &max, NULL));
	alarm_soon();
	report("clock_nanosleep MONOTONIC 2^62 s",
	       syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &long_ago, NULL));
	alarm_soon();
	report("clock_nanosleep REALTIME until INT64_MAX s",
	       syscall(SYS_clock_nanosleep, CLOCK_REALTIME, TIMER_ABSTIME, &max, NULL));
	alarm_soon();
	report("clock_nanosleep MONOTONIC until 2^62 s",
	       syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &long_ago, NULL));

	struct timespec zero = { 0, 0 }, one = { 1, 0 };
	report("clock_nanosleep MONOTONIC until 0 s",
	       syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &zero, NULL));
	report("clock_nanosleep REALTIME until 1 s (1970)",
	       syscall(SYS_clock_nanosleep, CLOCK_REALTIME, TIMER_ABSTIME, &one, NULL));

	struct timespec neg = { -1, 0 }, bad_ns = { 0, 1000000000 };
	report("nanosleep -1 s", syscall(SYS_nanosleep, &neg, NULL));
	report("nanosleep 10^9 ns", syscall(SYS_nanosleep, &bad_ns, NULL));
	report("clock_nanosleep 10^9 ns",
	       syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &bad_ns, NULL));

	/* A timer for INT64_MAX seconds never fires; what is left is huge. */
	struct itimerval forever = { { 0, 0 }, { INT64_MAX, 999999 } }, left;
	report("setitimer INT64_MAX s", setitimer(ITIMER_REAL, &forever, NULL));
	report("nanosleep 0.3 s", syscall(SYS_nanosleep, &(struct timespec){ 0, 300000000 }, NULL));
	getitimer(ITIMER_REAL, &left);
	printf("time left more than 9 * 10^9 s: %s\n", left.it_value.tv_sec > 9000000000LL ? "yes" : "no");
	return 0;
}
