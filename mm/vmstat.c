/*
 * mm/vmstat.c - what /proc/meminfo says about the memory of processes,
 * counted when it is read: every address space's page tables are walked
 * and each frame they map is counted once, however many processes share
 * it (copy-on-write after fork, a program's text).
 *
 *   AnonPages   frames that belong to processes only: demand-zero memory,
 *               and the copies they made of file pages they wrote
 *   Mapped      pages of files (the in-memory filesystem's, and shared
 *               anonymous memory's unnamed files) that some process maps
 *   active      of both, those the CPU marked accessed (PTE bit 5): pages
 *               a process used since it mapped them. With no reclaim to age
 *               them, that is every page a process touched.
 *
 * Linux keeps counters that change as pages are mapped and unmapped; a
 * walk is slower but needs no bookkeeping on any fast path, and meminfo is
 * rarely read.
 */
#include <fs.h>
#include <mm.h>
#include <sched.h>
#include <string.h>
#include <vm.h>

#include "internal.h"

#define PTE_ACCESSED (1UL << 5)

/* Count the frame of one present entry, unless seen already. */
static void count_frame(struct user_page_stats *s, uint8_t *seen, const struct vma *v,
			uint64_t va, uint64_t pte)
{
	uint64_t pfn = (pte & PTE_ADDR) >> PAGE_SHIFT;
	bool file = false;

	if (seen) {
		if (pfn >= max_pfn || (seen[pfn / 8] & (1 << (pfn % 8))))
			return;
		seen[pfn / 8] |= 1 << (pfn % 8);
	}
	if (vma_backing_file(v)) {
		void *page = find_get_page(v->vm_file, v->vm_pgoff + ((va - v->start) >> PAGE_SHIFT));

		file = page && virt_to_phys(page) == (pte & PTE_ADDR);
		if (page)
			put_page(page);
	}
	if (file)
		s->file_mapped++;
	else
		s->anon++;
	if (pte & PTE_ACCESSED)
		s->active++;
}

static void count_area(struct user_page_stats *s, uint8_t *seen, struct mm *mm, const struct vma *v)
{
	if (v->vm_special) /* the vDSO: the kernel's pages */
		return;
	for (uint64_t va = v->start; va < v->end; va += PAGE_SIZE) {
		uint64_t *pte = pte_lookup(mm->pml4, va, false);

		if (!pte) {
			/* no table here: skip to the next 2 MiB */
			va = ALIGN_DOWN(va, 1UL << 21) + (1UL << 21) - PAGE_SIZE;
			continue;
		}
		if (pte_has_page(*pte)) /* PROT_NONE pages keep their frame too */
			count_frame(s, seen, v, va, *pte);
	}
}

void count_user_pages(struct user_page_stats *s)
{
	uint8_t *seen = kzalloc(ALIGN_UP(max_pfn, 8) / 8); /* NULL: count frames twice */

	memset(s, 0, sizeof(*s));
	for (struct task *t = first_task(); t; t = t->next_task) {
		if (!t->mm)
			continue;
		mmap_read_lock(t->mm); /* t may be building it in execve */
		for (const struct vma *v = t->mm->vmas; v; v = v->next)
			count_area(s, seen, t->mm, v);
		mmap_read_unlock(t->mm);
	}
	kfree(seen);
}
