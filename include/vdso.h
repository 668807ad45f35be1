/*
 * vdso.h - the data page the kernel shares with the vDSO ([vvar]), and the
 * kernel's side of the vDSO (kernel/vdso.c).
 *
 * The vDSO (kernel/vdso/vdso.c) is a small ELF shared object, built with
 * the kernel and mapped into every process, whose functions answer
 * clock_gettime, gettimeofday, time and getcpu without entering the
 * kernel: they read the clock's parameters from struct vdso_data, on the
 * first page of [vvar], four pages below the vDSO's ELF header, and the
 * CPU's time stamp counter. The formula is the kernel's own
 * (kernel/time/time.c), so both give the same times.
 */
#pragma once
#include <kernel.h>

struct vdso_data {
	uint32_t seq;         /* odd while the kernel changes the rest */
	uint32_t clock_mode;  /* VDSO_CLOCKMODE_* */
	uint64_t tsc_at_boot; /* the monotonic clock's zero, in TSC cycles */
	uint64_t tsc_khz;     /* TSC cycles per millisecond */
	int64_t realtime_offset; /* wall clock - monotonic clock, in ns */
	int32_t tz_minuteswest, tz_dsttime; /* what settimeofday last set */
	/* A time namespace's page only (VDSO_CLOCKMODE_TIMENS): */
	int64_t monotonic_offset_ns, boottime_offset_ns;
};

/*
 * A task in a time namespace other than the initial one finds, as the
 * first page of [vvar], its namespace's page: seq odd for ever (no reader
 * takes it for the clock's data), clock_mode TIMENS, and the offsets. The
 * clock's data is then at VVAR_TIMENS_PAGE, a page that is SIGBUS for
 * everyone else (Linux's layout).
 */
#define VDSO_CLOCKMODE_TSC 0
#define VDSO_CLOCKMODE_TIMENS 1
#define VVAR_TIMENS_PAGE 3

/* Nanoseconds of the monotonic clock at TSC value tsc: the kernel's
 * ktime_get_ns, step by step the same. */
static inline uint64_t vdso_cycles_to_ns(const struct vdso_data *vd, uint64_t tsc)
{
	uint64_t cycles = tsc - vd->tsc_at_boot, per_sec = vd->tsc_khz * 1000;

	return cycles / per_sec * 1000000000 + cycles % per_sec * 1000000 / vd->tsc_khz;
}

/* The sizes of the two areas, as Linux 6.1's: [vvar] is four pages (its
 * data, then pvclock, hvclock and time-namespace pages, which are SIGBUS
 * here as on a machine without them), [vdso] two. */
#define VVAR_PAGES 4
#define VDSO_PAGES 2

#ifndef VDSO_USER
struct mm;
void vdso_init(void); /* copy the image into pages, fill [vvar] */
/* The wall clock was set, or the time zone (settimeofday): update [vvar]. */
void vdso_set_realtime_offset(int64_t offset);
void vdso_set_timezone(int minuteswest, int dsttime);
/* exec: map [vvar] and [vdso] near the stack (Linux's vdso_addr), set
 * mm->vdso. 0 or -errno. */
int arch_setup_additional_pages(struct mm *mm);
/* Make page a time namespace's [vvar] page, with these offsets. */
void vdso_timens_fill(void *page, int64_t monotonic_offset_ns, int64_t boottime_offset_ns);
/* t's [vvar] is to show its (new) time namespace: drop the pages mapped,
 * the next access faults the right ones in. */
struct task;
void vdso_join_timens(struct task *t);
#endif
