/*
 * sys_time.c - clock_gettime, gettimeofday, time and nanosleep; setting
 * the wall clock with clock_settime and settimeofday.
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <time_namespace.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <vdso.h>
#include "posix-timers.h"

/* The clock ids are in include/timekeeping.h. CLOCK_TAI is ahead of UTC by
 * the TAI offset adjtimex sets, which is 0 until someone sets it (no
 * adjtimex here: always 0). The _ALARM clocks would wake a suspended
 * machine (the RTC's alarm): here the realtime and boot clocks, as this
 * kernel never suspends; sleeping on them needs CAP_WAKE_ALARM, as on
 * Linux. */

long sys_clock_gettime(int clock, struct timespec __user *tp)
{
	struct timespec ts;

	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_TAI:
	case CLOCK_REALTIME_ALARM:
		ktime_get_real(&ts);
		break;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
	case CLOCK_BOOTTIME_ALARM: {
		/* As the caller's time namespace sees them. */
		int64_t ns = timens_add(clock, ktime_get_ns());
		ts = (struct timespec){ ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };
		break;
	}
	default:
		/* The caller's CPU time, or a pid's as clock_getcpuclockid
		 * encodes it (kernel/time/posix-cpu-timers.c): the ticks it
		 * ran, the same time CPU-clock timers count. */
		if (!is_cpu_clock(clock) || posix_cpu_clock_get(clock, &ts))
			return -EINVAL;
	}
	return copy_to_user(tp, &ts, sizeof(ts));
}

struct timeval {
	int64_t tv_sec, tv_usec;
};

/* The time zone settimeofday sets: kept and given back, used by nothing
 * (Linux's sys_tz). */
struct timezone {
	int tz_minuteswest, tz_dsttime;
};
static struct timezone sys_tz;

long sys_gettimeofday(struct timeval __user *tv, struct timezone __user *tz)
{
	struct timespec ts;

	ktime_get_real(&ts);
	struct timeval v = { ts.tv_sec, ts.tv_nsec / 1000 };
	if (tv && copy_to_user(tv, &v, sizeof(v)))
		return -EFAULT;
	if (tz && copy_to_user(tz, &sys_tz, sizeof(sys_tz)))
		return -EFAULT;
	return 0;
}

/* Linux keeps the wall clock within what ktime counts, with 30 years of
 * uptime to spare (TIME_SETTOD_SEC_MAX). */
#define SETTOD_SEC_MAX (INT64_MAX / NSEC_PER_SEC - 30LL * 365 * 24 * 3600)

/* Linux's do_sys_settimeofday64: either may be NULL. EINVAL for a time
 * out of range or a zone beyond 15 hours, EPERM without CAP_SYS_TIME. */
static long do_sys_settimeofday(const struct timespec *ts, const struct timezone *tz)
{
	if (ts && (ts->tv_sec < 0 || ts->tv_sec >= SETTOD_SEC_MAX || ts->tv_nsec < 0 ||
		   ts->tv_nsec >= NSEC_PER_SEC))
		return -EINVAL;
	if (!capable(CAP_SYS_TIME))
		return -EPERM;
	if (tz) {
		if (tz->tz_minuteswest > 15 * 60 || tz->tz_minuteswest < -15 * 60)
			return -EINVAL;
		sys_tz = *tz;
		vdso_set_timezone(tz->tz_minuteswest, tz->tz_dsttime);
	}
	return ts ? do_settimeofday(ts) : 0;
}

long sys_settimeofday(const struct timeval __user *utv, const struct timezone __user *utz)
{
	struct timespec ts;
	struct timeval tv;
	struct timezone tz;

	if (utv) {
		if (copy_from_user(&tv, utv, sizeof(tv)))
			return -EFAULT;
		if (tv.tv_usec >= 1000000 || tv.tv_usec < 0)
			return -EINVAL;
		ts = (struct timespec){ tv.tv_sec, tv.tv_usec * 1000 };
	}
	if (utz && copy_from_user(&tz, utz, sizeof(tz)))
		return -EFAULT;
	return do_sys_settimeofday(utv ? &ts : NULL, utz ? &tz : NULL);
}

/* Only the wall clock can be set. A CPU clock never can (EPERM, once the
 * clock is known to exist); any other is EINVAL, before the time is read
 * (Linux: a clock without clock_set). A /dev/ptp clock (an fd) is no
 * clock here: EINVAL after the read. */
long sys_clock_settime(int clock, const struct timespec __user *tp)
{
	struct timespec ts;
	bool cpu = clock < 0 && is_cpu_clock(clock);

	if (clock != CLOCK_REALTIME && !cpu && !(clock < 0 && (clock & 7) == 3))
		return -EINVAL;
	if (copy_from_user(&ts, tp, sizeof(ts)))
		return -EFAULT;
	if (cpu)
		return posix_cpu_clock_getres(clock, &ts) ? -EINVAL : -EPERM;
	if (clock != CLOCK_REALTIME)
		return -EINVAL;
	return do_sys_settimeofday(&ts, NULL);
}

long sys_time(int64_t __user *t)
{
	struct timespec ts;

	ktime_get_real(&ts);
	if (t && copy_to_user(t, &ts.tv_sec, sizeof(ts.tv_sec)))
		return -EFAULT;
	return ts.tv_sec;
}

/* Sleep until the monotonic clock reaches deadline_ns. 0, or -EINTR with
 * *left_ns set if a signal came first. */
static long sleep_until_ns(uint64_t deadline_ns, uint64_t *left_ns)
{
	uint64_t now, ns_per_tick = 1000000000 / HZ;

	/* The ticks wake us, but the clock decides: QEMU may deliver late
	 * ticks in a burst, and the sleep must not end before its time. */
	while ((now = ktime_get_ns()) < deadline_ns) {
		/* Round up to whole ticks, plus one: part of this tick has gone. */
		uint64_t until = jiffies + (deadline_ns - now + ns_per_tick - 1) / ns_per_tick + 1;
		if (sleep_until(until) != 0)
			break;
	}
	if (now >= deadline_ns)
		return 0;
	now = ktime_get_ns();
	*left_ns = deadline_ns > now ? deadline_ns - now : 0;
	return -EINTR;
}

static int get_timespec(struct timespec *ts, const struct timespec __user *uts)
{
	if (copy_from_user(ts, uts, sizeof(*ts)))
		return -EFAULT;
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000)
		return -EINVAL;
	return 0;
}

/*
 * base + sec seconds + nsec, saturated at KTIME_MAX as Linux's
 * ktime_add_safe: a sleep that long does not end by itself (it used to
 * wrap around and end at once). sec >= 0, 0 <= nsec < 10^9.
 */
static uint64_t deadline_after(uint64_t base, int64_t sec, int64_t nsec)
{
	if (base > KTIME_MAX || sec > (KTIME_MAX - (int64_t)base - nsec) / NSEC_PER_SEC)
		return KTIME_MAX;
	return base + (uint64_t)sec * NSEC_PER_SEC + nsec;
}

static int put_left(uint64_t left_ns, struct timespec __user *rem)
{
	struct timespec r = { left_ns / 1000000000, left_ns % 1000000000 };

	return rem ? copy_to_user(rem, &r, sizeof(r)) : 0;
}

/*
 * A relative sleep until the deadline. Interrupted, it reports the time
 * left in rem and returns -ERESTART_RESTARTBLOCK: a handler makes that
 * EINTR; a stop and continue goes on through restart_syscall, to the same
 * deadline, as Linux does.
 */
static long nanosleep_restart(struct restart_block *rb)
{
	uint64_t left = 0;

	if (sleep_until_ns(rb->deadline_ns, &left) == 0)
		return 0;
	if (put_left(left, rb->rem))
		return -EFAULT;
	return -ERESTART_RESTARTBLOCK;
}

static long do_nanosleep(uint64_t deadline_ns, struct timespec __user *rem)
{
	current->restart_block = (struct restart_block){ .fn = nanosleep_restart, .deadline_ns = deadline_ns, .rem = rem };
	return nanosleep_restart(&current->restart_block);
}

long sys_nanosleep(const struct timespec __user *req, struct timespec __user *rem)
{
	struct timespec ts;
	int err = get_timespec(&ts, req);

	if (err)
		return err;
	return do_nanosleep(deadline_after(ktime_get_ns(), ts.tv_sec, ts.tv_nsec), rem);
}

#define TIMER_ABSTIME 1

/* glibc's nanosleep and sleep come here. */
long sys_clock_nanosleep(int clock, int flags, const struct timespec __user *req,
			 struct timespec __user *rem)
{
	struct timespec ts, now;
	uint64_t left = 0, deadline;
	int err;

	if (clock == CLOCK_THREAD_CPUTIME_ID)
		return -EINVAL;
	if (clock == CLOCK_REALTIME_ALARM || clock == CLOCK_BOOTTIME_ALARM) {
		if (!capable(CAP_WAKE_ALARM))
			return -EPERM;
		clock = clock == CLOCK_REALTIME_ALARM ? CLOCK_REALTIME : CLOCK_BOOTTIME;
	}
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME &&
	    clock != CLOCK_TAI && clock != CLOCK_PROCESS_CPUTIME_ID)
		return -EINVAL;
	err = get_timespec(&ts, req);
	if (err)
		return err;
	deadline = ktime_get_ns();
	if (!(flags & TIMER_ABSTIME))
		return do_nanosleep(deadline_after(deadline, ts.tv_sec, ts.tv_nsec), rem);
	/* An absolute time on the given clock, as a monotonic deadline (now,
	 * if it has passed). Seconds first: their product may not fit. */
	if (clock == CLOCK_REALTIME || clock == CLOCK_TAI) {
		ktime_get_real(&now);
	} else {
		/* The namespace's time, as clock_gettime gives it. */
		int64_t ns = timens_add(clock, ktime_get_ns());
		now = (struct timespec){ ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };
	}
	int64_t sec = ts.tv_sec - now.tv_sec, nsec = ts.tv_nsec - now.tv_nsec;
	if (nsec < 0) {
		sec--;
		nsec += NSEC_PER_SEC;
	}
	if (sec >= 0)
		deadline = deadline_after(deadline, sec, nsec);
	/* Restarting an absolute sleep is the same call again; there is no
	 * time left to report. */
	return sleep_until_ns(deadline, &left) ? -ERESTARTNOHAND : 0;
}

long sys_clock_getres(int clock, struct timespec __user *res)
{
	struct timespec r = { 0, 1 }; /* the TSC clock counts nanoseconds */

	if (clock < 0 && is_cpu_clock(clock)) {
		if (posix_cpu_clock_getres(clock, &r))
			return -EINVAL;
		return res ? copy_to_user(res, &r, sizeof(r)) : 0;
	}
	if ((clock < CLOCK_REALTIME || clock > CLOCK_BOOTTIME_ALARM) && clock != CLOCK_TAI)
		return -EINVAL;
	if (clock == CLOCK_REALTIME_COARSE || clock == CLOCK_MONOTONIC_COARSE)
		r.tv_nsec = 1000000000 / HZ;
	return res ? copy_to_user(res, &r, sizeof(r)) : 0;
}
