/*
 * scalebench.c - how the kernel scales with CPUs (make bench, booted with
 * -smp N): what two CPU-bound processes cost at once against one after
 * the other, and how many fork + execve + wait4 cycles per second one
 * worker makes against one worker per CPU.
 *
 *   scalebench SPINS CYCLES PROGRAM
 *
 * Each figure is the best of three tries. A line "scaling LABEL: X" gives
 * a ratio: for the CPU-bound pair, time at once / time one after the other
 * (0.5 is perfect on two CPUs, 1.0 is no parallelism); for fork+exec,
 * throughput with N workers / with one (N is perfect).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timing.h"

static volatile unsigned long sink;

static void spin(long n)
{
	unsigned long x = 1;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

/* Fork `workers` children that each run job(arg); wait for them all. */
static double run_workers(int workers, void (*job)(long, const char *), long arg, const char *prog)
{
	double t0 = now_us();

	for (int w = 0; w < workers; w++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			exit(1);
		}
		if (pid == 0) {
			job(arg, prog);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	return now_us() - t0;
}

static void spin_job(long n, const char *prog)
{
	(void)prog;
	spin(n);
}

static void exec_job(long cycles, const char *prog)
{
	for (long i = 0; i < cycles; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			execl(prog, prog, (char *)NULL);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
	}
}

static double best_of_3(int workers, void (*job)(long, const char *), long arg, const char *prog)
{
	double best = 0;

	for (int i = 0; i < 3; i++) {
		double t = run_workers(workers, job, arg, prog);
		if (i == 0 || t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	long spins = argc > 1 ? atol(argv[1]) : 50000000;
	long cycles = argc > 2 ? atol(argv[2]) : 100;
	const char *prog = argc > 3 ? argv[3] : "/usr/lib/exec-tests/true";
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);

	double one = best_of_3(1, spin_job, spins, prog);
	double pair = best_of_3(2, spin_job, spins, prog);
	printf("CPU-bound process alone: %.0f us; two at once: %.0f us (%d CPUs)\n", one, pair, cpus);
	printf("scaling two CPU-bound processes, at once / one after the other: %.2f\n", pair / (2 * one));

	double t1 = best_of_3(1, exec_job, cycles, prog);
	double tn = best_of_3(cpus, exec_job, cycles, prog);
	printf("fork+execve+wait4 of %s: 1 worker %.0f/s, %d workers %.0f/s\n", prog,
	       cycles / t1 * 1e6, cpus, cpus * cycles / tn * 1e6);
	printf("scaling fork+execve+wait4, %d workers / 1 worker: %.2f\n", cpus, cpus * cycles / tn * t1 / cycles);
	return 0;
}
