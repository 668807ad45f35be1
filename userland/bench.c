/*
 * bench N PROGRAM - time N cycles of fork + execve(PROGRAM) + wait4, then N
 * cycles with vfork instead of fork, and print the minimum, median and mean
 * time of one cycle in microseconds (clock_gettime, CLOCK_MONOTONIC). Also
 * prints the monotonic clock at start: on Linux and on our kernel it counts
 * from boot, so it is the guest's own boot time to this program, and the
 * total and free memory that sysinfo(2) reports.
 * Figures only: the output differs from run to run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One cycle; returns its duration in µs, or -1 on failure. */
static double cycle(char *prog, int use_vfork)
{
	char *argv[] = { prog, NULL };
	double t0 = now_us();
	int status;
	pid_t pid = use_vfork ? vfork() : fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execve(prog, argv, environ);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || status != 0)
		return -1;
	return now_us() - t0;
}

static int measure(const char *label, long n, char *prog, int use_vfork)
{
	double *t = malloc(n * sizeof(*t)), sum = 0;

	if (!t)
		return -1;
	for (long i = 0; i < n; i++) {
		t[i] = cycle(prog, use_vfork);
		if (t[i] < 0) {
			fprintf(stderr, "bench: %s of '%s' failed\n", label, prog);
			free(t);
			return -1;
		}
		sum += t[i];
	}
	qsort(t, n, sizeof(*t), cmp);
	printf("%s+execve+wait4 of %s, %ld cycles: min %.0f us, median %.0f us, mean %.0f us\n",
	       label, prog, n, t[0], t[n / 2], sum / n);
	fflush(stdout);
	free(t);
	return 0;
}

int main(int argc, char *argv[])
{
	struct sysinfo si;
	long n;

	if (argc != 3 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: bench N PROGRAM\n");
		return 2;
	}
	printf("bench: monotonic clock at start: %.3f s\n", now_us() / 1e6);
	if (sysinfo(&si) == 0)
		printf("bench: memory: %llu KiB total, %llu KiB free\n",
		       (unsigned long long)si.totalram * si.mem_unit / 1024,
		       (unsigned long long)si.freeram * si.mem_unit / 1024);
	fflush(stdout);
	if (measure("fork", n, argv[2], 0) < 0 || measure("vfork", n, argv[2], 1) < 0)
		return 1;
	return 0;
}
