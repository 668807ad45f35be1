/*
 * kernel_lock.c - the big kernel lock (include/smp_lock.h says what it
 * protects and when it is taken).
 *
 * A test-and-set spinlock whose value is the number of the CPU holding it
 * (-1: free). Not a ticket lock: an interrupt handler on a CPU that is
 * itself waiting for the lock must be able to wait for it too, and with
 * tickets it would wait behind its own CPU's ticket forever.
 *
 * A CPU that waits with interrupts on spins a while, then halts, and the
 * holder wakes it with a reschedule IPI when it lets go (lock_waiters).
 * Under QEMU each CPU is a host thread, and a spinning one takes the host
 * CPU the holder needs, which is worse when the guest has more CPUs than
 * the host. With interrupts off a waiter spins, answering the holder's
 * IPI requests itself (smp_call_function_interrupt).
 */
#include <lock_stat.h>
#include <percpu.h>
#include <smp.h>
#include <smp_lock.h>
#include <x86.h>

static int kernel_lock_owner = -1;
struct lock_class_stats kernel_lock_stats = { .name = "kernel_lock", .last_cpu = -1 };
static uint64_t lock_waiters; /* CPUs halted until the lock is let go */

static bool take(void)
{
	int free = -1;

	return __atomic_compare_exchange_n(&kernel_lock_owner, &free, smp_processor_id(), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* A waiter spins on a read, which leaves the cache line shared until the
 * holder lets go, and tries the locked compare-exchange only then. */
static bool looks_free(void) { return __atomic_load_n(&kernel_lock_owner, __ATOMIC_RELAXED) == -1; }

bool try_lock_kernel(void)
{
	if (!take())
		return false;
	lock_stat_acquired(&kernel_lock_stats, 0);
	return true;
}

/* Halt until the holder lets go (or any interrupt), interrupts off. */
static void wait_halted(uint64_t me)
{
	__atomic_fetch_or(&lock_waiters, me, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&kernel_lock_owner, __ATOMIC_SEQ_CST) != -1)
		__asm__ volatile("sti; hlt; cli" ::: "memory"); /* no lost wake-up */
	__atomic_fetch_and(&lock_waiters, ~me, __ATOMIC_RELAXED);
}

/*
 * How many times a waiter with interrupts on looks at the lock before it
 * halts. Most holds are short (one system call), and a waiter that spins
 * through one takes the lock without a halt and a wake-up IPI, which
 * under QEMU are a host thread's sleep and wake-up and cost more than the
 * hold itself: fork+execve+wait4 on two CPUs went from 1.05 to 1.4 times
 * one CPU's throughput (make bench). A longer hold (a page-table
 * teardown) still finds the waiter halted, its host CPU free.
 */
#define SPINS_BEFORE_HALT 4000

/* Out of line, so that taking a free lock (the common case) needs no
 * stack frame. */
static __attribute__((noinline)) void wait_for_lock(void)
{
	uint64_t wait_start = lock_stat_clock();
	uint64_t flags = irq_save();
	/* Answer the holder's requests (a TLB shootdown) while waiting. */
	for (unsigned spins = 0; !(looks_free() && take()); spins++) {
		if ((flags & RFLAGS_IF) && spins >= SPINS_BEFORE_HALT) {
			smp_call_function_interrupt();
			wait_halted(1UL << smp_processor_id());
		} else {
			cpu_relax_answering_calls();
		}
	}
	lock_stat_acquired(&kernel_lock_stats, wait_start);
	irq_restore(flags);
}

void lock_kernel(void)
{
	if (!try_lock_kernel())
		wait_for_lock();
}

/* Out of line: the common unlock, with no CPU halted, stays short. */
static __attribute__((noinline)) void wake_waiters(void)
{
	uint64_t waiters = __atomic_exchange_n(&lock_waiters, 0, __ATOMIC_SEQ_CST);

	for (int n = 0; waiters; n++, waiters >>= 1)
		if (waiters & 1)
			smp_send_reschedule(n);
}

void unlock_kernel(void)
{
	lock_stat_released(&kernel_lock_stats);
	/* xchg, a full barrier: a waiter that saw the lock held has set its
	 * bit before we look. */
	__atomic_exchange_n(&kernel_lock_owner, -1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&lock_waiters, __ATOMIC_RELAXED))
		wake_waiters();
}

bool kernel_locked(void)
{
	return __atomic_load_n(&kernel_lock_owner, __ATOMIC_RELAXED) == smp_processor_id();
}

void unlock_kernel_to_user(void)
{
	if (kernel_locked())
		unlock_kernel();
}

bool release_kernel_lock(void)
{
	bool held = kernel_locked();

	if (held)
		unlock_kernel();
	return held;
}

void reacquire_kernel_lock(bool was_held)
{
	if (was_held)
		lock_kernel();
}
