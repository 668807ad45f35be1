/*
 * tlb.c - TLB shootdowns: making the other CPUs forget translations.
 *
 * Each CPU caches translations of the address space it has loaded (its
 * CR3, recorded in its struct percpu as active_pml4). When the kernel
 * takes a page away from an address space or lowers its rights (munmap,
 * mprotect, mremap, a copy-on-write break, fork write-protecting the
 * parent), every CPU that has that address space loaded must drop the old
 * entries before the page can go to anyone else: this CPU with invlpg,
 * the others by an IPI that runs the same flush there (Linux's
 * flush_tlb_mm_range and its mm_cpumask: here the set of CPUs whose
 * active_pml4 is the address space's, which includes an idle CPU that
 * still has the last task's tables loaded).
 *
 * The caller changed the entries first: a CPU that loads the address
 * space after the CPUs to ask were chosen (a thread of the process
 * scheduled there meanwhile) loads the changed tables, and needs no IPI.
 *
 * A CPU that runs its idle task or a kernel thread keeps the last
 * process's tables loaded but touches no user address: it is lazy.
 * A flush that only changed entries does not interrupt it (an idle CPU's
 * halt would end, under QEMU a host thread's sleep, for every
 * copy-on-write break of the process it last ran): it is told to flush
 * when it next loads a task's address space (mm_activate, at a switch or
 * a kernel thread's exec; Linux skips lazy CPUs so, with its tlb_gen).
 * A flush after tables were freed asks it all the same: its
 * paging-structure caches may still point into them.
 */
#include <kernel_stat.h>
#include <mm.h>
#include <smp.h>
#include <vm.h>
#include <x86.h>

#include "../../../mm/internal.h"

struct flush_request {
	uint64_t pml4_phys; /* 0: the kernel's half, seen by every CPU */
	uint64_t start, end;
};

static void flush_ipi(void *info)
{
	const struct flush_request *r = info;

	irq_stat[smp_processor_id()].irq_tlb_count++;
	if (!r->pml4_phys || (read_cr3() & PTE_ADDR) == r->pml4_phys)
		tlb_flush_local(r->start, r->end);
}

/*
 * CPU n is lazy: mark it to flush when it next runs a task, and skip it.
 * False if it stopped being lazy meanwhile: it may be running the
 * process, and needs the IPI. Each side writes its flag, then reads the
 * other's (leave_lazy_tlb): one of the two sees the other's write.
 */
static bool defer_to_lazy(int n)
{
	if (!__atomic_load_n(&cpus[n].tlb_lazy, __ATOMIC_RELAXED))
		return false;
	__atomic_store_n(&cpus[n].tlb_flush_pending, true, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&cpus[n].tlb_lazy, __ATOMIC_SEQ_CST);
}

/* The other CPUs with pml4_phys loaded (all others for 0), but lazy
 * ones if skip_lazy. */
static uint64_t cpus_with(uint64_t pml4_phys, bool skip_lazy)
{
	uint64_t mask = 0;

	for_each_online_cpu(n)
		if (n != smp_processor_id() && (!pml4_phys || cpus[n].active_pml4 == pml4_phys) &&
		    !(skip_lazy && defer_to_lazy(n)))
			mask |= 1UL << n;
	return mask;
}

uint64_t mm_cpumask(const struct mm *mm)
{
	return cpus_with(virt_to_phys(mm->pml4), false);
}

void flush_tlb_others(uint64_t pml4_phys, uint64_t start, uint64_t end, bool freed_tables)
{
	struct flush_request r = { pml4_phys, start, end };
	uint64_t mask = cpus_with(pml4_phys, pml4_phys && !freed_tables);

	if (mask)
		smp_call_function_many(mask, flush_ipi, &r);
}

void enter_lazy_tlb(void)
{
	this_cpu_write(tlb_lazy, true);
}

void leave_lazy_tlb(void)
{
	struct percpu *me = this_cpu();

	if (!me->tlb_lazy)
		return;
	__atomic_store_n(&me->tlb_lazy, false, __ATOMIC_SEQ_CST);
	if (__atomic_exchange_n(&me->tlb_flush_pending, false, __ATOMIC_SEQ_CST))
		write_cr3(read_cr3()); /* no user page is global: this drops them all */
}

/* A kernel mapping changed (vmalloc, a kernel stack): every CPU. */
void flush_tlb_kernel_range(uint64_t start, uint64_t end)
{
	flush_tlb_others(0, start, end, true);
	tlb_flush_local(start, end);
}

static void leave_mm_ipi(void *info)
{
	if ((read_cr3() & PTE_ADDR) == *(uint64_t *)info)
		mm_activate(NULL);
}

/* The address space is going away: no CPU may keep its tables loaded. */
void leave_mm_everywhere(uint64_t pml4_phys)
{
	uint64_t mask = cpus_with(pml4_phys, false);

	if (mask)
		smp_call_function_many(mask, leave_mm_ipi, &pml4_phys);
	leave_mm_ipi(&pml4_phys);
}
