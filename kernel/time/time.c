/*
 * time.c - clocks. The monotonic clock counts TSC cycles since boot,
 * converted with a rate measured against the PIT at start-up. The wall
 * clock is the monotonic clock plus an offset: the CMOS real-time clock
 * read at boot, until clock_settime or settimeofday moves it
 * (do_settimeofday, Linux's do_settimeofday64).
 */
#include <errno.h>
#include <kernel.h>
#include <timekeeping.h>
#include <vdso.h>
#include <x86.h>

static uint64_t tsc_at_boot;
static uint64_t tsc_khz;          /* cycles per millisecond */
static int64_t realtime_offset;   /* wall clock - monotonic clock, in ns */

/* Busy-wait ~10 ms on PIT channel 2 and count TSC cycles meanwhile. */
static uint64_t measure_tsc_khz(void)
{
	const uint16_t count = 11932; /* 1193182 Hz / 100 */
	outb(0x61, (inb(0x61) & ~0x02) | 0x01); /* gate on, speaker off */
	outb(0x43, 0xb0);                       /* channel 2, mode 0 */
	outb(0x42, count & 0xff);
	outb(0x42, count >> 8);
	uint64_t start = rdtsc();
	while (!(inb(0x61) & 0x20))
		;
	uint64_t cycles = rdtsc() - start;
	return cycles / 10 ? cycles / 10 : 1;
}

static uint8_t cmos_read(uint8_t reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

static int bcd(int v) { return (v & 0x0f) + (v >> 4) * 10; }

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int64_t read_rtc(void)
{
	while (cmos_read(0x0a) & 0x80)
		; /* update in progress */
	int sec = cmos_read(0x00), min = cmos_read(0x02), hour = cmos_read(0x04);
	int day = cmos_read(0x07), mon = cmos_read(0x08), year = cmos_read(0x09);
	if (!(cmos_read(0x0b) & 0x04)) { /* BCD mode */
		sec = bcd(sec), min = bcd(min), hour = bcd(hour);
		day = bcd(day), mon = bcd(mon), year = bcd(year);
	}
	return days_from_civil(2000 + year, mon, day) * 86400 + hour * 3600 + min * 60 + sec;
}

void time_init(void)
{
	tsc_khz = measure_tsc_khz();
	tsc_at_boot = rdtsc();
	realtime_offset = read_rtc() * NSEC_PER_SEC;
}

uint64_t ktime_get_ns(void)
{
	if (!tsc_khz)
		return 0;
	uint64_t cycles = rdtsc() - tsc_at_boot;
	uint64_t per_sec = tsc_khz * 1000;
	return cycles / per_sec * 1000000000 + cycles % per_sec * 1000000 / tsc_khz;
}

void ktime_get_monotonic(struct timespec *ts)
{
	uint64_t ns = ktime_get_ns();
	ts->tv_sec = ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
}

void ktime_get_real(struct timespec *ts)
{
	int64_t ns = (int64_t)ktime_get_ns() + realtime_offset;

	ts->tv_sec = ns / NSEC_PER_SEC;
	ts->tv_nsec = ns % NSEC_PER_SEC;
}

int64_t ktime_mono_to_real_offset(void)
{
	return realtime_offset;
}

/* The clock's parameters, for the vDSO's data page (kernel/vdso.c). */
void timekeeping_vdso_data(uint64_t *tsc0, uint64_t *khz, int64_t *offset)
{
	*tsc0 = tsc_at_boot;
	*khz = tsc_khz;
	*offset = realtime_offset;
}

/*
 * Set the wall clock (Linux's do_settimeofday64): the monotonic clock
 * does not move, the offset between them does. A time before the
 * monotonic clock's (before the boot, as the wall clock would count it)
 * is EINVAL, as on Linux. Then whoever follows the wall clock hears of
 * the jump: the vDSO's page, and the timerfds that asked to be cancelled.
 * Timers on the wall clock need no telling: the tick compares them with
 * the clock's new time.
 */
int do_settimeofday(const struct timespec *ts)
{
	uint64_t irq = irq_save();
	int64_t mono = (int64_t)ktime_get_ns();

	if (ts->tv_sec < mono / NSEC_PER_SEC ||
	    (ts->tv_sec == mono / NSEC_PER_SEC && ts->tv_nsec < mono % NSEC_PER_SEC)) {
		irq_restore(irq);
		return -EINVAL;
	}
	realtime_offset = ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec - mono;
	vdso_set_realtime_offset(realtime_offset);
	irq_restore(irq);
	timerfd_clock_was_set();
	return 0;
}
