/*
 * kernel_stat.h - what the kernel counts about itself for /proc/stat,
 * /proc/interrupts and /proc/loadavg (Linux's kernel_stat.h and
 * sched/loadavg.h). The CPU times are counted per CPU (kcpustat); the
 * other counts are the machine's.
 */
#pragma once
#include <kernel.h>

/* Where the CPU's time went, as /proc/stat's "cpu" line lists it. */
enum cpu_usage_stat {
	CPUTIME_USER,
	CPUTIME_NICE,
	CPUTIME_SYSTEM,
	CPUTIME_SOFTIRQ,
	CPUTIME_IRQ,
	CPUTIME_IDLE,
	CPUTIME_IOWAIT,
	CPUTIME_STEAL,
	CPUTIME_GUEST,
	CPUTIME_GUEST_NICE,
	NR_STATS,
};

#define NR_IRQS_LEGACY 16

/* Where one CPU's time went, in nanoseconds: each CPU adds to its own. */
struct kernel_cpustat {
	uint64_t cpustat[NR_STATS];
};
extern struct kernel_cpustat kcpustat[];   /* one a CPU (NR_CPUS) */
/* The sum over every CPU, as /proc/stat's "cpu" line shows it. */
void kcpustat_sum(uint64_t sum[NR_STATS]);

struct kernel_stat {
	uint64_t irqs[NR_IRQS_LEGACY];     /* interrupts taken, by line */
	uint64_t nr_context_switches;
	uint64_t total_forks;              /* processes and threads made since boot */
};
extern struct kernel_stat kstat;

/* The timer tick charges its period to user, system or idle time
 * (kernel/sched/cputime.c). */
void account_process_tick(bool user_tick, bool idle);

/* The name a driver gave its interrupt line, or NULL (arch/x86/kernel/irq.c). */
const char *irq_name(int irq);
/* The controller that delivers line irq, and its input there. */
const char *irq_chip_name(int irq, unsigned *pin);

/* Each CPU's count of the local APIC's own interrupts (Linux's irq_stat):
 * the NMIs, its timer, the IPIs it took, and the TLB shootdowns among
 * those. */
struct irq_cpustat {
	uint64_t nmi_count;
	uint64_t apic_timer_irqs;
	uint64_t irq_resched_count;
	uint64_t irq_call_count;
	uint64_t irq_tlb_count;
};
extern struct irq_cpustat irq_stat[];   /* one a CPU (NR_CPUS) */

/*
 * The load average (kernel/sched/loadavg.c): every 5 seconds the number of
 * runnable tasks is folded into three exponentially decaying averages,
 * over 1, 5 and 15 minutes, in fixed point with FSHIFT fraction bits.
 */
#define FSHIFT 11
#define FIXED_1 (1 << FSHIFT)
#define LOAD_INT(x) ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)
extern unsigned long avenrun[3];
void calc_global_load_tick(void); /* every tick */
int nr_running(void);             /* runnable tasks now, the idle task not counted */
