/*
 * futex_requeue.c - FUTEX_REQUEUE and FUTEX_CMP_REQUEUE (Linux:
 * kernel/futex/requeue.c).
 *
 * A condition variable's broadcast wakes one waiter and moves the others,
 * without waking them, to the mutex's futex: they then wait there, and
 * each unlock lets one go (no thundering herd).
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <x86.h>
#include "futex.h"

/* Make q a waiter of key2, in key2's bucket. In the same bucket it keeps
 * its place: the requeue loop must not meet it again. */
static void requeue_futex(struct futex_q *q, const struct futex_key *key2)
{
	if (futex_bucket(&q->key) == futex_bucket(key2)) {
		q->key = *key2;
		return;
	}
	futex_unqueue(q);
	q->key = *key2;
	futex_queue(q);
}

/*
 * Wake up to nr_wake waiters of uaddr1 (but at least one, as Linux
 * counts) and move up to nr_requeue of the others to uaddr2. With cmpval
 * (FUTEX_CMP_REQUEUE), only if uaddr1 still holds it (else EAGAIN).
 * Returns how many were woken or moved.
 */
long futex_requeue(uint64_t uaddr1, bool shared, uint64_t uaddr2, int nr_wake, int nr_requeue,
		   const uint32_t *cmpval, bool requeue_pi)
{
	struct futex_key key1, key2;
	int task_count = 0, ret = 0;

	if (requeue_pi)
		return -ENOSYS;
	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	if ((ret = get_futex_key(uaddr1, shared, &key1, FUTEX_READ)) ||
	    (ret = get_futex_key(uaddr2, shared, &key2, FUTEX_READ)))
		return ret;
	if (cmpval) {
		uint32_t cur;
		if (futex_get_value(&cur, uaddr1))
			return -EFAULT;
		if (cur != *cmpval)
			return -EAGAIN;
	}
	uint64_t irq = irq_save();
	for (struct futex_q *q = *futex_bucket(&key1), *next; q; q = next) {
		next = q->next;
		if (task_count - nr_wake >= nr_requeue)
			break;
		if (!futex_match(&q->key, &key1))
			continue;
		/* A PI waiter is not to be woken or moved by these. */
		if (q->pi_state || q->requeue_pi_key) {
			ret = -EINVAL;
			break;
		}
		if (++task_count <= nr_wake)
			futex_wake_mark(q);
		else
			requeue_futex(q, &key2);
	}
	irq_restore(irq);
	return ret ? ret : task_count;
}
