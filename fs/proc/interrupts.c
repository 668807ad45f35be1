/*
 * fs/proc/interrupts.c - /proc/interrupts: for each interrupt line a
 * driver registered, how many times it came on each CPU, on which
 * controller and input, and whose it is; then the architecture's own
 * counters, a column a CPU. Linux's layout:
 *
 *                CPU0       CPU1
 *       0:        123          0   IO-APIC   2-edge      timer
 *     LOC:        117        121   Local timer interrupts
 *     ERR:          0
 */
#include "internal.h"
#include <kernel_stat.h>
#include <linux/init.h>

enum counter { NONE, NMI, LOC, RES, CAL, TLB };

static uint64_t counter_of(int cpu, enum counter which)
{
	const struct irq_cpustat *st = &irq_stat[cpu];

	switch (which) {
	case NMI: return st->nmi_count;
	case LOC: return st->apic_timer_irqs;
	case RES: return st->irq_resched_count;
	case CAL: return st->irq_call_count;
	case TLB: return st->irq_tlb_count;
	default: return 0;
	}
}

/* One counter line: name, a column a CPU, what it counts. */
static void show_counter(struct seq_file *m, const char *name, enum counter which, const char *what)
{
	seq_printf(m, "%3s:", name);
	for_each_online_cpu(c)
		seq_printf(m, " %10lu", (unsigned long)counter_of(c, which));
	seq_printf(m, "   %s\n", what);
}

static void show_lines(struct seq_file *m)
{
	for (int irq = 0; irq < NR_IRQS_LEGACY; irq++) {
		const char *name = irq_name(irq), *chip;
		unsigned pin;

		if (!name)
			continue;
		chip = irq_chip_name(irq, &pin);
		seq_printf(m, "%3d:", irq);
		for_each_online_cpu(c) /* every line goes to the boot CPU */
			seq_printf(m, " %10lu", c == 0 ? (unsigned long)kstat.irqs[irq] : 0UL);
		seq_printf(m, " %8s %3u-%-8s  %s\n", chip, pin, "edge", name);
	}
}

static int show_interrupts(struct seq_file *m)
{
	char cpu[16];

	seq_printf(m, "%11s", "");
	for_each_online_cpu(c) {
		snprintf(cpu, sizeof(cpu), "CPU%d", c);
		seq_printf(m, "%-11s", cpu);
	}
	seq_putc(m, '\n');
	show_lines(m);
	show_counter(m, "NMI", NMI, "Non-maskable interrupts");
	show_counter(m, "LOC", LOC, "Local timer interrupts");
	show_counter(m, "SPU", NONE, "Spurious interrupts");
	show_counter(m, "RES", RES, "Rescheduling interrupts");
	show_counter(m, "CAL", CAL, "Function call interrupts");
	show_counter(m, "TLB", TLB, "TLB shootdowns");
	seq_printf(m, "%3s: %10d\n%3s: %10d\n", "ERR", 0, "MIS", 0);
	return 0;
}

static int proc_interrupts_init(void)
{
	proc_create("interrupts", 0444, show_interrupts, NULL);
	return 0;
}
fs_initcall(proc_interrupts_init);
