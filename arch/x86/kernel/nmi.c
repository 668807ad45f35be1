/*
 * nmi.c - what a non-maskable interrupt does (include/nmi.h): print a
 * backtrace that was asked for, or report an NMI nobody asked for and go
 * on, as Linux does when nothing claims one.
 */
#include <apic.h>
#include <kernel_stat.h>
#include <ksyms.h>
#include <nmi.h>
#include <percpu.h>
#include <sched.h>
#include <smp.h>
#include <trap.h>
#include <x86.h>

#define ICR_NMI 0x4400 /* delivery mode NMI, level assert */
#define NMI_REASON_PORT 0x61 /* system control port B: bit 7 SERR, bit 6 IOCHK */
#define BACKTRACE_WAIT_LOOPS 100000000UL

static uint64_t backtrace_wanted; /* CPUs asked for a backtrace, not done */

/* Linux's nmi_cpu_backtrace: an idle CPU only says where it idles. */
static void print_backtrace(const struct trapframe *tf, int cpu)
{
	uint64_t off;
	const char *fn = ksym_lookup(tf->rip, &off);

	if (current == this_cpu_read(idle) && !trap_from_user(tf) && fn) {
		printk(KERN_WARNING "NMI backtrace for cpu %d skipped: idling at %s+0x%lx\n", cpu, fn,
		       (unsigned long)off);
		return;
	}
	printk(KERN_WARNING "NMI backtrace for cpu %d\n", cpu);
	show_trapframe(KERN_WARNING, tf);
}

void do_nmi(struct trapframe *tf)
{
	int cpu = smp_processor_id();
	uint64_t me = 1UL << cpu;

	irq_stat[cpu].nmi_count++; /* this CPU's alone: no lock */
	this_cpu_write(in_nmi, true);
	if (__atomic_load_n(&backtrace_wanted, __ATOMIC_ACQUIRE) & me) {
		print_backtrace(tf, cpu);
		__atomic_fetch_and(&backtrace_wanted, ~me, __ATOMIC_RELEASE);
	} else {
		printk(KERN_EMERG "Uhhuh. NMI received for unknown reason %02x on CPU %d.\n",
		       inb(NMI_REASON_PORT), cpu);
		printk(KERN_EMERG "Dazed and confused, but trying to continue\n");
	}
	this_cpu_write(in_nmi, false);
}

/* mask as Linux's %*pbl prints it: "1", "1-3", "1,3". */
static const char *cpu_list(uint64_t mask)
{
	static char buf[3 * 64 + 1]; /* the caller holds the big kernel lock */
	char *p = buf;

	buf[0] = 0;
	for (int n = 0; n < 64; n++) {
		if (!(mask >> n & 1))
			continue;
		int last = n;
		while (last < 63 && (mask >> (last + 1) & 1))
			last++;
		p += snprintf(p, buf + sizeof(buf) - p, p == buf ? "%d" : ",%d", n);
		if (last > n)
			p += snprintf(p, buf + sizeof(buf) - p, "-%d", last);
		n = last;
	}
	return buf;
}

/* Ask cpu for its backtrace and wait until it has printed it (a CPU that
 * does not answer is given up on, not waited for forever). */
static void backtrace_of(int cpu)
{
	uint64_t bit = 1UL << cpu;

	__atomic_fetch_or(&backtrace_wanted, bit, __ATOMIC_RELEASE);
	lapic_send_ipi(cpus[cpu].apic_id, ICR_NMI);
	for (uint64_t n = 0; n < BACKTRACE_WAIT_LOOPS; n++)
		if (!(__atomic_load_n(&backtrace_wanted, __ATOMIC_ACQUIRE) & bit))
			return;
	__atomic_fetch_and(&backtrace_wanted, ~bit, __ATOMIC_RELEASE);
}

void trigger_all_cpu_backtrace(void)
{
	int me = smp_processor_id();

	printk(KERN_WARNING "NMI backtrace for cpu %d\n", me);
	dump_stack_lvl(KERN_WARNING);
	if (cpu_online_mask() == 1UL << me)
		return;
	printk(KERN_INFO "Sending NMI from CPU %d to CPUs %s:\n", me,
	       cpu_list(cpu_online_mask() & ~(1UL << me)));
	for_each_online_cpu(cpu)
		if (cpu != me)
			backtrace_of(cpu);
}
