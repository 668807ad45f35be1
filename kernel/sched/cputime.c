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
struct kernel_cpustat kcpustat[NR_CPUS];
struct irq_cpustat irq_stat[NR_CPUS];

/* Called by this CPU's tick. */
void account_process_tick(bool user_tick, bool idle)
{
	uint64_t ns = 1000000000UL / HZ, *cpustat = kcpustat[smp_processor_id()].cpustat;

	if (user_tick)
		cpustat[CPUTIME_USER] += ns;
	else if (idle)
		cpustat[CPUTIME_IDLE] += ns;
	else
		cpustat[CPUTIME_SYSTEM] += ns;
}

void kcpustat_sum(uint64_t sum[NR_STATS])
{
	for (int i = 0; i < NR_STATS; i++)
		sum[i] = 0;
	for (int c = 0; c < nr_cpu_ids; c++)
		for (int i = 0; i < NR_STATS; i++)
			sum[i] += kcpustat[c].cpustat[i];
}
