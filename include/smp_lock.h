/*
 * smp_lock.h - the big kernel lock (kernel/locking/kernel_lock.c).
 *
 * The kernel was written for one CPU: its structures are kept consistent
 * by running one thing at a time, with interrupts off where an interrupt
 * handler could come in between. With several CPUs that holds as long as
 * one CPU at a time runs kernel code: the rule of Linux 2.0's SMP kernel,
 * and the first step of every kernel made SMP since. Programs run in user
 * mode on every CPU at once; a CPU takes the lock on its way into the
 * kernel (system call, exception, interrupt) and drops it on its way back
 * to user mode or into the idle halt. A task that sleeps in the kernel
 * lets it go for the switch (schedule(), kernel/sched/core.c) and takes it
 * back when it runs again, as Linux 2.6's did.
 *
 * Only the IPI handlers (arch/x86/kernel/smp.c) run without it, and a CPU
 * waiting for it keeps answering them, so that the holder may wait for
 * other CPUs (a TLB shootdown) without a deadlock.
 *
 * Lock order: the big kernel lock is the outermost lock; nothing is taken
 * before it.
 */
#pragma once
#include <kernel.h>

void lock_kernel(void);        /* the caller does not hold it */
bool try_lock_kernel(void);    /* take it if it is free; never waits */
void unlock_kernel(void);      /* the caller holds it */
bool kernel_locked(void);      /* does this CPU hold it? */
void unlock_kernel_to_user(void); /* entry.S, on the way out to user mode */

/*
 * Let the lock go for work that needs none (all it touches has locks of
 * its own, or is the caller's alone), so that other CPUs enter the kernel
 * meanwhile, and take it back after: release_kernel_lock returns whether
 * it was held, for reacquire_kernel_lock. The caller holds no spinlock,
 * and anything it read under the lock may have changed when it is back.
 */
bool release_kernel_lock(void);
void reacquire_kernel_lock(bool was_held);

/* The lock's statistics (include/lock_stat.h). */
struct lock_class_stats;
extern struct lock_class_stats kernel_lock_stats;
