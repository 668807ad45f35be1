/*
 * kernel/futex.h - what the futex files share with each other and with no
 * one else (Linux: kernel/futex/futex.h):
 *
 *   kernel/futex.c          keys, hash buckets, wait and wake, futex_waitv,
 *                           the robust list, the system calls
 *   kernel/futex_pi.c       priority-inheritance futexes: FUTEX_LOCK_PI,
 *                           FUTEX_TRYLOCK_PI, FUTEX_UNLOCK_PI
 *   kernel/futex_requeue.c  FUTEX_(CMP_)REQUEUE, and FUTEX_CMP_REQUEUE_PI
 *                           with its waiter, FUTEX_WAIT_REQUEUE_PI
 *
 * The rest of the kernel uses include/sched.h (futex_exit_release, ...).
 */
#pragma once
#include <kernel.h>
#include <sched.h>

/* The word of a PI futex, and of a robust one: the owner's thread id and
 * two flags. */
#define FUTEX_WAITERS 0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK 0x3fffffffu

#define FUTEX_BITSET_MATCH_ANY 0xffffffffu

/* What get_futex_key checks the memory for (Linux's futex_access). */
enum futex_access { FUTEX_READ, FUTEX_WRITE };

struct futex_key {
	uint64_t object; /* the mm (bit 1: a shared futex), or the inode (bit 0) */
	uint64_t offset; /* the address, or the offset in the file */
};

/*
 * The kernel's side of a PI futex that has waiters (Linux's
 * futex_pi_state), kmalloc'd by the first waiter and freed when the last
 * reference goes. It stands for the lock that Linux makes an rt_mutex:
 *  - owner is who holds the futex as the kernel sees it, and the state is
 *    on owner->pi_state_list (so that the owner's exit can let go of it);
 *    NULL once the owner died holding it.
 *  - rt_owner is who holds the rt_mutex. The two differ only for a moment:
 *    when the owner died and the lock went to a waiter that has not run
 *    yet (that waiter then makes itself the owner, fixup_pi_owner).
 *  - The rt_mutex's waiters are the futex_q's of this key that have
 *    pi_blocked set, in their hash bucket's order (priority, then FIFO).
 * Each waiter's futex_q holds a reference.
 */
struct futex_pi_state {
	struct futex_pi_state *next; /* on owner->pi_state_list */
	struct task *owner;
	struct task *rt_owner;
	struct futex_key key;
	int refcount;
};

/* requeue_state of a FUTEX_WAIT_REQUEUE_PI waiter (Linux's
 * Q_REQUEUE_PI_*): on the first futex still, requeued and blocked on the
 * PI futex, or given the PI futex by the requeue. Linux's IN_PROGRESS,
 * WAIT and IGNORE let a waiter and a requeuer on two CPUs meet; here,
 * with one CPU and no preemption in the kernel, a requeue is over before
 * the waiter runs again. */
enum { Q_REQUEUE_PI_NONE, Q_REQUEUE_PI_DONE, Q_REQUEUE_PI_LOCKED };

/* A waiter: a struct on its own kernel stack, in a hash bucket. */
struct futex_q {
	struct futex_q *next;
	struct futex_key key;
	int prio;          /* futex_prio when queued: the bucket's order */
	uint32_t bitset;
	struct task *task;
	bool woken;        /* a wake took it off its bucket */
	/* PI: the state of the PI futex it waits for or took (a reference),
	 * and whether it is still a waiter of that lock. */
	struct futex_pi_state *pi_state;
	bool pi_blocked;
	/* FUTEX_WAIT_REQUEUE_PI: the PI futex it may be requeued to (NULL for
	 * any other waiter; Linux tests rt_waiter), and how far that went. */
	const struct futex_key *requeue_pi_key;
	int requeue_state;
};

/* ---- kernel/futex.c ---- */
int get_futex_key(uint64_t uaddr, bool shared, struct futex_key *key, enum futex_access rw);
static inline bool futex_match(const struct futex_key *a, const struct futex_key *b)
{
	return a->object == b->object && a->offset == b->offset;
}
struct futex_q **futex_bucket(const struct futex_key *key);
void futex_queue(struct futex_q *q);    /* into its key's bucket */
bool futex_unqueue(struct futex_q *q);  /* false if it was not queued */
void futex_wake_mark(struct futex_q *q); /* off its bucket, woken */
/* The first waiter of key (of any kind), or NULL. */
struct futex_q *futex_top_waiter(const struct futex_key *key);
int futex_get_value(uint32_t *val, uint64_t uaddr);
/* Before a wait: the key of uaddr into *key, then the word must still
 * hold val (else -EAGAIN, which is EWOULDBLOCK); -EFAULT if unreadable. */
int futex_wait_setup(uint64_t uaddr, bool shared, uint32_t val, struct futex_key *key);
/* Compare the word with old and, if equal, store new; *cur gets what was
 * there. 0 or -EFAULT. Atomic: nothing else runs meanwhile. */
int futex_cmpxchg_value(uint32_t *cur, uint64_t uaddr, uint32_t old, uint32_t new);
/* One step of a sleep, with interrupts off: -ETIMEDOUT once the deadline
 * (ns of CLOCK_MONOTONIC, 0 for none) has passed, -EINTR if a signal is
 * pending, else 0 after sleeping (the caller looks again). */
int futex_sleep(void *chan, uint64_t deadline_ns);

/* ---- kernel/futex_pi.c ---- */
long futex_lock_pi(uint64_t uaddr, bool shared, uint64_t deadline_ns, bool trylock);
long futex_unlock_pi(uint64_t uaddr, bool shared);
int futex_lock_pi_atomic(uint64_t uaddr, const struct futex_key *key, struct futex_pi_state **ps,
			 struct task *task, bool set_waiters);
void get_pi_state(struct futex_pi_state *ps);
void put_pi_state(struct futex_pi_state *ps);
int rt_mutex_start_proxy_lock(struct futex_pi_state *ps, struct futex_q *q);
int rt_mutex_wait_proxy_lock(struct futex_q *q, uint64_t deadline_ns);
int fixup_pi_owner(uint64_t uaddr, struct futex_q *q, bool locked);
void futex_unqueue_pi(struct futex_q *q);
void exit_pi_state_list(struct task *t);

/* ---- kernel/futex_requeue.c ---- */
long futex_requeue(uint64_t uaddr1, bool shared, uint64_t uaddr2, int nr_wake, int nr_requeue,
		   const uint32_t *cmpval, bool requeue_pi);
long futex_wait_requeue_pi(uint64_t uaddr, bool shared, uint32_t val, uint64_t deadline_ns,
			   uint32_t bitset, uint64_t uaddr2);
