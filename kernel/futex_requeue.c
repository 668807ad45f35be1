/*
 * futex_requeue.c - FUTEX_REQUEUE, FUTEX_CMP_REQUEUE, and the pair
 * FUTEX_WAIT_REQUEUE_PI / FUTEX_CMP_REQUEUE_PI (Linux:
 * kernel/futex/requeue.c; Documentation/locking/futex-requeue-pi.rst).
 *
 * A condition variable's broadcast wakes one waiter and moves the others,
 * without waking them, to the mutex's futex: they then wait there, and
 * each unlock lets one go (no thundering herd).
 *
 * With a PI mutex the moved waiters must become waiters of the PI lock
 * (the owner would not know of them otherwise), and the one woken must
 * own the mutex when it returns: FUTEX_WAIT_REQUEUE_PI waits on the
 * condition variable's word saying which PI futex it will be moved to,
 * and FUTEX_CMP_REQUEUE_PI takes the PI futex for the first waiter if it
 * is free (waking it, the lock its own), and makes the others (all of
 * them, if the lock was busy) waiters of the PI lock. Those wake up owning
 * the lock, when an unlock hands it to them, or on a timeout or signal.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <x86.h>
#include "futex.h"

/* Make q a waiter of key2, in key2's bucket. In the same bucket it keeps
 * its place (as Linux): with uaddr1 == uaddr2 the loop must not meet it
 * again. */
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
 * The requeue took the PI futex for the waiter q: it leaves the queue,
 * wakes, and returns owning the lock (Linux's requeue_pi_wake_futex).
 */
static void requeue_pi_wake_futex(struct futex_q *q, const struct futex_key *key2)
{
	futex_unqueue(q);
	q->key = *key2;
	q->requeue_pi_key = NULL;
	q->requeue_state = Q_REQUEUE_PI_LOCKED;
	make_runnable(q->task);
}

/*
 * Check the first waiter of key1 and try to take the PI futex at uaddr2
 * for it: 1 if taken (the waiter woken), 0 if not (*ps: the lock's
 * pi_state, with a reference, for the requeue), or an error. EINVAL for a
 * waiter that did not come through FUTEX_WAIT_REQUEUE_PI to uaddr2
 * (Linux's futex_proxy_trylock_atomic).
 */
static int futex_proxy_trylock_atomic(uint64_t uaddr2, const struct futex_key *key1,
				      const struct futex_key *key2, struct futex_pi_state **ps,
				      bool set_waiters)
{
	struct futex_q *top;
	uint32_t curval;
	int ret;

	if (futex_get_value(&curval, uaddr2))
		return -EFAULT;
	top = futex_top_waiter(key1);
	if (!top)
		return 0;
	if (!top->requeue_pi_key || top->pi_state)
		return -EINVAL;
	if (!futex_match(top->requeue_pi_key, key2))
		return -EINVAL;
	ret = futex_lock_pi_atomic(uaddr2, key2, ps, top->task, set_waiters);
	if (ret == 1)
		requeue_pi_wake_futex(top, key2);
	return ret;
}

/*
 * Requeue PI of one waiter: it holds the lock now if it was free (1,
 * woken), else it waits for it on key2 (0), or EDEADLK if it holds the
 * lock (or along the chain): it stays where it was.
 */
static int requeue_pi_one(struct futex_q *q, struct futex_pi_state *ps, const struct futex_key *key2)
{
	int ret;

	get_pi_state(ps);
	q->pi_state = ps;
	ret = rt_mutex_start_proxy_lock(ps, q);
	if (ret == 1) {
		requeue_pi_wake_futex(q, key2);
	} else if (ret == 0) {
		/* To the end of its priority in key2's bucket, even from the
		 * same bucket: that is its place among the lock's waiters. */
		futex_unqueue(q);
		q->key = *key2;
		futex_queue(q);
		q->requeue_state = Q_REQUEUE_PI_DONE;
	} else {
		q->pi_state = NULL;
		put_pi_state(ps);
	}
	return ret;
}

/*
 * The requeue loop over the waiters of key1 (Linux's, in futex_requeue):
 * wake nr_wake, move nr_requeue. Plain waiters and FUTEX_WAIT_REQUEUE_PI
 * ones do not mix (EINVAL). *task_count counts them.
 */
static int requeue_waiters(const struct futex_key *key1, const struct futex_key *key2, int nr_wake,
			   int nr_requeue, struct futex_pi_state *ps, bool requeue_pi, int *task_count)
{
	int ret = 0;

	for (struct futex_q *q = *futex_bucket(key1), *next; q; q = next) {
		next = q->next;
		if (*task_count - nr_wake >= nr_requeue)
			break;
		if (!futex_match(&q->key, key1))
			continue;
		if (!requeue_pi != !q->requeue_pi_key || q->pi_state)
			return -EINVAL;
		if (!requeue_pi) {
			if (++*task_count <= nr_wake)
				futex_wake_mark(q);
			else
				requeue_futex(q, key2);
			continue;
		}
		if (!futex_match(q->requeue_pi_key, key2))
			return -EINVAL;
		/* As Linux, a last waiter that got the lock leaves ret at 1,
		 * which the call then returns instead of the count. */
		ret = requeue_pi_one(q, ps, key2);
		if (ret < 0)
			break;
		++*task_count;
	}
	return ret;
}

/*
 * Wake up to nr_wake waiters of uaddr1 (but at least one, as Linux
 * counts) and move up to nr_requeue of the others to uaddr2. With cmpval
 * (FUTEX_CMP_REQUEUE), only if uaddr1 still holds it (else EAGAIN).
 * requeue_pi (FUTEX_CMP_REQUEUE_PI): uaddr2 is a PI futex, and nr_wake
 * must be 1, the waiter that can have the lock now. Returns how many were
 * woken or moved.
 */
long futex_requeue(uint64_t uaddr1, bool shared, uint64_t uaddr2, int nr_wake, int nr_requeue,
		   const uint32_t *cmpval, bool requeue_pi)
{
	struct futex_pi_state *ps = NULL;
	struct futex_key key1, key2;
	int task_count = 0, ret;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	if (requeue_pi && (uaddr1 == uaddr2 || nr_wake != 1))
		return -EINVAL;
	if ((ret = get_futex_key(uaddr1, shared, &key1, FUTEX_READ)) ||
	    (ret = get_futex_key(uaddr2, shared, &key2, requeue_pi ? FUTEX_WRITE : FUTEX_READ)))
		return ret;
	if (requeue_pi && futex_match(&key1, &key2))
		return -EINVAL; /* shared mappings: two addresses, one futex */
retry:
	if (cmpval) {
		uint32_t cur;
		if (futex_get_value(&cur, uaddr1))
			return -EFAULT;
		if (cur != *cmpval)
			return -EAGAIN;
	}
	if (requeue_pi) {
		/* FUTEX_WAITERS now if more are to come to the lock. */
		ret = futex_proxy_trylock_atomic(uaddr2, &key1, &key2, &ps, nr_requeue > 0);
		if (ret == -EAGAIN)
			goto retry;
		if (ret < 0)
			return ret;
		task_count = ret;
	}
	uint64_t irq = irq_save();
	ret = requeue_waiters(&key1, &key2, nr_wake, nr_requeue, ps, requeue_pi, &task_count);
	irq_restore(irq);
	put_pi_state(ps);
	return ret ? ret : task_count;
}

/* ---- FUTEX_WAIT_REQUEUE_PI ---- */

/* Wait on the first futex until requeued, the deadline, or a signal. */
static int wait_for_requeue(struct futex_q *q, uint64_t deadline_ns)
{
	int ret = 0;
	uint64_t irq = irq_save();

	futex_queue(q);
	while (q->requeue_state == Q_REQUEUE_PI_NONE && !(ret = futex_sleep(q, deadline_ns)))
		;
	if (q->requeue_state == Q_REQUEUE_PI_NONE)
		futex_unqueue(q);
	irq_restore(irq);
	return ret;
}

/* The requeue gave us the lock. If the pi_state does not name us yet
 * (the lock was free because its owner died), we make it and the word. */
static int requeue_pi_locked(uint64_t uaddr2, struct futex_q *q)
{
	int ret = 0;

	if (!q->pi_state)
		return 0;
	if (q->pi_state->owner != current)
		ret = fixup_pi_owner(uaddr2, q, true);
	put_pi_state(q->pi_state);
	q->pi_state = NULL;
	return ret < 0 ? ret : 0;
}

/* Requeued: wait for the PI lock as FUTEX_LOCK_PI does. A signal now
 * gives EWOULDBLOCK: a restart would see uaddr changed and say so. */
static int requeue_pi_wait(uint64_t uaddr2, struct futex_q *q, uint64_t deadline_ns)
{
	int ret = rt_mutex_wait_proxy_lock(q, deadline_ns);
	int res = fixup_pi_owner(uaddr2, q, !ret);

	if (res)
		ret = res < 0 ? res : 0;
	futex_unqueue_pi(q);
	return ret == -EINTR ? -EWOULDBLOCK : ret;
}

/*
 * FUTEX_WAIT_REQUEUE_PI: wait on uaddr (while it holds val) to be
 * requeued to the PI futex uaddr2, and return owning it (0). A timeout or
 * a signal before the requeue: ETIMEDOUT, or a restart
 * (-ERESTARTNOINTR); after it, ETIMEDOUT or EWOULDBLOCK.
 */
long futex_wait_requeue_pi(uint64_t uaddr, bool shared, uint32_t val, uint64_t deadline_ns,
			   uint32_t bitset, uint64_t uaddr2)
{
	struct futex_q q = { .bitset = bitset, .task = current };
	struct futex_key key2;
	int ret;

	if (uaddr == uaddr2 || !bitset)
		return -EINVAL;
	ret = get_futex_key(uaddr2, shared, &key2, FUTEX_WRITE);
	if (ret)
		return ret;
	q.requeue_pi_key = &key2;
	ret = futex_wait_setup(uaddr, shared, val, &q.key);
	if (ret)
		return ret;
	if (futex_match(&q.key, &key2))
		return -EINVAL;

	ret = wait_for_requeue(&q, deadline_ns);
	switch (q.requeue_state) {
	case Q_REQUEUE_PI_LOCKED:
		return requeue_pi_locked(uaddr2, &q);
	case Q_REQUEUE_PI_DONE:
		return requeue_pi_wait(uaddr2, &q, deadline_ns);
	}
	return ret == -EINTR ? -ERESTARTNOINTR : ret;
}
