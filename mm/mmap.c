/*
 * mmap.c - the memory system calls: brk, mmap, munmap, mprotect, mremap,
 * madvise.
 *
 * Design notes:
 *  - These are thin: they check arguments the way Linux does (same errno
 *    for the same mistake, in the same order) and call the area functions
 *    of mm/vm.c.
 *  - One way in for every mapping, as in Linux: sys_mmap takes the
 *    descriptor and calls do_mmap; the kernel's own mappings (the ELF
 *    loader's segments) come through vm_mmap, which takes a byte offset,
 *    and anonymous memory at a fixed place (a bss) through vm_brk_flags.
 *    So a segment is checked exactly as the same mmap call from a
 *    program would be.
 *  - Anonymous memory: MAP_PRIVATE is demand-zero memory of the process's
 *    own; MAP_SHARED is a shared mapping of a new unnamed file of the
 *    mapping's size (shmem_zero_setup, as Linux), so that after fork
 *    parent and child see each other's writes.
 *  - Files: a regular file of ramfs or tmpfs can be mapped (anything else
 *    is -ENODEV, as Linux says for a file with no mmap operation). The
 *    area is file-backed (include/vm.h): a page comes from the file when
 *    first touched, the file's own page mapped copy-on-write (mm/fault.c).
 *    MAP_PRIVATE with any protection is Linux's, the file's later writes
 *    showing in the pages the process has not written, but for one case
 *    no correct program relies on: a page that was a hole in the file when
 *    first touched does not show later writes to it.
 *    MAP_SHARED maps the file's own pages (mm/fault.c): writes through it
 *    change the file, seen by read() and other mappings at once (the file
 *    lives in memory: msync has nothing to do). With PROT_WRITE it needs
 *    the file open for writing (-EACCES), and so does a later mprotect.
 *    Writes through a mapping do not change the file's size or times.
 *    A memfd's write seals forbid shared writable mappings (mm/memfd.c).
 *    A page that lies wholly past the end of the file is SIGBUS to touch,
 *    and bytes past the end inside the last page read as zeros, as Linux.
 *  - The heap is one area (VM_HEAP) from mm->start_brk, which exec sets, to
 *    the break rounded up to a page. brk never moves over another mapping.
 *  - None of these needs to know about copy-on-write: unmapping drops one
 *    reference to each frame, mprotect never makes a shared frame writable
 *    (mm/pgtable.c), and mremap moves page-table entries with their
 *    references.
 */
#include <cred.h>
#include <errno.h>
#include <fs.h>
#include <memfd.h>
#include <mm.h>
#include <mman.h>
#include <sched.h>
#include <vm.h>

#include "internal.h"

#define PROT_MASK (PROT_READ | PROT_WRITE | PROT_EXEC)

/* Does any area overlap [start, end)? */
static bool range_in_use(struct mm *mm, uint64_t start, uint64_t end)
{
	return find_vma_intersection(mm, start, end) != NULL;
}

/*
 * Anonymous memory at [addr, addr + len), replacing what was there, after
 * the same accounting as any private writable mapping (Linux's
 * do_brk_flags). brk's heap and the ELF loader's bss are made so.
 */
static int do_brk_flags(struct mm *mm, uint64_t addr, uint64_t len, unsigned vm_flags)
{
	vm_flags |= mm->def_flags; /* after mlockall(MCL_FUTURE): locked */
	if ((vm_flags & VM_LOCKED) && !mlock_future_ok(mm, len))
		return -EAGAIN;
	if (!may_expand_vm(mm, VM_READ | VM_WRITE | vm_flags, len >> PAGE_SHIFT))
		return -ENOMEM;
	if (!vm_enough_memory(len >> PAGE_SHIFT))
		return -ENOMEM; /* heuristic overcommit: more than all of RAM */
	int err = vma_map(mm, addr, len, VM_READ | VM_WRITE | vm_flags);
	if (!err && (vm_flags & VM_LOCKED))
		mm_populate(mm, addr, addr + len); /* errors ignored, as Linux */
	return err;
}

/*
 * May a mapping start at addr? Below vm.mmap_min_addr only with
 * CAP_SYS_RAWIO (security_mmap_addr: the capability rules' cap_mmap_addr),
 * so that a NULL pointer stays a fault for everyone else.
 */
static int mmap_addr_allowed(uint64_t addr)
{
	return addr < MMAP_MIN_ADDR && !capable(CAP_SYS_RAWIO) ? -EPERM : 0;
}

/* Check a fixed range of len bytes at addr as Linux's get_unmapped_area
 * does for MAP_FIXED: 0, -ENOMEM, -EINVAL or -EPERM. */
static int check_fixed_range(uint64_t addr, uint64_t len)
{
	if (len > TASK_SIZE || addr > TASK_SIZE - len)
		return -ENOMEM;
	if (addr % PAGE_SIZE)
		return -EINVAL;
	return mmap_addr_allowed(addr);
}

int vm_brk_flags(uint64_t addr, uint64_t len, unsigned long flags)
{
	uint64_t size = ALIGN_UP(len, PAGE_SIZE);
	int err;

	if (size < len)
		return -ENOMEM;
	if (!size)
		return 0;
	if (flags & ~VM_EXEC)
		return -EINVAL;
	err = check_fixed_range(addr, size);
	return err ? err : do_brk_flags(current->mm, addr, size, flags);
}

/* ---- address-space limits ---- */

bool ignore_rlimit_data; /* the boot option ignore_rlimit_data */

/* Pages of all areas, and of the data areas among them. Walked only when
 * a limit is set: Linux keeps running counters, but with both limits
 * infinite (the default) this costs nothing at all. */
static void count_vm_pages(struct mm *mm, uint64_t *total, uint64_t *data)
{
	*total = *data = 0;
	for (struct vma *v = mm->vmas; v; v = v->next) {
		uint64_t pages = (v->end - v->start) >> PAGE_SHIFT;
		*total += pages;
		if (is_data_mapping(v->flags))
			*data += pages;
	}
}

bool may_expand_vm(struct mm *mm, unsigned flags, uint64_t npages)
{
	const struct rlimit *as = &current->rlim[RLIMIT_AS], *dl = &current->rlim[RLIMIT_DATA];
	uint64_t total, data;

	if (as->cur == RLIM_INFINITY && (dl->cur == RLIM_INFINITY || !is_data_mapping(flags)))
		return true;
	count_vm_pages(mm, &total, &data);
	if (total + npages > as->cur >> PAGE_SHIFT)
		return false;
	if (!is_data_mapping(flags) || data + npages <= dl->cur >> PAGE_SHIFT)
		return true;
	/* Valgrind sets a soft limit of 0 and expects its own mappings to
	 * be let through up to the hard limit: Linux lets them. */
	if (dl->cur == 0 && data + npages <= dl->max >> PAGE_SHIFT)
		return true;
	pr_warn_once("%s (%d): VmData %lu exceed data ulimit %lu. Update limits%s.\n",
		     current->comm, current->pid, (unsigned long)((data + npages) << PAGE_SHIFT),
		     (unsigned long)dl->cur,
		     ignore_rlimit_data ? "" : " or use boot option ignore_rlimit_data");
	return ignore_rlimit_data;
}

/*
 * RLIMIT_DATA bounds the heap and the initialized data together (Linux's
 * check_data_rlimit), checked on the break asked for, before rounding, so
 * that a limit that is not a multiple of the page size still holds.
 */
static bool brk_within_data_rlimit(struct mm *mm, uint64_t brk)
{
	uint64_t limit = current->rlim[RLIMIT_DATA].cur;

	return limit == RLIM_INFINITY ||
	       (brk - mm->start_brk) + (mm->end_data - mm->start_data) <= limit;
}

/* May the heap grow to new_end? Not into another mapping, and always a
 * page short of the next area (and of a stack's guard gap), as Linux. */
static bool brk_room_to_grow(struct mm *mm, uint64_t old_end, uint64_t new_end)
{
	struct vma *next = find_vma_intersection(mm, old_end, TASK_SIZE);

	return !next || new_end + PAGE_SIZE <= vm_start_gap(next);
}

/* The heap grows from old_end to new_end (page aligned): 0 or -errno. */
static int brk_grow(struct mm *mm, uint64_t old_end, uint64_t new_end)
{
	int err = check_fixed_range(old_end, new_end - old_end);

	if (err)
		return err;
	if (!brk_room_to_grow(mm, old_end, new_end))
		return -ENOMEM;
	return do_brk_flags(mm, old_end, new_end - old_end, VM_HEAP);
}

/*
 * brk(addr): move the end of the heap to addr and return the new break; on
 * any failure (and for brk(0)) return the current break unchanged, as
 * Linux does. The heap's pages are demand-zero like any anonymous memory.
 * Shrinking needs the heap to be mapped where it shrinks from (a program
 * may have unmapped it); growing is bounded by RLIMIT_DATA, RLIMIT_AS and
 * the next mapping.
 */
long sys_brk(unsigned long addr)
{
	struct mm *mm = current->mm;
	if (!mm)
		return -ENOMEM;
	if (addr < mm->start_brk || addr > TASK_SIZE || !brk_within_data_rlimit(mm, addr))
		return mm->brk;
	uint64_t old_end = ALIGN_UP(mm->brk, PAGE_SIZE);
	uint64_t new_end = ALIGN_UP(addr, PAGE_SIZE);
	if (new_end < old_end) {
		if (!find_vma_intersection(mm, new_end, old_end) ||
		    vma_unmap(mm, new_end, old_end - new_end))
			return mm->brk;
	} else if (new_end > old_end && brk_grow(mm, old_end, new_end)) {
		return mm->brk;
	}
	mm->brk = addr;
	return addr;
}

/*
 * Where the mapping goes: with MAP_FIXED or MAP_FIXED_NOREPLACE exactly
 * at addr (checked), else at addr as a hint if that range is free, else
 * where the mm's layout puts it (mm/vm.c). The address or -errno.
 */
static long mmap_address(struct mm *mm, uint64_t addr, uint64_t len, unsigned long flags)
{
	int err;

	if (!(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))) {
		addr = flags & MAP_32BIT ? get_unmapped_area_32bit(mm, addr, len)
					 : get_unmapped_area(mm, addr, len);
		return addr ? (long)addr : -ENOMEM;
	}
	err = check_fixed_range(addr, len);
	if (err)
		return err;
	if ((flags & MAP_FIXED_NOREPLACE) && range_in_use(mm, addr, addr + len))
		return -EEXIST;
	return (long)addr;
}

/*
 * The area's flags for a mapping of file (NULL: anonymous) with these
 * prot and flags, or -errno if the file may not be mapped so. Shared
 * anonymous memory gets its unnamed file here (*shm); so does a shared
 * mapping of /dev/zero, which is the same thing, and a private one is
 * anonymous memory that keeps the file to show (VM_ANON_FILE), as Linux.
 */
static long mmap_vm_flags(struct file *file, struct file **shm, uint64_t len,
			  unsigned long prot, unsigned long flags)
{
	bool shared = (flags & MAP_TYPE) != MAP_PRIVATE;
	unsigned vm_flags = prot;
	bool anonymous = !file || file_mmap_anonymous(file);

	if (file) {
		int err = file_mmap_check(file, shared && (prot & PROT_WRITE));
		if (err)
			return err;
		if (shared && file_mmap_check(file, true) == 0)
			vm_flags |= VM_MAYWRITE;
		/* A write-sealed memfd (mm/memfd.c): no shared writable mapping,
		 * and a read-only one may never become writable (Linux's
		 * seal_check_write and is_readonly_sealed). */
		if (shared && (memfd_file_seals(file) & F_SEALS_NO_WRITE)) {
			if (prot & PROT_WRITE)
				return -EPERM;
			vm_flags &= ~VM_MAYWRITE;
		}
	} else {
		vm_flags |= VM_MAYWRITE;
	}
	if (anonymous && shared) {
		*shm = shmem_zero_setup(len);
		if (IS_ERR(*shm))
			return PTR_ERR(*shm);
		vm_flags |= VM_SHMEM;
	} else if (file && anonymous) {
		vm_flags |= VM_ANON_FILE;
	}
	if (shared)
		vm_flags |= VM_SHARED;
	else
		vm_flags &= ~VM_MAYWRITE; /* only shared areas say it */
	return vm_flags;
}

/* Pages of [start, end) that areas cover (Linux's count_vma_pages_range). */
static uint64_t mapped_pages(struct mm *mm, uint64_t start, uint64_t end)
{
	uint64_t bytes = 0;
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->end > start)
			bytes += MIN(end, v->end) - MAX(start, v->start);
	return bytes >> PAGE_SHIFT;
}

/* May a mapping of len bytes at addr be added? What a MAP_FIXED mapping
 * replaces is given back first, as Linux's mmap_region counts it. */
static bool mmap_may_expand(struct mm *mm, uint64_t addr, uint64_t len, unsigned vm_flags)
{
	uint64_t pages = len >> PAGE_SHIFT;

	return may_expand_vm(mm, vm_flags, pages) ||
	       may_expand_vm(mm, vm_flags, pages - mapped_pages(mm, addr, addr + len));
}

long do_mmap(struct file *file, uint64_t addr, uint64_t len, unsigned long prot,
	     unsigned long flags, uint64_t pgoff)
{
	struct mm *mm = current->mm;
	struct file *shm = NULL;
	long ret, vm_flags;

	if (len > TASK_SIZE)
		return -ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	/* The last byte mapped must have a file offset (Linux's file_mmap_ok). */
	if (file && pgoff > ((uint64_t)INT64_MAX - len) >> PAGE_SHIFT)
		return -EOVERFLOW;
	ret = mmap_address(mm, addr, len, flags);
	if (ret < 0)
		return ret;
	addr = ret;
	/* Locked: asked for, or every new area after mlockall(MCL_FUTURE). */
	unsigned lock = mm->def_flags | (flags & MAP_LOCKED ? VM_LOCKED : 0);
	if ((flags & MAP_LOCKED) && !can_do_mlock())
		return -EPERM;
	if ((lock & VM_LOCKED) && !mlock_future_ok(mm, len))
		return -EAGAIN;
	vm_flags = mmap_vm_flags(file, &shm, len, prot, flags);
	if (vm_flags < 0)
		return vm_flags;
	vm_flags |= lock;
	if (shm)
		file = shm, pgoff = 0;
	ret = -ENOMEM;
	if (!mmap_may_expand(mm, addr, len, vm_flags))
		goto out;
	/* A private writable mapping is counted as memory it may need. */
	if (!(vm_flags & VM_SHARED) && (prot & PROT_WRITE) && !(flags & MAP_NORESERVE) &&
	    !vm_enough_memory(len >> PAGE_SHIFT))
		goto out;
	ret = vma_map_file(mm, addr, len, vm_flags, file, pgoff, VM_FILE_END_NONE);
	if (ret == 0)
		ret = (long)addr;
	/* Populated now, errors ignored (Linux's mm_populate after do_mmap). */
	if (ret > 0 && ((vm_flags & VM_LOCKED) || (flags & (MAP_POPULATE | MAP_NONBLOCK)) == MAP_POPULATE))
		mm_populate(mm, addr, addr + len);
out:
	fput(shm); /* the area holds its own reference */
	return ret;
}

long vm_mmap(struct file *file, uint64_t addr, uint64_t len, unsigned long prot,
	     unsigned long flags, uint64_t offset)
{
	if (offset + ALIGN_UP(len, PAGE_SIZE) < offset || offset % PAGE_SIZE)
		return -EINVAL;
	return do_mmap(file, addr, len, prot, flags, offset >> PAGE_SHIFT);
}

/*
 * mmap(addr, len, prot, flags, fd, off). Anonymous memory, or the file of
 * descriptor fd from byte offset off (a multiple of the page size): see the
 * notes at the top for what a file mapping can be.
 */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off)
{
	struct file *file = NULL;
	unsigned long type = flags & MAP_TYPE;
	long ret;

	if (!current->mm)
		return -ENOMEM;
	if (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE)
		return -EINVAL;
	if (len == 0 || off % PAGE_SIZE)
		return -EINVAL;
	prot &= PROT_MASK; /* Linux ignores unknown bits here */
	if (!(flags & MAP_ANONYMOUS)) {
		/* Linux takes fd as an unsigned int: 2^32 - 1 is no fd. */
		file = fget((int)(unsigned int)fd);
		if (!file)
			return -EBADF;
	}
	ret = do_mmap(file, addr, len, prot, flags, off >> PAGE_SHIFT);
	fput(file);
	return ret;
}

#define MS_ASYNC 1
#define MS_INVALIDATE 2
#define MS_SYNC 4

/* msync: the files live in memory and shared mappings write into their
 * pages directly, so there is nothing to write back; only the checks. */
long sys_msync(unsigned long addr, unsigned long len, int flags)
{
	struct mm *mm = current->mm;

	if (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC))
		return -EINVAL;
	if (addr % PAGE_SIZE || ((flags & MS_ASYNC) && (flags & MS_SYNC)))
		return -EINVAL;
	uint64_t end = addr + ALIGN_UP(len, PAGE_SIZE);
	if (end < addr)
		return -ENOMEM;
	if (end == addr)
		return 0;
	return mm && fully_mapped(mm, addr, end) ? 0 : -ENOMEM;
}

/* vma_unmap checks alignment, length and range: -EINVAL as Linux. */
int vm_munmap(uint64_t start, uint64_t len)
{
	return vma_unmap(current->mm, start, len);
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	if (!current->mm)
		return -EINVAL;
	return vm_munmap(addr, len);
}

/*
 * Memory that becomes writable may become data (is_data_mapping) and so
 * count against RLIMIT_DATA, as Linux's mprotect_fixup checks; Linux
 * checks area by area and may leave the first ones changed, here the
 * whole range is checked first.
 */
static bool mprotect_may_expand(struct mm *mm, uint64_t start, uint64_t end, unsigned long prot)
{
	uint64_t pages = 0;

	if (!(prot & PROT_WRITE))
		return true;
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->end > start && !is_data_mapping(v->flags) &&
		    is_data_mapping((v->flags & ~PROT_MASK) | prot))
			pages += (MIN(end, v->end) - MAX(start, v->start)) >> PAGE_SHIFT;
	/* Refused only for the data limit: the pages are in the total already. */
	return !pages || may_expand_vm(mm, VM_WRITE, pages) || !may_expand_vm(mm, 0, pages);
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
	if (!mprotect_may_expand(mm, addr, addr + ALIGN_UP(len, PAGE_SIZE), prot))
		return -ENOMEM;
	return vma_protect(mm, addr, len, prot);
}

/* mremap's flags (uapi/linux/mman.h). */
#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2
#define MREMAP_DONTUNMAP 4

/*
 * The checks Linux makes on the old range before it grows or moves it:
 * it must start in an area and not run past that area's end. An empty
 * old range asks to duplicate a mapping, which Linux allows for shared
 * memory only. 0, -EFAULT or -EINVAL.
 */
static int check_old_range(struct mm *mm, uint64_t addr, uint64_t old_len)
{
	struct vma *v = vma_find(mm, addr);
	if (!v)
		return -EFAULT;
	if (old_len == 0)
		return -EINVAL;
	if (old_len > v->end - addr)
		return -EFAULT;
	return 0;
}

/* May the area at addr grow from old_len to new_len bytes? If locked,
 * within RLIMIT_MEMLOCK (-EAGAIN), and within the address-space limits
 * (-ENOMEM), as Linux's vma_to_resize. */
static int check_growth(struct mm *mm, uint64_t addr, uint64_t old_len, uint64_t new_len)
{
	struct vma *v = vma_find(mm, addr);
	if (!v || new_len <= old_len)
		return 0;
	if ((v->flags & VM_LOCKED) && !mlock_future_ok(mm, new_len - old_len))
		return -EAGAIN;
	if (!may_expand_vm(mm, v->flags, (new_len - old_len) >> PAGE_SHIFT))
		return -ENOMEM;
	return 0;
}

/* A locked area that grew to [to, to + new_len) gets its new pages now,
 * as Linux's mremap populates them. */
static void populate_locked_growth(struct mm *mm, uint64_t to, uint64_t old_len, uint64_t new_len)
{
	struct vma *v = vma_find(mm, to);
	if (v && (v->flags & VM_LOCKED) && new_len > old_len)
		mm_populate(mm, to + old_len, to + new_len);
}

/* mremap with MREMAP_FIXED (to new_addr exactly) or MREMAP_DONTUNMAP (to
 * new_addr as a hint; old_len == new_len). */
static long mremap_to(struct mm *mm, uint64_t addr, uint64_t old_len, uint64_t new_len,
		      unsigned long flags, uint64_t new_addr)
{
	if (new_addr % PAGE_SIZE || new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
		return -EINVAL;
	if (addr + old_len > new_addr && new_addr + new_len > addr)
		return -EINVAL; /* the two ranges overlap */
	int err;
	if (flags & MREMAP_FIXED) {
		err = mmap_addr_allowed(new_addr); /* as mmap's */
		if (err)
			return err;
		err = vma_unmap(mm, new_addr, new_len);
		if (err)
			return err;
	}
	if (old_len > new_len) {
		err = vma_unmap(mm, addr + new_len, old_len - new_len);
		if (err)
			return err;
		old_len = new_len;
	}
	err = check_old_range(mm, addr, old_len);
	if (!err)
		err = check_growth(mm, addr, old_len, new_len);
	if (err)
		return err;
	/* What stays behind still counts: the space grows by old_len. */
	if ((flags & MREMAP_DONTUNMAP) && !may_expand_vm(mm, vma_find(mm, addr)->flags, old_len >> PAGE_SHIFT))
		return -ENOMEM;
	uint64_t to = new_addr;
	if (!(flags & MREMAP_FIXED) && !(to = get_unmapped_area(mm, new_addr, new_len)))
		return -ENOMEM;
	err = vma_move(mm, addr, old_len, to, new_len, flags & MREMAP_DONTUNMAP);
	if (err)
		return err;
	/* What stays behind is empty memory, no longer locked (as Linux). */
	if ((flags & MREMAP_DONTUNMAP) && vma_set_lock_flags(mm, addr, addr + old_len, 0))
		return -ENOMEM;
	populate_locked_growth(mm, to, old_len, new_len);
	return (long)to;
}

/*
 * mremap(addr, old_len, new_len, flags, new_addr): resize the mapping at
 * [addr, addr+old_len) to new_len bytes. Shrinking unmaps the tail. Growing
 * extends the area in place if the addresses above it are free; otherwise,
 * with MREMAP_MAYMOVE, the pages move (their page-table entries do: no
 * byte is copied) to a new range, and the new address is returned. glibc's
 * realloc does this for large blocks.
 */
long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr)
{
	struct mm *mm = current->mm;
	if (!mm)
		return -EINVAL;
	if (flags & ~(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	/* MREMAP_DONTUNMAP always moves, and without resizing. */
	if ((flags & MREMAP_DONTUNMAP) && (!(flags & MREMAP_MAYMOVE) || old_len != new_len))
		return -EINVAL;
	if (addr % PAGE_SIZE)
		return -EINVAL;
	/* Rounded up as Linux does: a length within a page of 2^64 wraps to
	 * 0, which is refused below. */
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	if (new_len == 0)
		return -EINVAL;
	if (!vma_find(mm, addr))
		return -EFAULT;
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return mremap_to(mm, addr, old_len, new_len, flags, new_addr);

	if (old_len >= new_len) { /* shrinking always works */
		if (old_len > new_len) {
			int err = vma_unmap(mm, addr + new_len, old_len - new_len);
			if (err)
				return err;
		}
		return addr;
	}
	int err = check_old_range(mm, addr, old_len);
	if (!err)
		err = check_growth(mm, addr, old_len, new_len);
	if (err)
		return err;
	/* Grow in place: the old range must end where its area ends. */
	uint64_t to = addr;
	if (new_len > TASK_SIZE - addr || vma_grow(mm, addr + old_len, addr + new_len)) {
		if (!(flags & MREMAP_MAYMOVE))
			return -ENOMEM;
		to = get_unmapped_area(mm, 0, new_len);
		if (!to)
			return -ENOMEM;
		err = vma_move(mm, addr, old_len, to, new_len, false);
		if (err)
			return err;
	}
	populate_locked_growth(mm, to, old_len, new_len);
	return (long)to;
}

/* madvise's advice values (uapi/asm-generic/mman-common.h). */
enum {
	MADV_NORMAL = 0, MADV_RANDOM = 1, MADV_SEQUENTIAL = 2, MADV_WILLNEED = 3,
	MADV_DONTNEED = 4, MADV_FREE = 8, MADV_REMOVE = 9, MADV_DONTFORK = 10,
	MADV_DOFORK = 11, MADV_MERGEABLE = 12, MADV_UNMERGEABLE = 13,
	MADV_HUGEPAGE = 14, MADV_NOHUGEPAGE = 15, MADV_DONTDUMP = 16,
	MADV_DODUMP = 17, MADV_WIPEONFORK = 18, MADV_KEEPONFORK = 19,
	MADV_COLD = 20, MADV_PAGEOUT = 21, MADV_POPULATE_READ = 22,
	MADV_POPULATE_WRITE = 23, MADV_COLLAPSE = 25,
	MADV_HWPOISON = 100, MADV_SOFT_OFFLINE = 101,
};

/* The advice Linux 6.1 knows (as Debian builds it: with KSM, transparent
 * huge pages and memory-failure handling). */
static bool advice_known(unsigned long advice)
{
	return advice <= MADV_WILLNEED || advice == MADV_DONTNEED ||
	       (advice >= MADV_FREE && advice <= MADV_POPULATE_WRITE) ||
	       advice == MADV_COLLAPSE || advice == MADV_HWPOISON ||
	       advice == MADV_SOFT_OFFLINE;
}

/* MADV_POPULATE_*: fault every page in as a read or write would (a write
 * breaks copy-on-write). As in Linux, -EINVAL where the area does not allow
 * that access (its own PROT_READ or PROT_WRITE), -ENOMEM when memory runs
 * out or a page is in no area. */
int populate(struct mm *mm, uint64_t start, uint64_t end, bool write)
{
	for (uint64_t va = start; va < end; va += PAGE_SIZE) {
		struct vma *v = vma_find(mm, va);
		if (!v)
			return -ENOMEM;
		if (!(v->flags & (write ? VM_WRITE : VM_READ)))
			return -EINVAL;
		int err = handle_mm_fault(mm, va, write ? 2 : 0); /* PF_WRITE */
		if (err)
			return err == -EIO ? -EFAULT : err; /* past the end of a file, as Linux */
	}
	return 0;
}

/*
 * madvise(addr, len, advice). What matters to a program's results is
 * MADV_DONTNEED (and MADV_FREE, handled the same way here, but for
 * anonymous memory only): the pages of the range are dropped, so that they
 * read back as zeros, or as the file's bytes again in a file-backed area,
 * and their frames go back to the free pool (or to their other owners, if
 * shared). The
 * populate advice faults pages in. The rest is about performance, swap or
 * core dumps, which this kernel does not have: accepted and ignored, as
 * Linux accepts it (MADV_DONTFORK and MADV_WIPEONFORK included: fork
 * copies those areas like any other). As in Linux, every advice fails with
 * -ENOMEM if part of the range is not mapped (after acting on the rest).
 */
long sys_madvise(unsigned long addr, unsigned long len, unsigned long advice)
{
	struct mm *mm = current->mm;
	if (!mm)
		return -EINVAL;
	if (!advice_known(advice) || addr % PAGE_SIZE)
		return -EINVAL;
	uint64_t size = ALIGN_UP(len, PAGE_SIZE);
	if (len && !size)
		return -EINVAL; /* within a page of 2^64: rounded to 0 */
	uint64_t end = addr + size;
	if (end < addr)
		return -EINVAL;
	if (end == addr)
		return 0;
	if (advice == MADV_HWPOISON || advice == MADV_SOFT_OFFLINE)
		return -EPERM; /* Linux wants CAP_SYS_ADMIN; we never poison */
	/* Areas exist only below TASK_SIZE: a range above is simply unmapped. */
	if (addr >= TASK_SIZE || !range_in_use(mm, addr, end))
		return -ENOMEM;
	if (advice == MADV_REMOVE) {
		/* Punches a hole in the file of a shared writable mapping: an
		 * anonymous area says EINVAL, a file one EACCES (not writable
		 * and shared: none here is), as Linux. */
		struct vma *v = mm->vmas;
		while (v->end <= addr) /* the first area in the range: there is one */
			v = v->next;
		return v->vm_file ? -EACCES : -EINVAL;
	}
	uint64_t mapped_end = MIN(end, TASK_SIZE);
	int err = 0;
	if (advice == MADV_FREE) {
		/* Only for anonymous memory: Linux refuses a file area with
		 * EINVAL (having freed the anonymous areas before it; here
		 * nothing is done). */
		for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
			if (v->end > addr && vma_backing_file(v))
				return -EINVAL;
	}
	switch (advice) {
	case MADV_DONTNEED:
	case MADV_FREE:
		mmap_write_lock(mm); /* entries cleared: include/vm.h */
		pgtable_unmap(mm->pml4, addr, mapped_end);
		tlb_flush_freed(mm->pml4, addr, mapped_end);
		mmap_write_unlock(mm);
		break;
	case MADV_POPULATE_READ:
	case MADV_POPULATE_WRITE:
		err = populate(mm, addr, mapped_end, advice == MADV_POPULATE_WRITE);
		break;
	}
	if (err)
		return err;
	return fully_mapped(mm, addr, end) ? 0 : -ENOMEM;
}
