/*
 * fs/proc/stat.c - /proc/stat: where the CPU's time went since boot (in
 * USER_HZ ticks, 1/100 s), interrupts, context switches, the boot time,
 * processes made, and how many run now. What top, vmstat and uptime read.
 */
#include "internal.h"
#include <kernel_stat.h>
#include <linux/init.h>
#include <sched.h>
#include <time_namespace.h>
#include <timekeeping.h>

#define USER_HZ 100
#define NR_SOFTIRQS 10 /* HI TIMER NET_TX NET_RX BLOCK IRQ_POLL TASKLET SCHED HRTIMER RCU */

/* The columns of a cpu line, in /proc/stat's order, which is not the
 * enum's (the enum keeps Linux's, where softirq and irq come before idle). */
static const int cpu_columns[NR_STATS] = {
	CPUTIME_USER,	 CPUTIME_NICE,	CPUTIME_SYSTEM, CPUTIME_IDLE,  CPUTIME_IOWAIT,
	CPUTIME_IRQ,	 CPUTIME_SOFTIRQ, CPUTIME_STEAL, CPUTIME_GUEST, CPUTIME_GUEST_NICE,
};

static void show_cpu_line(struct seq_file *m, const char *name, const uint64_t *cpustat)
{
	seq_puts(m, name);
	for (int i = 0; i < NR_STATS; i++)
		seq_printf(m, " %lu", (unsigned long)(cpustat[cpu_columns[i]] / (1000000000UL / USER_HZ)));
	seq_putc(m, '\n');
}

static int show_stat(struct seq_file *m)
{
	uint64_t irqs = 0, sum[NR_STATS];
	struct timespec now, up;
	char name[16];

	kcpustat_sum(sum);
	show_cpu_line(m, "cpu ", sum);
	for_each_online_cpu(c) {
		snprintf(name, sizeof(name), "cpu%d", c);
		show_cpu_line(m, name, kcpustat[c].cpustat);
	}
	for (int i = 0; i < NR_IRQS_LEGACY; i++)
		irqs += kstat.irqs[i];
	seq_printf(m, "intr %lu", (unsigned long)irqs);
	for (int i = 0; i < NR_IRQS_LEGACY; i++)
		seq_printf(m, " %lu", (unsigned long)kstat.irqs[i]);
	ktime_get_real(&now);
	ktime_get_monotonic(&up);
	seq_printf(m, "\nctxt %lu\nbtime %ld\nprocesses %lu\nprocs_running %d\nprocs_blocked 0\n",
		   (unsigned long)kstat.nr_context_switches,
		   /* the boot as the reader's time namespace places it */
		   (long)(now.tv_sec - up.tv_sec - timens_boottime_offset_sec()),
		   (unsigned long)kstat.total_forks, nr_running());
	seq_printf(m, "softirq 0");
	for (int i = 0; i < NR_SOFTIRQS; i++)
		seq_puts(m, " 0");
	seq_putc(m, '\n');
	return 0;
}

static int proc_stat_init(void)
{
	proc_create("stat", 0444, show_stat, NULL);
	return 0;
}
fs_initcall(proc_stat_init);
