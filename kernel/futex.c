/*
 * futex.c - fast user-space locking: futex(2), the robust list, and the
 * wake-up at thread exit that pthread_join waits for.
 *
 * A futex is a 32-bit word in user memory. The C library takes and
 * releases locks in user space with atomic instructions; only when it has
 * to wait does it ask the kernel: FUTEX_WAIT sleeps if the word still
 * holds the value the caller saw (else EAGAIN: it changed, look again),
 * FUTEX_WAKE wakes sleepers. The kernel never interprets the word (but in
 * the robust list, below).
 *
 * Design notes:
 *  - A waiter is a struct futex_q on its own kernel stack, in a hash
 *    bucket chosen by its key. The key names the word: for memory only
 *    one process sees (FUTEX_PRIVATE_FLAG, or a private mapping) the
 *    address space and the address; for a MAP_SHARED mapping the file
 *    (inode) and the offset in it, so that processes that map it at
 *    different addresses meet on the same key (Linux's get_futex_key).
 *  - One CPU, and the kernel is not preempted: reading the word and
 *    queueing (FUTEX_WAIT), or changing it and waking (FUTEX_WAKE_OP), are
 *    atomic with respect to every other thread without a lock. Interrupts
 *    are off around the queues only because the tick wakes sleepers.
 *  - Timeouts are absolute deadlines in ns of CLOCK_MONOTONIC (or
 *    CLOCK_REALTIME with FUTEX_CLOCK_REALTIME), checked against the timer
 *    tick (10 ms). A wait with a timeout that a signal interrupts goes on,
 *    to the same deadline, through restart_syscall; without a timeout it
 *    is restarted (-ERESTARTSYS), as Linux.
 *  - Priority-inheritance futexes (FUTEX_LOCK_PI, ...) are not here:
 *    ENOSYS, as a kernel built without them says.
 */
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <sched.h>
#include <string.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

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
#define FUTEX_BITSET_MATCH_ANY 0xffffffffu

/* The robust list's word: owner tid and two flags. */
#define FUTEX_WAITERS 0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK 0x3fffffffu
#define ROBUST_LIST_LIMIT 2048

struct futex_key {
	uint64_t object; /* the mm (bit 1: a shared futex), or the inode (bit 0) */
	uint64_t offset; /* the address, or the offset in the file */
};

struct futex_q {
	struct futex_q *next;
	struct futex_key key;
	uint32_t bitset;
	struct task *task;
	bool woken;
};

#define FUTEX_BUCKETS 64
static struct futex_q *buckets[FUTEX_BUCKETS];

static struct futex_q **bucket_of(const struct futex_key *k)
{
	uint64_t h = (k->object >> 4) ^ (k->offset >> 2) ^ (k->offset >> 12);
	return &buckets[h % FUTEX_BUCKETS];
}

static bool key_equal(const struct futex_key *a, const struct futex_key *b)
{
	return a->object == b->object && a->offset == b->offset;
}

/*
 * The key of the futex at uaddr: EINVAL if it is not 4-byte aligned,
 * EFAULT if a shared futex is in no mapping.
 */
static int get_futex_key(uint64_t uaddr, bool shared, struct futex_key *key)
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
	if (!v)
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

static void queue_remove(struct futex_q *q)
{
	for (struct futex_q **pp = bucket_of(&q->key); *pp; pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			return;
		}
	}
}

/* Wake up to nr waiters of key whose bitset meets bitset. */
static int wake_key(const struct futex_key *key, int nr, uint32_t bitset)
{
	int woken = 0;
	uint64_t irq = irq_save();

	for (struct futex_q **pp = bucket_of(key); *pp && woken < nr;) {
		struct futex_q *q = *pp;
		if (!key_equal(&q->key, key) || !(q->bitset & bitset)) {
			pp = &q->next;
			continue;
		}
		*pp = q->next;
		q->woken = true;
		make_runnable(q->task);
		woken++;
	}
	irq_restore(irq);
	return woken;
}

static int get_futex_value(uint32_t *val, uint64_t uaddr)
{
	return copy_from_user(val, (const void __user *)uaddr, sizeof(*val));
}

/* ---- waiting ---- */

static long futex_wait_restart(struct restart_block *rb);

/* Wait on uaddr while it holds val, until woken, the deadline (ns of the
 * monotonic clock, 0 for none) or a signal. */
static long futex_wait(uint64_t uaddr, bool shared, uint32_t val, uint64_t deadline_ns, uint32_t bitset)
{
	struct futex_q q = { .bitset = bitset, .task = current };
	uint32_t cur;
	int err;

	if (!bitset)
		return -EINVAL;
	err = get_futex_key(uaddr, shared, &q.key);
	if (err)
		return err;
	if (get_futex_value(&cur, uaddr))
		return -EFAULT;
	if (cur != val)
		return -EAGAIN;

	uint64_t irq = irq_save();
	struct futex_q **b = bucket_of(&q.key);
	q.next = *b; /* the newest first: wake order is not promised */
	*b = &q;
	long ret = 0;
	while (!q.woken) {
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (deadline_ns) {
			uint64_t now = ktime_get_ns(), tick = 1000000000 / HZ;
			if (now >= deadline_ns) {
				ret = -ETIMEDOUT;
				break;
			}
			current->wake_at = jiffies + (deadline_ns - now + tick - 1) / tick;
		}
		sleep_on(&q);
		current->wake_at = 0;
	}
	if (!q.woken)
		queue_remove(&q);
	irq_restore(irq);
	if (ret == -ERESTARTSYS && deadline_ns) {
		struct restart_block *rb = &current->restart_block;
		rb->fn = futex_wait_restart;
		rb->deadline_ns = deadline_ns;
		rb->futex_uaddr = uaddr;
		rb->futex_val = val;
		rb->futex_bitset = bitset;
		rb->futex_shared = shared;
		ret = -ERESTART_RESTARTBLOCK;
	}
	return ret;
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
	err = get_futex_key(uaddr, shared, &key);
	if (err)
		return err;
	return nr > 0 ? wake_key(&key, nr, bitset) : 0;
}

int futex_wake_addr(uint64_t uaddr, int nr)
{
	long r = futex_wake(uaddr, true, nr, FUTEX_BITSET_MATCH_ANY);
	return r < 0 ? (int)r : 0;
}

/*
 * Wake up to nr_wake waiters of uaddr1 and move up to nr_requeue of the
 * others to uaddr2 (they wait there from now on): a condition variable's
 * broadcast without the thundering herd. With cmpval (FUTEX_CMP_REQUEUE),
 * only if uaddr1 still holds it (else EAGAIN).
 */
static long futex_requeue(uint64_t uaddr1, bool shared, uint64_t uaddr2, int nr_wake,
			  int nr_requeue, const uint32_t *cmpval)
{
	struct futex_key key1, key2;
	int err, woken = 0, moved = 0;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	if ((err = get_futex_key(uaddr1, shared, &key1)) || (err = get_futex_key(uaddr2, shared, &key2)))
		return err;
	if (cmpval) {
		uint32_t cur;
		if (get_futex_value(&cur, uaddr1))
			return -EFAULT;
		if (cur != *cmpval)
			return -EAGAIN;
	}
	uint64_t irq = irq_save();
	struct futex_q *moving = NULL;
	for (struct futex_q **pp = bucket_of(&key1); *pp;) {
		struct futex_q *q = *pp;
		if (!key_equal(&q->key, &key1)) {
			pp = &q->next;
			continue;
		}
		if (woken < nr_wake) {
			*pp = q->next;
			q->woken = true;
			make_runnable(q->task);
			woken++;
		} else if (moved < nr_requeue) {
			*pp = q->next;
			q->next = moving;
			moving = q;
			moved++;
		} else {
			break;
		}
	}
	while (moving) {
		struct futex_q *q = moving;
		moving = q->next;
		q->key = key2;
		struct futex_q **b = bucket_of(&key2);
		q->next = *b;
		*b = q;
	}
	irq_restore(irq);
	return woken + moved;
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

	if ((err = get_futex_key(uaddr1, shared, &key1)) || (err = get_futex_key(uaddr2, shared, &key2)))
		return err;
	/* Unsigned shifts: bit 31 is an operand like any other here. */
	if (encoded & ((uint32_t)FUTEX_OP_OPARG_SHIFT << 28))
		oparg = (int32_t)(1u << (oparg & 31));
	if (get_futex_value(&old, uaddr2))
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
	int woken = nr_wake > 0 ? wake_key(&key1, nr_wake, FUTEX_BITSET_MATCH_ANY) : 0;
	if (wake2 && nr_wake2 > 0)
		woken += wake_key(&key2, nr_wake2, FUTEX_BITSET_MATCH_ANY);
	return woken;
}

/* ---- the system call ---- */

static bool cmd_has_timeout(int cmd)
{
	return cmd == FUTEX_WAIT || cmd == FUTEX_LOCK_PI || cmd == FUTEX_LOCK_PI2 ||
	       cmd == FUTEX_WAIT_BITSET || cmd == FUTEX_WAIT_REQUEUE_PI;
}

struct timespec64 {
	int64_t tv_sec, tv_nsec;
};

long sys_futex(uint64_t uaddr, int op, uint32_t val, uint64_t utime, uint64_t uaddr2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	bool shared = !(op & FUTEX_PRIVATE_FLAG);
	uint64_t deadline = 0;

	if (utime && cmd_has_timeout(cmd)) {
		struct timespec64 ts;
		if (copy_from_user(&ts, (const void __user *)utime, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
			return -EINVAL;
		uint64_t t = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
		uint64_t now = ktime_get_ns();
		if (cmd == FUTEX_WAIT) {
			deadline = now + t; /* relative, on the monotonic clock */
		} else if (op & FUTEX_CLOCK_REALTIME) {
			struct timespec real;
			ktime_get_real(&real);
			uint64_t rnow = (uint64_t)real.tv_sec * 1000000000ULL + real.tv_nsec;
			deadline = t > rnow ? now + (t - rnow) : 1;
		} else {
			deadline = t ? t : 1; /* absolute monotonic; 0 would mean none */
		}
		if (deadline < now)
			deadline = MAX(now, 1UL);
	}
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
		return futex_requeue(uaddr, shared, uaddr2, (int)val, (int)(uint32_t)utime, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, shared, uaddr2, (int)val, (int)(uint32_t)utime, &val3);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, shared, uaddr2, (int)val, (int)(uint32_t)utime, val3);
	}
	return -ENOSYS;
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

	if (uaddr % 4 || get_futex_value(&uval, uaddr))
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

void futex_exit_release(struct task *t)
{
	if (!t->mm)
		return;
	if (t->robust_list)
		exit_robust_list(t);
	t->robust_list = 0;
	/* pthread_join waits for this: the thread id word cleared and woken,
	 * when someone else shares the memory to see it. */
	if (t->clear_child_tid && t->mm->users > 1) {
		if (put_user_u32(0, (void __user *)t->clear_child_tid) == 0)
			futex_wake(t->clear_child_tid, true, 1, FUTEX_BITSET_MATCH_ANY);
	}
	t->clear_child_tid = 0;
}
