/*
 * sched_policy - sched_setscheduler(2) and its family: the checks and
 * errors, the policy a thread and a child get, SCHED_RESET_ON_FORK,
 * and pthread_create with PTHREAD_EXPLICIT_SCHED (glibc calls
 * sched_setscheduler for it). Through raw system calls: musl's wrappers
 * say ENOSYS. Prints "what: ok" lines that hold on Linux and here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define RESET_ON_FORK 0x40000000

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	fflush(stdout);
}

static int err(long r, int e) { return r == -1 && errno == e; }
static long setsched(pid_t pid, int policy, int prio)
{
	struct sched_param p = { .sched_priority = prio };
	return syscall(SYS_sched_setscheduler, pid, policy, &p);
}
static long getsched(pid_t pid) { return syscall(SYS_sched_getscheduler, pid); }
static int getprio(pid_t pid)
{
	struct sched_param p = { .sched_priority = -1 };
	return syscall(SYS_sched_getparam, pid, &p) ? -1 : p.sched_priority;
}

static void *thread_fn(void *arg)
{
	(void)arg;
	return (void *)(long)(getsched(0) * 100 + getprio(0));
}

int main(void)
{
	struct sched_param p = { .sched_priority = 1 };
	void *r;
	pthread_t t;

	say("sched_get_priority_max: FIFO and RR 99, the others 0",
	    syscall(SYS_sched_get_priority_max, SCHED_FIFO) == 99 &&
		    syscall(SYS_sched_get_priority_max, SCHED_RR) == 99 &&
		    syscall(SYS_sched_get_priority_max, SCHED_OTHER) == 0 &&
		    syscall(SYS_sched_get_priority_max, SCHED_IDLE) == 0);
	say("sched_get_priority_min: FIFO and RR 1, the others 0",
	    syscall(SYS_sched_get_priority_min, SCHED_RR) == 1 &&
		    syscall(SYS_sched_get_priority_min, SCHED_BATCH) == 0);
	say("... of an unknown policy: EINVAL", err(syscall(SYS_sched_get_priority_max, 4), EINVAL));
	say("sched_getscheduler: SCHED_OTHER, priority 0", getsched(0) == SCHED_OTHER && getprio(0) == 0);
	say("sched_getscheduler(-1): EINVAL, of no such pid: ESRCH",
	    err(getsched(-1), EINVAL) && err(getsched(0x3ffffff0), ESRCH));
	say("sched_setscheduler with a NULL param: EINVAL",
	    err(syscall(SYS_sched_setscheduler, 0, SCHED_FIFO, NULL), EINVAL));
	say("... with policy -1: EINVAL", err(syscall(SYS_sched_setscheduler, 0, -1, &p), EINVAL));
	say("... FIFO with priority 0, OTHER with 1, FIFO with 100: EINVAL",
	    err(setsched(0, SCHED_FIFO, 0), EINVAL) && err(setsched(0, SCHED_OTHER, 1), EINVAL) &&
		    err(setsched(0, SCHED_FIFO, 100), EINVAL));
	say("... SCHED_DEADLINE or an unknown policy: EINVAL",
	    err(setsched(0, SCHED_DEADLINE, 0), EINVAL) && err(setsched(0, 4, 0), EINVAL));
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_setschedparam(&a, &p);
	say("pthread_create with an explicit SCHED_FIFO 1: the thread runs so",
	    pthread_create(&t, &a, thread_fn, NULL) == 0 && pthread_join(t, &r) == 0 &&
		    (long)r == SCHED_FIFO * 100 + 1);
	say("sched_setscheduler(SCHED_RR 5 | SCHED_RESET_ON_FORK): 0",
	    setsched(0, SCHED_RR | RESET_ON_FORK, 5) == 0 && getsched(0) == (SCHED_RR | RESET_ON_FORK) &&
		    getprio(0) == 5);
	pthread_attr_setinheritsched(&a, PTHREAD_INHERIT_SCHED);
	say("a new thread is reset to SCHED_OTHER too (any clone is)",
	    pthread_create(&t, &a, thread_fn, NULL) == 0 && pthread_join(t, &r) == 0 && (long)r == 0);
	pid_t c = fork();
	if (c == 0)
		_exit(getsched(0) == SCHED_OTHER && getprio(0) == 0 ? 0 : 1);
	int status;
	waitpid(c, &status, 0);
	say("a forked child is reset to SCHED_OTHER", status == 0);
	p.sched_priority = 7;
	say("sched_setparam: priority 7, policy kept",
	    syscall(SYS_sched_setparam, 0, &p) == 0 && getprio(0) == 7 && getsched(0) == (SCHED_RR | RESET_ON_FORK));
	say("back to SCHED_OTHER without SCHED_RESET_ON_FORK: 0", setsched(0, SCHED_OTHER, 0) == 0 && getsched(0) == 0);
	return 0;
}
