/*
 * kill_zombie - a zombie still exists for kill(2) until it is reaped; after
 * that its pid is gone (ESRCH).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(3);
	struct timespec ts = { 0, 200000000 };
	nanosleep(&ts, NULL);
	printf("kill(zombie, 0): %s\n", kill(pid, 0) == 0 ? "0" : strerror(errno));
	printf("kill(zombie, SIGTERM): %s\n", kill(pid, SIGTERM) == 0 ? "0" : strerror(errno));
	int status;
	waitpid(pid, &status, 0);
	printf("its status stays the exit status: %d\n", WEXITSTATUS(status));
	printf("kill(reaped, 0): %s\n", kill(pid, 0) == 0 ? "0" : strerror(errno));
	return 0;
}
