/*
 * fault.c - demand paging, and reading or writing another address space.
 *
 * Design notes:
 *  - mmap, brk and exec only create areas; a frame is allocated the first
 *    time a page is touched. The CPU raises a page fault (vector 14) with
 *    the address in CR2 and an error code; kernel/traps.c passes both to
 *    handle_mm_fault, which either maps a zeroed frame (the access is then
 *    retried) or says no, and the caller kills the process (or, for a
 *    kernel access through copy_to_user & co, resumes at the -EFAULT exit).
 *  - A fault on a page that is present is a protection violation: there is
 *    no copy-on-write yet, so it is always an error.
 *  - The stack is the one area that grows by itself: a fault just below a
 *    VM_STACK area extends it (see grow_stack), so exec can map a small one.
 *  - mm_read/mm_write go through the page tables and the direct map instead
 *    of the loaded CR3, so they work on any mm (exec fills the new one
 *    before switching to it) and ignore the area's protection.
 */
#include <errno.h>
#include <mm.h>
#include <string.h>
#include <vm.h>
#include <x86.h>

#include "internal.h"

/* Page-fault error code bits. */
#define PF_PROT (1UL << 0)  /* the page was present */
#define PF_WRITE (1UL << 1) /* a write */
#define PF_RSVD (1UL << 3)  /* a reserved bit set in an entry: a kernel bug */
#define PF_INSTR (1UL << 4) /* an instruction fetch */

/* How big a stack may grow: Linux's default RLIMIT_STACK. */
#define STACK_LIMIT (8UL << 20)

uint64_t *fault_in_page(struct mm *mm, const struct vma *v, uint64_t va)
{
	uint64_t *pte = pte_lookup(mm->pml4, va, true);
	if (!pte)
		return NULL;
	if (!pte_has_page(*pte)) {
		void *page = alloc_page();
		if (!page)
			return NULL;
		*pte = virt_to_phys(page) | vm_pte_flags(v->flags);
	}
	return pte;
}

/* May an access of this kind (fault error code) touch area v? */
static bool access_allowed(const struct vma *v, uint64_t err)
{
	if (err & PF_WRITE)
		return v->flags & VM_WRITE;
	if (err & PF_INSTR)
		return v->flags & VM_EXEC;
	return v->flags & (VM_READ | VM_WRITE | VM_EXEC); /* reads: see vm_pte_flags */
}

/*
 * A fault just below a VM_STACK area grows the area down to it, as Linux
 * does, up to STACK_LIMIT in all and never closer than one page to the area
 * below. Returns the grown area, or NULL.
 */
static struct vma *grow_stack(struct mm *mm, uint64_t addr)
{
	struct vma *below = NULL, *v = mm->vmas;
	while (v && v->end <= addr) {
		below = v;
		v = v->next;
	}
	/* v is the first area above addr (addr is in no area). */
	if (!v || !(v->flags & VM_STACK) || addr < MMAP_MIN_ADDR)
		return NULL;
	uint64_t start = ALIGN_DOWN(addr, PAGE_SIZE);
	if (v->end - start > STACK_LIMIT || (below && below->end + PAGE_SIZE > start))
		return NULL;
	v->start = start;
	return v;
}

int handle_mm_fault(struct mm *mm, uint64_t addr, uint64_t err)
{
	if (!mm || addr >= TASK_SIZE || (err & (PF_PROT | PF_RSVD)))
		return -EFAULT;
	struct vma *v = vma_find(mm, addr);
	if (!v)
		v = grow_stack(mm, addr);
	if (!v || !access_allowed(v, err))
		return -EFAULT;
	uint64_t va = ALIGN_DOWN(addr, PAGE_SIZE);
	uint64_t *pte = pte_lookup(mm->pml4, va, false);
	if (pte && (*pte & PTE_P)) {
		/* Already mapped (the TLB held a stale entry): drop the stale
		 * entry so that the retry sees the page. */
		invlpg(va);
		return 0;
	}
	return fault_in_page(mm, v, va) ? 0 : -ENOMEM;
}

/*
 * Copy len bytes between the kernel buffer buf and user address va of mm,
 * one page at a time; to_mm says which way.
 */
static int mm_copy(struct mm *mm, uint64_t va, void *buf, size_t len, bool to_mm)
{
	char *p = buf;
	if (va >= TASK_SIZE || len > TASK_SIZE - va)
		return -EFAULT;
	while (len > 0) {
		struct vma *v = vma_find(mm, va);
		if (!v)
			return -EFAULT;
		uint64_t *pte = fault_in_page(mm, v, ALIGN_DOWN(va, PAGE_SIZE));
		if (!pte)
			return -ENOMEM;
		size_t off = va % PAGE_SIZE;
		size_t n = MIN(len, PAGE_SIZE - off);
		char *kaddr = (char *)pte_page(*pte) + off;
		if (to_mm)
			memcpy(kaddr, p, n);
		else
			memcpy(p, kaddr, n);
		va += n;
		p += n;
		len -= n;
	}
	return 0;
}

int mm_write(struct mm *mm, uint64_t va, const void *src, size_t len)
{
	return mm_copy(mm, va, (void *)src, len, true);
}

int mm_read(struct mm *mm, uint64_t va, void *dst, size_t len)
{
	return mm_copy(mm, va, dst, len, false);
}
