/*
 * kernel/sched/cputime.c - where the CPU's time goes. Each timer tick
 * charges its whole period to what it interrupted, as Linux does without
 * precise accounting (tick-based, CONFIG_TICK_CPU_ACCOUNTING): user time
 * for user code (nice time for a task of positive nice, once nice exists),
 * idle time for the idle task, system time otherwise. The task's own
 * utime and stime are charged by sched_tick.
 */
#include <kernel_stat.h>
#include <sched.h>

struct kernel_stat kstat;

void account_process_tick(bool user_tick, bool idle)
{
	uint64_t ns = 1000000000UL / HZ;

	if (user_tick)
		kstat.cpustat[CPUTIME_USER] += ns;
	else if (idle)
		kstat.cpustat[CPUTIME_IDLE] += ns;
	else
		kstat.cpustat[CPUTIME_SYSTEM] += ns;
}
