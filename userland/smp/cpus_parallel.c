/*
 * cpus_parallel - proof that the CPUs run at once: one thread pinned to
 * each CPU adds one to a shared counter, then spins (no system call, no
 * yield) until the counter says every thread has arrived. Then the
 * threads pass a token round the ring of CPUs, each spinning until it is
 * its turn, 10000 times round (argv[1] times: with more CPUs than the
 * host has cores, a pass may wait for the host to run another CPU).
 *
 * On CPUs that run at once a pass takes microseconds. Where the threads
 * only take turns on one CPU, each pass waits for the timer tick to take
 * the CPU from a spinner (10 ms at HZ 100): the ring takes minutes and
 * the case's timeout ends it. Where a thread cannot be pinned to its CPU
 * (a kernel with one CPU), it fails at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpus.h"

#define MAX_CPUS 64
static int laps = 10000; /* argv[1] */

static int ncpus;
static atomic_int arrived;
static atomic_int token; /* the turn: the thread whose index is token % ncpus */
static atomic_int given_up; /* a thread could not be pinned: nobody waits */

struct worker {
	pthread_t thread;
	int cpu;
	int pin_error;     /* errno of sched_setaffinity, 0 */
	int cpu_at_start;  /* sched_getcpu() once pinned */
	int cpu_at_end;
};

static void *work(void *arg)
{
	struct worker *w = arg;

	if (pin_to(w->cpu) < 0) {
		w->pin_error = errno;
		atomic_store(&given_up, 1);
		return NULL;
	}
	w->cpu_at_start = sched_getcpu();
	atomic_fetch_add(&arrived, 1);
	while (atomic_load(&arrived) < ncpus && !atomic_load(&given_up))
		;
	for (int lap = 0; lap < laps; lap++) {
		int mine = lap * ncpus + w->cpu;
		while (atomic_load(&token) != mine && !atomic_load(&given_up))
			;
		atomic_store(&token, mine + 1);
	}
	w->cpu_at_end = sched_getcpu();
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[MAX_CPUS];
	int ok = 1;

	if (argc > 1)
		laps = atoi(argv[1]);
	ncpus = cpus_allowed();
	if (ncpus < 2 || ncpus > MAX_CPUS) {
		printf("cpus_parallel: %d CPUs, needs 2 to %d\n", ncpus, MAX_CPUS);
		return 1;
	}
	printf("cpus_parallel: %d CPUs, one thread pinned to each\n", ncpus);
	fflush(stdout);
	memset(w, 0, sizeof(w));
	for (int i = 0; i < ncpus; i++) {
		w[i].cpu = i;
		pthread_create(&w[i].thread, NULL, work, &w[i]);
	}
	for (int i = 0; i < ncpus; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].pin_error || w[i].cpu_at_start != i || w[i].cpu_at_end != i) {
			printf("thread %d: pinning %s, on CPU %d then %d\n", i, strerror(w[i].pin_error),
			       w[i].cpu_at_start, w[i].cpu_at_end);
			ok = 0;
		}
	}
	if (!ok)
		return 1;
	printf("each thread ran on its own CPU from start to end\n");
	printf("all %d CPUs ran at once\n", atomic_load(&arrived));
	printf("the token went %d times round the %d CPUs: %d passes\n", laps, ncpus, atomic_load(&token));
	return 0;
}
