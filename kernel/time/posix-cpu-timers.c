/*
 * posix-cpu-timers.c - the CPU clocks of POSIX timers: a thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), its process's (CLOCK_PROCESS_CPUTIME_ID), or
 * those of another task named in a negative clock id, Linux's encoding:
 *
 *      clock = ~pid << 3 | perthread << 2 | which
 *
 * pid 0 is the caller; which is PROF (user + system time), VIRT (user
 * time) or SCHED (all the time it ran; here PROF too: the scheduler counts
 * in ticks). A thread's clock may only be asked of a thread of the same
 * process; a process's of a process's leader. (which == 3 with perthread
 * clear is a dynamic clock, a /dev/ptp descriptor: no timers on those.)
 *
 * The time is counted in ticks (10 ms) by the scheduler (utime, stime):
 * a CPU timer fires at the tick that makes it due (kernel/time/posix-timers.c).
 */
#include <errno.h>
#include <timekeeping.h>
#include "posix-timers.h"

#define CPUCLOCK_PROF 0
#define CPUCLOCK_VIRT 1
#define CPUCLOCK_SCHED 2
#define CPUCLOCK_MAX 3
#define CPUCLOCK_PERTHREAD_MASK 4
#define CPUCLOCK_WHICH(clock) ((clock) & 3)
#define CPUCLOCK_PID(clock) ((pid_t) ~((clock) >> 3))
#define NSEC_PER_TICK (NSEC_PER_SEC / HZ)

bool is_cpu_clock(int clock)
{
	return clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID ||
	       (clock < 0 && (clock & 7) != 3);
}

/* The named clocks as encoded ones: SCHED, pid 0. */
static int encoded(int clock)
{
	if (clock == CLOCK_PROCESS_CPUTIME_ID)
		return (int)(~0u << 3) | CPUCLOCK_SCHED;
	if (clock == CLOCK_THREAD_CPUTIME_ID)
		return (int)(~0u << 3) | CPUCLOCK_PERTHREAD_MASK | CPUCLOCK_SCHED;
	return clock;
}

/* The task whose time clock counts (Linux's lookup_task): a process's
 * clock is asked of its leader, but to read it (gettime) of any thread. */
static struct task *clock_task(int clock, bool gettime)
{
	pid_t pid = CPUCLOCK_PID(clock);
	bool thread = clock & CPUCLOCK_PERTHREAD_MASK;
	struct task *p;

	if (CPUCLOCK_WHICH(clock) >= CPUCLOCK_MAX)
		return NULL;
	if (!pid)
		return thread ? current : current->group_leader;
	p = find_task(pid);
	if (!p || p->state == TASK_DEAD)
		return NULL;
	if (thread)
		return same_thread_group(p, current) ? p : NULL;
	if (gettime)
		return p == current || thread_group_leader(p) ? p : NULL;
	return thread_group_leader(p) ? p : NULL;
}

int cpu_timer_create(struct k_itimer *t)
{
	struct task *p = clock_task(encoded(t->clock), false);

	if (!p)
		return -EINVAL;
	/* The named clocks are kept encoded (/proc/PID/timers shows -6, -2). */
	t->clock = encoded(t->clock);
	t->cpu_serial = p->serial;
	return 0;
}

static uint64_t ticks_of(const struct task *t, int which)
{
	return which == CPUCLOCK_VIRT ? t->utime : t->utime + t->stime;
}

/* The CPU time clock counts for task p, in ns; -1 if it is gone. */
static int64_t cpu_clock_sample(int clock, struct task *p)
{
	int which = CPUCLOCK_WHICH(clock);
	uint64_t ticks;

	if (!p || !p->signal)
		return -1;
	if (clock & CPUCLOCK_PERTHREAD_MASK) {
		ticks = ticks_of(p, which);
	} else {
		/* The threads gone are in the signal_struct already. */
		struct signal_struct *s = p->signal;
		ticks = which == CPUCLOCK_VIRT ? s->utime : s->utime + s->stime;
		for_each_thread(p, t)
			if (t->state != TASK_ZOMBIE)
				ticks += ticks_of(t, which);
	}
	return (int64_t)ticks * NSEC_PER_TICK;
}

int64_t cpu_clock_sample_timer(const struct k_itimer *timer)
{
	return cpu_clock_sample(encoded(timer->clock), find_task_by_serial(timer->cpu_serial));
}

int posix_cpu_clock_getres(int clock, struct timespec *ts)
{
	if (!clock_task(clock, true))
		return -EINVAL;
	*ts = (struct timespec){ 0, CPUCLOCK_WHICH(clock) == CPUCLOCK_SCHED ? 1 : NSEC_PER_TICK };
	return 0;
}

int posix_cpu_clock_get(int clock, struct timespec *ts)
{
	clock = encoded(clock);
	int64_t ns = cpu_clock_sample(clock, clock_task(clock, true));

	if (ns < 0)
		return -EINVAL;
	*ts = (struct timespec){ ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };
	return 0;
}
