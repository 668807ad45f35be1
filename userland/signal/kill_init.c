/*
 * kill_init - init takes only the signals it has a handler for: root's
 * SIGINT, SIGQUIT, SIGSEGV, SIGSTOP and SIGKILL to pid 1 do nothing
 * (Linux's SIGNAL_UNKILLABLE), and init goes on to run the next program.
 * (Our init handles SIGTERM, SIGUSR1 and SIGUSR2: busybox's reboot, halt
 * and poweroff.) A user who is not root may not signal it at all.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *result(int r)
{
	return r == 0 ? "0" : strerror(errno);
}

/* init's state letter, from /proc/1/stat ("1 (init) S ..."). */
static char init_state(void)
{
	char buf[256], *p;
	FILE *f = fopen("/proc/1/stat", "r");

	if (!f)
		return '?';
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

int main(void)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGHUP, SIGSEGV, SIGSTOP, SIGKILL };
	struct timespec pause = { 0, 100000000 };

	setvbuf(stdout, NULL, _IONBF, 0);
	if (access("/proc/1", F_OK) != 0) {
		mkdir("/proc", 0555);
		mount("proc", "/proc", "proc", 0, NULL);
	}

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		printf("root: kill(1, %s): %s", strsignal(sigs[i]), result(kill(1, sigs[i])));
		nanosleep(&pause, NULL);
		printf(", init's state %c\n", init_state());
	}
	pid_t pid = fork();
	if (pid == 0) {
		if (setuid(1000))
			return 1;
		printf("uid 1000: kill(1, SIGTERM): %s\n", result(kill(1, SIGTERM)));
		printf("uid 1000: kill(1, 0): %s\n", result(kill(1, 0)));
		return 0;
	}
	waitpid(pid, NULL, 0);
	return 0;
}
