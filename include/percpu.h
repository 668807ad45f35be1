/*
 * percpu.h - what each CPU keeps for itself, reached through the GS base.
 *
 * Every CPU has one struct percpu (cpus[n], arch/x86/kernel/setup_percpu.c).
 * While a CPU runs kernel code its GS base holds the address of its own
 * struct, so that "%gs:offset" reads this CPU's copy of a field in one
 * instruction, whichever CPU runs it: the idea of Linux's per-CPU
 * variables, with one structure instead of a linker section. In user mode
 * GS belongs to the program; the entry code (arch/x86/kernel/entry.S)
 * exchanges the two bases with swapgs on every way in from user mode and
 * out to it, so the user's base waits in MSR_KERNEL_GS_BASE meanwhile.
 *
 * The fields at fixed offsets are the ones entry.S reads; their offsets
 * are checked below. A CPU writes its own struct, with interrupts off
 * where an interrupt handler writes the same field. Other CPUs, holding
 * the big kernel lock (include/smp_lock.h), read current_task, idle,
 * online, apic_id and active_pml4, and set need_resched before they send
 * a reschedule IPI.
 */
#pragma once

#define NR_CPUS 8 /* the most this kernel brings up */

/* Offsets entry.S uses (checked against the struct below). */
#define PCPU_SELF 0
#define PCPU_SYSCALL_RSP 8 /* the running task's kernel stack top */
#define PCPU_USER_RSP 16   /* the user's rsp, saved by syscall_entry */
#define PCPU_ESPFIX_RSP 24 /* see arch/x86/kernel/espfix_64.c */
#define PCPU_CURRENT 32

#ifndef __ASSEMBLY__
#include <kernel.h>

struct task;

struct percpu {
	struct percpu *self;
	uint64_t syscall_rsp;
	uint64_t user_rsp;
	uint64_t espfix_rsp;
	struct task *current_task;
	int cpu;                  /* this CPU's number: 0 is the boot CPU */
	uint32_t apic_id;         /* its local APIC's ID (MADT) */
	bool online;              /* running the scheduler */
	bool need_resched;        /* switch tasks before returning to user mode */
	unsigned int slice_left;  /* ticks current may still run */
	uint64_t kernel_ticks;    /* ticks current spent in the kernel in a row */
	struct task *idle;        /* this CPU's idle task */
	struct task *prev_task;   /* the task a switch leaves (finish_task_switch) */
	struct task *migrate_task; /* and where it goes if it may not stay */
	void *tss;                /* this CPU's TSS (arch/x86/kernel/gdt.c) */
	uint64_t *gdt;            /* and its GDT */
	uint64_t active_pml4;     /* CR3's table (physical), read by TLB shootdowns */
	/* Running the idle task or a kernel thread on the last process's
	 * tables, and a flush owed to them (arch/x86/kernel/tlb.c). */
	bool tlb_lazy;
	bool tlb_flush_pending;
	bool ldt_loaded;          /* LDTR holds a process's table (ldt.c) */
	bool io_bitmap_loaded;    /* the TSS allows some port (ioport.c) */
	/* mmap_locks held without the big kernel lock, and the interrupt
	 * flag from before the first (mm/vm.c, mmap_read_lock). */
	unsigned int mmap_irq_depth;
	uint64_t mmap_irq_flags;
	bool in_nmi;              /* in do_nmi (include/nmi.h) */
};

_Static_assert(offsetof(struct percpu, self) == PCPU_SELF, "entry.S");
_Static_assert(offsetof(struct percpu, syscall_rsp) == PCPU_SYSCALL_RSP, "entry.S");
_Static_assert(offsetof(struct percpu, user_rsp) == PCPU_USER_RSP, "entry.S");
_Static_assert(offsetof(struct percpu, espfix_rsp) == PCPU_ESPFIX_RSP, "entry.S");
_Static_assert(offsetof(struct percpu, current_task) == PCPU_CURRENT, "entry.S");

extern struct percpu cpus[NR_CPUS];
void setup_percpu(int cpu); /* point the calling CPU's GS at cpus[cpu] */
extern int nr_cpu_ids; /* CPUs found (and allowed by maxcpus=) */

#ifdef HOST_PERCPU
/* tests/host: kernel files compiled as a program, on one "CPU": a plain
 * struct, and current a plain variable. */
extern struct percpu host_cpu;
extern struct task *current;
#define this_cpu_read(field) (host_cpu.field)
#define this_cpu_write(field, val) (host_cpu.field = (val))
static inline int smp_processor_id(void) { return 0; }
#else
#define __pcpu_type(field) __typeof__(((struct percpu *)0)->field)

/* This CPU's copy of a field. volatile: a task may move to another CPU
 * at any schedule(), so no read may be reused across a call. */
#define this_cpu_read(field)                                                         \
	({                                                                           \
		__pcpu_type(field) v__;                                              \
		__asm__ volatile("mov %%gs:%c1, %0"                                  \
				 : "=r"(v__)                                         \
				 : "i"(offsetof(struct percpu, field)));             \
		v__;                                                                 \
	})
#define this_cpu_write(field, val)                                                   \
	do {                                                                         \
		__pcpu_type(field) v__ = (val);                                      \
		__asm__ volatile("mov %0, %%gs:%c1" ::"r"(v__),                      \
				 "i"(offsetof(struct percpu, field))                 \
				 : "memory");                                        \
	} while (0)

static inline struct percpu *this_cpu(void) { return this_cpu_read(self); }
static inline int smp_processor_id(void) { return this_cpu_read(cpu); }

/*
 * The running task. Not volatile, unlike this_cpu_read: to the code of a
 * task, current is always that task, whichever CPU it is on and however
 * often it slept, so the compiler may keep it in a register. Only
 * schedule() changes it (this_cpu_write(current_task, ...)).
 */
static inline struct task *get_current(void)
{
	struct task *t;

	__asm__("mov %%gs:%c1, %0" : "=r"(t) : "i"(PCPU_CURRENT));
	return t;
}
#define current get_current()
#endif /* HOST_PERCPU */

#define for_each_online_cpu(c) for (int c = 0; c < nr_cpu_ids; c++) if (cpus[c].online)
#endif /* __ASSEMBLY__ */
