/*
 * signals - checks signal delivery as Linux does it: handlers and
 * sigreturn, masks and pending signals, SA_RESTART and EINTR, stop and
 * continue as wait4 reports them, sigsuspend, the alternate stack, a caught
 * SIGSEGV, and SIGCHLD set to SIG_IGN. One line per check, the same on any
 * kernel that behaves like Linux.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;
static volatile uintptr_t handler_sp;
static sigjmp_buf jump;

static void on_signal(int sig)
{
	volatile double x = 1.5;
	got = sig;
	x = x * 3.0; /* handlers may use the FPU without harming main() */
	handler_sp = (uintptr_t)&x;
}

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(jump, 1);
}

static void catch(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	fflush(stdout);
}

/* Fork a child that sleeps ms milliseconds, sends sig to us, then exits with code. */
static pid_t poke_parent(int ms, int sig, int code)
{
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		struct timespec ts = { 0, ms * 1000000L };
		nanosleep(&ts, NULL);
		kill(parent, sig);
		nanosleep(&ts, NULL);
		_exit(code);
	}
	return pid;
}

int main(void)
{
	sigset_t set, old;
	int status;
	double before = 2.25;

	catch(SIGUSR1, on_signal, 0);
	raise(SIGUSR1);
	say("handler runs", got == SIGUSR1);
	say("fpu kept across handler", before * 2 == 4.5);

	got = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR1);
	sigpending(&set);
	say("blocked signal stays pending", got == 0 && sigismember(&set, SIGUSR1));
	sigprocmask(SIG_SETMASK, &old, NULL);
	say("unblocking delivers it", got == SIGUSR1);

	catch(SIGUSR2, on_signal, SA_RESETHAND);
	raise(SIGUSR2);
	struct sigaction q;
	sigaction(SIGUSR2, NULL, &q);
	say("SA_RESETHAND resets the handler", q.sa_handler == SIG_DFL);

	/* The child waits on a pipe after it is continued, so that the
	 * continue is reported before its exit could be. */
	int go[2];
	char byte = 0;
	pipe(go);
	pid_t pid = fork();
	if (pid == 0) {
		raise(SIGSTOP);
		read(go[0], &byte, 1);
		_exit(7);
	}
	waitpid(pid, &status, WUNTRACED);
	say("stopped child reported", WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	kill(pid, SIGCONT);
	waitpid(pid, &status, WCONTINUED);
	say("continued child reported", WIFCONTINUED(status));
	write(go[1], &byte, 1);
	waitpid(pid, &status, 0);
	say("then its exit status", WIFEXITED(status) && WEXITSTATUS(status) == 7);

	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	say("SIGTERM kills by default", WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);

	got = 0;
	pid = poke_parent(50, SIGUSR1, 0);
	struct timespec long_sleep = { 5, 0 };
	int r = nanosleep(&long_sleep, NULL);
	say("nanosleep interrupted: EINTR", r == -1 && errno == EINTR && got == SIGUSR1);
	waitpid(pid, &status, 0);

	catch(SIGUSR1, on_signal, SA_RESTART);
	got = 0;
	pid = poke_parent(50, SIGUSR1, 3);
	r = waitpid(pid, &status, 0);
	say("SA_RESTART restarts wait4", r == pid && got == SIGUSR1 && WEXITSTATUS(status) == 3);

	catch(SIGUSR1, on_signal, 0);
	got = 0;
	pid = poke_parent(50, SIGUSR1, 3);
	r = waitpid(pid, &status, 0);
	say("without SA_RESTART wait4 gives EINTR", r == -1 && errno == EINTR && got == SIGUSR1);
	waitpid(pid, &status, 0);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	got = 0;
	pid = poke_parent(20, SIGUSR1, 0);
	sigemptyset(&set);
	r = sigsuspend(&set);
	sigprocmask(SIG_SETMASK, NULL, &set);
	say("sigsuspend waits, then restores the mask", r == -1 && errno == EINTR && got == SIGUSR1 &&
						     sigismember(&set, SIGUSR1));
	sigprocmask(SIG_SETMASK, &old, NULL);
	waitpid(pid, &status, 0);

	static char altstack[65536];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0 };
	sigaltstack(&ss, NULL);
	catch(SIGUSR1, on_signal, SA_ONSTACK);
	raise(SIGUSR1);
	say("SA_ONSTACK uses the alternate stack",
	    handler_sp >= (uintptr_t)altstack && handler_sp < (uintptr_t)altstack + sizeof(altstack));

	catch(SIGSEGV, on_segv, SA_NODEFER);
	if (sigsetjmp(jump, 1) == 0) {
		volatile int *volatile p = NULL;
		*p = 1;
		say("SIGSEGV caught", 0);
	} else {
		say("SIGSEGV caught", 1);
	}

	signal(SIGCHLD, SIG_IGN);
	pid = fork();
	if (pid == 0)
		_exit(0);
	r = waitpid(pid, &status, 0);
	say("SIGCHLD ignored: children reap themselves", r == -1 && errno == ECHILD);
	return 0;
}
