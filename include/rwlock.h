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
#include <lockdep.h>

#define RW_WRITER 0x80000000u  /* a writer holds it */
#define RW_WAITING 0x40000000u /* a writer waits: no new readers */

typedef struct rwlock {
	uint32_t state;    /* the number of readers, with the two bits above */
	const char *name;  /* for reports */
#ifdef CONFIG_LOCKDEP
	struct lockdep_map dep_map; /* its class (include/lockdep.h) */
#endif
} rwlock_t;

/* A lock defined alone is a class of its own: its address is the key. */
#define DEFINE_RWLOCK(n) rwlock_t n = { .state = 0, LOCKDEP_MAP_INIT(&n) .name = #n }

static inline void rwlock_init_key(rwlock_t *l, const char *name, struct lock_class_key *key)
{
	l->state = 0;
	l->name = name;
	lockdep_init_map(&l->dep_map, key);
	(void)key;
}
/* Every lock this line initialises is of one class (lockdep.h). */
#ifdef CONFIG_LOCKDEP
#define rwlock_init(l)                                      \
	do {                                                \
		static struct lock_class_key key__;         \
		rwlock_init_key((l), #l, &key__);           \
	} while (0)
#else
#define rwlock_init(l) rwlock_init_key((l), #l, NULL)
#endif

/*
 * The validator (lockdep.h) orders a read hold as any other, and reports
 * a second read_lock by a holder: a writer waiting between the two keeps
 * the second out, and waits itself for the first.
 */
__lock_inline void read_lock(rwlock_t *l)
{
	lock_acquire(&l->dep_map, l->name, 0, LOCKDEP_READ, THIS_IP());
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
__lock_inline bool read_trylock(rwlock_t *l)
{
	uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);

	if (s & (RW_WRITER | RW_WAITING) ||
	    !__atomic_compare_exchange_n(&l->state, &s, s + 1, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	lock_acquire(&l->dep_map, l->name, 0, LOCKDEP_TRY | LOCKDEP_READ, THIS_IP());
	return true;
}

__lock_inline void read_unlock(rwlock_t *l)
{
	lock_release(&l->dep_map, l->name, THIS_IP());
	__atomic_fetch_sub(&l->state, 1, __ATOMIC_RELEASE);
}

static inline void rwlock_pause(void) { __asm__ volatile("pause"); }

/* write_lock, calling relax() at each turn of the wait (a caller with
 * interrupts off may have to answer other CPUs there). */
__lock_inline void write_lock_relax(rwlock_t *l, void (*relax)(void))
{
	lock_acquire(&l->dep_map, l->name, 0, 0, THIS_IP());
	for (;;) {
		uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);
		if (!(s & ~RW_WAITING) &&
		    __atomic_compare_exchange_n(&l->state, &s, RW_WRITER, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		if (!(s & RW_WAITING))
			__atomic_fetch_or(&l->state, RW_WAITING, __ATOMIC_RELAXED);
		relax();
	}
}

__lock_inline void write_lock(rwlock_t *l) { write_lock_relax(l, rwlock_pause); }

/* Write-hold it if no one holds it; true if held. */
__lock_inline bool write_trylock(rwlock_t *l)
{
	uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);

	if (s & ~RW_WAITING ||
	    !__atomic_compare_exchange_n(&l->state, &s, RW_WRITER, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	lock_acquire(&l->dep_map, l->name, 0, LOCKDEP_TRY, THIS_IP());
	return true;
}

__lock_inline void write_unlock(rwlock_t *l)
{
	lock_release(&l->dep_map, l->name, THIS_IP());
	__atomic_fetch_and(&l->state, ~RW_WRITER, __ATOMIC_RELEASE);
}
