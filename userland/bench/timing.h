/*
 * timing.h - what bench.c and forkbench.c share: a clock in microseconds,
 * and the summary line of n timed cycles.
 */
#ifndef TIMING_H
#define TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Finish the line the caller began with ", N cycles: min, median, mean"
 * of the n durations t (which this sorts). Rows under 100 us get three
 * decimals: one system call, one page fault. */
static inline void print_cycles(double *t, long n)
{
	double sum = 0;
	int decimals = 0;

	for (long i = 0; i < n; i++)
		sum += t[i];
	qsort(t, n, sizeof(*t), cmp_double);
	if (t[0] < 100)
		decimals = 3;
	printf(", %ld cycles: min %.*f us, median %.*f us, mean %.*f us\n", n,
	       decimals, t[0], decimals, t[n / 2], decimals, sum / n);
	fflush(stdout);
}

#endif
