/*
 * fs/proc/interrupts.c - /proc/interrupts: for each interrupt line a
 * driver registered, how many times it came, on which controller, and
 * whose it is; then the architecture's own counters. Linux's layout:
 *
 *                CPU0
 *       0:        123    XT-PIC   0-edge      timer
 *     ERR:          0
 */
#include "internal.h"
#include <kernel_stat.h>
#include <linux/init.h>

static int show_interrupts(struct seq_file *m)
{
	seq_printf(m, "%11s%-11s\n", "", "CPU0");
	for (int irq = 0; irq < NR_IRQS_LEGACY; irq++) {
		const char *name = irq_name(irq);

		if (!name)
			continue;
		seq_printf(m, "%3d: %10lu %8s %3d-%-8s  %s\n", irq, (unsigned long)kstat.irqs[irq],
			   "XT-PIC", irq, "edge", name);
	}
	seq_printf(m, "%3s: %10d   Non-maskable interrupts\n", "NMI", 0);
	seq_printf(m, "%3s: %10d   Spurious interrupts\n", "SPU", 0);
	seq_printf(m, "%3s: %10d\n%3s: %10d\n", "ERR", 0, "MIS", 0);
	return 0;
}

static int proc_interrupts_init(void)
{
	proc_create("interrupts", 0444, show_interrupts, NULL);
	return 0;
}
fs_initcall(proc_interrupts_init);
