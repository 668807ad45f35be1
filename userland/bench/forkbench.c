/*
 * forkbench MIB N - what fork costs a process that has MIB MiB of touched
 * memory: it allocates and writes that much (malloc; every page written, so
 * every page has a frame), then times N cycles of each of
 *   fork + _exit in the child + wait4            (the child touches nothing)
 *   fork + child writes one byte a page + _exit + wait4
 * and prints the minimum, median and mean of one cycle in microseconds
 * (CLOCK_MONOTONIC). With fork copying every page, both cost about the same;
 * with copy-on-write the first is cheap and the second pays for the copies
 * the child makes. Figures only: the output differs from run to run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

#define PAGE 4096

/* One cycle; its duration in µs, or -1 on failure. */
static double cycle(volatile char *mem, size_t size, int child_writes)
{
	double t0 = now_us();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (child_writes)
			for (size_t off = 0; off < size; off += PAGE)
				mem[off]++;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || status != 0)
		return -1;
	return now_us() - t0;
}

static int measure(const char *label, char *mem, size_t size, long n, int child_writes)
{
	double *t = malloc(n * sizeof(*t));

	if (!t)
		return -1;
	for (long i = 0; i < n; i++) {
		t[i] = cycle(mem, size, child_writes);
		if (t[i] < 0) {
			fprintf(stderr, "forkbench: fork failed\n");
			free(t);
			return -1;
		}
	}
	printf("fork+%s+wait4 with %zu MiB touched", label, size >> 20);
	print_cycles(t, n);
	free(t);
	return 0;
}

int main(int argc, char *argv[])
{
	long mib, n;

	if (argc != 3 || (mib = atol(argv[1])) <= 0 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: forkbench MIB N\n");
		return 2;
	}
	size_t size = (size_t)mib << 20;
	char *mem = malloc(size);
	if (!mem) {
		fprintf(stderr, "forkbench: no memory for %ld MiB\n", mib);
		return 1;
	}
	memset(mem, 1, size);
	if (measure("_exit", mem, size, n, 0) < 0 ||
	    measure("child writes every page+_exit", mem, size, n, 1) < 0)
		return 1;
	return 0;
}
