/*
 * lkdtm_lockdep.c - lkdtm's triggers for the lock validator (make
 * SANITIZE=lockdep): each makes one of its reports on purpose, without
 * the deadlock it warns of (one CPU, locks of the validator's test
 * classes only), and the kernel goes on (tests/cases/hardening/
 * lkdtm_lockdep_*).
 *
 *   LOCKDEP_AB_BA             A then B, later B then A: circular dependency
 *   LOCKDEP_RECURSIVE         two locks of one class, without spin_lock_nested
 *   LOCKDEP_IRQ_INCONSISTENT  a class taken in (pretend) hard-IRQ context,
 *                             then with interrupts on
 *   LOCKDEP_SLEEP_LOCKED      might_sleep() holding a spinlock
 *   LOCKDEP_BAD_UNLOCK        unlock a lock nobody holds
 */
#ifdef CONFIG_LOCKDEP
#include <kernel.h>
#include <lockdep.h>
#include <spinlock.h>
#include <string.h>
#include <x86.h>

static DEFINE_SPINLOCK(lkdtm_lock_a);
static DEFINE_SPINLOCK(lkdtm_lock_b);
static DEFINE_SPINLOCK(lkdtm_irq_lock);
static DEFINE_SPINLOCK(lkdtm_sleep_lock);
static DEFINE_SPINLOCK(lkdtm_unlock_lock);
static spinlock_t lkdtm_pair[2];

static void ab_ba(void)
{
	spin_lock(&lkdtm_lock_a);
	spin_lock(&lkdtm_lock_b);
	spin_unlock(&lkdtm_lock_b);
	spin_unlock(&lkdtm_lock_a);

	spin_lock(&lkdtm_lock_b);
	spin_lock(&lkdtm_lock_a); /* reported: A -> B exists */
	spin_unlock(&lkdtm_lock_a);
	spin_unlock(&lkdtm_lock_b);
}

/* Two instances, one class: the same init line. */
static void recursive(void)
{
	for (int i = 0; i < 2; i++)
		spin_lock_init(&lkdtm_pair[i]);
	spin_lock(&lkdtm_pair[0]);
	spin_lock(&lkdtm_pair[1]); /* reported */
	spin_unlock(&lkdtm_pair[1]);
	spin_unlock(&lkdtm_pair[0]);
}

/* An interrupt handler's use, pretended (the bracket the interrupt entry
 * puts around a handler), then a use with interrupts on. */
static void irq_inconsistent(void)
{
	uint64_t flags = irq_save();

	lockdep_hardirq_enter();
	spin_lock(&lkdtm_irq_lock);
	spin_unlock(&lkdtm_irq_lock);
	lockdep_hardirq_exit();
	irq_restore(flags);

	flags = irq_save();
	sti();
	spin_lock(&lkdtm_irq_lock); /* reported */
	spin_unlock(&lkdtm_irq_lock);
	cli();
	irq_restore(flags);
}

static void sleep_locked(void)
{
	spin_lock(&lkdtm_sleep_lock);
	might_sleep(); /* reported; nothing sleeps */
	spin_unlock(&lkdtm_sleep_lock);
}

/* The extra unlock moves the ticket lock's owner past its next ticket:
 * the lock is set up again after. */
static void bad_unlock(void)
{
	spin_unlock(&lkdtm_unlock_lock); /* reported */
	lkdtm_unlock_lock.next = lkdtm_unlock_lock.owner = 0;
}

/* Run the trigger called name; false if there is none of that name. */
bool lkdtm_lockdep(const char *name)
{
	static const struct {
		const char *name;
		void (*run)(void);
	} triggers[] = {
		{ "LOCKDEP_AB_BA", ab_ba },
		{ "LOCKDEP_RECURSIVE", recursive },
		{ "LOCKDEP_IRQ_INCONSISTENT", irq_inconsistent },
		{ "LOCKDEP_SLEEP_LOCKED", sleep_locked },
		{ "LOCKDEP_BAD_UNLOCK", bad_unlock },
	};

	for (size_t i = 0; i < ARRAY_SIZE(triggers); i++) {
		if (!strcmp(name, triggers[i].name)) {
			triggers[i].run();
			return true;
		}
	}
	return false;
}
#endif /* CONFIG_LOCKDEP */
