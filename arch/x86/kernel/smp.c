/*
 * smp.c - asking other CPUs to do things, by interprocessor interrupt:
 * reschedule (RESCHEDULE_VECTOR) and run a function (CALL_FUNCTION_VECTOR,
 * used for TLB shootdowns).
 *
 * A call is posted in the target CPU's call_request slot and answered by
 * decrementing the request's pending count; the caller waits for 0.
 * Callers take turns (call_turn), so a slot holds at most one request. A
 * CPU waiting for its turn, or for the big kernel lock, answers the
 * requests posted to it from its spin even with interrupts off
 * (smp_call_function_interrupt): two CPUs that call each other, or one
 * that calls the big lock's waiter, never wait for each other forever.
 * A caller holds no spinlock another CPU may spin on with interrupts off
 * (include/spinlock.h).
 */
#include <apic.h>
#include <smp.h>
#include <x86.h>

struct call_request {
	void (*func)(void *);
	void *info;
	int pending; /* CPUs that have not run it yet */
};

static struct call_request *call_request[NR_CPUS];
static int call_turn; /* 1 while a caller posts and waits */

static void take_call_turn(void)
{
	while (__atomic_exchange_n(&call_turn, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&call_turn, __ATOMIC_RELAXED))
			cpu_relax_answering_calls();
}

static void give_call_turn(void) { __atomic_store_n(&call_turn, 0, __ATOMIC_RELEASE); }

uint64_t cpu_online_mask(void)
{
	uint64_t mask = 0;

	for_each_online_cpu(n)
		mask |= 1UL << n;
	return mask;
}

void smp_send_reschedule(int cpu)
{
	if (cpus[cpu].online)
		lapic_send_ipi(cpus[cpu].apic_id, RESCHEDULE_VECTOR);
}

void smp_call_function_many(uint64_t mask, void (*func)(void *), void *info)
{
	struct call_request req = { func, info, 0 };
	int me = smp_processor_id();

	mask &= cpu_online_mask() & ~(1UL << me);
	if (!mask)
		return;
	/* Interrupts off while the turn is ours: an interrupt handler here
	 * would wait for the big kernel lock, whose holder may be waiting for
	 * the turn. */
	uint64_t flags = irq_save();
	take_call_turn();
	for_each_online_cpu(n)
		req.pending += mask >> n & 1;
	for_each_online_cpu(n) {
		if (!(mask >> n & 1))
			continue;
		__atomic_store_n(&call_request[n], &req, __ATOMIC_RELEASE);
		lapic_send_ipi(cpus[n].apic_id, CALL_FUNCTION_VECTOR);
	}
	while (__atomic_load_n(&req.pending, __ATOMIC_ACQUIRE))
		__asm__ volatile("pause");
	give_call_turn();
	irq_restore(flags);
}

/*
 * Whoever takes the request from the slot runs it: the IPI's handler, or
 * lock_kernel's spin on the same CPU, never both. Interrupts stay off
 * until it is answered: an interrupt handler that came in between would
 * wait for the big kernel lock, whose holder waits for this answer.
 */
void smp_call_function_interrupt(void)
{
	uint64_t flags = irq_save();
	struct call_request *req =
		__atomic_exchange_n(&call_request[smp_processor_id()], NULL, __ATOMIC_ACQUIRE);

	if (req) {
		req->func(req->info);
		__atomic_fetch_sub(&req->pending, 1, __ATOMIC_RELEASE);
	}
	irq_restore(flags);
}

void cpu_relax_answering_calls(void)
{
	smp_call_function_interrupt();
	__asm__ volatile("pause");
}
