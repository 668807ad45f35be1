/*
 * futex_pi - the priority-inheritance futexes through raw system calls:
 * FUTEX_LOCK_PI, LOCK_PI2, TRYLOCK_PI, UNLOCK_PI and their errors, the
 * hand-off to waiters in order, an owner that dies holding the lock,
 * deadlock detection; FUTEX_WAIT_REQUEUE_PI / FUTEX_CMP_REQUEUE_PI; and
 * futex_waitv. Prints "what: ok" lines that hold on Linux and here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* linux/futex.h's names (musl's headers have no linux/). */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_LOCK_PI 6
#define FUTEX_UNLOCK_PI 7
#define FUTEX_TRYLOCK_PI 8
#define FUTEX_WAIT_REQUEUE_PI 11
#define FUTEX_CMP_REQUEUE_PI 12
#define FUTEX_LOCK_PI2 13
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_WAITERS 0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK 0x3fffffffu
#define FUTEX_32 2
#define SYS_futex_waitv 449

struct futex_waitv {
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};

static long futex(uint32_t *uaddr, int op, uint32_t val, const void *ts_or_val2, uint32_t *uaddr2,
		  uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts_or_val2, uaddr2, val3);
}

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	fflush(stdout);
}

static int err(long r, int e) { return r == -1 && errno == e; }
static uint32_t gettid_(void) { return (uint32_t)syscall(SYS_gettid); }
static void ms(int n) { usleep(n * 1000); }

static struct timespec in_ms(clockid_t clock, long n)
{
	struct timespec t;
	clock_gettime(clock, &t);
	t.tv_nsec += n * 1000000;
	t.tv_sec += t.tv_nsec / 1000000000;
	t.tv_nsec %= 1000000000;
	return t;
}

static uint32_t L1, L2, C, go;
static uint32_t tids[8];
static volatile int order[8], norder, results[8];

/* Take L1 (the word then holds our tid), hold it until go, then unlock
 * (or, with arg 1, exit holding it). */
static void *holder_fn(void *arg)
{
	tids[0] = gettid_();
	futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
	while (!go)
		futex(&go, FUTEX_WAIT, 0, NULL, NULL, 0);
	if (!arg)
		futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	return NULL;
}

/* Wait for L1; note our turn and how the word looked; unlock. */
static void *waiter_fn(void *arg)
{
	long i = (long)arg;
	tids[i] = gettid_();
	long r = futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
	uint32_t w = L1;
	results[i] = r == 0 && (w & FUTEX_TID_MASK) == tids[i] && (w & FUTEX_WAITERS) ?
			     (w & FUTEX_OWNER_DIED ? 2 : 1) : -1;
	order[norder++] = (int)i;
	ms(10);
	futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	return NULL;
}

static void start_holder(pthread_t *th, void *exit_holding)
{
	go = 0;
	pthread_create(th, NULL, holder_fn, exit_holding);
	ms(30);
}

static void release_holder(pthread_t th)
{
	go = 1;
	futex(&go, FUTEX_WAKE, 1, NULL, NULL, 0);
	pthread_join(th, NULL);
}

static void test_errors(void)
{
	uint32_t me = gettid_();

	say("FUTEX_LOCK_PI of a free lock: 0, the word our tid",
	    futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0) == 0 && L1 == me);
	say("FUTEX_LOCK_PI of a lock we hold: EDEADLK", err(futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0), EDEADLK));
	say("FUTEX_TRYLOCK_PI of it: EDEADLK", err(futex(&L1, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0), EDEADLK));
	say("FUTEX_UNLOCK_PI: 0, the word 0", futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0) == 0 && L1 == 0);
	say("FUTEX_UNLOCK_PI of a free lock: EPERM", err(futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0), EPERM));
	L1 = FUTEX_WAITERS | FUTEX_OWNER_DIED;
	say("FUTEX_LOCK_PI with stale bits: taken, FUTEX_OWNER_DIED kept",
	    futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0) == 0 && L1 == (me | FUTEX_OWNER_DIED));
	L1 |= FUTEX_WAITERS;
	say("FUTEX_UNLOCK_PI without waiters clears both bits",
	    futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0) == 0 && L1 == 0);
	L1 = 0x3ffffff0; /* no such thread */
	say("FUTEX_LOCK_PI of a lock whose owner does not exist: ESRCH",
	    err(futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0), ESRCH) && L1 == (0x3ffffff0 | FUTEX_WAITERS));
	L1 = 0;
	say("FUTEX_LOCK_PI on a misaligned address: EINVAL",
	    err(futex((uint32_t *)((char *)&L1 + 1), FUTEX_LOCK_PI, 0, NULL, NULL, 0), EINVAL));
	say("FUTEX_LOCK_PI on an unmapped address: EFAULT",
	    err(futex((uint32_t *)16, FUTEX_LOCK_PI, 0, NULL, NULL, 0), EFAULT));
	say("FUTEX_LOCK_PI with FUTEX_CLOCK_REALTIME: ENOSYS",
	    err(futex(&L1, FUTEX_LOCK_PI | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0), ENOSYS));
	say("FUTEX_LOCK_PI2 with FUTEX_CLOCK_REALTIME: 0",
	    futex(&L1, FUTEX_LOCK_PI2 | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0) == 0);
	futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
}

static void test_contended(void)
{
	pthread_t th[4];

	start_holder(&th[0], NULL);
	say("FUTEX_TRYLOCK_PI of a held lock: EWOULDBLOCK, FUTEX_WAITERS set",
	    err(futex(&L1, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0), EWOULDBLOCK) &&
		    L1 == (tids[0] | FUTEX_WAITERS));
	struct timespec t = in_ms(CLOCK_REALTIME, 20);
	say("FUTEX_LOCK_PI until a CLOCK_REALTIME time: ETIMEDOUT",
	    err(futex(&L1, FUTEX_LOCK_PI, 0, &t, NULL, 0), ETIMEDOUT));
	t = in_ms(CLOCK_MONOTONIC, 20);
	say("FUTEX_LOCK_PI2 until a CLOCK_MONOTONIC time: ETIMEDOUT",
	    err(futex(&L1, FUTEX_LOCK_PI2, 0, &t, NULL, 0), ETIMEDOUT));
	say("FUTEX_UNLOCK_PI of another's lock: EPERM", err(futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0), EPERM));
	norder = 0;
	for (long i = 1; i <= 3; i++) {
		pthread_create(&th[i], NULL, waiter_fn, (void *)i);
		ms(30);
	}
	say("FUTEX_WAKE with PI waiters: EINVAL", err(futex(&L1, FUTEX_WAKE, 1, NULL, NULL, 0), EINVAL));
	release_holder(th[0]);
	for (int i = 1; i <= 3; i++)
		pthread_join(th[i], NULL);
	say("the lock went to its 3 waiters in order, each with FUTEX_WAITERS",
	    order[0] == 1 && order[1] == 2 && order[2] == 3 && results[1] == 1 && results[2] == 1 &&
		    results[3] == 1 && L1 == 0);
}

static void test_owner_death(void)
{
	pthread_t th[2];

	start_holder(&th[0], (void *)1);
	release_holder(th[0]);
	say("FUTEX_LOCK_PI of a lock whose owner exited: ESRCH",
	    err(futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0), ESRCH));
	L1 = 0;
	start_holder(&th[0], (void *)1);
	norder = 0;
	pthread_create(&th[1], NULL, waiter_fn, (void *)1);
	ms(30);
	release_holder(th[0]);
	pthread_join(th[1], NULL);
	say("an owner that exits holding it: the waiter gets it, FUTEX_OWNER_DIED",
	    results[1] == 2 && L1 == 0);
}

static void *abba_fn(void *arg)
{
	(void)arg;
	futex(&L2, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
	results[0] = futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0) == 0;
	futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	futex(&L2, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	return NULL;
}

static void test_deadlock(void)
{
	pthread_t th;

	L1 = L2 = 0;
	futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
	pthread_create(&th, NULL, abba_fn, NULL);
	ms(30);
	say("FUTEX_LOCK_PI of a lock whose owner waits for ours: EDEADLK",
	    err(futex(&L2, FUTEX_LOCK_PI, 0, NULL, NULL, 0), EDEADLK));
	futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	pthread_join(th, NULL);
	say("then the other thread gets it", results[0] == 1 && L1 == 0 && L2 == 0);
}

static void *requeue_waiter_fn(void *arg)
{
	long i = (long)arg;
	tids[i] = gettid_();
	long r = futex(&C, FUTEX_WAIT_REQUEUE_PI, 0, NULL, &L1, 0);
	results[i] = r == 0 && (L1 & FUTEX_TID_MASK) == tids[i];
	order[norder++] = (int)i;
	ms(10);
	futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	return NULL;
}

static void test_requeue_pi(void)
{
	pthread_t th[4];

	L1 = C = 0;
	say("FUTEX_WAIT_REQUEUE_PI to the same word: EINVAL",
	    err(futex(&C, FUTEX_WAIT_REQUEUE_PI, 0, NULL, &C, 0), EINVAL));
	say("FUTEX_WAIT_REQUEUE_PI with a value that changed: EAGAIN",
	    err(futex(&C, FUTEX_WAIT_REQUEUE_PI, 1, NULL, &L1, 0), EAGAIN));
	say("FUTEX_CMP_REQUEUE_PI waking 2: EINVAL",
	    err(futex(&C, FUTEX_CMP_REQUEUE_PI, 2, (void *)1, &L1, 0), EINVAL));
	norder = 0;
	for (long i = 1; i <= 3; i++) {
		pthread_create(&th[i], NULL, requeue_waiter_fn, (void *)i);
		ms(30);
	}
	say("FUTEX_WAKE of requeue-PI waiters: EINVAL", err(futex(&C, FUTEX_WAKE, 1, NULL, NULL, 0), EINVAL));
	say("FUTEX_CMP_REQUEUE of them: EINVAL", err(futex(&C, FUTEX_CMP_REQUEUE, 1, (void *)1, &L2, 0), EINVAL));
	say("FUTEX_CMP_REQUEUE_PI to another PI futex: EINVAL",
	    err(futex(&C, FUTEX_CMP_REQUEUE_PI, 1, (void *)1, &L2, 0), EINVAL));
	futex(&L1, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
	say("FUTEX_CMP_REQUEUE_PI 1 + 0 with the lock held moves one: 1",
	    futex(&C, FUTEX_CMP_REQUEUE_PI, 1, (void *)0, &L1, 0) == 1);
	say("FUTEX_CMP_REQUEUE_PI 1 + 5 moves the other two: 2",
	    futex(&C, FUTEX_CMP_REQUEUE_PI, 1, (void *)5, &L1, 0) == 2);
	say("FUTEX_UNLOCK_PI hands the lock on", futex(&L1, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0) == 0);
	for (int i = 1; i <= 3; i++)
		pthread_join(th[i], NULL);
	say("the 3 waiters got the lock in order", order[0] == 1 && order[1] == 2 && order[2] == 3 &&
							      results[1] && results[2] && results[3] && L1 == 0);
	pthread_create(&th[1], NULL, requeue_waiter_fn, (void *)1);
	ms(30);
	say("FUTEX_CMP_REQUEUE_PI with the lock free: the waiter woken owning it: 1",
	    futex(&C, FUTEX_CMP_REQUEUE_PI, 1, (void *)0, &L1, 0) == 1);
	pthread_join(th[1], NULL);
	say("it returned 0 owning the lock", results[1] && L1 == 0);
	struct timespec t = in_ms(CLOCK_MONOTONIC, 20);
	say("FUTEX_WAIT_REQUEUE_PI until a CLOCK_MONOTONIC time: ETIMEDOUT",
	    err(futex(&C, FUTEX_WAIT_REQUEUE_PI, 0, &t, &L1, 0), ETIMEDOUT));
}

static uint32_t fv[3];
static struct futex_waitv wv[3];

static void *waitv_fn(void *arg)
{
	(void)arg;
	struct timespec t = in_ms(CLOCK_MONOTONIC, 2000);
	results[0] = syscall(SYS_futex_waitv, wv, 3, 0, &t, CLOCK_MONOTONIC);
	return NULL;
}

static void test_waitv(void)
{
	pthread_t th;

	for (int i = 0; i < 3; i++)
		wv[i] = (struct futex_waitv){ 0, (uintptr_t)&fv[i], FUTEX_32 | FUTEX_PRIVATE_FLAG, 0 };
	struct timespec t = in_ms(CLOCK_MONOTONIC, 20);
	say("futex_waitv until a CLOCK_MONOTONIC time: ETIMEDOUT",
	    err(syscall(SYS_futex_waitv, wv, 3, 0, &t, CLOCK_MONOTONIC), ETIMEDOUT));
	t = in_ms(CLOCK_REALTIME, 20);
	say("... a CLOCK_REALTIME time: ETIMEDOUT",
	    err(syscall(SYS_futex_waitv, wv, 3, 0, &t, CLOCK_REALTIME), ETIMEDOUT));
	say("... on CLOCK_TAI: EINVAL", err(syscall(SYS_futex_waitv, wv, 3, 0, &t, CLOCK_TAI), EINVAL));
	say("... with no futex: EINVAL", err(syscall(SYS_futex_waitv, wv, 0, 0, &t, CLOCK_REALTIME), EINVAL));
	wv[1].flags = FUTEX_PRIVATE_FLAG;
	say("... without FUTEX_32: EINVAL", err(syscall(SYS_futex_waitv, wv, 3, 0, NULL, 0), EINVAL));
	wv[1].flags = FUTEX_32 | FUTEX_PRIVATE_FLAG;
	wv[2].val = 1;
	say("... with a value that changed: EAGAIN", err(syscall(SYS_futex_waitv, wv, 3, 0, NULL, 0), EAGAIN));
	wv[2].val = 0;
	pthread_create(&th, NULL, waitv_fn, NULL);
	ms(30);
	say("FUTEX_WAKE of the second futex: 1", futex(&fv[1], FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0) == 1);
	pthread_join(th, NULL);
	say("futex_waitv returned its index, 1", results[0] == 1);
}

int main(void)
{
	test_errors();
	test_contended();
	test_owner_death();
	test_deadlock();
	test_requeue_pi();
	test_waitv();
	return 0;
}
