/* timekeeping.h - wall-clock and monotonic time (kernel/time/time.c).
 * The wall clock starts from the CMOS real-time clock at boot. */
#pragma once
#include <kernel.h>

struct timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

void time_init(void);
void ktime_get_real(struct timespec *ts);      /* CLOCK_REALTIME */
void ktime_get_monotonic(struct timespec *ts); /* CLOCK_MONOTONIC, since boot */
uint64_t ktime_get_ns(void);                   /* monotonic, in ns */
/* The clock's parameters, for the vDSO's data page (include/vdso.h), which
 * computes the time as ktime_get_ns does. */
void timekeeping_vdso_data(uint64_t *tsc_at_boot, uint64_t *tsc_khz, int64_t *boot_epoch);
