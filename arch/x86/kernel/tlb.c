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

/* The other CPUs with pml4_phys loaded (all others for 0). */
static uint64_t cpus_with(uint64_t pml4_phys)
{
	uint64_t mask = 0;

	for_each_online_cpu(n)
		if (n != smp_processor_id() && (!pml4_phys || cpus[n].active_pml4 == pml4_phys))
			mask |= 1UL << n;
	return mask;
}

uint64_t mm_cpumask(const struct mm *mm)
{
	return cpus_with(virt_to_phys(mm->pml4));
}

void flush_tlb_others(uint64_t pml4_phys, uint64_t start, uint64_t end)
{
	struct flush_request r = { pml4_phys, start, end };
	uint64_t mask = cpus_with(pml4_phys);

	if (mask)
		smp_call_function_many(mask, flush_ipi, &r);
}

/* A kernel mapping changed (vmalloc, a kernel stack): every CPU. */
void flush_tlb_kernel_range(uint64_t start, uint64_t end)
{
	flush_tlb_others(0, start, end);
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
	uint64_t mask = cpus_with(pml4_phys);

	if (mask)
		smp_call_function_many(mask, leave_mm_ipi, &pml4_phys);
	leave_mm_ipi(&pml4_phys);
}
