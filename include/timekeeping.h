/* timekeeping.h - wall-clock and monotonic time (kernel/time/time.c).
 * The wall clock starts from the CMOS real-time clock at boot; clock_settime
 * and settimeofday move it. */
#pragma once
#include <kernel.h>

/* The clock ids (Linux's include/uapi/linux/time.h). */
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7
#define CLOCK_REALTIME_ALARM 8
#define CLOCK_BOOTTIME_ALARM 9
#define CLOCK_TAI 11
#define NSEC_PER_SEC 1000000000LL

struct timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

#define KTIME_MAX INT64_MAX

/* A valid timespec in ns, saturated at KTIME_MAX (Linux's
 * timespec64_to_ktime). */
static inline int64_t timespec_to_ns(const struct timespec *ts)
{
	if (ts->tv_sec >= KTIME_MAX / NSEC_PER_SEC)
		return KTIME_MAX;
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static inline struct timespec ns_to_timespec(int64_t ns)
{
	return (struct timespec){ ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };
}

/* Linux's timespec64_valid: seconds not negative, nanoseconds in range. */
static inline bool timespec_valid(const struct timespec *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < NSEC_PER_SEC;
}

void time_init(void);
void ktime_get_real(struct timespec *ts);      /* CLOCK_REALTIME */
void ktime_get_monotonic(struct timespec *ts); /* CLOCK_MONOTONIC, since boot */
uint64_t ktime_get_ns(void);                   /* monotonic, in ns */
/* The clock's parameters, for the vDSO's data page (include/vdso.h), which
 * computes the time as ktime_get_ns does. */
void timekeeping_vdso_data(uint64_t *tsc_at_boot, uint64_t *tsc_khz, int64_t *realtime_offset);
/* CLOCK_REALTIME - CLOCK_MONOTONIC now, in ns (Linux's ktime_mono_to_real(0)):
 * it changes only when the wall clock is set. */
int64_t ktime_mono_to_real_offset(void);
/* Set the wall clock to a valid *ts: 0, or -EINVAL for a time before the
 * monotonic clock's. The caller has checked the permission. */
int do_settimeofday(const struct timespec *ts);
/* The wall clock jumped: cancel the timerfds that asked for it
 * (fs/timerfd.c; Linux's clock_was_set calls it). */
void timerfd_clock_was_set(void);
