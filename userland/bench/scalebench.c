/*
 * scalebench.c - how the kernel scales with CPUs (make bench, booted with
 * -smp N): what two CPU-bound processes cost at once against one after
 * the other, and how many fork + execve + wait4 cycles per second one
 * worker makes against one worker per CPU.
 *
 *   scalebench SPINS CYCLES PROGRAM
 *
 * Worker w runs on CPU w only (its children inherit the pin): a worker's
 * fork, exec and wait then stay on its CPU, as the work of "one worker
 * per CPU" should. Unpinned, a child may start on the idle CPU and every
 * wake-up cross between CPUs; under QEMU, where an idle CPU's halt is a
 * host thread's sleep, that made one worker's figure vary by 2.5x from
 * boot to boot (and Linux's "scaling" reach 3.9 on two CPUs).
 *
 * Each figure is the best of three tries. A line "scaling LABEL: X" gives
 * a ratio: for the CPU-bound pair, time at once / time one after the other
 * (0.5 is perfect on two CPUs, 1.0 is no parallelism); for fork+exec,
 * throughput with N workers / with one (N is perfect).
 *
 * Where the kernel has /proc/lock_stat with a "kernel_lock" line (our big
 * kernel lock; Linux has none), the fork+exec rows also say how much of
 * their time the lock was held: near 100% with N workers, the lock is
 * what they wait for; with one worker on one CPU, it is the share of the
 * work that cannot run on two CPUs at once.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
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

/* Pin the caller to CPU cpu; with fewer CPUs (a boot on one, under
 * -icount), workers past the last share the CPUs there are. */
static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu >= (int)sysconf(_SC_NPROCESSORS_ONLN))
		return;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		perror("sched_setaffinity");
}

/* Fork `workers` children, child w pinned to CPU w, that each run
 * job(arg); wait for them all. */
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
			pin_to_cpu(w);
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

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The big kernel lock's total hold time in us, -1 if not known. */
static double kernel_lock_held_us(void)
{
	FILE *f = fopen("/proc/lock_stat", "r");
	char line[512];
	double held = -1;

	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "kernel_lock:");
		double v[12];
		if (p && sscanf(p + 12, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1],
				&v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11]) == 12)
			held = v[10]; /* holdtime-total */
	}
	if (f)
		fclose(f);
	return held;
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

	if (access("/proc/self", F_OK) != 0) /* init may not have mounted it */
		mount("proc", "/proc", "proc", 0, NULL);
	write_file("/proc/sys/kernel/lock_stat", "1");
	write_file("/proc/lock_stat", "0");
	double held0 = kernel_lock_held_us(), t0 = now_us();
	double t1 = best_of_3(1, exec_job, cycles, prog);
	double held1 = kernel_lock_held_us(), t1_all = now_us();
	double tn = best_of_3(cpus, exec_job, cycles, prog);
	double heldn = kernel_lock_held_us(), tn_all = now_us();
	write_file("/proc/sys/kernel/lock_stat", "0");
	printf("fork+execve+wait4 of %s: 1 worker %.0f/s, %d workers %.0f/s\n", prog,
	       cycles / t1 * 1e6, cpus, cpus * cycles / tn * 1e6);
	if (held0 >= 0 && heldn >= 0)
		printf("big kernel lock held: %.1f%% of the time with 1 worker, %.1f%% with %d\n",
		       100 * (held1 - held0) / (t1_all - t0), 100 * (heldn - held1) / (tn_all - t1_all), cpus);
	printf("scaling fork+execve+wait4, %d workers / 1 worker: %.2f\n", cpus, cpus * cycles / tn * t1 / cycles);
	return 0;
}
