/*
 * exec_sigreset - what execve does to signal dispositions: a caught
 * signal goes back to SIG_DFL with no flags, no mask and no restorer; an
 * ignored one stays ignored; a default one stays default. Checked three
 * ways: the process execs itself, a forked child execs (its copy of the
 * handlers), and a second thread execs (the handlers it shared with the
 * thread that installed them).
 *
 *   exec_sigreset              run the three cases
 *   exec_sigreset show LABEL   (after the exec) print the dispositions
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* The kernel's struct sigaction, as rt_sigaction sees it. */
struct ksigaction {
	unsigned long handler, flags, restorer, mask;
};

static const char *self;

static void on_signal(int sig) { (void)sig; }

static void describe(const char *label, int sig, const char *name)
{
	struct ksigaction ka;

	syscall(SYS_rt_sigaction, sig, NULL, &ka, sizeof(ka.mask));
	printf("%s: %s %s, flags %#lx, restorer %s, mask %#lx\n", label, name,
	       ka.handler == (unsigned long)SIG_DFL   ? "default" :
	       ka.handler == (unsigned long)SIG_IGN ? "ignored" :
						      "caught",
	       ka.flags, ka.restorer ? "set" : "none", ka.mask);
}

static void show(const char *label)
{
	describe(label, SIGUSR1, "SIGUSR1");
	describe(label, SIGUSR2, "SIGUSR2");
	describe(label, SIGTERM, "SIGTERM");
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART | SA_NODEFER;
	sigaddset(&sa.sa_mask, SIGINT);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, SIG_IGN);
}

static void exec_show(const char *label)
{
	execl(self, self, "show", label, (char *)NULL);
	perror("execl");
	_exit(127);
}

static void wait_child(pid_t pid)
{
	int status;

	if (pid > 0)
		waitpid(pid, &status, 0);
}

static void *thread_exec(void *arg)
{
	(void)arg;
	exec_show("thread");
	return NULL;
}

int main(int argc, char **argv)
{
	self = argv[0];
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 2 && !strcmp(argv[1], "show")) {
		show(argv[2]);
		return 0;
	}
	install();
	show("before");
	pid_t pid = fork();
	if (pid == 0)
		exec_show("self");
	wait_child(pid);
	pid = fork();
	if (pid == 0) {
		pid_t grandchild = fork();
		if (grandchild == 0)
			exec_show("forked");
		wait_child(grandchild);
		_exit(0);
	}
	wait_child(pid);
	pid = fork();
	if (pid == 0) {
		pthread_t t;
		pthread_create(&t, NULL, thread_exec, NULL);
		pthread_join(t, NULL);
		_exit(1);
	}
	wait_child(pid);
	return 0;
}
