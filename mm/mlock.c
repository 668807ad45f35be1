/*
 * mm/mlock.c - mlock(2), mlock2, munlock, mlockall, munlockall: keep a
 * range of memory in RAM.
 *
 * This kernel never pages memory out (no swap, no reclaim of a process's
 * pages), so a page once in memory stays there: locking is faulting the
 * range in now (unless MLOCK_ONFAULT or MCL_ONFAULT ask for later) and
 * Linux's checks, in Linux's order. Where we differ: no count of locked
 * pages is kept, so /proc/PID/status shows VmLck 0 and RLIMIT_MEMLOCK is
 * compared with each call's own length, not the process's total.
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <vm.h>
#include "internal.h"

#define MLOCK_ONFAULT 0x01
#define MCL_CURRENT 1
#define MCL_FUTURE 2
#define MCL_ONFAULT 4

/* Linux's can_do_mlock: a non-zero RLIMIT_MEMLOCK, or CAP_IPC_LOCK. */
static bool can_do_mlock(void)
{
	return current->rlim[RLIMIT_MEMLOCK].cur != 0 || capable(CAP_IPC_LOCK);
}

static bool within_memlock_limit(uint64_t bytes)
{
	return bytes <= current->rlim[RLIMIT_MEMLOCK].cur || capable(CAP_IPC_LOCK);
}

/* Fault in every readable page of [start, end), writing where the area is
 * private and writable (copy-on-write is broken now, not at the first
 * write), as Linux's __mm_populate. An error as mlock reports it. */
static int populate_range(struct mm *mm, uint64_t start, uint64_t end)
{
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next) {
		if (v->end <= start || !(v->flags & (VM_READ | VM_WRITE)))
			continue;
		bool write = (v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE;
		int err = populate(mm, MAX(start, v->start), MIN(end, v->end), write);
		if (err)
			return err == -ENOMEM ? -EAGAIN : -ENOMEM;
	}
	return 0;
}

/* The page-aligned range [*start, *end) that [addr, addr + len) touches,
 * mapped throughout: else -ENOMEM, as Linux's apply_vma_lock_flags. */
static int lock_range(uint64_t addr, uint64_t len, uint64_t *start, uint64_t *end)
{
	*start = ALIGN_DOWN(addr, PAGE_SIZE);
	*end = ALIGN_UP(addr + len, PAGE_SIZE);
	if (*end < *start || (len && *end == *start))
		return -EINVAL;
	if (*start != *end && !fully_mapped(current->mm, *start, *end))
		return -ENOMEM;
	return 0;
}

static long do_mlock(unsigned long addr, size_t len, bool on_fault)
{
	uint64_t start, end;

	if (!can_do_mlock())
		return -EPERM;
	int err = lock_range(addr, len, &start, &end);
	if (err)
		return err;
	if (!within_memlock_limit(end - start))
		return -ENOMEM;
	return on_fault ? 0 : populate_range(current->mm, start, end);
}

long sys_mlock(unsigned long addr, size_t len)
{
	return do_mlock(addr, len, false);
}

long sys_mlock2(unsigned long addr, size_t len, int flags)
{
	if (flags & ~MLOCK_ONFAULT)
		return -EINVAL;
	return do_mlock(addr, len, flags & MLOCK_ONFAULT);
}

long sys_munlock(unsigned long addr, size_t len)
{
	uint64_t start, end;
	return lock_range(addr, len, &start, &end);
}

long sys_mlockall(int flags)
{
	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) || flags == MCL_ONFAULT)
		return -EINVAL;
	if (!can_do_mlock())
		return -EPERM;
	if (!(flags & MCL_CURRENT) || (flags & MCL_ONFAULT))
		return 0;
	uint64_t total = 0;
	for (struct vma *v = current->mm->vmas; v; v = v->next)
		total += v->end - v->start;
	if (!within_memlock_limit(total))
		return -ENOMEM;
	populate_range(current->mm, 0, TASK_SIZE); /* as Linux: errors ignored */
	return 0;
}

long sys_munlockall(void)
{
	return 0;
}
