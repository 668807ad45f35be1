/*
 * leak N PROGRAM - prove that fork + execve + exit + wait4 leaks no memory.
 *
 * Runs PROGRAM 10 times to warm up (caches, lazily built kernel tables),
 * measures free memory, runs it N more times, measures again and prints
 *   free memory before and after N fork+exec+exit cycles: same
 * or "... differs by K KiB (...)". Free memory is sysinfo(2)'s
 * freeram * mem_unit, or /proc/meminfo's MemFree if sysinfo fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Free memory in KiB, or -1. */
static long long free_kib(void)
{
	struct sysinfo si;
	char line[256];
	long long kib = -1;
	FILE *f;

	if (sysinfo(&si) == 0)
		return (long long)si.freeram * si.mem_unit / 1024;
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %lld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

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
	printf("free memory before and after %ld fork+exec+exit cycles: ", n);
	if (after == before)
		printf("same\n");
	else
		printf("differs by %lld KiB (%lld KiB free before, %lld KiB after)\n",
		       llabs(after - before), before, after);
	return after == before ? 0 : 1;
}
