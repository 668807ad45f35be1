/*
 * futex_pi.c - priority-inheritance futexes: FUTEX_LOCK_PI(2),
 * FUTEX_TRYLOCK_PI and FUTEX_UNLOCK_PI (Linux: kernel/futex/pi.c, and what
 * it uses of kernel/locking/rtmutex.c). Documentation/locking/pi-futex.rst
 * in Linux's tree tells the protocol.
 *
 * The word is the lock: 0 when free, else the owner's thread id, with
 * FUTEX_WAITERS when waiters sleep in the kernel (the owner must then
 * unlock through it) and FUTEX_OWNER_DIED when an owner died holding it.
 * User space takes a free lock (0 -> tid) and releases an uncontended one
 * (tid -> 0) with atomic instructions, and calls FUTEX_LOCK_PI or
 * FUTEX_UNLOCK_PI when that fails. Unlike a plain futex, the kernel reads
 * and writes the word: it knows the owner, queues the waiters and, on
 * unlock, hands the lock to the first of them, writing its tid.
 *
 * Priority inheritance: on Linux a waiter lends its priority to the owner
 * (and on along the chain of owners it waits for), so that an owner of
 * low priority gets to run and release the lock. Here there is nothing to
 * lend: one CPU, and a scheduler that treats every task alike (the
 * policies of sched_setscheduler are kept, not used). The protocol is
 * kept exact all the same: the word, the kernel's idea of the owner, the
 * order of the waiters (real-time priority, then first come), the
 * deadlock detection along the chain of owners, the errors, and what an
 * owner's death does.
 *
 * The kernel side of a contended lock is a struct futex_pi_state
 * (futex.h), made by its first waiter, on its owner's pi_state_list.
 * Linux keeps the futex waiters (hash bucket) and the rt_mutex waiters
 * apart; here a futex_q with pi_blocked set is the rt_mutex waiter, and
 * an unlock gives the lock straight to the first one (Linux wakes it and
 * lets it take the lock, which a newcomer could steal first): the outcome
 * Linux has when the woken waiter runs first.
 */
#include <errno.h>
#include <linux/pid_namespace.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <uaccess.h>
#include <x86.h>
#include "futex.h"

#define MAX_LOCK_DEPTH 1024 /* Linux's max_lock_depth */

/* ---- the pi_state and its owner ---- */

void get_pi_state(struct futex_pi_state *ps)
{
	ps->refcount++;
}

/* Move ps from its owner's pi_state_list to new_owner's (NULL: none). */
static void pi_state_update_owner(struct futex_pi_state *ps, struct task *new_owner)
{
	if (ps->owner) {
		for (struct futex_pi_state **pp = &ps->owner->pi_state_list; *pp; pp = &(*pp)->next) {
			if (*pp == ps) {
				*pp = ps->next;
				break;
			}
		}
	}
	ps->next = NULL;
	ps->owner = new_owner;
	if (new_owner) {
		ps->next = new_owner->pi_state_list;
		new_owner->pi_state_list = ps;
	}
}

void put_pi_state(struct futex_pi_state *ps)
{
	if (!ps || --ps->refcount)
		return;
	pi_state_update_owner(ps, NULL);
	kfree(ps);
}

/* A new pi_state for the lock at key, held by owner; one reference. */
static struct futex_pi_state *alloc_pi_state(struct task *owner, const struct futex_key *key)
{
	struct futex_pi_state *ps = kzalloc(sizeof(*ps));

	if (!ps)
		return NULL;
	ps->refcount = 1;
	ps->key = *key;
	ps->rt_owner = owner;
	pi_state_update_owner(ps, owner);
	return ps;
}

/* ---- the rt_mutex: who holds the lock, who waits for it ---- */

/* The first waiter: the bucket's order is the rt_mutex's. */
static struct futex_q *rt_mutex_top_waiter(struct futex_pi_state *ps)
{
	for (struct futex_q *q = *futex_bucket(&ps->key); q; q = q->next)
		if (q->pi_state == ps && q->pi_blocked)
			return q;
	return NULL;
}

/* The waiter q gets the lock, and wakes up. */
static void rt_mutex_grant(struct futex_pi_state *ps, struct futex_q *q)
{
	q->pi_blocked = false;
	q->task->pi_blocked_on = NULL;
	ps->rt_owner = q->task;
	make_runnable(q->task);
}

/* The holder lets go: the lock goes to the first waiter, if any. */
static void rt_mutex_unlock(struct futex_pi_state *ps)
{
	struct futex_q *top = rt_mutex_top_waiter(ps);

	if (top)
		rt_mutex_grant(ps, top);
	else
		ps->rt_owner = NULL;
}

static bool rt_mutex_trylock(struct futex_pi_state *ps, struct task *task)
{
	if (ps->rt_owner)
		return false;
	ps->rt_owner = task; /* free: no waiter either, it would have it */
	return true;
}

/*
 * Make q (for q->task, which may not be current: requeue) a waiter of the
 * lock, or its holder if it is free (1). -EDEADLK if q->task holds it, or
 * holds a lock that the chain of holders from here waits for (Linux walks
 * the whole chain for futexes; past MAX_LOCK_DEPTH it says EDEADLK too).
 */
int rt_mutex_start_proxy_lock(struct futex_pi_state *ps, struct futex_q *q)
{
	struct task *holder = ps->rt_owner;

	if (rt_mutex_trylock(ps, q->task))
		return 1;
	for (int depth = 0; holder; depth++) {
		if (holder == q->task || depth >= MAX_LOCK_DEPTH)
			return -EDEADLK;
		holder = holder->pi_blocked_on ? holder->pi_blocked_on->rt_owner : NULL;
	}
	q->pi_blocked = true;
	q->task->pi_blocked_on = ps;
	return 0;
}

/*
 * Sleep until the lock is given to q (0), the deadline passes
 * (-ETIMEDOUT) or a signal comes (-EINTR). A waiter that gives up stops
 * waiting (Linux's rt_mutex_wait_proxy_lock, then
 * rt_mutex_cleanup_proxy_lock); one given the lock meanwhile keeps it.
 */
int rt_mutex_wait_proxy_lock(struct futex_q *q, uint64_t deadline_ns)
{
	int ret = 0;
	uint64_t irq = irq_save();

	while (q->pi_blocked && !(ret = futex_sleep(q, deadline_ns)))
		;
	if (q->pi_blocked) {
		q->pi_blocked = false;
		q->task->pi_blocked_on = NULL;
	}
	irq_restore(irq);
	return ret;
}

/* ---- taking the lock ---- */

/*
 * A waiter found the first waiter's pi_state: check it against the word
 * (Linux's table of states in pi.c: a waiter without pi_state is a plain
 * futex's, an owner that does not match the tid is user space meddling)
 * and take a reference.
 */
static int attach_to_pi_state(uint32_t uval, struct futex_pi_state *ps, struct futex_pi_state **out)
{
	pid_t pid = uval & FUTEX_TID_MASK;

	if (!ps)
		return -EINVAL;
	if (uval & FUTEX_OWNER_DIED) {
		/* The owner died: its exit or a waiter set things right. */
		if (!ps->owner) {
			if (pid)
				return -EINVAL;
			goto attach;
		}
		if (!pid)
			goto attach;
	} else if (!ps->owner) {
		return -EINVAL;
	}
	if (pid != task_pid_vnr(ps->owner))
		return -EINVAL;
attach:
	get_pi_state(ps);
	*out = ps;
	return 0;
}

/*
 * The word names an owner that is gone (or was never there): ESRCH,
 * unless the word changed meanwhile (EAGAIN, look again). A thread that
 * exits releases its PI futexes first (FUTEX_OWNER_DIED); one whose futex
 * exit is done counts as gone, though not yet reaped.
 */
static int handle_exit_race(uint64_t uaddr, uint32_t uval)
{
	uint32_t uval2;

	if (futex_get_value(&uval2, uaddr))
		return -EFAULT;
	return uval2 != uval ? -EAGAIN : -ESRCH;
}

/* The first waiter: a pi_state for the owner the word names. */
static int attach_to_pi_owner(uint64_t uaddr, uint32_t uval, const struct futex_key *key,
			      struct futex_pi_state **ps)
{
	pid_t pid = uval & FUTEX_TID_MASK;
	struct task *p;

	if (!pid)
		return -EAGAIN;
	p = find_task(pid);
	if (!p || p->futex_state == FUTEX_STATE_DEAD)
		return handle_exit_race(uaddr, uval);
	*ps = alloc_pi_state(p, key);
	return *ps ? 0 : -ENOMEM;
}

/* Store newval if the word still holds uval: EAGAIN if not. */
static int lock_pi_update_atomic(uint64_t uaddr, uint32_t uval, uint32_t newval)
{
	uint32_t curval;

	if (futex_cmpxchg_value(&curval, uaddr, uval, newval))
		return -EFAULT;
	return curval != uval ? -EAGAIN : 0;
}

/*
 * Try to take the lock at uaddr for task (current, or the waiter a
 * requeue acts for): 1 if taken, 0 if task must wait (*ps: the lock's
 * pi_state, with a reference), or an error. set_waiters (requeue) takes
 * the lock with FUTEX_WAITERS set and a pi_state for task, since more
 * waiters come.
 */
int futex_lock_pi_atomic(uint64_t uaddr, const struct futex_key *key, struct futex_pi_state **ps,
			 struct task *task, bool set_waiters)
{
	uint32_t uval, newval, vpid = task_pid_vnr(task);
	struct futex_q *top;
	int ret;

	if (futex_get_value(&uval, uaddr))
		return -EFAULT;
	if ((uval & FUTEX_TID_MASK) == vpid)
		return -EDEADLK;
	top = futex_top_waiter(key);
	if (top)
		return attach_to_pi_state(uval, top->pi_state, ps);
	if (!(uval & FUTEX_TID_MASK)) {
		/* Free, with stale bits: take it, keeping FUTEX_OWNER_DIED. */
		struct futex_pi_state *new = NULL;
		if (set_waiters && !(new = alloc_pi_state(NULL, key)))
			return -ENOMEM;
		newval = (uval & FUTEX_OWNER_DIED) | vpid | (set_waiters ? FUTEX_WAITERS : 0);
		ret = lock_pi_update_atomic(uaddr, uval, newval);
		if (ret) {
			put_pi_state(new);
			return ret;
		}
		if (new) {
			new->rt_owner = task;
			pi_state_update_owner(new, task);
			*ps = new;
		}
		return 1;
	}
	/* The first waiter: FUTEX_WAITERS sends the owner's unlock here. */
	newval = uval | FUTEX_WAITERS;
	ret = lock_pi_update_atomic(uaddr, uval, newval);
	if (ret)
		return ret;
	return attach_to_pi_owner(uaddr, newval, key, ps);
}

/*
 * Make the word and ps->owner name the new owner: current, which got the
 * rt_mutex without being made the owner (the owner died), or, with
 * argowner NULL, the rt_mutex's holder, when current was made the owner
 * but did not get it (Linux's lock steal; not here, but kept). The word
 * keeps FUTEX_OWNER_DIED, and gets it if the owner died.
 */
static int fixup_pi_state_owner(uint64_t uaddr, struct futex_q *q, struct task *argowner)
{
	struct futex_pi_state *ps = q->pi_state;
	struct task *newowner = argowner;
	uint32_t uval, newval;

	if (!argowner) {
		if (rt_mutex_trylock(ps, current))
			return 1;
		newowner = ps->rt_owner;
	}
	newval = task_pid_vnr(newowner) | FUTEX_WAITERS | (ps->owner ? 0 : FUTEX_OWNER_DIED);
	if (futex_get_value(&uval, uaddr) ||
	    put_user_u32((uval & FUTEX_OWNER_DIED) | newval, (void __user *)uaddr)) {
		/* The word cannot be written: at least the kernel agrees with
		 * itself. The next unlock will see the mismatch (EINVAL). */
		pi_state_update_owner(ps, ps->rt_owner);
		return -EFAULT;
	}
	pi_state_update_owner(ps, newowner);
	return argowner == current;
}

/*
 * After a wait for the lock, whether it was got (locked) or not, make the
 * kernel's owner and the word agree with who holds it (Linux's
 * fixup_pi_owner). 1 if current holds the lock, 0 if not, or -EFAULT.
 */
int fixup_pi_owner(uint64_t uaddr, struct futex_q *q, bool locked)
{
	struct futex_pi_state *ps = q->pi_state;

	if (locked)
		return ps->owner == current ? 1 : fixup_pi_state_owner(uaddr, q, current);
	if (ps->owner == current)
		return fixup_pi_state_owner(uaddr, q, NULL);
	if (ps->rt_owner == current) /* Linux warns: should not be */
		return fixup_pi_state_owner(uaddr, q, current);
	return 0;
}

void futex_unqueue_pi(struct futex_q *q)
{
	futex_unqueue(q);
	put_pi_state(q->pi_state);
	q->pi_state = NULL;
}

/* Wait in the queue of the lock q is attached to: 0 once got, or an error. */
static int futex_pi_block(struct futex_q *q, uint64_t deadline_ns)
{
	int ret = rt_mutex_start_proxy_lock(q->pi_state, q);

	if (ret)
		return ret == 1 ? 0 : ret;
	return rt_mutex_wait_proxy_lock(q, deadline_ns);
}

/*
 * FUTEX_LOCK_PI, FUTEX_LOCK_PI2 (deadline_ns: 0 for none) and
 * FUTEX_TRYLOCK_PI (trylock: EWOULDBLOCK rather than wait). A signal
 * restarts the call (-ERESTARTNOINTR: its timeout is absolute).
 */
long futex_lock_pi(uint64_t uaddr, bool shared, uint64_t deadline_ns, bool trylock)
{
	struct futex_q q = { .bitset = FUTEX_BITSET_MATCH_ANY, .task = current };
	int ret, res;

	ret = get_futex_key(uaddr, shared, &q.key, FUTEX_WRITE);
	if (ret)
		return ret;
	do
		ret = futex_lock_pi_atomic(uaddr, &q.key, &q.pi_state, current, false);
	while (ret == -EAGAIN);
	if (ret)
		return ret == 1 ? 0 : ret;

	futex_queue(&q);
	if (trylock)
		ret = rt_mutex_trylock(q.pi_state, current) ? 0 : -EWOULDBLOCK;
	else
		ret = futex_pi_block(&q, deadline_ns);
	res = fixup_pi_owner(uaddr, &q, !ret);
	if (res)
		ret = res < 0 ? res : 0;
	futex_unqueue_pi(&q);
	return ret == -EINTR ? -ERESTARTNOINTR : ret;
}

/* ---- releasing it ---- */

/* Give the lock to the first waiter of ps: its tid in the word, with
 * FUTEX_WAITERS (kept while a pi_state exists), FUTEX_OWNER_DIED gone. */
static int wake_futex_pi(uint64_t uaddr, uint32_t uval, struct futex_pi_state *ps)
{
	struct futex_q *top = rt_mutex_top_waiter(ps);
	uint32_t curval;
	int ret;

	if (!top) /* Linux: a waiter on its way in; not with one CPU */
		return -EAGAIN;
	ret = futex_cmpxchg_value(&curval, uaddr, uval, FUTEX_WAITERS | task_pid_vnr(top->task));
	if (ret)
		return ret;
	if (curval != uval)
		return -EINVAL;
	pi_state_update_owner(ps, top->task);
	rt_mutex_grant(ps, top);
	return 0;
}

/*
 * FUTEX_UNLOCK_PI: only the owner may (EPERM). With waiters in the
 * kernel, the first gets the lock; without, the word becomes 0. EINVAL if
 * the kernel's state does not match the word (user space wrote it).
 */
long futex_unlock_pi(uint64_t uaddr, bool shared)
{
	struct futex_key key;
	struct futex_q *top;
	uint32_t uval, curval;
	int ret;

	if (futex_get_value(&uval, uaddr))
		return -EFAULT;
	if ((uval & FUTEX_TID_MASK) != (uint32_t)task_pid_vnr(current))
		return -EPERM;
	ret = get_futex_key(uaddr, shared, &key, FUTEX_WRITE);
	if (ret)
		return ret;
	top = futex_top_waiter(&key);
	if (top) {
		struct futex_pi_state *ps = top->pi_state;
		if (!ps || ps->owner != current)
			return -EINVAL;
		return wake_futex_pi(uaddr, uval, ps);
	}
	/* No waiter: neither FUTEX_WAITERS nor FUTEX_OWNER_DIED is kept. */
	if (futex_cmpxchg_value(&curval, uaddr, uval, 0))
		return -EFAULT;
	return curval == uval ? 0 : -EAGAIN;
}

/*
 * t exits, or execs, holding PI futexes that have waiters: each goes to
 * its first waiter, which makes itself the owner with FUTEX_OWNER_DIED in
 * the word (Linux's exit_pi_state_list). The robust list, walked before,
 * has marked the words it names already.
 */
void exit_pi_state_list(struct task *t)
{
	struct futex_pi_state *ps;

	while ((ps = t->pi_state_list)) {
		pi_state_update_owner(ps, NULL);
		if (ps->rt_owner == t)
			rt_mutex_unlock(ps);
	}
}
