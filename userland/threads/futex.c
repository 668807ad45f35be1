/*
 * futex - futex(2) through raw system calls: each operation, its errors,
 * timeouts, and the wake-up at thread exit (CLONE_CHILD_CLEARTID) and the
 * robust list. Built with musl (/usr/lib/exec-tests/futex) and glibc (/usr/lib/exec-tests/futex-glibc). Prints
 * "what: ok" lines that hold on Linux and here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* linux/futex.h's names (musl's headers have no linux/). */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_WAIT_PRIVATE (FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)
#define FUTEX_REQUEUE_PRIVATE (FUTEX_REQUEUE | FUTEX_PRIVATE_FLAG)
#define FUTEX_CMP_REQUEUE_PRIVATE (FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_OP_PRIVATE (FUTEX_WAKE_OP | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAIT_BITSET_PRIVATE (FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_BITSET_PRIVATE (FUTEX_WAKE_BITSET | FUTEX_PRIVATE_FLAG)
#define FUTEX_BITSET_MATCH_ANY 0xffffffff
#define FUTEX_OP_ADD 1
#define FUTEX_OP_OR 2
#define FUTEX_OP_CMP_EQ 0
#define FUTEX_OP_CMP_GT 4
#define FUTEX_OP(op, oparg, cmp, cmparg) \
	((((op) & 0xf) << 28) | (((cmp) & 0xf) << 24) | (((oparg) & 0xfff) << 12) | ((cmparg) & 0xfff))

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

static uint32_t f1, f2;
static volatile int ready, results[8];

struct waiter {
	uint32_t *addr;
	int op;
	uint32_t bitset;
	int slot;
};

static void *wait_fn(void *arg)
{
	struct waiter *w = arg;
	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	long r = w->op == FUTEX_WAIT_BITSET
		? futex(w->addr, FUTEX_WAIT_BITSET_PRIVATE, 0, NULL, NULL, w->bitset)
		: futex(w->addr, w->op, 0, NULL, NULL, 0);
	results[w->slot] = r == 0 ? 1 : -errno;
	return NULL;
}

/* Start n waiters on addr and give them time to sleep. */
static void start_waiters(pthread_t *th, struct waiter *w, int n, uint32_t *addr, int op, uint32_t bitset)
{
	ready = 0;
	for (int i = 0; i < n; i++) {
		w[i] = (struct waiter){ addr, op, bitset, i };
		results[i] = 0;
		pthread_create(&th[i], NULL, wait_fn, &w[i]);
	}
	while (ready < n)
		usleep(1000);
	usleep(30000);
}

static int count_results(int n)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		c += results[i] == 1;
	return c;
}

static void on_usr1(int sig) { (void)sig; }

static void *interrupted_fn(void *arg)
{
	(void)arg;
	ready = 1;
	long r = futex(&f1, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	results[0] = r == -1 ? errno : 0;
	return NULL;
}

static pid_t cleartid_tid;

static int child_fn(void *arg)
{
	(void)arg;
	usleep(20000);
	return 0;
}

int main(void)
{
	struct timespec ts = { 0, 20 * 1000000 };
	pthread_t th[4];
	struct waiter w[4];

	/* Errors before any waiting. */
	say("FUTEX_WAIT with a value that changed: EAGAIN",
	    err(futex(&f1, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0), EAGAIN));
	say("FUTEX_WAIT with a 20 ms timeout: ETIMEDOUT",
	    err(futex(&f1, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0), ETIMEDOUT));
	struct timespec bad = { 0, 1000000000 };
	say("FUTEX_WAIT with tv_nsec = 10^9: EINVAL",
	    err(futex(&f1, FUTEX_WAIT_PRIVATE, 0, &bad, NULL, 0), EINVAL));
	say("FUTEX_WAKE with no waiter: 0", futex(&f1, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) == 0);
	say("FUTEX_WAIT on a misaligned address: EINVAL",
	    err(futex((uint32_t *)((char *)&f1 + 1), FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0), EINVAL));
	say("FUTEX_WAIT on an unmapped address: EFAULT",
	    err(futex((uint32_t *)16, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0), EFAULT));
	say("FUTEX_WAKE (shared) on an unmapped address: EFAULT",
	    err(futex((uint32_t *)16, FUTEX_WAKE, 1, NULL, NULL, 0), EFAULT));
	say("FUTEX_WAIT_BITSET with bitset 0: EINVAL",
	    err(futex(&f1, FUTEX_WAIT_BITSET_PRIVATE, 0, NULL, NULL, 0), EINVAL));
	say("an unknown operation: ENOSYS", err(futex(&f1, 99, 0, NULL, NULL, 0), ENOSYS));
	say("FUTEX_CLOCK_REALTIME with FUTEX_WAIT: ENOSYS",
	    err(futex(&f1, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0), ENOSYS));
	say("FUTEX_CMP_REQUEUE with a value that changed: EAGAIN",
	    err(futex(&f1, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1L, &f2, 5), EAGAIN));
	say("FUTEX_REQUEUE with a negative count: EINVAL",
	    err(futex(&f1, FUTEX_REQUEUE_PRIVATE, (uint32_t)-1, (void *)1L, &f2, 0), EINVAL));

	/* Absolute timeouts for the bitset wait. */
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	now.tv_nsec += 20000000;
	if (now.tv_nsec >= 1000000000)
		now.tv_sec++, now.tv_nsec -= 1000000000;
	say("FUTEX_WAIT_BITSET to an absolute CLOCK_MONOTONIC time: ETIMEDOUT",
	    err(futex(&f1, FUTEX_WAIT_BITSET_PRIVATE, 0, &now, NULL, FUTEX_BITSET_MATCH_ANY), ETIMEDOUT));
	clock_gettime(CLOCK_REALTIME, &now);
	now.tv_nsec += 20000000;
	if (now.tv_nsec >= 1000000000)
		now.tv_sec++, now.tv_nsec -= 1000000000;
	say("... with FUTEX_CLOCK_REALTIME: ETIMEDOUT",
	    err(futex(&f1, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0, &now, NULL,
		      FUTEX_BITSET_MATCH_ANY), ETIMEDOUT));
	struct timespec past = { 1, 0 };
	say("... to a time long past: ETIMEDOUT at once",
	    err(futex(&f1, FUTEX_WAIT_BITSET_PRIVATE, 0, &past, NULL, FUTEX_BITSET_MATCH_ANY), ETIMEDOUT));

	/* Wait and wake. */
	start_waiters(th, w, 3, &f1, FUTEX_WAIT_PRIVATE, 0);
	long r = futex(&f1, FUTEX_WAKE_PRIVATE, 2, NULL, NULL, 0);
	usleep(20000);
	say("FUTEX_WAKE of 2 among 3 waiters: 2, and 2 return", r == 2 && count_results(3) == 2);
	r = futex(&f1, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	say("then FUTEX_WAKE of 10: the last one, 1", r == 1 && count_results(3) == 3);

	/* Requeue: wake 1, move 2 to f2. */
	start_waiters(th, w, 3, &f1, FUTEX_WAIT_PRIVATE, 0);
	r = futex(&f1, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2L, &f2, 0);
	usleep(20000);
	say("FUTEX_CMP_REQUEUE: 1 woken + 2 requeued = 3", r == 3 && count_results(3) == 1);
	say("no one is left on the first futex", futex(&f1, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0) == 0);
	r = futex(&f2, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	say("the 2 requeued wake from the second", r == 2 && count_results(3) == 3);

	start_waiters(th, w, 2, &f1, FUTEX_WAIT_PRIVATE, 0);
	r = futex(&f1, FUTEX_REQUEUE_PRIVATE, 0, (void *)1L, &f2, 0);
	say("FUTEX_REQUEUE of 0 woken, 1 moved: 1", r == 1);
	r = futex(&f1, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0) + futex(&f2, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	say("one on each futex then", r == 2);

	/* Bitsets. */
	start_waiters(th, w, 2, &f1, FUTEX_WAIT_BITSET, 0x1);
	r = futex(&f1, FUTEX_WAKE_BITSET_PRIVATE, 10, NULL, NULL, 0x2);
	say("FUTEX_WAKE_BITSET with a bitset no waiter has: 0", r == 0);
	r = futex(&f1, FUTEX_WAKE_BITSET_PRIVATE, 10, NULL, NULL, 0x3);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	say("with a bitset that meets theirs: 2", r == 2);
	say("FUTEX_WAKE_BITSET with bitset 0: EINVAL",
	    err(futex(&f1, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 0), EINVAL));

	/* Wake-op: f2 += 1 (old 0), wake 1 on f1, and 1 on f2 if old == 0. */
	f2 = 0;
	start_waiters(th, w, 1, &f1, FUTEX_WAIT_PRIVATE, 0);
	start_waiters(th + 1, w + 1, 1, &f2, FUTEX_WAIT_PRIVATE, 0);
	r = futex(&f1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &f2,
		  FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_EQ, 0));
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	say("FUTEX_WAKE_OP: f2 becomes 1, one woken on each futex: 2", r == 2 && f2 == 1);
	r = futex(&f1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &f2,
		  FUTEX_OP(FUTEX_OP_OR, 4, FUTEX_OP_CMP_GT, 5));
	say("FUTEX_WAKE_OP OR 4 (old 1 > 5 false): f2 is 5, none woken", r == 0 && f2 == 5);
	say("FUTEX_WAKE_OP with an unknown operation: ENOSYS",
	    err(futex(&f1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &f2, 7 << 28), ENOSYS));
	f1 = f2 = 0;

	/* A signal with a handler interrupts a wait: EINTR. */
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigaction(SIGUSR1, &sa, NULL);
	ready = 0;
	pthread_create(&th[0], NULL, interrupted_fn, NULL);
	while (!ready)
		usleep(1000);
	usleep(30000);
	pthread_kill(th[0], SIGUSR1);
	pthread_join(th[0], NULL);
	say("a handled signal interrupts FUTEX_WAIT: EINTR", results[0] == EINTR);

	/* CLONE_CHILD_CLEARTID: the kernel clears the tid word and wakes it. */
	static char stack[65536] __attribute__((aligned(16)));
	static volatile pid_t ctid;
	pid_t tid = clone(child_fn, stack + sizeof(stack),
			  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
			  CLONE_SYSVSEM | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | CLONE_PARENT_SETTID,
			  NULL, &cleartid_tid, NULL, &ctid);
	say("CLONE_PARENT_SETTID and CLONE_CHILD_SETTID write the new tid", tid > 0 && cleartid_tid == tid);
	while (ctid == (pid_t)tid)
		futex((uint32_t *)&ctid, FUTEX_WAIT, tid, NULL, NULL, 0);
	say("at its end, CLONE_CHILD_CLEARTID zeroes the tid and wakes the waiter", ctid == 0);

	/* Clone flag rules. */
	say("CLONE_THREAD without CLONE_SIGHAND: EINVAL",
	    err(syscall(SYS_clone, CLONE_VM | CLONE_THREAD, stack + sizeof(stack), 0, 0, 0), EINVAL));
	say("CLONE_SIGHAND without CLONE_VM: EINVAL",
	    err(syscall(SYS_clone, CLONE_SIGHAND, stack + sizeof(stack), 0, 0, 0), EINVAL));
	uint64_t args[11] = { 0 };
	say("clone3 with a size below 64: EINVAL", err(syscall(435, args, 32), EINVAL));
	say("clone3 with a size above a page: E2BIG", err(syscall(435, args, 8192), E2BIG));
	args[0] = CLONE_THREAD | CLONE_SIGHAND | CLONE_VM;
	args[4] = SIGCHLD;
	say("clone3 with CLONE_THREAD and an exit signal: EINVAL", err(syscall(435, args, 88), EINVAL));
	args[0] = 0;
	args[4] = 0;
	args[6] = 4096; /* a stack size without a stack */
	say("clone3 with a stack size but no stack: EINVAL", err(syscall(435, args, 88), EINVAL));
	args[6] = 0;
	uint64_t big[16] = { 0 };
	big[12] = 1;
	say("clone3 with unknown fields not zero: E2BIG", err(syscall(435, big, sizeof(big)), E2BIG));
	big[12] = 0;
	big[4] = SIGCHLD;
	pid_t pid = syscall(435, big, sizeof(big));
	if (pid == 0)
		_exit(42);
	int status;
	say("clone3 as fork, with a larger struct of zeros: the child runs",
	    pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 42);

	/* Shared futexes between processes, in MAP_SHARED memory. */
	uint32_t *shm = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = fork();
	if (pid == 0) {
		while (__atomic_load_n(&shm[0], __ATOMIC_SEQ_CST) == 0)
			futex(&shm[0], FUTEX_WAIT, 0, NULL, NULL, 0);
		_exit(shm[0] == 1 ? 0 : 1);
	}
	usleep(50000);
	__atomic_store_n(&shm[0], 1, __ATOMIC_SEQ_CST);
	r = futex(&shm[0], FUTEX_WAKE, 1, NULL, NULL, 0);
	waitpid(pid, &status, 0);
	say("a shared futex in MAP_SHARED memory wakes the other process",
	    r == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return 0;
}
