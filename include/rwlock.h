/*
 * rwlock.h - reader-writer spinlocks: many readers at once, or one writer.
 *
 * For a structure read often on several CPUs and changed seldom (an
 * address space's areas: struct mm's mmap_lock). Like a spinlock, a
 * holder never sleeps (spinlock.h's rules hold). A writer that waits
 * keeps new readers out, so that a stream of readers cannot starve it.
 */
#pragma once
#include <kernel.h>

#define RW_WRITER 0x80000000u  /* a writer holds it */
#define RW_WAITING 0x40000000u /* a writer waits: no new readers */

typedef struct rwlock {
	uint32_t state;    /* the number of readers, with the two bits above */
	const char *name;  /* for reports */
} rwlock_t;

static inline void rwlock_init_named(rwlock_t *l, const char *name)
{
	l->state = 0;
	l->name = name;
}
#define rwlock_init(l) rwlock_init_named((l), #l)

static inline void read_lock(rwlock_t *l)
{
	for (;;) {
		uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);
		if (!(s & (RW_WRITER | RW_WAITING)) &&
		    __atomic_compare_exchange_n(&l->state, &s, s + 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		__asm__ volatile("pause");
	}
}

/* Read-hold it if no writer holds it or waits for it; true if held. */
static inline bool read_trylock(rwlock_t *l)
{
	uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);

	return !(s & (RW_WRITER | RW_WAITING)) &&
	       __atomic_compare_exchange_n(&l->state, &s, s + 1, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static inline void read_unlock(rwlock_t *l)
{
	__atomic_fetch_sub(&l->state, 1, __ATOMIC_RELEASE);
}

static inline void write_lock(rwlock_t *l)
{
	for (;;) {
		uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);
		if (!(s & ~RW_WAITING) &&
		    __atomic_compare_exchange_n(&l->state, &s, RW_WRITER, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		if (!(s & RW_WAITING))
			__atomic_fetch_or(&l->state, RW_WAITING, __ATOMIC_RELAXED);
		__asm__ volatile("pause");
	}
}

static inline void write_unlock(rwlock_t *l)
{
	__atomic_fetch_and(&l->state, ~RW_WRITER, __ATOMIC_RELEASE);
}
