/*
 * forkbomb - root forks until the kernel refuses: fork must fail with
 * EAGAIN (the limit on tasks, Linux's threads-max: root is exempt from
 * RLIMIT_NPROC), not crash or hang the kernel, and everything must come
 * back once the children are gone.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CHILDREN 100000

static pid_t pids[MAX_CHILDREN];

int main(void)
{
	int n = 0, err = 0, status;

	setvbuf(stdout, NULL, _IONBF, 0);
	while (n < MAX_CHILDREN) {
		pid_t pid = fork();
		if (pid == 0) {
			for (;;)
				pause();
		}
		if (pid < 0) {
			err = errno;
			break;
		}
		pids[n++] = pid;
	}
	printf("forkbomb: fork failed: %s\n", strerror(err));
	printf("forkbomb: more than 500 children first: %s\n", n > 500 ? "yes" : "no");
	for (int i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	printf("forkbomb: all children reaped\n");
	pid_t pid = fork();
	if (pid == 0)
		_exit(42);
	waitpid(pid, &status, 0);
	printf("forkbomb: fork works again: %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 42 ? "yes" : "no");
	return 0;
}
