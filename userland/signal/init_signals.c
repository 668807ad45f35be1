/*
 * init_signals - pid 1 stays up whatever it is sent (sysfuzz found a way
 * to kill it): as on Linux, a signal whose action is the default one does
 * nothing to init, even from root, even SIGKILL; and a child that outlives
 * its parent is reparented to init with SIGCHLD as its exit signal, not the
 * one its clone asked for (SIGABRT here killed init; and init's wait4,
 * which takes only SIGCHLD children, never reaped it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
	nanosleep(&ts, NULL);
}

/* init's state letter from /proc/1/stat ('S' while it waits for us). */
static char init_state(void)
{
	char buf[256] = "", *p;
	FILE *f = fopen("/proc/1/stat", "r");

	if (!f)
		return '?';
	fgets(buf, sizeof(buf), f);
	fclose(f);
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

int main(void)
{
	static const int sigs[] = { SIGKILL, SIGSTOP, SIGABRT, SIGSEGV, SIGPROF, SIGHUP, SIGINT, SIGQUIT };

	setvbuf(stdout, NULL, _IONBF, 0);
	if (access("/proc/1/stat", F_OK))
		syscall(SYS_mount, "proc", "/proc", "proc", 0, NULL);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		printf("kill(1, %s): %d\n", strsignal(sigs[i]), kill(1, sigs[i]));
	nap(200);
	printf("init's state: %c\n", init_state());

	int p[2];
	pipe(p);
	pid_t a = fork();
	if (a == 0) {
		/* A child that tells its end with SIGABRT, then its parent goes. */
		long b = syscall(SYS_clone, SIGABRT, 0, NULL, NULL, 0);
		if (b == 0) {
			nap(200);
			_exit(0);
		}
		write(p[1], &b, sizeof(b));
		_exit(b > 0 ? 0 : 1);
	}
	int status;
	long b = 0;
	read(p[0], &b, sizeof(b));
	waitpid(a, &status, 0);
	printf("the parent exited with %d; its child now ends under init\n", WEXITSTATUS(status));
	nap(600);
	printf("init's state: %c\n", init_state());
	errno = 0;
	printf("the child was reaped by init: %s\n", kill(b, 0) < 0 && errno == ESRCH ? "yes" : "no");
	return 0;
}
