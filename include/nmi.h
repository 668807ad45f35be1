/*
 * nmi.h - non-maskable interrupts (arch/x86/kernel/nmi.c).
 *
 * An NMI arrives even with interrupts off, so its handler takes no lock
 * and never waits for a CPU that may be the one it interrupted. It comes
 * on a stack of its own (an IST stack, arch/x86/kernel/gdt.c), and the
 * entry code finds whose GS base is loaded by reading it, since an NMI may
 * strike in the few kernel instructions that run with the user's
 * (arch/x86/kernel/entry.S, paranoid_entry).
 *
 * Two kinds are told apart, as on Linux: a backtrace another CPU asked for
 * (sysrq 'l'), and any other, reported as "unknown" (QEMU's monitor
 * command "nmi" sends one to every CPU).
 */
#pragma once
#include <kernel.h>
#include <percpu.h>

struct trapframe;

void do_nmi(struct trapframe *tf); /* the handler, from trap_handler */
/* Is this CPU in do_nmi? Then it may have struck anywhere, the middle of
 * the scheduler included: what is not NMI-safe waits (the log's
 * wake-up of its readers, include/log_buf.h). */
static inline bool in_nmi(void) { return this_cpu_read(in_nmi); }
/* sysrq 'l': every online CPU prints its registers and backtrace, this one
 * first, the others one by one from their NMI handler. */
void trigger_all_cpu_backtrace(void);
