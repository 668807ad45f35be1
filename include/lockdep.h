/*
 * lockdep.h - the lock validator (make SANITIZE=lockdep, CONFIG_LOCKDEP),
 * a small Linux lockdep; kernel/locking/lockdep.c does the work.
 *
 * It proves deadlocks possible before they happen. Every spinlock and
 * rwlock belongs to a class: the place that initialised it (its
 * DEFINE_SPINLOCK, or the one spin_lock_init/rwlock_init line that set it
 * up), so that all run queue locks are one class, all page_table_locks
 * another. Taking B while holding A adds the edge A -> B to a graph of
 * classes; an edge that closes a cycle is a deadlock two CPUs can reach,
 * even if they never did. It also reports a class taken twice (without
 * spin_lock_nested), a class taken both in an interrupt handler and with
 * interrupts on, an unlock of a lock not held, and might_sleep() with a
 * spinlock held. The first report turns the validator off; the kernel
 * goes on. docs/smp.md section 10 tells the rest.
 *
 * Without CONFIG_LOCKDEP every hook is empty and the locks are no bigger.
 */
#pragma once
#include <kernel.h>

/* spin_lock_nested's subclass for the second lock of a class taken in a
 * known order (double_rq_lock: the lower CPU's queue, then the other). */
#define SINGLE_DEPTH_NESTING 1
#define MAX_LOCKDEP_SUBCLASSES 8

/* How a lock is taken (lock_acquire's flags). */
#define LOCKDEP_TRY 1  /* a trylock that succeeded: it waited for nothing */
#define LOCKDEP_READ 2 /* read_lock: shared with other readers */

/* Only its address matters: one per place that initialises locks. */
struct lock_class_key {
	char unused;
};

/* The address of the instruction where it is used (inline callers: in the
 * function that took the lock, not in spinlock.h). */
#define THIS_IP()                                                   \
	({                                                          \
		uint64_t ip__;                                      \
		__asm__ volatile("lea 0(%%rip), %0" : "=r"(ip__)); \
		ip__;                                               \
	})

#ifdef CONFIG_LOCKDEP
/* The lock functions are inlined even with the hooks, so that THIS_IP()
 * names the caller; without them, the compiler decides as before. */
#define __lock_inline static inline __attribute__((always_inline))

struct lock_class;

/* What a lock carries for the validator. */
struct lockdep_map {
	const void *key;          /* its class's key */
	struct lock_class *class; /* that class (subclass 0), once looked up */
};

#define LOCKDEP_MAP_INIT(k) .dep_map = { .key = (k), .class = NULL },

static inline void lockdep_init_map(struct lockdep_map *map, const void *key)
{
	map->key = key;
	map->class = NULL;
}

/* name: the lock's, for reports; ip: where it is taken or released. */
void lock_acquire(struct lockdep_map *map, const char *name, int subclass, int flags, uint64_t ip);
void lock_release(struct lockdep_map *map, const char *name, uint64_t ip);

/* Report a caller that may sleep but holds a spinlock or runs in an
 * interrupt handler: "BUG: sleeping function called from invalid
 * context at FILE:LINE". */
void __might_sleep(const char *file, int line);
#define might_sleep() __might_sleep(__FILE__, __LINE__)

/* The interrupt entry's bracket around a handler (arch/x86/kernel/traps.c). */
void lockdep_hardirq_enter(void);
void lockdep_hardirq_exit(void);
bool lockdep_in_hardirq(void);
#else
#define __lock_inline static inline
#define LOCKDEP_MAP_INIT(k)
#define lockdep_init_map(map, key) do { } while (0)
#define lock_acquire(map, name, subclass, flags, ip) do { } while (0)
#define lock_release(map, name, ip) do { } while (0)
#define might_sleep() do { } while (0)
#define lockdep_hardirq_enter() do { } while (0)
#define lockdep_hardirq_exit() do { } while (0)
#endif
