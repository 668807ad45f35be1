/*
 * mm/mlock.c - mlock(2), mlock2, munlock, mlockall, munlockall: keep a
 * range of memory in RAM.
 *
 * This kernel never pages memory out (no swap, no reclaim of a process's
 * pages), so a page once in memory stays there. What locking changes is
 * bookkeeping Linux shows and limits: the areas' VM_LOCKED and
 * VM_LOCKONFAULT flags (split off as mprotect splits, shown as "lo" in
 * /proc/PID/smaps), the process's locked size (/proc/PID/status VmLck,
 * checked against RLIMIT_MEMLOCK), and faulting the range in now unless
 * MLOCK_ONFAULT or MCL_ONFAULT ask for first touch. Checks in Linux's
 * order, with Linux's errors.
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

bool can_do_mlock(void)
{
	return current->rlim[RLIMIT_MEMLOCK].cur != 0 || capable(CAP_IPC_LOCK);
}

/* May the process lock pages, a total of pages pages locked afterwards? */
static bool within_memlock_limit(uint64_t pages)
{
	return pages <= current->rlim[RLIMIT_MEMLOCK].cur >> PAGE_SHIFT || capable(CAP_IPC_LOCK);
}

bool mlock_future_ok(struct mm *mm, uint64_t len)
{
	return within_memlock_limit(mm_locked_pages(mm, 0, TASK_SIZE) + (len >> PAGE_SHIFT));
}

/* Copy-on-write is broken now, for a private writable area, not at the
 * first write. */
int mm_populate(struct mm *mm, uint64_t start, uint64_t end)
{
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next) {
		if (v->end <= start || !(v->flags & (VM_READ | VM_WRITE)) ||
		    (v->flags & VM_LOCKONFAULT))
			continue;
		bool write = (v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE;
		int err = populate(mm, MAX(start, v->start), MIN(end, v->end), write);
		if (err)
			return err == -ENOMEM ? -EAGAIN : -ENOMEM;
	}
	return 0;
}

/*
 * The pages [*start, *end) that [addr, addr + len) touches, computed as
 * Linux computes them: the length is rounded up with the page offset and
 * may wrap to 0, which locks nothing.
 */
static void lock_bounds(uint64_t addr, uint64_t len, uint64_t *start, uint64_t *end)
{
	*start = ALIGN_DOWN(addr, PAGE_SIZE);
	*end = *start + ALIGN_UP(len + addr % PAGE_SIZE, PAGE_SIZE);
}

/* Give [start, end) the lock flags lock (Linux's apply_vma_lock_flags):
 * -EINVAL if the range wraps, -ENOMEM if part of it is not mapped. */
static int apply_lock_flags(uint64_t start, uint64_t end, unsigned lock)
{
	struct mm *mm = current->mm;

	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	if (!fully_mapped(mm, start, end))
		return -ENOMEM;
	return vma_set_lock_flags(mm, start, end, lock) ? -EAGAIN : 0;
}

static long do_mlock(unsigned long addr, size_t len, unsigned lock)
{
	struct mm *mm = current->mm;
	uint64_t start, end;

	if (!can_do_mlock())
		return -EPERM;
	lock_bounds(addr, len, &start, &end);
	/* The total after this call: pages already locked in the range count
	 * once (Linux's count_mm_mlocked_page_nr). */
	uint64_t total = mm_locked_pages(mm, 0, TASK_SIZE) + ((end - start) >> PAGE_SHIFT);
	if (!within_memlock_limit(total))
		total -= mm_locked_pages(mm, start, end);
	if (!within_memlock_limit(total))
		return -ENOMEM;
	int err = apply_lock_flags(start, end, lock);
	if (err || end <= start)
		return err;
	return mm_populate(mm, start, end);
}

long sys_mlock(unsigned long addr, size_t len)
{
	return do_mlock(addr, len, VM_LOCKED);
}

long sys_mlock2(unsigned long addr, size_t len, int flags)
{
	if (flags & ~MLOCK_ONFAULT)
		return -EINVAL;
	return do_mlock(addr, len, VM_LOCKED | (flags & MLOCK_ONFAULT ? VM_LOCKONFAULT : 0));
}

long sys_munlock(unsigned long addr, size_t len)
{
	uint64_t start, end;

	lock_bounds(addr, len, &start, &end);
	return apply_lock_flags(start, end, 0);
}

/* mlockall's and munlockall's common part (Linux's apply_mlockall_flags):
 * the flags future areas get, then, for MCL_CURRENT, every area's. */
static int apply_mlockall_flags(struct mm *mm, int flags)
{
	unsigned lock = VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);

	mm->def_flags = flags & MCL_FUTURE ? lock : 0;
	if (flags & MCL_CURRENT)
		return vma_set_lock_flags(mm, 0, TASK_SIZE, lock);
	if (!flags) /* munlockall */
		return vma_set_lock_flags(mm, 0, TASK_SIZE, 0);
	return 0;
}

long sys_mlockall(int flags)
{
	struct mm *mm = current->mm;

	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) || flags == MCL_ONFAULT)
		return -EINVAL;
	if (!can_do_mlock())
		return -EPERM;
	if (flags & MCL_CURRENT) {
		uint64_t total = 0;
		for (struct vma *v = mm->vmas; v; v = v->next)
			total += (v->end - v->start) >> PAGE_SHIFT;
		if (!within_memlock_limit(total))
			return -ENOMEM;
	}
	if (apply_mlockall_flags(mm, flags))
		return -ENOMEM;
	if (flags & MCL_CURRENT)
		mm_populate(mm, 0, TASK_SIZE); /* as Linux: errors ignored */
	return 0;
}

long sys_munlockall(void)
{
	return apply_mlockall_flags(current->mm, 0) ? -ENOMEM : 0;
}
