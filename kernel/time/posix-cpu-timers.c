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

/* The task whose time the timer's clock counts (Linux's lookup_task). */
static struct task *clock_task(int clock)
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
	return thread_group_leader(p) ? p : NULL;
}

int cpu_timer_create(struct k_itimer *t)
{
	struct task *p = clock_task(encoded(t->clock));

	if (!p)
		return -EINVAL;
	t->cpu_serial = p->serial;
	return 0;
}

static uint64_t ticks_of(const struct task *t, int which)
{
	return which == CPUCLOCK_VIRT ? t->utime : t->utime + t->stime;
}

int64_t cpu_clock_sample_timer(const struct k_itimer *timer)
{
	int clock = encoded(timer->clock), which = CPUCLOCK_WHICH(clock);
	struct task *p = find_task_by_serial(timer->cpu_serial);
	uint64_t ticks;

	if (!p)
		return -1;
	if (clock & CPUCLOCK_PERTHREAD_MASK) {
		ticks = ticks_of(p, which);
	} else {
		/* The threads gone are in the signal_struct already. */
		struct signal_struct *s = p->signal;
		if (!s)
			return -1;
		ticks = which == CPUCLOCK_VIRT ? s->utime : s->utime + s->stime;
		for_each_thread(p, t)
			if (t->state != TASK_ZOMBIE)
				ticks += ticks_of(t, which);
	}
	return (int64_t)ticks * NSEC_PER_TICK;
}
