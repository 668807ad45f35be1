/*
 * timeit N PROGRAM [ARGS...] - run PROGRAM N times (fork, execv, wait) and
 * print the fastest and the slowest wall-clock time, in ms, on stderr: for
 * figures such as qemu-aarch64-static's hello under TCG (make bench
 * style; not used by a test, whose output must not depend on time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char *argv[])
{
	int n = argc > 2 ? atoi(argv[1]) : 0;
	double best = 1e18, worst = 0;

	if (n <= 0) {
		fprintf(stderr, "usage: timeit N PROGRAM [ARGS...]\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		double t0 = now_ms();
		pid_t pid = fork();
		if (pid == 0) {
			execv(argv[2], argv + 2);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
		double t = now_ms() - t0;
		best = t < best ? t : best;
		worst = t > worst ? t : worst;
	}
	fprintf(stderr, "timeit: %s: %d runs, fastest %.1f ms, slowest %.1f ms\n", argv[2], n, best, worst);
	return 0;
}
