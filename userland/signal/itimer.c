/*
 * itimer - alarm, setitimer and getitimer as Linux has them: SIGALRM after
 * alarm(), what alarm() returns, a periodic ITIMER_REAL, ITIMER_VIRTUAL
 * counting only user time, and that a child does not inherit timers.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms, vtalarms;

static void on_alarm(int sig) { (void)sig; alarms++; }
static void on_vtalarm(int sig) { (void)sig; vtalarms++; }

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	fflush(stdout);
}

int main(void)
{
	struct itimerval it, old;

	signal(SIGALRM, on_alarm);
	signal(SIGVTALRM, on_vtalarm);

	say("alarm(0) with none set returns 0", alarm(0) == 0);
	alarm(5);
	unsigned left = alarm(1);
	say("alarm returns the seconds left", left == 5);
	pause();
	say("SIGALRM arrives", alarms == 1);

	getitimer(ITIMER_REAL, &it);
	say("no timer left after it fired", it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0);

	it.it_interval.tv_sec = 0;
	it.it_interval.tv_usec = 50000;
	it.it_value = it.it_interval;
	setitimer(ITIMER_REAL, &it, NULL);
	while (alarms < 4)
		pause();
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, &old);
	say("a periodic timer fires again and again", alarms == 4);
	say("setitimer gives back the old interval", old.it_interval.tv_usec == 50000);

	it.it_value.tv_usec = 100000;
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	struct timespec nap = { 0, 300000000 };
	nanosleep(&nap, NULL);
	say("ITIMER_VIRTUAL does not run while asleep", vtalarms == 0);
	while (!vtalarms)
		; /* spin in user mode */
	say("ITIMER_VIRTUAL fires on user time", vtalarms == 1);

	alarm(10);
	pid_t pid = fork();
	if (pid == 0)
		_exit(alarm(0) == 0 ? 0 : 1);
	int status;
	waitpid(pid, &status, 0);
	say("a child does not inherit the alarm", WIFEXITED(status) && WEXITSTATUS(status) == 0);
	say("the parent still has it", alarm(0) > 0);

	errno = 0;
	say("setitimer(7) is EINVAL", setitimer(7, &it, NULL) == -1 && errno == EINVAL);
	return 0;
}
