/*
 * lockdep_internal.h - what the lock validator's two files share:
 * lockdep.c keeps the classes, the graph and each CPU's held locks and
 * finds the bugs; lockdep_report.c prints them in Linux's words.
 */
#pragma once
#include <lockdep.h>

/* A class's successors fit in one word: bit n is classes[n]. */
#define MAX_LOCK_CLASSES 64
#define MAX_HELD_LOCKS 16

/* How a class was used, for the interrupt check (Linux's names). */
enum lock_usage {
	USED_IN_HARDIRQ_W, /* taken in an interrupt handler */
	USED_IN_HARDIRQ_R,
	HARDIRQ_ON_W,      /* taken elsewhere with interrupts on */
	HARDIRQ_ON_R,
	NR_LOCK_USAGE,
};

struct lock_class {
	const void *key;   /* the lock_class_key, or the lock (DEFINE_SPINLOCK) */
	int subclass;      /* spin_lock_nested's, 0 for the rest */
	const char *name;  /* the first lock's name */
	uint64_t after;    /* bit n: classes[n] was taken while this was held */
	unsigned int usage;              /* bit u: lock_usage u was seen */
	uint64_t usage_ip[NR_LOCK_USAGE]; /* where it was first seen */
};

struct held_lock {
	struct lock_class *class;
	const struct lockdep_map *map; /* the lock itself */
	uint64_t ip;                   /* where it was taken */
	int flags;                     /* LOCKDEP_TRY, LOCKDEP_READ */
	unsigned int irq_context;      /* the interrupt depth it was taken at */
};

/* A CPU's locks, in the order taken (a spinlock is never held across
 * schedule(), so they are the CPU's rather than a task's). */
struct held_locks {
	int depth;
	struct held_lock lock[MAX_HELD_LOCKS];
};

extern struct lock_class lock_classes[MAX_LOCK_CLASSES];
extern uint64_t edge_ip[MAX_LOCK_CLASSES][MAX_LOCK_CLASSES];

static inline int class_index(const struct lock_class *c)
{
	return (int)(c - lock_classes);
}

/* lockdep_report.c: each prints a whole report; the caller has turned
 * the validator off (and so is the only one reporting). */
void report_circular(const struct held_locks *h, const struct held_lock *held,
		     const struct held_lock *next, const int *path, int len);
void report_recursive(const struct held_locks *h, const struct held_lock *held,
		      const struct held_lock *next);
void report_usage(const struct held_locks *h, const struct held_lock *next, int was, int now);
void report_bad_unlock(const struct held_locks *h, const char *name, const void *map, uint64_t ip);
void report_might_sleep(const struct held_locks *h, const char *file, int line,
			unsigned int hardirq, bool irqs_off);
void report_limit(const char *what);
void report_non_static(const char *name);
