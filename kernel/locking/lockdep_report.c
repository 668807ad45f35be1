/*
 * lockdep_report.c - the lock validator's reports, in Linux's words (the
 * first lines are what tools and tests look for), e.g.:
 *
 *   ======================================================
 *   WARNING: possible circular locking dependency detected
 *   6.1.0-execve Not tainted
 *   ------------------------------------------------------
 *   lkdtm/42 is trying to acquire lock:
 *   ffffffff80234560 (lkdtm_lock_a), at: lkdtm_lockdep+0x5d
 *   ...
 *
 * Printed at KERN_ERR, not Linux's KERN_WARNING, so that a report reaches
 * the console under "quiet" as the other sanitizers' do. Each ends with
 * "turning off the locking correctness validator.": the first report is
 * the only one (lockdep.c).
 */
#ifdef CONFIG_LOCKDEP
#include <ksyms.h>
#include <percpu.h>
#include <sched.h>
#include <string.h>
#include <trap.h>
#include "lockdep_internal.h"

static const char *const usage_names[NR_LOCK_USAGE] = {
	[USED_IN_HARDIRQ_W] = "IN-HARDIRQ-W",
	[USED_IN_HARDIRQ_R] = "IN-HARDIRQ-R",
	[HARDIRQ_ON_W] = "HARDIRQ-ON-W",
	[HARDIRQ_ON_R] = "HARDIRQ-ON-R",
};

static const char *task_comm(void)
{
	return current ? current->comm : "swapper";
}

static int task_pid(void)
{
	return current ? current->pid : 0;
}

/* "name", or "name/1" for spin_lock_nested's subclass 1. */
static const char *class_name(const struct lock_class *c, char *buf, size_t size)
{
	if (!c->subclass)
		return c->name;
	snprintf(buf, size, "%s/%d", c->name, c->subclass);
	return buf;
}

/* "func+0x1c" for a code address. */
static const char *symbol(uint64_t ip, char *buf, size_t size)
{
	uint64_t off;
	const char *name = ksym_lookup(ip, &off);

	if (name)
		snprintf(buf, size, "%s+0x%lx", name, (unsigned long)off);
	else
		snprintf(buf, size, "0x%016lx", (unsigned long)ip);
	return buf;
}

/* The banner: a rule as long as the title, the title, the version. */
static void print_header(const char *title)
{
	char rule[80];
	size_t n = strlen("WARNING: ") + strlen(title);

	n = n < sizeof(rule) - 1 ? n : sizeof(rule) - 1;
	memset(rule, '=', n);
	rule[n] = '\0';
	printk(KERN_ERR "%s\n", rule);
	printk(KERN_ERR "WARNING: %s\n", title);
	printk(KERN_ERR "%s Not tainted\n", UTS_RELEASE);
	memset(rule, '-', n);
	printk(KERN_ERR "%s\n", rule);
}

static void print_lock(const char *prefix, const struct held_lock *l)
{
	char name[64], at[96];

	printk(KERN_ERR "%s%016lx (%s), at: %s\n", prefix, (unsigned long)l->map,
	       class_name(l->class, name, sizeof(name)), symbol(l->ip, at, sizeof(at)));
}

static void print_held_locks(const struct held_locks *h)
{
	if (!h->depth) {
		printk(KERN_ERR "no locks held by %s/%d.\n", task_comm(), task_pid());
		return;
	}
	printk(KERN_ERR "%d lock%s held by %s/%d:\n", h->depth, h->depth > 1 ? "s" : "", task_comm(),
	       task_pid());
	for (int i = 0; i < h->depth; i++) {
		char prefix[8];
		snprintf(prefix, sizeof(prefix), " #%d: ", i);
		print_lock(prefix, &h->lock[i]);
	}
}

/* Who is running, and how it got here; then the validator is off. */
static void print_backtrace_and_off(bool heading)
{
	if (heading)
		printk(KERN_ERR "\nstack backtrace:\n");
	dump_stack_lvl(KERN_ERR);
	printk(KERN_ERR "turning off the locking correctness validator.\n");
}

static void print_trying(const char *what, const struct held_lock *next, const struct held_lock *held)
{
	printk(KERN_ERR "%s/%d is trying to acquire lock:\n", task_comm(), task_pid());
	print_lock("", next);
	printk(KERN_ERR "\nbut task is already holding lock:\n");
	print_lock("", held);
	if (what)
		printk(KERN_ERR "\n%s\n", what);
}

/* path[0] is next's class, path[len - 1] held's: the edges already there. */
static void print_chain(const struct held_lock *next, const int *path, int len)
{
	char name[64], at[96];

	printk(KERN_ERR "\nthe existing dependency chain (in reverse order) is:\n");
	for (int i = len - 1; i >= 1; i--) {
		const struct lock_class *c = &lock_classes[path[i]];
		printk(KERN_ERR "\n-> #%d (%s):\n", i, class_name(c, name, sizeof(name)));
		printk(KERN_ERR "       %s\n", symbol(edge_ip[path[i - 1]][path[i]], at, sizeof(at)));
	}
	printk(KERN_ERR "\n-> #0 (%s):\n", class_name(next->class, name, sizeof(name)));
	printk(KERN_ERR "       %s\n", symbol(next->ip, at, sizeof(at)));
}

void report_circular(const struct held_locks *h, const struct held_lock *held,
		     const struct held_lock *next, const int *path, int len)
{
	char src[64], prt[64], tgt[64];
	const char *source = class_name(next->class, src, sizeof(src));
	const char *target = class_name(held->class, tgt, sizeof(tgt));
	const char *parent = class_name(&lock_classes[path[len - 2]], prt, sizeof(prt));

	print_header("possible circular locking dependency detected");
	print_trying("which lock already depends on the new lock.\n", next, held);
	print_chain(next, path, len);
	printk(KERN_ERR "\nother info that might help us debug this:\n\n");
	if (len > 2)
		printk(KERN_ERR "Chain exists of:\n  %s --> %s --> %s\n\n", source, parent, target);
	printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
	printk(KERN_ERR "       CPU0                    CPU1\n");
	printk(KERN_ERR "       ----                    ----\n");
	printk(KERN_ERR "  lock(%s);\n", target);
	printk(KERN_ERR "                               lock(%s);\n", parent);
	printk(KERN_ERR "                               lock(%s);\n", target);
	printk(KERN_ERR "  lock(%s);\n", source);
	printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
	print_held_locks(h);
	print_backtrace_and_off(true);
}

void report_recursive(const struct held_locks *h, const struct held_lock *held,
		      const struct held_lock *next)
{
	char name[64];
	const char *lock = class_name(next->class, name, sizeof(name));

	print_header("possible recursive locking detected");
	print_trying(NULL, next, held);
	printk(KERN_ERR "\nother info that might help us debug this:\n");
	printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
	printk(KERN_ERR "       CPU0\n");
	printk(KERN_ERR "       ----\n");
	printk(KERN_ERR "  lock(%s);\n", lock);
	printk(KERN_ERR "  lock(%s);\n", lock);
	printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
	printk(KERN_ERR " May be due to missing lock nesting notation\n\n");
	print_held_locks(h);
	print_backtrace_and_off(true);
}

void report_usage(const struct held_locks *h, const struct held_lock *next, int was, int now)
{
	char name[64], at[96];
	const char *lock = class_name(next->class, name, sizeof(name));
	bool in_irq = now == USED_IN_HARDIRQ_W || now == USED_IN_HARDIRQ_R;

	print_header("inconsistent lock state");
	printk(KERN_ERR "inconsistent {%s} -> {%s} usage.\n", usage_names[was], usage_names[now]);
	printk(KERN_ERR "%s/%d [HC%d[%u]:SC0[0]:HE%d:SE1] takes:\n", task_comm(), task_pid(), in_irq,
	       next->irq_context, !in_irq);
	print_lock("", next);
	printk(KERN_ERR "{%s} state was registered at:\n", usage_names[was]);
	printk(KERN_ERR "  %s\n", symbol(next->class->usage_ip[was], at, sizeof(at)));
	printk(KERN_ERR "\nother info that might help us debug this:\n");
	printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
	printk(KERN_ERR "       CPU0\n");
	printk(KERN_ERR "       ----\n");
	printk(KERN_ERR "  lock(%s);\n", lock);
	printk(KERN_ERR "  <Interrupt>\n");
	printk(KERN_ERR "    lock(%s);\n", lock);
	printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
	print_held_locks(h);
	print_backtrace_and_off(true);
}

void report_bad_unlock(const struct held_locks *h, const char *name, const void *map, uint64_t ip)
{
	char at[96];

	print_header("bad unlock balance detected!");
	printk(KERN_ERR "%s/%d is trying to release lock (%s) at:\n", task_comm(), task_pid(), name);
	printk(KERN_ERR "[<%016lx>] %s\n", (unsigned long)ip, symbol(ip, at, sizeof(at)));
	printk(KERN_ERR "but there are no more locks to release!\n");
	printk(KERN_ERR "\nother info that might help us debug this:\n");
	print_held_locks(h);
	print_backtrace_and_off(true);
	(void)map;
}

/* Linux's preempt_count: one per spinlock held, 0x10000 in a handler. */
void report_might_sleep(const struct held_locks *h, const char *file, int line,
			unsigned int hardirq, bool irqs_off)
{
	unsigned int count = (unsigned int)h->depth + (hardirq ? 0x10000 : 0);

	printk(KERN_ERR "BUG: sleeping function called from invalid context at %s:%d\n", file, line);
	printk(KERN_ERR "in_atomic(): 1, irqs_disabled(): %d, non_block: 0, pid: %d, name: %s\n",
	       irqs_off, task_pid(), task_comm());
	printk(KERN_ERR "preempt_count: %x, expected: 0\n", count);
	printk(KERN_ERR "RCU nest depth: 0, expected: 0\n");
	print_held_locks(h);
	print_backtrace_and_off(false);
}

void report_limit(const char *what)
{
	printk(KERN_ERR "BUG: %s\n", what);
	print_backtrace_and_off(false);
}

void report_non_static(const char *name)
{
	printk(KERN_ERR "INFO: trying to register non-static key.\n");
	printk(KERN_ERR "The code is fine but needs lockdep annotation, or maybe\n");
	printk(KERN_ERR "you didn't initialize this object before use? (%s)\n", name);
	print_backtrace_and_off(false);
}
#endif /* CONFIG_LOCKDEP */
