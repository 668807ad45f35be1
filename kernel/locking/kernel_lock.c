/*
 * kernel_lock.c - the big kernel lock (include/smp_lock.h says what it
 * protects and when it is taken).
 *
 * A test-and-set spinlock whose value is the number of the CPU holding it
 * (-1: free). Not a ticket lock: an interrupt handler on a CPU that is
 * itself waiting for the lock must be able to wait for it too, and with
 * tickets it would wait behind its own CPU's ticket forever.
 */
#include <percpu.h>
#include <smp.h>
#include <smp_lock.h>

static int kernel_lock_owner = -1;

void lock_kernel(void)
{
	int me = smp_processor_id(), free = -1;

	while (!__atomic_compare_exchange_n(&kernel_lock_owner, &free, me, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		/* Interrupts may be off: answer the holder's requests here. */
		smp_call_function_interrupt();
		__asm__ volatile("pause");
		free = -1;
	}
}

void unlock_kernel(void)
{
	__atomic_store_n(&kernel_lock_owner, -1, __ATOMIC_RELEASE);
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
