/*
 * mmap.c - the memory system calls: brk, mmap, munmap, mprotect.
 *
 * Design notes:
 *  - These are thin: they check arguments the way Linux does (same errno
 *    for the same mistake) and call the area functions of mm/vm.c.
 *  - Only anonymous memory exists so far. MAP_SHARED is accepted but
 *    behaves as MAP_PRIVATE (fork copies the pages), which no
 *    single-process program can tell apart. File mappings give -ENODEV.
 *  - The heap is one area (VM_HEAP) from mm->start_brk, which exec sets, to
 *    the break rounded up to a page. brk never moves over another mapping.
 */
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <vm.h>

#include "internal.h"

/* Linux's mmap flags (uapi/asm-generic/mman-common.h, mman.h). */
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE 0x0f
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_GROWSDOWN 0x0100 /* accepted, no effect */
#define MAP_NORESERVE 0x4000 /* accepted, no effect: nothing is reserved */
#define MAP_POPULATE 0x8000  /* accepted, no effect: pages come on demand */
#define MAP_STACK 0x20000    /* accepted, no effect */
#define MAP_FIXED_NOREPLACE 0x100000

#define PROT_MASK (VM_READ | VM_WRITE | VM_EXEC)
#define PROT_GROWSDOWN 0x01000000 /* mprotect: accepted, no effect */
#define PROT_GROWSUP 0x02000000

/* Does any area overlap [start, end)? */
static bool range_in_use(struct mm *mm, uint64_t start, uint64_t end)
{
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->end > start)
			return true;
	return false;
}

/*
 * brk(addr): move the end of the heap to addr and return the new break; on
 * any failure (and for brk(0)) return the current break unchanged, as
 * Linux does. The heap's pages are demand-zero like any anonymous memory.
 */
long sys_brk(unsigned long addr)
{
	struct mm *mm = current->mm;
	if (!mm)
		return -ENOMEM;
	if (addr < mm->start_brk || addr > TASK_SIZE)
		return mm->brk;
	uint64_t old_end = ALIGN_UP(mm->brk, PAGE_SIZE);
	uint64_t new_end = ALIGN_UP(addr, PAGE_SIZE);
	if (new_end > old_end) {
		if (range_in_use(mm, old_end, new_end))
			return mm->brk; /* would run into another mapping */
		if (vma_map(mm, old_end, new_end - old_end, VM_READ | VM_WRITE | VM_HEAP))
			return mm->brk;
	} else if (new_end < old_end) {
		if (vma_unmap(mm, new_end, old_end - new_end))
			return mm->brk;
	}
	mm->brk = addr;
	return addr;
}

/* Where a mapping without MAP_FIXED goes: the hint if that range is free,
 * else the highest free range below MMAP_BASE. 0 if there is no room. */
static uint64_t choose_address(struct mm *mm, uint64_t hint, uint64_t len)
{
	hint = ALIGN_UP(hint, PAGE_SIZE);
	if (hint >= MMAP_MIN_ADDR && hint <= TASK_SIZE - len &&
	    !range_in_use(mm, hint, hint + len))
		return hint;
	return get_unmapped_area(mm, len);
}

long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off)
{
	struct mm *mm = current->mm;
	(void)fd;
	if (!mm)
		return -ENOMEM;
	unsigned long type = flags & MAP_TYPE;
	if (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE)
		return -EINVAL;
	if (len == 0 || off % PAGE_SIZE)
		return -EINVAL;
	prot &= PROT_MASK; /* Linux ignores unknown bits here */
	if (!(flags & MAP_ANONYMOUS))
		return -ENODEV; /* no file mappings yet */
	if (len > TASK_SIZE)
		return -ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);

	bool fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
	if (fixed) {
		if (addr % PAGE_SIZE)
			return -EINVAL;
		if (addr > TASK_SIZE - len)
			return -ENOMEM;
		if (addr < MMAP_MIN_ADDR)
			return -EPERM; /* the NULL page stays unmapped */
		if ((flags & MAP_FIXED_NOREPLACE) && range_in_use(mm, addr, addr + len))
			return -EEXIST;
	} else {
		addr = choose_address(mm, addr, len);
		if (!addr)
			return -ENOMEM;
	}
	int err = vma_map(mm, addr, len, prot);
	return err ? err : (long)addr;
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	struct mm *mm = current->mm;
	if (!mm)
		return -EINVAL;
	/* vma_unmap checks alignment, length and range: -EINVAL as Linux. */
	return vma_unmap(mm, addr, len);
}

long sys_mprotect(unsigned long addr, unsigned long len, unsigned long prot)
{
	struct mm *mm = current->mm;
	if (!mm)
		return -ENOMEM;
	if (addr % PAGE_SIZE || (prot & ~(PROT_MASK | PROT_GROWSDOWN | PROT_GROWSUP)))
		return -EINVAL;
	prot &= PROT_MASK;
	if (len == 0)
		return 0;
	if (len > TASK_SIZE || addr > TASK_SIZE - ALIGN_UP(len, PAGE_SIZE))
		return -ENOMEM;
	return vma_protect(mm, addr, len, prot);
}
