/*
 * leakcheck.h - the check the leak tests end with: do the work a few times
 * to warm up (caches, lazily built kernel tables), take free memory, do it
 * N more times, take free memory again. A kernel that gives back all it
 * took shows the same figure, to the page.
 */
#ifndef LEAKCHECK_H
#define LEAKCHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

/* Free memory in KiB (sysinfo), or -1. */
static inline long long free_kib(void)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0)
		return -1;
	return (long long)si.freeram * si.mem_unit / 1024;
}

/* Free memory once the kernel has finished cleaning up after the last
 * exits (a parent's wait can return before everything is given back):
 * the figure that stays the same over 20 ms. */
static inline long long settled_free_kib(void)
{
	long long kib = free_kib();

	for (int i = 0; i < 10; i++) {
		usleep(20000);
		long long again = free_kib();
		if (again == kib)
			break;
		kib = again;
	}
	return kib;
}

/*
 * Touch the 64 KiB of stack below the caller's frame. Where the stack
 * starts within its page is random (ASLR), so a call chain that goes a
 * little deeper after "before" than before it (printf, a signal
 * handler's frame) would sometimes take one new stack page, which the
 * process keeps: a leak that is not the kernel's. noinline: inlined, the
 * area would sit in the caller's frame, above the calls it is meant to
 * cover.
 */
static __attribute__((noinline, unused)) void warm_stack(void)
{
	volatile char area[64 * 1024];

	for (size_t i = 0; i < sizeof(area); i += 512)
		area[i] = 0;
}

/* Print "free memory before and after N WHAT: same", or by how much the
 * figures differ. Returns 0 when they are the same, else 1. */
static inline int report_free(long long before, long long after, long n, const char *what)
{
	printf("free memory before and after %ld %s: ", n, what);
	if (before == after) {
		printf("same\n");
		return 0;
	}
	printf("differs by %lld KiB (%lld KiB free before, %lld KiB after)\n",
	       llabs(after - before), before, after);
	return 1;
}

/*
 * The whole check for a test whose work is one function: 20 rounds to
 * warm up, then n measured, reported as report_free does. /proc is
 * mounted first if it is not (init does not, for tests).
 */
static inline __attribute__((unused)) int leak_check_rounds(void (*round)(void), long n,
							     const char *what)
{
	if (access("/proc/self", F_OK)) {
		mkdir("/proc", 0555);
		mount("proc", "/proc", "proc", 0, NULL);
	}
	for (int i = 0; i < 20; i++)
		round();
	warm_stack();
	long long before = settled_free_kib();
	for (long i = 0; i < n; i++)
		round();
	long long after = settled_free_kib();
	return report_free(before, after, n, what);
}

#endif
