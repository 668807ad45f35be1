/*
 * vdso.c - the vDSO's code: user-mode functions that the kernel maps into
 * every process (as Linux's arch/x86/entry/vdso), so that asking the time
 * costs no system call. glibc and musl find them through AT_SYSINFO_EHDR
 * and call them in place of clock_gettime(2), gettimeofday(2), time(2) and
 * getcpu(2).
 *
 * This file is not kernel code: it is compiled as position-independent
 * user code and linked by kernel/vdso/vdso.lds into a shared object
 * (build/vdso/vdso.so), which the kernel carries as data
 * (kernel/vdso_image.S). It may not use a C library, and nothing in it may
 * need relocating: the data page is reached rip-relative.
 *
 * The clocks are the kernel's (kernel/time/time.c): the monotonic clock is
 * the TSC since boot, converted with the rate measured at boot; the wall
 * clock adds an offset, the boot time read from the CMOS clock until the
 * clock is set. What the vDSO cannot
 * answer itself (the CPU-time clocks, an unknown clock) it asks the kernel,
 * as Linux's does.
 */
#define VDSO_USER
#include <vdso.h>

/* [vvar]: the first page is the data (the linker script places it). */
extern const struct vdso_data vvar_page __attribute__((visibility("hidden")));

struct timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};
struct timeval {
	int64_t tv_sec;
	int64_t tv_usec;
};
struct timezone {
	int tz_minuteswest;
	int tz_dsttime;
};

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7
#define CLOCK_TAI 11 /* the realtime clock plus a TAI offset of 0 */

#define NR_clock_gettime 228
#define NR_clock_getres 229

static long syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return ret;
}

static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	/* lfence: the counter is read after what came before, as Linux's. */
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return (uint64_t)hi << 32 | lo;
}

/*
 * The clock's data page: [vvar]'s first, or, in a time namespace (whose
 * own page is first, seq odd for ever), the timens page after it; its
 * offsets then come from the first. No relocation: both are reached from
 * vvar_page's rip-relative address.
 */
static const volatile struct vdso_data *clock_data(int64_t *mono_off, int64_t *boot_off)
{
	const volatile struct vdso_data *vd = &vvar_page;

	*mono_off = *boot_off = 0;
	if (vd->clock_mode != VDSO_CLOCKMODE_TIMENS)
		return vd;
	*mono_off = vd->monotonic_offset_ns;
	*boot_off = vd->boottime_offset_ns;
	return (const volatile struct vdso_data *)((const volatile char *)vd + VVAR_TIMENS_PAGE * 4096);
}

/* Nanoseconds since boot, read consistently with the kernel's updates;
 * the wall clock's offset from it, and the offsets of the caller's time
 * namespace. */
static uint64_t monotonic_ns(int64_t *real_off, int64_t *mono_off, int64_t *boot_off)
{
	const volatile struct vdso_data *vd = clock_data(mono_off, boot_off);
	uint32_t seq;
	uint64_t ns;

	do {
		while ((seq = vd->seq) & 1)
			__asm__ volatile("pause");
		__asm__ volatile("" ::: "memory");
		ns = vdso_cycles_to_ns((const struct vdso_data *)vd, rdtsc_ordered());
		*real_off = vd->realtime_offset;
		__asm__ volatile("" ::: "memory");
	} while (vd->seq != seq);
	return ns;
}

int __vdso_clock_gettime(int clock, struct timespec *ts)
{
	int64_t real_off, mono_off, boot_off;
	uint64_t ns;

	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
		break;
	default: /* CPU-time clocks, or unknown: the kernel answers */
		return syscall2(NR_clock_gettime, clock, (long)ts);
	}
	ns = monotonic_ns(&real_off, &mono_off, &boot_off);
	if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_TAI)
		ns += real_off;
	else if (clock == CLOCK_BOOTTIME)
		ns += boot_off;
	else if (clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_MONOTONIC_COARSE)
		ns += mono_off;
	ts->tv_sec = ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
	return 0;
}

int __vdso_gettimeofday(struct timeval *tv, struct timezone *tz)
{
	if (tv) {
		struct timespec ts;

		__vdso_clock_gettime(CLOCK_REALTIME, &ts);
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = ts.tv_nsec / 1000;
	}
	if (tz) { /* what settimeofday last set, kept but not used */
		int64_t mono_off, boot_off;
		const volatile struct vdso_data *vd = clock_data(&mono_off, &boot_off);

		tz->tz_minuteswest = vd->tz_minuteswest;
		tz->tz_dsttime = vd->tz_dsttime;
	}
	return 0;
}

int64_t __vdso_time(int64_t *t)
{
	int64_t real_off, mono_off, boot_off;
	int64_t secs = ((int64_t)monotonic_ns(&real_off, &mono_off, &boot_off) + real_off) / 1000000000;

	if (t)
		*t = secs;
	return secs;
}

/* The CPU and node the caller runs on: the limit of the GDT's CPUNODE
 * segment (selector 0x7b), which each CPU sets to its own number
 * (arch/x86/kernel/gdt.c), as Linux's vDSO reads it without RDPID. */
long __vdso_getcpu(unsigned *cpu, unsigned *node, void *unused)
{
	unsigned int p;

	(void)unused;
	__asm__ volatile("lsl %1, %0" : "=r"(p) : "r"(0x7bU));
	if (cpu)
		*cpu = p & 0xfff;
	if (node)
		*node = p >> 12;
	return 0;
}

int __vdso_clock_getres(int clock, struct timespec *res)
{
	return syscall2(NR_clock_getres, clock, (long)res);
}

/*
 * Linux's vDSO also enters an SGX enclave (ENCLU with EENTER or ERESUME,
 * leaf 2 or 3 in the fourth argument). There is no SGX here: a leaf that
 * is not one of those is -EINVAL, as in Linux; the others fault as ENCLU
 * does on a CPU without SGX (#UD), which Linux reports as -EFAULT with the
 * exception recorded in the run structure (the seventh argument).
 */
struct sgx_enclave_run {
	uint64_t tcs;
	uint32_t function;
	uint16_t exception_vector;
	uint16_t exception_error_code;
	uint64_t exception_addr;
	uint64_t user_handler;
	uint64_t user_data;
	uint8_t reserved[216];
};

int __vdso_sgx_enter_enclave(unsigned long rdi, unsigned long rsi, unsigned long rdx,
			     unsigned int function, unsigned long r8, unsigned long r9,
			     struct sgx_enclave_run *run)
{
	(void)rdi, (void)rsi, (void)rdx, (void)r8, (void)r9;
	if (function < 2 || function > 3)
		return -22; /* EINVAL */
	run->function = function;
	run->exception_vector = 6; /* #UD */
	run->exception_error_code = 0;
	run->exception_addr = 0;
	return -14; /* EFAULT */
}

/* The plain names, as Linux's vDSO has them too. */
int clock_gettime(int, struct timespec *) __attribute__((weak, alias("__vdso_clock_gettime")));
int gettimeofday(struct timeval *, struct timezone *) __attribute__((weak, alias("__vdso_gettimeofday")));
int64_t time(int64_t *) __attribute__((weak, alias("__vdso_time")));
long getcpu(unsigned *, unsigned *, void *) __attribute__((weak, alias("__vdso_getcpu")));
int clock_getres(int, struct timespec *) __attribute__((weak, alias("__vdso_clock_getres")));
