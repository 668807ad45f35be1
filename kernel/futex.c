/*
 * futex.c - fast user-space locking: futex(2), the robust list, and the
 * wake-up at thread exit that pthread_join waits for. The
 * priority-inheritance futexes are in futex_pi.c, requeueing in
 * futex_requeue.c, what the files share in futex.h.
 *
 * A futex is a 32-bit word in user memory. The C library takes and
 * releases locks in user space with atomic instructions; only when it has
 * to wait does it ask the kernel: FUTEX_WAIT sleeps if the word still
 * holds the value the caller saw (else EAGAIN: it changed, look again),
 * FUTEX_WAKE wakes sleepers. The kernel never interprets the word, but
 * in the robust list (below) and for the PI futexes (futex_pi.c), whose
 * word holds the owner's thread id.
 *
 * Design notes:
 *  - A waiter is a struct futex_q on its own kernel stack, in a hash
 *    bucket chosen by its key. The key names the word: for memory only
 *    one process sees (FUTEX_PRIVATE_FLAG, or a private mapping) the
 *    address space and the address; for a MAP_SHARED mapping the file
 *    (inode) and the offset in it, so that processes that map it at
 *    different addresses meet on the same key (Linux's get_futex_key).
 *    A bucket is in Linux's order: by real-time priority, then first
 *    come, first served (futex_queue).
 *  - One CPU, and the kernel is not preempted: reading the word and
 *    queueing (FUTEX_WAIT), or changing it and waking (FUTEX_WAKE_OP), are
 *    atomic with respect to every other thread without a lock. Interrupts
 *    are off around the queues only because the tick wakes sleepers.
 *  - Timeouts are absolute deadlines in ns of CLOCK_MONOTONIC (given on
 *    CLOCK_REALTIME with FUTEX_CLOCK_REALTIME, and by FUTEX_LOCK_PI),
 *    checked against the timer tick (10 ms). A FUTEX_WAIT with a timeout
 *    that a signal interrupts goes on, to the same deadline, through
 *    restart_syscall; without a timeout it is restarted (-ERESTARTSYS), as
 *    Linux.
 *  - Priority-inheritance futexes (FUTEX_LOCK_PI, FUTEX_LOCK_PI2,
 *    FUTEX_TRYLOCK_PI, FUTEX_UNLOCK_PI): futex_pi.c, which tells why
 *    there is nothing to boost here. Their waiters are futex_q's too, with
 *    a pi_state; FUTEX_WAKE and the requeues refuse them (EINVAL), as
 *    Linux. A signal restarts FUTEX_LOCK_PI (-ERESTARTNOINTR: its timeout
 *    is absolute). FUTEX_WAIT_REQUEUE_PI and FUTEX_CMP_REQUEUE_PI, which
 *    move a condition variable's waiters to a PI mutex: futex_requeue.c.
 *  - futex_waitv waits on up to 128 futexes at once: one futex_q each, in
 *    a kmalloc'd vector.
 */
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <string.h>
#include <time_namespace.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>
#include "futex.h"

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_FD 2
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_LOCK_PI 6
#define FUTEX_UNLOCK_PI 7
#define FUTEX_TRYLOCK_PI 8
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_WAIT_REQUEUE_PI 11
#define FUTEX_CMP_REQUEUE_PI 12
#define FUTEX_LOCK_PI2 13
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))

#define ROBUST_LIST_LIMIT 2048

#define FUTEX_BUCKETS 64
static struct futex_q *buckets[FUTEX_BUCKETS];

struct futex_q **futex_bucket(const struct futex_key *k)
{
	uint64_t h = (k->object >> 4) ^ (k->offset >> 2) ^ (k->offset >> 12);
	return &buckets[h % FUTEX_BUCKETS];
}

/*
 * The key of the futex at uaddr: EINVAL if it is not 4-byte aligned,
 * EFAULT if a shared futex is in no mapping, or (FUTEX_WRITE: the PI
 * operations write the word) in one that cannot be written.
 */
int get_futex_key(uint64_t uaddr, bool shared, struct futex_key *key, enum futex_access rw)
{
	struct mm *mm = current->mm;

	if (uaddr % sizeof(uint32_t))
		return -EINVAL;
	if (uaddr >= TASK_SIZE)
		return -EFAULT;
	key->object = (uint64_t)mm;
	key->offset = uaddr;
	if (!shared)
		return 0;
	struct vma *v = vma_find(mm, uaddr);
	if (!v || (rw == FUTEX_WRITE && !(v->flags & VM_WRITE)))
		return -EFAULT;
	/* A shared futex in private memory is not the private futex of the
	 * same address: Linux marks its key (FUT_OFF_MMSHARED). */
	key->object |= 2;
	if ((v->flags & VM_SHARED) && v->vm_file) {
		key->object = (uint64_t)file_inode(v->vm_file) | 1;
		key->offset = v->vm_pgoff * PAGE_SIZE + (uaddr - v->start);
	}
	return 0;
}

/*
 * A waiter's place in its bucket, as Linux's plist: real-time threads by
 * their priority, the higher first, all others alike (Linux clamps their
 * priority to MAX_RT_PRIO); first come, first served within a priority.
 */
#define MAX_RT_PRIO 100
static int futex_prio(const struct task *t)
{
	return task_has_rt_policy(t) ? MAX_RT_PRIO - 1 - (int)t->rt_priority : MAX_RT_PRIO;
}

void futex_queue(struct futex_q *q)
{
	struct futex_q **pp = futex_bucket(&q->key);

	q->prio = futex_prio(q->task);
	while (*pp && (*pp)->prio <= q->prio)
		pp = &(*pp)->next;
	q->next = *pp;
	*pp = q;
}

bool futex_unqueue(struct futex_q *q)
{
	for (struct futex_q **pp = futex_bucket(&q->key); *pp; pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			return true;
		}
	}
	return false;
}

void futex_wake_mark(struct futex_q *q)
{
	futex_unqueue(q);
	q->woken = true;
	make_runnable(q->task);
}

struct futex_q *futex_top_waiter(const struct futex_key *key)
{
	for (struct futex_q *q = *futex_bucket(key); q; q = q->next)
		if (futex_match(&q->key, key))
			return q;
	return NULL;
}

/*
 * Wake waiters of key whose bitset meets bitset: nr of them, but at least
 * one (Linux counts after the first wake). EINVAL on meeting a PI waiter
 * (FUTEX_LOCK_PI, FUTEX_WAIT_REQUEUE_PI): those are not for FUTEX_WAKE;
 * the ones woken before stay woken.
 */
static int wake_key(const struct futex_key *key, int nr, uint32_t bitset)
{
	int woken = 0;
	uint64_t irq = irq_save();

	for (struct futex_q *q = *futex_bucket(key), *next; q; q = next) {
		next = q->next;
		if (!futex_match(&q->key, key))
			continue;
		if (q->pi_state || q->requeue_pi_key) {
			woken = -EINVAL;
			break;
		}
		if (!(q->bitset & bitset))
			continue;
		futex_wake_mark(q);
		if (++woken >= nr)
			break;
	}
	irq_restore(irq);
	return woken;
}

int futex_get_value(uint32_t *val, uint64_t uaddr)
{
	return copy_from_user(val, (const void __user *)uaddr, sizeof(*val));
}

/* No other thread runs while the kernel does (one CPU, no preemption, and
 * a fault on user memory does not sleep): a read then a write is atomic. */
int futex_cmpxchg_value(uint32_t *cur, uint64_t uaddr, uint32_t old, uint32_t new)
{
	if (futex_get_value(cur, uaddr))
		return -EFAULT;
	if (*cur != old)
		return 0;
	return copy_to_user((void __user *)uaddr, &new, sizeof(new)) ? -EFAULT : 0;
}

int futex_sleep(void *chan, uint64_t deadline_ns)
{
	if (deadline_ns) {
		uint64_t now = ktime_get_ns(), tick = 1000000000 / HZ;
		if (now >= deadline_ns)
			return -ETIMEDOUT;
		current->wake_at = jiffies + (deadline_ns - now + tick - 1) / tick;
	}
	if (signal_pending(current)) {
		current->wake_at = 0;
		return -EINTR;
	}
	sleep_on(chan);
	current->wake_at = 0;
	return 0;
}

/* ---- waiting ---- */

static long futex_wait_restart(struct restart_block *rb);

/* Wait on uaddr while it holds val, until woken, the deadline (ns of the
 * monotonic clock, 0 for none) or a signal. */
int futex_wait_setup(uint64_t uaddr, bool shared, uint32_t val, struct futex_key *key)
{
	uint32_t cur;
	int ret = get_futex_key(uaddr, shared, key, FUTEX_READ);

	if (ret)
		return ret;
	if (futex_get_value(&cur, uaddr))
		return -EFAULT;
	return cur == val ? 0 : -EAGAIN;
}

static long futex_wait(uint64_t uaddr, bool shared, uint32_t val, uint64_t deadline_ns, uint32_t bitset)
{
	struct futex_q q = { .bitset = bitset, .task = current };
	long ret;

	if (!bitset)
		return -EINVAL;
	ret = futex_wait_setup(uaddr, shared, val, &q.key);
	if (ret)
		return ret;

	uint64_t irq = irq_save();
	futex_queue(&q);
	while (!q.woken && !(ret = futex_sleep(&q, deadline_ns)))
		;
	if (!q.woken)
		futex_unqueue(&q);
	irq_restore(irq);
	if (ret != -EINTR)
		return ret;
	if (!deadline_ns)
		return -ERESTARTSYS;
	struct restart_block *rb = &current->restart_block;
	rb->fn = futex_wait_restart;
	rb->deadline_ns = deadline_ns;
	rb->futex_uaddr = uaddr;
	rb->futex_val = val;
	rb->futex_bitset = bitset;
	rb->futex_shared = shared;
	return -ERESTART_RESTARTBLOCK;
}

static long futex_wait_restart(struct restart_block *rb)
{
	rb->fn = NULL;
	return futex_wait(rb->futex_uaddr, rb->futex_shared, rb->futex_val, rb->deadline_ns,
			  rb->futex_bitset);
}

/* ---- waking ---- */

static long futex_wake(uint64_t uaddr, bool shared, int nr, uint32_t bitset)
{
	struct futex_key key;
	int err;

	if (!bitset)
		return -EINVAL;
	err = get_futex_key(uaddr, shared, &key, FUTEX_READ);
	if (err)
		return err;
	return wake_key(&key, nr, bitset);
}

#define FUTEX_OP_SET 0
#define FUTEX_OP_ADD 1
#define FUTEX_OP_OR 2
#define FUTEX_OP_ANDN 3
#define FUTEX_OP_XOR 4
#define FUTEX_OP_OPARG_SHIFT 8

static int32_t sign_extend12(uint32_t v) { return (int32_t)(v << 20) >> 20; }

/*
 * FUTEX_WAKE_OP: change the word at uaddr2 as the encoded operation says
 * (set, add, or, and-not, xor; optionally with 1 << oparg), wake nr_wake
 * waiters of uaddr1, and if the old value of uaddr2 passes the encoded
 * comparison, nr_wake2 waiters of uaddr2 too.
 */
static long futex_wake_op(uint64_t uaddr1, bool shared, uint64_t uaddr2, int nr_wake,
			  int nr_wake2, uint32_t encoded)
{
	struct futex_key key1, key2;
	unsigned op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
	int32_t oparg = sign_extend12(encoded >> 12), cmparg = sign_extend12(encoded);
	uint32_t old, new;
	int err;

	if ((err = get_futex_key(uaddr1, shared, &key1, FUTEX_READ)) ||
	    (err = get_futex_key(uaddr2, shared, &key2, FUTEX_WRITE)))
		return err;
	/* Unsigned shifts: bit 31 is an operand like any other here. */
	if (encoded & ((uint32_t)FUTEX_OP_OPARG_SHIFT << 28))
		oparg = (int32_t)(1u << (oparg & 31));
	if (futex_get_value(&old, uaddr2))
		return -EFAULT;
	switch (op) {
	case FUTEX_OP_SET: new = oparg; break;
	case FUTEX_OP_ADD: new = old + oparg; break;
	case FUTEX_OP_OR: new = old | oparg; break;
	case FUTEX_OP_ANDN: new = old & ~oparg; break;
	case FUTEX_OP_XOR: new = old ^ oparg; break;
	default: return -ENOSYS;
	}
	bool wake2;
	int32_t o = (int32_t)old;
	switch (cmp) {
	case 0: wake2 = o == cmparg; break;
	case 1: wake2 = o != cmparg; break;
	case 2: wake2 = o < cmparg; break;
	case 3: wake2 = o <= cmparg; break;
	case 4: wake2 = o > cmparg; break;
	case 5: wake2 = o >= cmparg; break;
	default: return -ENOSYS;
	}
	if (copy_to_user((void __user *)uaddr2, &new, sizeof(new)))
		return -EFAULT;
	int woken = wake_key(&key1, nr_wake, FUTEX_BITSET_MATCH_ANY);
	if (woken < 0 || !wake2)
		return woken;
	int woken2 = wake_key(&key2, nr_wake2, FUTEX_BITSET_MATCH_ANY);
	return woken2 < 0 ? woken2 : woken + woken2;
}

/* ---- the system calls ---- */

struct timespec64 {
	int64_t tv_sec, tv_nsec;
};

static bool cmd_has_timeout(int cmd)
{
	return cmd == FUTEX_WAIT || cmd == FUTEX_LOCK_PI || cmd == FUTEX_LOCK_PI2 ||
	       cmd == FUTEX_WAIT_BITSET || cmd == FUTEX_WAIT_REQUEUE_PI;
}

/*
 * A timeout as a deadline in ns of CLOCK_MONOTONIC (never 0, which means
 * none). FUTEX_WAIT's is relative; the others are absolute, on
 * CLOCK_REALTIME with FUTEX_CLOCK_REALTIME and always for FUTEX_LOCK_PI
 * (for history's sake; FUTEX_LOCK_PI2 has the choice), else on
 * CLOCK_MONOTONIC. A realtime deadline is converted now: setting the clock
 * later does not move it.
 */
static int futex_init_timeout(int cmd, int op, const struct timespec64 *ts, uint64_t *deadline)
{
	uint64_t t, now = ktime_get_ns();

	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000)
		return -EINVAL;
	t = (uint64_t)ts->tv_sec * 1000000000ULL + ts->tv_nsec;
	if (cmd == FUTEX_WAIT) {
		*deadline = now + t;
	} else if ((op & FUTEX_CLOCK_REALTIME) || cmd == FUTEX_LOCK_PI) {
		struct timespec real;
		ktime_get_real(&real);
		uint64_t rnow = (uint64_t)real.tv_sec * 1000000000ULL + real.tv_nsec;
		*deadline = t > rnow ? now + (t - rnow) : now;
	} else {
		/* The caller's namespace's monotonic time, as the host's. */
		*deadline = timens_to_host(CLOCK_MONOTONIC, t);
	}
	*deadline = MAX(*deadline, 1UL);
	return 0;
}

/* The operation op names (Linux's do_futex); val2 is the requeue calls'
 * count, passed where the timeout would be. */
static long do_futex(uint64_t uaddr, int op, uint32_t val, uint64_t deadline, uint64_t uaddr2,
		     int val2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	bool shared = !(op & FUTEX_PRIVATE_FLAG);

	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT_BITSET && cmd != FUTEX_WAIT_REQUEUE_PI &&
	    cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, shared, val, deadline, val3);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, shared, (int)val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, shared, uaddr2, (int)val, val2, NULL, false);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, shared, uaddr2, (int)val, val2, &val3, false);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, shared, uaddr2, (int)val, val2, val3);
	case FUTEX_LOCK_PI: /* its deadline is on CLOCK_REALTIME */
	case FUTEX_LOCK_PI2:
		return futex_lock_pi(uaddr, shared, deadline, false);
	case FUTEX_UNLOCK_PI:
		return futex_unlock_pi(uaddr, shared);
	case FUTEX_TRYLOCK_PI:
		return futex_lock_pi(uaddr, shared, 0, true);
	case FUTEX_WAIT_REQUEUE_PI:
		return futex_wait_requeue_pi(uaddr, shared, val, deadline, FUTEX_BITSET_MATCH_ANY, uaddr2);
	case FUTEX_CMP_REQUEUE_PI:
		return futex_requeue(uaddr, shared, uaddr2, (int)val, val2, &val3, true);
	}
	return -ENOSYS;
}

long sys_futex(uint64_t uaddr, int op, uint32_t val, uint64_t utime, uint64_t uaddr2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	uint64_t deadline = 0;

	if (utime && cmd_has_timeout(cmd)) {
		struct timespec64 ts;
		if (copy_from_user(&ts, (const void __user *)utime, sizeof(ts)))
			return -EFAULT;
		int err = futex_init_timeout(cmd, op, &ts, &deadline);
		if (err)
			return err;
	}
	return do_futex(uaddr, op, val, deadline, uaddr2, (int)(uint32_t)utime, val3);
}

/* ---- futex_waitv: wait on several futexes at once ---- */

#define FUTEX_32 2 /* FUTEX2_SIZE_U32: the only size there is */
#define FUTEX_WAITV_MAX 128
#define FUTEXV_WAITER_MASK (FUTEX_32 | FUTEX_PRIVATE_FLAG)

struct futex_waitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t __reserved;
};

struct futex_vector {
	struct futex_waitv w;
	struct futex_q q;
};

static int futex_parse_waitv(struct futex_vector *v, const struct futex_waitv __user *uwaitv,
			     unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		struct futex_waitv aux;
		if (copy_from_user(&aux, &uwaitv[i], sizeof(aux)))
			return -EFAULT;
		if ((aux.flags & ~FUTEXV_WAITER_MASK) || aux.__reserved || !(aux.flags & FUTEX_32))
			return -EINVAL;
		v[i].w = aux;
		v[i].q = (struct futex_q){ .bitset = FUTEX_BITSET_MATCH_ANY, .task = current };
	}
	return 0;
}

/* Take the first count waiters off their queues: the index of the last
 * one a wake had taken off already, or -1. */
static int unqueue_multiple(struct futex_vector *v, int count)
{
	int ret = -1;

	for (int i = 0; i < count; i++)
		if (!futex_unqueue(&v[i].q))
			ret = i;
	return ret;
}

/* Queue a waiter on each futex that holds its value: 0, or EWOULDBLOCK
 * (one does not), EFAULT, EINVAL (a bad address), or 1 if one of them was
 * woken meanwhile (its index in *woken). */
static int futex_wait_multiple_setup(struct futex_vector *v, int count, int *woken)
{
	int ret;

	for (int i = 0; i < count; i++) {
		ret = get_futex_key(v[i].w.uaddr, !(v[i].w.flags & FUTEX_PRIVATE_FLAG), &v[i].q.key,
				    FUTEX_READ);
		if (ret)
			return ret;
	}
	for (int i = 0; i < count; i++) {
		uint32_t uval;
		ret = futex_get_value(&uval, v[i].w.uaddr);
		if (!ret && uval == (uint32_t)v[i].w.val) {
			futex_queue(&v[i].q);
			continue;
		}
		*woken = unqueue_multiple(v, i);
		if (*woken >= 0)
			return 1;
		return ret ? -EFAULT : -EWOULDBLOCK;
	}
	return 0;
}

static bool any_woken(const struct futex_vector *v, int count)
{
	for (int i = 0; i < count; i++)
		if (v[i].q.woken)
			return true;
	return false;
}

/* Sleep until a wake on one of them (its index), the deadline or a signal
 * (restarted, as Linux, with the same absolute timeout). */
static long futex_wait_multiple(struct futex_vector *v, int count, uint64_t deadline_ns)
{
	int ret, hint = 0;

	ret = futex_wait_multiple_setup(v, count, &hint);
	if (ret)
		return ret > 0 ? hint : ret;
	uint64_t irq = irq_save();
	while (!any_woken(v, count) && !(ret = futex_sleep(v, deadline_ns)))
		;
	hint = unqueue_multiple(v, count);
	irq_restore(irq);
	if (hint >= 0)
		return hint;
	return ret == -EINTR ? -ERESTARTSYS : ret;
}

/*
 * futex_waitv(2): wait on up to 128 futexes (32-bit words only, each
 * private or not), until one is woken: returns its index. The timeout is
 * absolute, on CLOCK_MONOTONIC or CLOCK_REALTIME.
 */
long sys_futex_waitv(const struct futex_waitv __user *waiters, unsigned int nr_futexes,
		     unsigned int flags, const struct timespec64 __user *timeout, int clockid)
{
	uint64_t deadline = 0;
	long ret;

	if (flags)
		return -EINVAL;
	if (!nr_futexes || nr_futexes > FUTEX_WAITV_MAX || !waiters)
		return -EINVAL;
	if (timeout) {
		struct timespec64 ts;
		if (clockid != CLOCK_REALTIME && clockid != CLOCK_MONOTONIC)
			return -EINVAL;
		if (copy_from_user(&ts, timeout, sizeof(ts)))
			return -EFAULT;
		/* As FUTEX_WAIT_BITSET's: absolute. */
		ret = futex_init_timeout(FUTEX_WAIT_BITSET,
					 clockid == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0, &ts,
					 &deadline);
		if (ret)
			return ret;
	}
	struct futex_vector *v = kzalloc(nr_futexes * sizeof(*v));
	if (!v)
		return -ENOMEM;
	ret = futex_parse_waitv(v, waiters, nr_futexes);
	if (!ret)
		ret = futex_wait_multiple(v, (int)nr_futexes, deadline);
	kfree(v);
	return ret;
}

/* ---- the end of a thread ---- */

struct robust_list_head {
	uint64_t next;           /* the first entry (a user pointer) */
	int64_t futex_offset;    /* from an entry to its futex word */
	uint64_t list_op_pending;
};

/*
 * A thread died holding the robust futex at uaddr (its tid in the word):
 * mark the word FUTEX_OWNER_DIED, keep FUTEX_WAITERS, and wake one waiter,
 * which will find the lock free and learn (EOWNERDEAD) that its data may
 * be inconsistent.
 */
static void handle_futex_death(uint64_t uaddr, struct task *t, bool pi, bool pending_op)
{
	uint32_t uval, mval;

	if (uaddr % 4 || futex_get_value(&uval, uaddr))
		return;
	if (pending_op && !pi && !uval) {
		/* It died between taking the lock and writing its tid. */
		futex_wake(uaddr, true, 1, FUTEX_BITSET_MATCH_ANY);
		return;
	}
	if ((uval & FUTEX_TID_MASK) != (uint32_t)t->pid)
		return;
	mval = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
	if (copy_to_user((void __user *)uaddr, &mval, sizeof(mval)))
		return;
	if (!pi && (uval & FUTEX_WAITERS))
		futex_wake(uaddr, true, 1, FUTEX_BITSET_MATCH_ANY);
}

/* Walk the robust list the thread registered (set_robust_list), as
 * Linux's exit_robust_list: at most ROBUST_LIST_LIMIT entries, each
 * pointer's bit 0 meaning a PI futex. */
static void exit_robust_list(struct task *t)
{
	struct robust_list_head head;
	uint64_t entry, next, pending;
	int limit = ROBUST_LIST_LIMIT;

	if (copy_from_user(&head, (const void __user *)t->robust_list, sizeof(head)))
		return;
	entry = head.next;
	pending = head.list_op_pending;
	while ((entry & ~1UL) != t->robust_list) {
		bool pi = entry & 1;
		entry &= ~1UL;
		if (get_user_u64(&next, (const void __user *)entry))
			return;
		if (entry != (pending & ~1UL))
			handle_futex_death(entry + head.futex_offset, t, pi, false);
		entry = next;
		if (!--limit)
			break;
	}
	if (pending)
		handle_futex_death((pending & ~1UL) + head.futex_offset, t, pending & 1, true);
}

/* Linux's futex_cleanup and mm_release: the robust list first, so that
 * the PI futexes it names have FUTEX_OWNER_DIED before they go to a
 * waiter. */
static void futex_cleanup(struct task *t)
{
	if (!t->mm)
		return;
	if (t->robust_list)
		exit_robust_list(t);
	t->robust_list = 0;
	exit_pi_state_list(t);
	/* pthread_join waits for this: the thread id word cleared and woken,
	 * when someone else shares the memory to see it. */
	if (t->clear_child_tid && t->mm->users > 1) {
		if (put_user_u32(0, (void __user *)t->clear_child_tid) == 0)
			futex_wake(t->clear_child_tid, true, 1, FUTEX_BITSET_MATCH_ANY);
	}
	t->clear_child_tid = 0;
}

void futex_exec_release(struct task *t)
{
	futex_cleanup(t);
}

/* From here on, a PI futex naming t has an owner that is gone (ESRCH). */
void futex_exit_release(struct task *t)
{
	futex_cleanup(t);
	t->futex_state = FUTEX_STATE_DEAD;
}
