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
#include <sys/sysinfo.h>

/* Free memory in KiB (sysinfo), or -1. */
static inline long long free_kib(void)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0)
		return -1;
	return (long long)si.freeram * si.mem_unit / 1024;
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

#endif
