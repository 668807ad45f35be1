/*
 * stack_grow.c - the stack grows on demand down to RLIMIT_STACK, and no
 * further. A child sets RLIMIT_STACK, execs this program again (exec reads
 * the limit), which then uses a little less, or a little more, stack than
 * the limit allows, by touching one byte per page further and further down
 * from where it stands:
 *   /usr/lib/exec-tests/stack_grow            the cases below, one line each
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Touch every page from here down to kib KiB below. */
static int touch(long kib)
{
	volatile char probe;
	volatile char *p = &probe;

	for (long off = 0; off < kib * 1024; off += 4096)
		p[-off] = 1;
	return 0;
}

static void run(long limit_kib, long use_kib)
{
	char l[32], u[32];
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct rlimit rl = { limit_kib * 1024, RLIM_INFINITY };

		if (setrlimit(RLIMIT_STACK, &rl))
			perror("setrlimit");
		snprintf(l, sizeof(l), "%ld", limit_kib);
		snprintf(u, sizeof(u), "%ld", use_kib);
		execl("/proc/self/exe", "stack_grow", "-child", u, (char *)NULL);
		execl("/usr/lib/exec-tests/stack_grow", "stack_grow", "-child", u, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	printf("RLIMIT_STACK %5ld KiB, touching %5ld KiB below: %s\n", limit_kib, use_kib,
	       WIFEXITED(status) ? (WEXITSTATUS(status) ? "exit status not 0" : "fine") :
	       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "?");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-child"))
		return touch(atol(argv[2]));
	run(8192, 1024);
	run(8192, 7000);
	run(8192, 8300);
	run(1024, 900);
	run(1024, 1100);
	run(256, 200);
	run(256, 300);
	run(65536, 30000);
	return 0;
}
