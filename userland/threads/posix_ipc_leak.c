/*
 * posix_ipc_leak - POSIX timers and message queues give back all they
 * took: 500 rounds of timers (one fired, its signal taken; one deleted
 * while its signal is still pending; one periodic) and of queues (messages
 * left in them, a notification left registered, closed and unlinked), then
 * 200 processes that exit with armed timers and open queues, and 60 that
 * exec with a timer's signal pending. Free memory must be the same to the
 * page.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "leakcheck.h"

static timer_t make_timer(int signo, long ns, long interval)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = signo };
	struct itimerspec its = { { 0, interval }, { 0, ns } };
	timer_t t;

	if (timer_create(CLOCK_MONOTONIC, &ev, &t) || timer_settime(t, 0, &its, NULL))
		fprintf(stderr, "posix_ipc_leak: a timer call failed\n");
	return t;
}

static void take(int signo)
{
	sigset_t s;
	struct timespec wait = { 2, 0 };
	sigemptyset(&s);
	sigaddset(&s, signo);
	sigtimedwait(&s, NULL, &wait);
}

static void timers_round(void)
{
	timer_t a = make_timer(SIGRTMIN + 1, 1000000, 0);
	timer_t b = make_timer(SIGRTMIN + 2, 1000000, 0);
	timer_t c = make_timer(SIGUSR1, 1000000, 1000000);

	take(SIGRTMIN + 1);
	usleep(15000);
	timer_delete(b); /* its signal still pending: freed when taken */
	take(SIGRTMIN + 2);
	timer_delete(a);
	timer_delete(c);
	take(SIGUSR1);
}

static void queue_round(void)
{
	struct mq_attr a = { .mq_maxmsg = 8, .mq_msgsize = 512 };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	mqd_t q = mq_open("/leak", O_RDWR | O_CREAT, 0600, &a);
	char buf[512] = "message";

	if (q < 0 || mq_notify(q, &ev) || mq_send(q, buf, 100, 1) || mq_send(q, buf, 512, 2))
		fprintf(stderr, "posix_ipc_leak: a queue call failed\n");
	mq_receive(q, buf, sizeof(buf), NULL);
	mq_send(q, buf, 300, 0);
	take(SIGUSR2);
	mq_notify(q, &ev); /* left registered: close takes it back */
	mq_close(q);
	mq_unlink("/leak");
}

/* A child that leaves its timers and a queue to exit. */
static void exit_round(int exec_it)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		mqd_t q = mq_open("/leak-child", O_RDWR | O_CREAT, 0600, NULL);
		mq_unlink("/leak-child");
		mq_send(q, "left", 4, 0);
		make_timer(SIGRTMIN + 3, 1000000, 1000000);
		make_timer(SIGRTMIN + 4, 500000000, 0);
		if (exec_it) {
			usleep(20000); /* a signal pending, exec drops it */
			execl("/usr/lib/exec-tests/hello", "hello", (char *)NULL);
		}
		_exit(0);
	}
	waitpid(pid, &st, 0);
}

static void all_rounds(int n)
{
	for (int i = 0; i < n; i++)
		timers_round();
	for (int i = 0; i < n; i++)
		queue_round();
	for (int i = 0; i < 2 * n / 5; i++)
		exit_round(0);
	for (int i = 0; i < n / 5; i++)
		exit_round(1);
}

int main(void)
{
	sigset_t s;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&s);
	for (int sig = SIGRTMIN + 1; sig <= SIGRTMIN + 4; sig++)
		sigaddset(&s, sig);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, NULL);
	int fd = open("/dev/null", O_WRONLY);
	dup2(fd, 1); /* hello's line, not ours */
	all_rounds(20); /* warm up */
	warm_stack();
	long long before = settled_free_kib();
	all_rounds(300);
	long long after = settled_free_kib();
	dup2(2, 1);
	printf("posix_ipc_leak: ");
	return report_free(before, after, 300, "rounds of timers and queues");
}
