/*
 * mm/mincore.c - mincore(2): which pages of a range are in memory.
 *
 * One byte a page in vec, bit 0 set when the page is resident. Here a
 * page is resident when this process's page table maps a frame for it
 * (an untouched page of an anonymous area is not; a page of a file area
 * is once touched). Linux also counts a file's pages that sit in the page
 * cache without being mapped here; our ramfs and tmpfs files always are,
 * and this is where we differ. The range must be mapped throughout
 * (ENOMEM), start page-aligned (EINVAL); a bad vec is EFAULT.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <uaccess.h>
#include <vm.h>
#include "internal.h"

static bool page_resident(struct mm *mm, uint64_t va)
{
	uint64_t *pte = pte_lookup(mm->pml4, va, false);
	return pte && pte_has_page(*pte);
}

long sys_mincore(unsigned long start, size_t len, unsigned char __user *vec)
{
	struct mm *mm = current->mm;
	unsigned char chunk[256];

	if (start % PAGE_SIZE)
		return -EINVAL;
	uint64_t pages = len / PAGE_SIZE + (len % PAGE_SIZE != 0);
	if (start >= TASK_SIZE || len > TASK_SIZE - start)
		return -ENOMEM; /* Linux's access_ok */
	for (uint64_t done = 0; done < pages;) {
		uint64_t n = MIN(pages - done, sizeof(chunk));
		for (uint64_t i = 0; i < n; i++) {
			uint64_t va = start + (done + i) * PAGE_SIZE;
			if (!vma_find(mm, va))
				return -ENOMEM;
			chunk[i] = page_resident(mm, va);
		}
		if (copy_to_user(vec + done, chunk, n))
			return -EFAULT;
		done += n;
	}
	return 0;
}
