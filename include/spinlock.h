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
#include <lockdep.h>
#include <x86.h>

typedef struct spinlock {
	uint16_t next;    /* the ticket the next taker draws */
	uint16_t owner;   /* the ticket now holding the lock */
	const char *name; /* for reports */
#ifdef CONFIG_LOCKDEP
	struct lockdep_map dep_map; /* its class (include/lockdep.h) */
#endif
} spinlock_t;

/* A lock defined alone is a class of its own: its address is the key. */
#define DEFINE_SPINLOCK(n) spinlock_t n = { .next = 0, .owner = 0, LOCKDEP_MAP_INIT(&n) .name = #n }

static inline void spin_lock_init_key(spinlock_t *l, const char *name, struct lock_class_key *key)
{
	l->next = l->owner = 0;
	l->name = name;
	lockdep_init_map(&l->dep_map, key);
	(void)key;
}
/* Every lock this line initialises is of one class (lockdep.h). */
#ifdef CONFIG_LOCKDEP
#define spin_lock_init(l)                                   \
	do {                                                \
		static struct lock_class_key key__;         \
		spin_lock_init_key((l), #l, &key__);        \
	} while (0)
#else
#define spin_lock_init(l) spin_lock_init_key((l), #l, NULL)
#endif

static inline void arch_spin_lock(spinlock_t *l)
{
	uint16_t ticket = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != ticket)
		__asm__ volatile("pause");
}

/* The validator hears of a lock before the wait, so that it reports a
 * deadlock rather than spin in it. */
__lock_inline void spin_lock(spinlock_t *l)
{
	lock_acquire(&l->dep_map, l->name, 0, 0, THIS_IP());
	arch_spin_lock(l);
}

/*
 * The second lock of one class, taken while holding the first, in an
 * order that cannot deadlock (double_rq_lock: lower CPU first): subclass
 * 1..7 tells the validator it is not a recursion.
 */
__lock_inline void spin_lock_nested(spinlock_t *l, int subclass)
{
	lock_acquire(&l->dep_map, l->name, subclass, 0, THIS_IP());
	(void)subclass;
	arch_spin_lock(l);
}

/* Take it only if nobody holds it or waits for it; true if taken. */
__lock_inline bool spin_trylock(spinlock_t *l)
{
	uint16_t owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	uint16_t free = owner; /* free: the next ticket is the one served */

	if (!__atomic_compare_exchange_n(&l->next, &free, (uint16_t)(owner + 1), false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	lock_acquire(&l->dep_map, l->name, 0, LOCKDEP_TRY, THIS_IP());
	return true;
}

__lock_inline void spin_unlock(spinlock_t *l)
{
	lock_release(&l->dep_map, l->name, THIS_IP());
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

__lock_inline void spin_unlock_irqrestore(spinlock_t *l, uint64_t flags)
{
	spin_unlock(l);
	irq_restore(flags);
}

/* The same where interrupts are known to be on. */
__lock_inline void spin_lock_irq(spinlock_t *l)
{
	cli();
	spin_lock(l);
}

__lock_inline void spin_unlock_irq(spinlock_t *l)
{
	spin_unlock(l);
	sti();
}
