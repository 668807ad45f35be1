/*
 * bench N PROGRAM - time N cycles of fork + execve(PROGRAM) + wait4, then N
 * cycles with vfork instead of fork, and print the minimum, median and mean
 * time of one cycle in microseconds (clock_gettime, CLOCK_MONOTONIC). Also
 * prints the monotonic clock at start: on Linux and on our kernel it counts
 * from boot, so it is the guest's own boot time to this program, and the
 * total and free memory that sysinfo(2) reports.
 * Figures only: the output differs from run to run.
 *
 * bench -f PLAN - the rows of a plan file, one a line: "N [-R] [-a K]
 * PROGRAM [ARG...]" times N cycles of fork + execve + wait4 of PROGRAM
 * with those arguments; with -a K, K more arguments of 100 bytes each
 * (what copy_strings costs); with -R, the child runs with
 * personality(ADDR_NO_RANDOMIZE), as setarch -R (see tests/bench.sh for
 * why that matters under QEMU). Lines starting with # are comments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

extern char **environ;

static char *default_argv[2];
static int extra_args, shown_args; /* how many of run_argv[1..] to print */
static int no_randomize;
static char **run_argv = default_argv; /* the program's argv */

/* One cycle; returns its duration in µs, or -1 on failure. */
static double cycle(char *prog, int use_vfork)
{
	char **argv = run_argv;
	double t0 = now_us();
	int status;
	pid_t pid = use_vfork ? vfork() : fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (no_randomize)
			personality(ADDR_NO_RANDOMIZE);
		execve(prog, argv, environ);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || status != 0)
		return -1;
	return now_us() - t0;
}

static int measure(const char *label, long n, char *prog, int use_vfork)
{
	double *t = malloc(n * sizeof(*t));

	if (!t)
		return -1;
	for (long i = 0; i < n; i++) {
		t[i] = cycle(prog, use_vfork);
		if (t[i] < 0) {
			fprintf(stderr, "bench: %s of '%s' failed\n", label, prog);
			free(t);
			return -1;
		}
	}
	printf("%s+execve+wait4 of %s", label, prog);
	for (int i = 1; i <= shown_args; i++)
		printf(" %s", run_argv[i]);
	if (extra_args)
		printf(" (+%d args of 100 bytes)", extra_args);
	if (no_randomize)
		printf(" (ADDR_NO_RANDOMIZE)");
	print_cycles(t, n);
	free(t);
	return 0;
}

/* The rows of a plan file (see the top). */
static int run_plan(const char *path)
{
	static char filler[101];
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return 1;
	}
	memset(filler, 'x', 100);
	while (fgets(line, sizeof(line), f)) {
		char *words[64], *w;
		int nw = 0;
		long n;

		for (w = strtok(line, " \t\n"); w && nw < 60; w = strtok(NULL, " \t\n"))
			words[nw++] = w;
		if (nw < 2 || words[0][0] == '#')
			continue;
		n = atol(words[0]);
		extra_args = 0;
		no_randomize = 0;
		int first = 1;
		if (!strcmp(words[first], "-R") && nw > first + 1) {
			no_randomize = 1;
			first++;
		}
		if (!strcmp(words[first], "-a") && nw > first + 2) {
			extra_args = atoi(words[first + 1]);
			first += 2;
		}
		int argc = nw - first;
		char **av = calloc(argc + extra_args + 1, sizeof(char *));
		for (int i = 0; i < argc; i++)
			av[i] = words[first + i];
		for (int i = 0; i < extra_args; i++)
			av[argc + i] = filler;
		run_argv = av;
		shown_args = argc - 1;
		if (measure("fork", n, av[0], 0) < 0) {
			free(av);
			fclose(f);
			return 1;
		}
		free(av);
	}
	fclose(f);
	return 0;
}

int main(int argc, char *argv[])
{
	struct sysinfo si;
	long n;

	if (argc == 3 && !strcmp(argv[1], "-f"))
		return run_plan(argv[2]);
	if (argc != 3 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: bench N PROGRAM | bench -f PLAN\n");
		return 2;
	}
	default_argv[0] = argv[2];
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
