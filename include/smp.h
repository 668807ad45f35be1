/*
 * smp.h - several CPUs: bringing them up (arch/x86/kernel/smpboot.c) and
 * asking them to do things (arch/x86/kernel/smp.c).
 */
#pragma once
#include <kernel.h>
#include <percpu.h>

void smp_init(void);                 /* find and start the other CPUs */
/* The most CPUs to bring up, the boot CPU included (cmdline.c's maxcpus=N;
 * nosmp and maxcpus=0: the boot CPU alone). */
extern int setup_max_cpus;
void smp_send_reschedule(int cpu);   /* the reschedule IPI */

/*
 * Run func(info) on every online CPU of mask but the caller's, and wait
 * until all have (Linux's smp_call_function_many with wait = true). func
 * runs in the IPI handler, interrupts off, and must not sleep or take the
 * big kernel lock. Callers take turns, holding the big kernel lock or not
 * (arch/x86/kernel/smp.c), and hold no spinlock.
 */
void smp_call_function_many(uint64_t mask, void (*func)(void *), void *info);
/* Run the calls other CPUs asked this one to make (from the IPI, and from
 * a CPU that waits with interrupts off: cpu_relax_answering_calls). */
void smp_call_function_interrupt(void);
/* One turn of a wait loop with interrupts off: answer the calls posted to
 * this CPU, then pause (arch/x86/kernel/smp.c says why waiters must). */
void cpu_relax_answering_calls(void);

uint64_t cpu_online_mask(void);
struct mm;
/* The other CPUs that have mm's page tables loaded (Linux's mm_cpumask,
 * arch/x86/kernel/tlb.c): those running its threads, and idle CPUs that
 * kept them. */
uint64_t mm_cpumask(const struct mm *mm);
/* Lazy TLB (arch/x86/kernel/tlb.c): switch_to enters it for the idle task
 * and kernel threads, which run on the tables they find; mm_activate
 * leaves it, with the flush owed, whenever a task's address space is
 * loaded (a switch, or a kernel thread's exec). */
void enter_lazy_tlb(void);
void leave_lazy_tlb(void);
