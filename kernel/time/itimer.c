/*
 * itimer.c - interval timers: alarm, setitimer, getitimer.
 *
 * Three per process (in its signal_struct, shared by its threads), as Linux: ITIMER_REAL runs on the wall of time and
 * sends SIGALRM, ITIMER_VIRTUAL runs while the process executes user code
 * (SIGVTALRM), ITIMER_PROF while it executes at all (SIGPROF). They count
 * in timer ticks (10 ms): the real one holds the jiffies value at which it
 * fires, the other two the ticks still to run. Timers are not inherited by
 * fork and survive exec.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <uaccess.h>

#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2

struct timeval {
	int64_t tv_sec, tv_usec;
};

struct itimerval {
	struct timeval it_interval, it_value;
};

#define USEC_PER_TICK (1000000 / HZ)

/* The longest timer: Linux's KTIME_MAX nanoseconds (292 years). Longer
 * ones are cut to it, as Linux's ktime_set does, instead of wrapping
 * around to a timer that fires at once. */
#define MAX_TICKS (INT64_MAX / (1000000000 / HZ))

/* A time in ticks, rounded up: a timer never fires early. */
static uint64_t timeval_to_ticks(const struct timeval *tv)
{
	if ((uint64_t)tv->tv_sec >= MAX_TICKS / HZ)
		return MAX_TICKS;
	return (uint64_t)tv->tv_sec * HZ + ((uint64_t)tv->tv_usec + USEC_PER_TICK - 1) / USEC_PER_TICK;
}

static struct timeval ticks_to_timeval(uint64_t ticks)
{
	return (struct timeval){ ticks / HZ, ticks % HZ * USEC_PER_TICK };
}

/* Ticks left before timer `which` of process s fires; 0 when disarmed. */
static uint64_t ticks_left(struct signal_struct *t, int which)
{
	if (which != ITIMER_REAL)
		return t->it_value[which];
	return t->it_value[ITIMER_REAL] > jiffies ? t->it_value[ITIMER_REAL] - jiffies
		: t->it_value[ITIMER_REAL] ? 1 : 0;
}

static void arm(struct signal_struct *t, int which, uint64_t value, uint64_t interval)
{
	t->it_interval[which] = interval;
	t->it_value[which] = which == ITIMER_REAL && value ? jiffies + value : value;
}

static const int timer_signal[3] = { SIGALRM, SIGVTALRM, SIGPROF };

/* Count down a ticking timer of task t's process; at zero, signal the
 * process and reload the interval. */
static void countdown(struct task *task, int which)
{
	struct signal_struct *t = task->signal;

	if (t->it_value[which] && --t->it_value[which] == 0) {
		group_send_sig(timer_signal[which], task);
		t->it_value[which] = t->it_interval[which];
	}
}

/* The tick of the CPU that counts jiffies: the timers of real time
 * (ITIMER_REAL, and every POSIX timer and timerfd, whose clocks it
 * compares with their expiry). */
void timers_tick(void)
{
	for (struct task *task = first_task(); task; task = task->next_task) {
		struct signal_struct *t = task->signal;
		/* Once per process: at its leader (which stays, a zombie,
		 * while other threads run). */
		if (!thread_group_leader(task) || !t || !t->nr_threads)
			continue;
		if (!t->it_value[ITIMER_REAL] || jiffies < t->it_value[ITIMER_REAL])
			continue;
		group_send_sig(SIGALRM, task);
		t->it_value[ITIMER_REAL] = t->it_interval[ITIMER_REAL] ? jiffies + t->it_interval[ITIMER_REAL] : 0;
	}
	posix_timers_tick(); /* kernel/time/posix-timers.c */
	timerfd_tick();      /* fs/timerfd.c */
}

/* Every CPU's tick: the CPU-time itimers of the process it runs. */
void itimer_tick(bool from_user)
{
	if (current && current->pid && current->signal) {
		if (from_user)
			countdown(current, ITIMER_VIRTUAL);
		countdown(current, ITIMER_PROF);
	}
}

long sys_getitimer(int which, struct itimerval __user *value)
{
	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	struct itimerval v = { ticks_to_timeval(current->signal->it_interval[which]),
			       ticks_to_timeval(ticks_left(current->signal, which)) };
	return copy_to_user(value, &v, sizeof(v));
}

long sys_setitimer(int which, const struct itimerval __user *value, struct itimerval __user *ovalue)
{
	struct itimerval v = { { 0, 0 }, { 0, 0 } };

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	if (value && copy_from_user(&v, value, sizeof(v)))
		return -EFAULT;
	if (v.it_value.tv_sec < 0 || v.it_value.tv_usec < 0 || v.it_value.tv_usec >= 1000000 ||
	    v.it_interval.tv_sec < 0 || v.it_interval.tv_usec < 0 || v.it_interval.tv_usec >= 1000000)
		return -EINVAL;
	if (ovalue) {
		struct itimerval old = { ticks_to_timeval(current->signal->it_interval[which]),
					 ticks_to_timeval(ticks_left(current->signal, which)) };
		if (copy_to_user(ovalue, &old, sizeof(old)))
			return -EFAULT;
	}
	arm(current->signal, which, timeval_to_ticks(&v.it_value), timeval_to_ticks(&v.it_interval));
	return 0;
}

/* alarm: ITIMER_REAL in whole seconds; returns the seconds that were left
 * (rounded to the nearest, and at least 1 if any time was left). */
long sys_alarm(unsigned seconds)
{
	uint64_t left = ticks_left(current->signal, ITIMER_REAL);
	long old = left ? (long)((left + HZ / 2) / HZ) : 0;

	if (left && old == 0)
		old = 1;
	arm(current->signal, ITIMER_REAL, (uint64_t)seconds * HZ, 0);
	return old;
}
