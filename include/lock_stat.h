/*
 * lock_stat.h - Linux's lock statistics (Documentation/locking/lockstat.rst),
 * for the big kernel lock: how often it was taken, how often a CPU had to
 * wait for it, and for how long it was waited for and held.
 * kernel/locking/lock_stat.c keeps them and shows them in /proc/lock_stat;
 * they are gathered only while /proc/sys/kernel/lock_stat is not 0 (0 at
 * boot), and writing 0 to /proc/lock_stat clears them.
 *
 * The lock's holder updates its statistics, so the lock itself keeps them
 * consistent; the /proc files are read and written under it too.
 * Times come from the monotonic clock: under QEMU's -icount it counts
 * instructions, and the figures are exact from run to run
 * (docs/measuring.md).
 */
#pragma once
#include <kernel.h>

struct lock_class_stats {
	const char *name;
	uint64_t contentions, con_bounces;  /* acquisitions that had to wait */
	uint64_t acquisitions, acq_bounces; /* ..._bounces: by another CPU than the last */
	uint64_t wait_min, wait_max, wait_total; /* ns; min over non-zero waits */
	uint64_t hold_min, hold_max, hold_total;
	uint64_t held_since; /* ns, while held */
	int last_cpu;        /* the CPU that took it last, -1 if none */
};

extern int lock_stat_enabled; /* /proc/sys/kernel/lock_stat */

void __lock_stat_acquired(struct lock_class_stats *s, uint64_t wait_start);
void __lock_stat_released(struct lock_class_stats *s);
uint64_t __lock_stat_clock(void);

/* The lock was taken by this CPU, having waited since wait_start (its
 * lock_stat_clock(), 0 if it did not wait). Off, the hooks cost a test. */
static inline void lock_stat_acquired(struct lock_class_stats *s, uint64_t wait_start)
{
	if (__builtin_expect(lock_stat_enabled, 0))
		__lock_stat_acquired(s, wait_start);
}

/* This CPU lets the lock go. */
static inline void lock_stat_released(struct lock_class_stats *s)
{
	if (__builtin_expect(lock_stat_enabled, 0))
		__lock_stat_released(s);
}

/* The time to pass as wait_start: ktime_get_ns() when statistics are on. */
static inline uint64_t lock_stat_clock(void)
{
	return __builtin_expect(lock_stat_enabled, 0) ? __lock_stat_clock() : 0;
}
