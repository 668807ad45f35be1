/*
 * leak N PROGRAM - prove that fork + execve + exit + wait4 leaks no memory.
 *
 * Runs PROGRAM 10 times to warm up (caches, lazily built kernel tables),
 * measures free memory, runs it N more times, measures again and prints
 *   free memory before and after N fork+exec+exit cycles: same
 * or "... differs by K KiB (...)". Free memory is sysinfo(2)'s
 * freeram * mem_unit (leakcheck.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leakcheck.h"

extern char **environ;

/* Run PROGRAM n times, one at a time. Returns 0, or -1 after a message. */
static int run(long n, char *prog)
{
	char *argv[] = { prog, NULL };

	for (long i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("leak: fork");
			return -1;
		}
		if (pid == 0) {
			execve(prog, argv, environ);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) < 0) {
			perror("leak: waitpid");
			return -1;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "leak: cycle %ld: '%s' failed (status 0x%x)\n",
				i, prog, status);
			return -1;
		}
	}
	return 0;
}

int main(int argc, char *argv[])
{
	long long before, after;
	long n;

	if (argc != 3 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: leak N PROGRAM\n");
		return 2;
	}
	if (run(10, argv[2]) < 0)
		return 1;
	before = free_kib();
	if (before < 0) {
		fprintf(stderr, "leak: cannot read free memory\n");
		return 1;
	}
	if (run(n, argv[2]) < 0)
		return 1;
	after = free_kib();
	return report_free(before, after, n, "fork+exec+exit cycles");
}
