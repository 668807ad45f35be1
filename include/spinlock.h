/*
 * spinlock.h - spinlocks: the lock a CPU waits for by spinning.
 *
 * A spinlock guards a structure for a short stretch of code that never
 * sleeps. It is a ticket lock: a taker draws the next ticket and waits
 * until the lock serves it, so CPUs get the lock in the order they asked
 * (no CPU starves while the others pass it around).
 *
 * Rules, as on Linux:
 *  - Never sleep (schedule(), sleep_on, copy to or from user memory that
 *    may fault) holding a spinlock.
 *  - A lock an interrupt handler takes is taken everywhere else with
 *    interrupts off (spin_lock_irqsave), or the handler could spin on a
 *    lock its own CPU holds, forever.
 *  - Do not wait for other CPUs (an IPI, a TLB shootdown) holding a lock
 *    they may be spinning on with interrupts off.
 *  - Where two locks nest, the order is written beside their declarations,
 *    and every path takes them in that order.
 *
 * The big kernel lock (smp_lock.h) is outside every spinlock: a spinlock
 * is taken with the big lock held or not at all by a path, never the big
 * lock inside a spinlock.
 */
#pragma once
#include <kernel.h>
#include <x86.h>

typedef struct spinlock {
	uint16_t next;    /* the ticket the next taker draws */
	uint16_t owner;   /* the ticket now holding the lock */
	const char *name; /* for reports */
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(n) { .next = 0, .owner = 0, .name = #n }
#define DEFINE_SPINLOCK(n) spinlock_t n = __SPIN_LOCK_UNLOCKED(n)

static inline void spin_lock_init_named(spinlock_t *l, const char *name)
{
	l->next = l->owner = 0;
	l->name = name;
}
#define spin_lock_init(l) spin_lock_init_named((l), #l)

static inline void spin_lock(spinlock_t *l)
{
	uint16_t ticket = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != ticket)
		__asm__ volatile("pause");
}

/* Take it only if nobody holds it or waits for it; true if taken. */
static inline bool spin_trylock(spinlock_t *l)
{
	uint16_t owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	uint16_t free = owner; /* free: the next ticket is the one served */

	return __atomic_compare_exchange_n(&l->next, &free, (uint16_t)(owner + 1), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->owner, (uint16_t)(l->owner + 1), __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&l->next, __ATOMIC_RELAXED);
}

/* With interrupts off on this CPU, restored as they were by the unlock. */
#define spin_lock_irqsave(l, flags)      \
	do {                             \
		(flags) = irq_save();    \
		spin_lock(l);            \
	} while (0)

static inline void spin_unlock_irqrestore(spinlock_t *l, uint64_t flags)
{
	spin_unlock(l);
	irq_restore(flags);
}

/* The same where interrupts are known to be on. */
static inline void spin_lock_irq(spinlock_t *l)
{
	cli();
	spin_lock(l);
}

static inline void spin_unlock_irq(spinlock_t *l)
{
	spin_unlock(l);
	sti();
}
