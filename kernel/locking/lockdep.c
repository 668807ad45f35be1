/*
 * lockdep.c - the lock validator (include/lockdep.h says what it finds).
 * Built only with CONFIG_LOCKDEP (make SANITIZE=lockdep).
 *
 * Every hook runs with interrupts off. Each CPU's held locks are its own;
 * the classes and the graph are shared, and changed under graph_busy, a
 * bare lock of the validator's own (it cannot validate itself). What is
 * read without it only ever goes from unset to set: a class's key, an
 * edge's bit, a usage bit; so a hook that finds its edge or its usage
 * already there takes no lock at all, and most hooks are that.
 *
 * The big kernel lock (smp_lock.h) is not validated: it belongs to a CPU
 * rather than a code path, is held across schedule() and dropped and
 * taken again around every halt and switch, so "held while taking" means
 * nothing for it. Every spinlock is inside it, and that order holds by
 * construction (spinlock.h).
 */
#ifdef CONFIG_LOCKDEP
#include <percpu.h>
#include <x86.h>
#include "lockdep_internal.h"

struct lock_class lock_classes[MAX_LOCK_CLASSES];
uint64_t edge_ip[MAX_LOCK_CLASSES][MAX_LOCK_CLASSES]; /* [a][b]: b taken holding a */
static int nr_classes;
static struct held_locks held[NR_CPUS];
static unsigned int hardirq_depth[NR_CPUS];
static bool debug_locks = true; /* false after the first report */
static int graph_busy;

static void graph_lock(void)
{
	while (__atomic_exchange_n(&graph_busy, 1, __ATOMIC_ACQUIRE))
		__asm__ volatile("pause");
}

static void graph_unlock(void)
{
	__atomic_store_n(&graph_busy, 0, __ATOMIC_RELEASE);
}

/* The first report wins: true for it alone. It turns the validator off,
 * as Linux's debug_locks_off: the graph may be wrong from here on. */
static bool debug_locks_off(void)
{
	return __atomic_exchange_n(&debug_locks, false, __ATOMIC_RELAXED);
}

static bool validating(void)
{
	return __atomic_load_n(&debug_locks, __ATOMIC_RELAXED);
}

void lockdep_hardirq_enter(void)
{
	hardirq_depth[smp_processor_id()]++;
}

void lockdep_hardirq_exit(void)
{
	hardirq_depth[smp_processor_id()]--;
}

bool lockdep_in_hardirq(void)
{
	return hardirq_depth[smp_processor_id()] != 0;
}

/* The class of key and subclass, made at its first lock; NULL (and the
 * validator off) when there is no room. Under graph_busy. */
static struct lock_class *register_class(const void *key, int subclass, const char *name)
{
	for (int i = 0; i < nr_classes; i++)
		if (lock_classes[i].key == key && lock_classes[i].subclass == subclass)
			return &lock_classes[i];
	if (nr_classes == MAX_LOCK_CLASSES) {
		if (debug_locks_off())
			report_limit("MAX_LOCKDEP_KEYS too low!");
		return NULL;
	}
	struct lock_class *c = &lock_classes[nr_classes];
	c->key = key;
	c->subclass = subclass;
	c->name = name;
	__atomic_store_n(&nr_classes, nr_classes + 1, __ATOMIC_RELEASE);
	return c;
}

/* map's class for subclass; the lock remembers its subclass 0 one. */
static struct lock_class *lock_class_of(struct lockdep_map *map, const char *name, int subclass)
{
	struct lock_class *c = subclass ? NULL : __atomic_load_n(&map->class, __ATOMIC_ACQUIRE);

	if (c)
		return c;
	if (!map->key) {
		/* Never went through spin_lock_init/rwlock_init. */
		if (debug_locks_off())
			report_non_static(name);
		return NULL;
	}
	if (subclass < 0 || subclass >= MAX_LOCKDEP_SUBCLASSES)
		subclass = MAX_LOCKDEP_SUBCLASSES - 1;
	graph_lock();
	c = register_class(map->key, subclass, name);
	graph_unlock();
	if (c && !subclass)
		__atomic_store_n(&map->class, c, __ATOMIC_RELEASE);
	return c;
}

/*
 * Interrupt safety: a class taken in an interrupt handler must never be
 * held with interrupts on (the handler would spin on its own CPU's lock).
 * A read hold in a handler is safe against other reads only.
 */
static const int usage_conflict[NR_LOCK_USAGE] = {
	[USED_IN_HARDIRQ_W] = 1 << HARDIRQ_ON_W | 1 << HARDIRQ_ON_R,
	[USED_IN_HARDIRQ_R] = 1 << HARDIRQ_ON_W,
	[HARDIRQ_ON_W] = 1 << USED_IN_HARDIRQ_W | 1 << USED_IN_HARDIRQ_R,
	[HARDIRQ_ON_R] = 1 << USED_IN_HARDIRQ_W,
};

static bool check_usage(const struct held_locks *h, const struct held_lock *next, bool irqs_on)
{
	bool read = next->flags & LOCKDEP_READ;
	int u;

	if (next->irq_context)
		u = read ? USED_IN_HARDIRQ_R : USED_IN_HARDIRQ_W;
	else if (irqs_on)
		u = read ? HARDIRQ_ON_R : HARDIRQ_ON_W;
	else
		return true;
	struct lock_class *c = next->class;
	if (__atomic_load_n(&c->usage, __ATOMIC_ACQUIRE) & 1u << u)
		return true;
	graph_lock();
	if (!(c->usage & 1u << u)) {
		c->usage_ip[u] = next->ip;
		__atomic_fetch_or(&c->usage, 1u << u, __ATOMIC_RELEASE);
	}
	unsigned int clash = c->usage & usage_conflict[u];
	graph_unlock();
	if (!clash || !debug_locks_off())
		return !clash;
	report_usage(h, next, __builtin_ctz(clash), u);
	return false;
}

/* The same class again, but a trylock (it waits for nothing): a lock of
 * the class may be the one this CPU holds. spin_lock_nested's subclass
 * makes another class. */
static bool check_recursion(const struct held_locks *h, const struct held_lock *next)
{
	if (next->flags & LOCKDEP_TRY)
		return true;
	for (int i = 0; i < h->depth; i++) {
		if (h->lock[i].class != next->class)
			continue;
		if (debug_locks_off())
			report_recursive(h, &h->lock[i], next);
		return false;
	}
	return true;
}

/* A path from class `from` to class `to` along the edges, breadth first:
 * its classes from..to in path[], their number returned; 0 if none. */
static int find_path(int from, int to, int *path)
{
	int queue[MAX_LOCK_CLASSES], parent[MAX_LOCK_CLASSES], head = 0, tail = 0;
	uint64_t seen = 1ULL << from;

	queue[tail++] = from;
	while (head < tail) {
		int c = queue[head++];
		if (c == to) {
			int len = 0;
			for (int n = to; n != from; n = parent[n])
				len++;
			for (int n = to, i = len; ; n = parent[n], i--) {
				path[i] = n;
				if (n == from)
					return len + 1;
			}
		}
		uint64_t next = lock_classes[c].after & ~seen;
		for (; next; next &= next - 1) {
			int n = __builtin_ctzll(next);
			seen |= 1ULL << n;
			parent[n] = c;
			queue[tail++] = n;
		}
	}
	return 0;
}

/* The edge held -> next; false (and a report) if next already leads back
 * to held: two CPUs taking them in the two orders deadlock. */
static bool add_edge(const struct held_locks *h, const struct held_lock *held,
		     const struct held_lock *next)
{
	int a = class_index(held->class), b = class_index(next->class);
	int path[MAX_LOCK_CLASSES];

	if (__atomic_load_n(&held->class->after, __ATOMIC_ACQUIRE) >> b & 1)
		return true;
	graph_lock();
	int len = find_path(b, a, path);
	if (!len) {
		edge_ip[a][b] = next->ip;
		__atomic_fetch_or(&held->class->after, 1ULL << b, __ATOMIC_RELEASE);
	}
	graph_unlock();
	if (!len || !debug_locks_off())
		return !len;
	report_circular(h, held, next, path, len);
	return false;
}

/*
 * next is taken holding the locks of h: an edge from each one taken in
 * the same context (an interrupt handler's locks do not follow those of
 * the code it interrupted). A trylock adds none: it cannot wait, so it
 * cannot be in a deadlock's cycle; but it is held, and what is taken
 * under it follows it.
 */
static bool add_dependencies(const struct held_locks *h, const struct held_lock *next)
{
	if (next->flags & LOCKDEP_TRY)
		return true;
	for (int i = h->depth - 1; i >= 0 && h->lock[i].irq_context == next->irq_context; i--)
		if (!add_edge(h, &h->lock[i], next))
			return false;
	return true;
}

void lock_acquire(struct lockdep_map *map, const char *name, int subclass, int flags, uint64_t ip)
{
	if (!validating())
		return;
	uint64_t irqf = irq_save();
	int cpu = smp_processor_id();
	struct held_locks *h = &held[cpu];
	struct held_lock next = {
		.class = lock_class_of(map, name, subclass),
		.map = map,
		.ip = ip,
		.flags = flags,
		.irq_context = hardirq_depth[cpu],
	};

	if (next.class && check_usage(h, &next, irqf & 0x200) && check_recursion(h, &next) &&
	    add_dependencies(h, &next)) {
		if (h->depth < MAX_HELD_LOCKS)
			h->lock[h->depth++] = next;
		else if (debug_locks_off())
			report_limit("MAX_LOCK_DEPTH too low!");
	}
	irq_restore(irqf);
}

void lock_release(struct lockdep_map *map, const char *name, uint64_t ip)
{
	if (!validating())
		return;
	uint64_t irqf = irq_save();
	struct held_locks *h = &held[smp_processor_id()];
	int i = h->depth - 1;

	while (i >= 0 && h->lock[i].map != map)
		i--;
	if (i >= 0) {
		/* Locks may be let go in any order: close the gap. */
		for (h->depth--; i < h->depth; i++)
			h->lock[i] = h->lock[i + 1];
	} else if (debug_locks_off()) {
		report_bad_unlock(h, name, map, ip);
	}
	irq_restore(irqf);
}

void __might_sleep(const char *file, int line)
{
	if (!validating())
		return;
	uint64_t irqf = irq_save();
	int cpu = smp_processor_id();

	if ((held[cpu].depth || hardirq_depth[cpu]) && debug_locks_off())
		report_might_sleep(&held[cpu], file, line, hardirq_depth[cpu], !(irqf & 0x200));
	irq_restore(irqf);
}
#endif /* CONFIG_LOCKDEP */
