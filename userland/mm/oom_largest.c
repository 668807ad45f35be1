/*
 * oom_largest - the OOM killer kills the largest process, not the one
 * whose page fault found no memory. A takes 60% of the free memory and
 * sleeps; then B takes 60% more, a megabyte at a time. Memory runs out in
 * B's fault, but A is the larger: A is killed, B gets A's memory and ends.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

static void take(unsigned long bytes)
{
	for (unsigned long done = 0; done < bytes; done += 1 << 20) {
		char *p = malloc(1 << 20);
		if (!p) {
			printf("oom_largest: malloc failed\n");
			exit(1);
		}
		memset(p, 0x5a, 1 << 20);
	}
}

static void report(const char *who, int status)
{
	if (WIFSIGNALED(status))
		printf("oom_largest: %s was killed by signal %d\n", who, WTERMSIG(status));
	else
		printf("oom_largest: %s exited with status %d\n", who, WEXITSTATUS(status));
}

int main(void)
{
	struct sysinfo si;
	int ready[2], status;

	setvbuf(stdout, NULL, _IONBF, 0);
	sysinfo(&si);
	unsigned long share = si.freeram * si.mem_unit / 10 * 6;
	if (pipe(ready))
		return 1;
	pid_t a = fork();
	if (a == 0) {
		take(share);
		write(ready[1], "A", 1);
		for (;;)
			pause();
	}
	char c;
	read(ready[0], &c, 1);
	printf("oom_largest: A holds 60%% of free memory\n");
	pid_t b = fork();
	if (b == 0) {
		take(share);
		printf("oom_largest: B took 60%% more\n");
		exit(0);
	}
	waitpid(b, &status, 0);
	report("B", status);
	kill(a, SIGKILL); /* if it was not killed already */
	waitpid(a, &status, 0);
	report("A", status);
	return 0;
}
