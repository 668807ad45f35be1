/*
 * kernel/sched/loadavg.c - the load average of /proc/loadavg and uptime,
 * computed as Linux computes it: every LOAD_FREQ (5 s and a tick), the
 * number of active tasks (runnable, and in Linux uninterruptible sleepers,
 * which this kernel does not have) is folded into three averages that
 * decay with time constants of 1, 5 and 15 minutes:
 *
 *     load = load * e + active * (1 - e),   e = exp(-5 s / period)
 *
 * in fixed point: FIXED_1 is 1.0, EXP_1 is e for one minute, and so on
 * (1884, 2014 and 2037 out of 2048, Linux's constants).
 */
#include <kernel_stat.h>
#include <sched.h>

#define LOAD_FREQ (5 * HZ + 1)
#define EXP_1 1884
#define EXP_5 2014
#define EXP_15 2037

unsigned long avenrun[3];
static uint64_t calc_load_update = LOAD_FREQ;

int nr_running(void)
{
	int n = 0;

	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->pid > 0 && t->state == TASK_RUNNABLE)
			n++;
	return n;
}

/* load * exp + active * (FIXED_1 - exp), rounded up when it grows. */
static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

void calc_global_load_tick(void)
{
	unsigned long active;

	if (jiffies < calc_load_update)
		return;
	calc_load_update += LOAD_FREQ;
	active = (unsigned long)nr_running() * FIXED_1;
	avenrun[0] = calc_load(avenrun[0], EXP_1, active);
	avenrun[1] = calc_load(avenrun[1], EXP_5, active);
	avenrun[2] = calc_load(avenrun[2], EXP_15, active);
}
