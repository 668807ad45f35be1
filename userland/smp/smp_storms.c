/*
 * smp_storms - the kernel's paths that cross CPUs, each run by argv[1]:
 *
 *   forkexec   one worker pinned to each CPU, all at once, each forking
 *              and executing `true` 50 times and waiting for it
 *   futex      two threads on two CPUs waking each other through a futex,
 *              1000 round trips
 *   signal     a child spinning (no system call) on CPU 1 gets a signal
 *              from CPU 0: its handler must run; then SIGKILL must kill it
 *   clock      a thread hopping from CPU to CPU, 1000 times, reading
 *              CLOCK_MONOTONIC through the vDSO and the system call: it
 *              never goes back, and each hop lands where it was sent;
 *              then two threads on two CPUs handing each other the time
 *              they read: the one read after it is never earlier
 *
 * (execve from a thread while siblings run elsewhere: smp_exec.)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cpus.h"

#define TRUE_PROGRAM "/usr/lib/exec-tests/true"

static int ncpus;

/* ---- forkexec ---- */

static int forkexec_worker(int cpu, int times)
{
	int bad = 0, status;

	pin_to(cpu);
	for (int i = 0; i < times; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			execl(TRUE_PROGRAM, "true", (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
			bad++;
	}
	return bad;
}

static void forkexec(void)
{
	int bad = 0, status;
	pid_t pids[64];

	for (int cpu = 0; cpu < ncpus; cpu++) {
		pids[cpu] = fork();
		if (pids[cpu] == 0)
			_exit(forkexec_worker(cpu, 50) ? 1 : 0);
	}
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (waitpid(pids[cpu], &status, 0) != pids[cpu] || status != 0)
			bad++;
	printf("forkexec: %d workers, one on each CPU, 50 fork+execve+wait each: %d workers saw a failure\n",
	       ncpus, bad);
}

/* ---- futex ---- */

#define ROUND_TRIPS 1000
#define FUTEX_WAIT_PRIVATE 128 /* FUTEX_WAIT | FUTEX_PRIVATE_FLAG (musl has no linux/) */
#define FUTEX_WAKE_PRIVATE 129
static atomic_int turn; /* even: the ping thread's turn, odd: the pong's */

static void futex_wait(atomic_int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Thread of parity side, on CPU side: wait for its turn, pass it on. */
static void *player(void *arg)
{
	int side = (int)(long)arg;

	pin_to(side);
	for (int i = 0; i < ROUND_TRIPS; i++) {
		int mine = 2 * i + side, t;
		while ((t = atomic_load(&turn)) != mine)
			futex_wait(&turn, t);
		atomic_store(&turn, mine + 1);
		futex_wake(&turn);
	}
	return NULL;
}

static void futex_pingpong(void)
{
	pthread_t t[2];

	for (long side = 0; side < 2; side++)
		pthread_create(&t[side], NULL, player, (void *)side);
	for (int side = 0; side < 2; side++)
		pthread_join(t[side], NULL);
	printf("futex: %d round trips between CPU 0 and CPU 1, the turn ends at %d\n", ROUND_TRIPS,
	       atomic_load(&turn));
}

/* ---- signal ---- */

static volatile sig_atomic_t handled;

static void on_signal(int sig)
{
	handled = sig;
}

/* A child that spins on CPU 1: until its handler runs, then for good. */
static void spinning_child(int ready)
{
	pin_to(1);
	if (write(ready, "1", 1) != 1)
		_exit(1);
	while (!handled)
		;
	if (write(ready, "2", 1) != 1)
		_exit(1);
	for (;;)
		;
}

static void *spinning_thread(void *arg)
{
	(void)arg;
	pin_to(1);
	while (!handled)
		;
	return NULL;
}

static void signal_spinner(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int ready[2], status;
	char c = 0;
	pthread_t t;
	pid_t pid;

	sigaction(SIGUSR1, &sa, NULL);
	pin_to(0);
	if (pipe(ready) < 0)
		return;
	pid = fork();
	if (pid == 0)
		spinning_child(ready[1]);
	if (read(ready[0], &c, 1) == 1 && c == '1')
		kill(pid, SIGUSR1);
	printf("signal: a child spinning on CPU 1 %s its SIGUSR1 handler\n",
	       read(ready[0], &c, 1) == 1 && c == '2' ? "ran" : "did NOT run");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	printf("signal: then SIGKILL: %s\n",
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? "killed by SIGKILL" : "not killed");

	pthread_create(&t, NULL, spinning_thread, NULL);
	usleep(10000); /* not needed for the result: let it start spinning */
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	printf("signal: a thread spinning on CPU 1 ran its handler (signal %d)\n", (int)handled);
}

/* ---- clock ---- */

static long long ns_of(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static void clock_hops(void)
{
	struct timespec ts;
	long long last = 0, now;
	int back = 0, elsewhere = 0;

	for (int i = 0; i < 1000; i++) {
		int cpu = i % ncpus;
		pin_to(cpu);
		elsewhere += sched_getcpu() != cpu;
		clock_gettime(CLOCK_MONOTONIC, &ts); /* the vDSO */
		now = ns_of(&ts);
		back += now < last;
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
		last = now;
		now = ns_of(&ts);
		back += now < last;
		last = now;
	}
	printf("clock: 1000 hops across %d CPUs: %d landed elsewhere, CLOCK_MONOTONIC went back %d times\n",
	       ncpus, elsewhere, back);
}

/* Two threads on CPUs 0 and 1 pass the time they read to each other
 * (spinning, no system call between): what the other CPU reads once it
 * has the baton must not be earlier. Clocks that drift apart between
 * CPUs (unsynchronised TSCs) fail here though each is monotonic alone. */
#define HANDOFFS 1000
static _Atomic long long baton[2];  /* the time handed to side i, -1: none yet */
static int handoff_back;

static void *handoff(void *arg)
{
	int side = (int)(long)arg;
	struct timespec ts;

	pin_to(side);
	for (int i = 0; i < HANDOFFS; i++) {
		long long given;
		while ((given = atomic_load(&baton[side])) < 0)
			;
		atomic_store(&baton[side], -1);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		handoff_back += ns_of(&ts) < given; /* one side at a time */
		atomic_store(&baton[!side], ns_of(&ts));
	}
	return NULL;
}

static void clock_handoffs(void)
{
	pthread_t t[2];

	atomic_store(&baton[0], 0);
	atomic_store(&baton[1], -1);
	for (long side = 0; side < 2; side++)
		pthread_create(&t[side], NULL, handoff, (void *)side);
	for (int side = 0; side < 2; side++)
		pthread_join(t[side], NULL);
	printf("clock: %d handoffs between CPU 0 and CPU 1: the time read after was earlier %d times\n",
	       2 * HANDOFFS, handoff_back);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	ncpus = cpus_allowed();
	if (ncpus < 2 || ncpus > 64) {
		printf("smp_storms: %d CPUs, needs 2 to 64\n", ncpus);
		return 1;
	}
	if (!strcmp(what, "forkexec"))
		forkexec();
	else if (!strcmp(what, "futex"))
		futex_pingpong();
	else if (!strcmp(what, "signal"))
		signal_spinner();
	else if (!strcmp(what, "clock")) {
		clock_hops();
		clock_handoffs();
	}
	else {
		fprintf(stderr, "usage: smp_storms forkexec|futex|signal|clock\n");
		return 2;
	}
	return 0;
}
