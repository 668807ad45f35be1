/*
 * sys_time.c - clock_gettime, gettimeofday, time and nanosleep.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <timekeeping.h>
#include <uaccess.h>

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7

long sys_clock_gettime(int clock, struct timespec __user *tp)
{
	struct timespec ts;

	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
		ktime_get_real(&ts);
		break;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
	/* No CPU-time accounting yet: a process's CPU clock is approximated
	 * by the monotonic clock. */
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		ktime_get_monotonic(&ts);
		break;
	default:
		return -EINVAL;
	}
	return copy_to_user(tp, &ts, sizeof(ts));
}

struct timeval {
	int64_t tv_sec, tv_usec;
};

long sys_gettimeofday(struct timeval __user *tv, void __user *tz)
{
	struct timespec ts;

	ktime_get_real(&ts);
	struct timeval v = { ts.tv_sec, ts.tv_nsec / 1000 };
	if (tv && copy_to_user(tv, &v, sizeof(v)))
		return -EFAULT;
	if (tz && clear_user(tz, 8))
		return -EFAULT;
	return 0;
}

long sys_time(int64_t __user *t)
{
	struct timespec ts;

	ktime_get_real(&ts);
	if (t && copy_to_user(t, &ts.tv_sec, sizeof(ts.tv_sec)))
		return -EFAULT;
	return ts.tv_sec;
}

long sys_nanosleep(const struct timespec __user *req, struct timespec __user *rem)
{
	struct timespec ts;

	if (copy_from_user(&ts, req, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
		return -EINVAL;
	uint64_t ns_per_tick = 1000000000 / HZ;
	uint64_t ticks = (uint64_t)ts.tv_sec * HZ + ((uint64_t)ts.tv_nsec + ns_per_tick - 1) / ns_per_tick;
	uint64_t until = jiffies + ticks + 1; /* a partial tick has passed already */
	if (sleep_until(until) == 0)
		return 0;
	if (rem) {
		uint64_t left = until > jiffies ? until - jiffies : 0;
		struct timespec r = { left / HZ, left % HZ * ns_per_tick };
		if (copy_to_user(rem, &r, sizeof(r)))
			return -EFAULT;
	}
	/* EINTR if a handler runs; otherwise (a stop and continue) the sleep
	 * starts again - Linux would go on with the time that was left. */
	return -ERESTARTNOHAND;
}
