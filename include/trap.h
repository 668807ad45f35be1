/*
 * trap.h - the register frame saved on the kernel stack at every entry
 * from user space (interrupt, exception or syscall) and every kernel trap.
 * arch/x86/kernel/entry.S builds it; the layout must match the pushes there.
 */
#pragma once

#define TRAP_SYSCALL 0x80
#define IRQ_BASE 32 /* IRQ n arrives as vector IRQ_BASE + n */
#define TRAPFRAME_CS 144 /* offsetof(struct trapframe, cs), for entry.S */
#define TRAPFRAME_SS 168 /* offsetof(struct trapframe, ss), for entry.S */

#ifndef __ASSEMBLY__
#include <kernel.h>

struct trapframe {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector; /* exception/IRQ number; TRAP_SYSCALL for syscall */
	uint64_t error;  /* CPU error code, or 0; for a syscall its number
	                  * (Linux's orig_ax), kept for restarts */
	/* Pushed by the CPU (or by the syscall entry, in the same shape). */
	uint64_t rip, cs, rflags, rsp, ss;
};

_Static_assert(__builtin_offsetof(struct trapframe, ss) == TRAPFRAME_SS, "entry.S's offset");
_Static_assert(__builtin_offsetof(struct trapframe, cs) == TRAPFRAME_CS, "entry.S's offset");

static inline bool trap_from_user(const struct trapframe *tf) { return (tf->cs & 3) == 3; }

void trap_init(void);          /* IDT, GDT, TSS */
/* The stack double faults run on (TSS IST1): a kernel stack overflow
 * arrives there (arch/x86/kernel/gdt.c). */
#define DOUBLE_FAULT_STACK_SIZE 8192
extern uint8_t double_fault_stack[][DOUBLE_FAULT_STACK_SIZE]; /* one a CPU */
/* The stacks NMIs (IST2) and machine checks (IST3) run on, one a CPU:
 * they may strike before syscall_entry has left the user's stack. */
#define PARANOID_STACK_SIZE 8192
extern uint8_t nmi_stack[][PARANOID_STACK_SIZE], mce_stack[][PARANOID_STACK_SIZE];
#define IST_DOUBLE_FAULT 1
#define IST_NMI 2
#define IST_MCE 3
void tss_set_kernel_stack(uint64_t top);
typedef void (*irq_handler_t)(struct trapframe *tf);
void irq_register(int irq, irq_handler_t handler, const char *name);
void irq_unmask(int irq);

void syscall_init(void);
/* Map the espfix page's aliases (arch/x86/kernel/espfix_64.c): before the
 * first process, after the kernel's own page tables. */
void espfix_init(void);
/* Called with every syscall frame; tf->rax holds the number. */
void syscall_dispatch(struct trapframe *tf);

/* arch/x86/kernel/entry.S: restore tf and return to user mode. */
void __noreturn return_to_user(struct trapframe *tf);

/* Print the registers of tf and a backtrace from its rbp. */
void show_regs(const struct trapframe *tf);
void show_backtrace(uint64_t rbp);
/* What reports print, level being a KERN_ prefix: dump_stack_lvl (as
 * Linux's) the CPU, the task's pid and name, then the caller's backtrace;
 * show_trapframe the same line, then tf's registers and, if tf is from
 * kernel mode, the backtrace from its rbp. */
void dump_stack_lvl(const char *level);
void show_trapframe(const char *level, const struct trapframe *tf);
#endif /* __ASSEMBLY__ */
