/*
 * vm.c - address spaces (struct mm) and their areas (struct vma).
 *
 * Design notes:
 *  - An mm is a PML4 plus a list of areas sorted by address. The areas say
 *    what may be mapped where (and with what rights); the page tables say
 *    what is mapped now. Anonymous memory is demand-zero: an area starts
 *    with no frames at all, and mm/fault.c adds them on first touch.
 *  - Every PML4 shares the kernel's upper half (entries 256..511, copied
 *    from boot_pml4 once and never changed), so system calls and interrupts
 *    run with any process's tables loaded.
 *  - Changing a range (map, unmap, protect) first splits the areas that
 *    straddle its ends, so the range is made of whole areas; then those
 *    areas are dropped or changed, and neighbours that ended up alike are
 *    merged again. A split that fails for lack of memory leaves the list
 *    valid, only cut in more pieces than needed.
 *  - fork copies the areas and the page tables but not the pages: parent
 *    and child share every frame, write-protected, until one of them
 *    writes (copy-on-write: see mm/fault.c, and mm/page_alloc.c for the
 *    reference counts that say how many address spaces map a frame).
 *  - A file-backed area (vm_file, see include/vm.h) is the same kind of
 *    area plus three fields that say where its bytes come from; only the
 *    fault handler reads the file. The area owns one reference to the
 *    file: every way an area comes into being (vma_map_file, a split,
 *    fork's copy, mremap's move) takes one with get_file, and every way it
 *    goes (vma_free: unmapped, merged into its neighbour, freed with its
 *    mm) drops it with fput. So a program can close the descriptor, or a
 *    file can be unlinked, and the mapping still reads it, as in Unix.
 *    Cutting an area keeps each page's file offset: the upper part's
 *    vm_pgoff grows by the pages of the lower part.
 */
#include <errno.h>
#include <fs.h>
#include <mm.h>
#include <sched.h>
#include <smp.h>
#include <smp_lock.h>
#include <string.h>
#include <vm.h>
#include <x86.h>

#include "internal.h"

/* ---- the kernel's own tables ---- */

void paging_init(void)
{
	/* boot/boot.S identity-maps the first GiB so that its 32-bit code can
	 * turn paging on; the kernel now runs in the upper half only. The
	 * user half of boot_pml4 must be empty: it is what kernel-only tasks
	 * (and mm_activate(NULL)) run with. */
	for (int i = 0; i < 256; i++)
		boot_pml4[i] = 0;
	write_cr3(virt_to_phys(boot_pml4));
}

/* ---- areas ---- */

/* [start, start+len) rounded to pages, or -EINVAL if start is unaligned,
 * len is 0, or the range leaves the user half. */
static int user_range(uint64_t start, uint64_t len, uint64_t *end)
{
	if (start % PAGE_SIZE || len == 0 || len > TASK_SIZE)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (start > TASK_SIZE - len)
		return -EINVAL;
	*end = start + len;
	return 0;
}

struct vma *vma_find(struct mm *mm, uint64_t addr)
{
	for (struct vma *v = mm->vmas; v && v->start <= addr; v = v->next)
		if (addr < v->end)
			return v;
	return NULL;
}

/* Free an area that is in no list, with its reference to its file. */
static void vma_free(struct vma *v)
{
	if (v->vm_file) {
		/* A System V segment's detach: only a shared area can be one
		 * (and exec, which frees private areas without the big kernel
		 * lock, never walks the segments). */
		if (v->flags & VM_SHARED)
			shm_area_close(v->vm_file);
		fput(v->vm_file);
	}
	kfree(v);
}

/* The vm_pgoff of the page at addr of file-backed area v. */
static uint64_t vma_pgoff_at(const struct vma *v, uint64_t addr)
{
	return v->vm_pgoff + (addr - v->start) / PAGE_SIZE;
}

/* Cut v in two at addr (v->start < addr < v->end); v keeps the lower part. */
static int vma_split(struct vma *v, uint64_t addr)
{
	struct vma *upper = kmalloc(sizeof(*upper));
	if (!upper)
		return -ENOMEM;
	*upper = *v;
	upper->start = addr;
	if (v->vm_file)
		get_file(v->vm_file); /* each part holds its own reference */
	if (v->vm_file || v->vm_special)
		upper->vm_pgoff = vma_pgoff_at(v, addr);
	v->end = addr;
	v->next = upper;
	return 0;
}

/* Split the areas that straddle start or end, so that [start, end) is made
 * of whole areas. 0 or -ENOMEM. */
static int split_at(struct mm *mm, uint64_t start, uint64_t end)
{
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next) {
		int err = 0;
		if (v->start < start && start < v->end)
			err = vma_split(v, start); /* the upper part comes next */
		else if (v->start < end && end < v->end)
			err = vma_split(v, end);
		if (err)
			return err;
	}
	return 0;
}

/* Can n, which starts where v ends, become part of v? Same flags, and
 * the same backing: none, or the same file continuing at the same offset. */
static bool can_merge(const struct vma *v, const struct vma *n)
{
	if (v->end != n->start || v->flags != n->flags || v->vm_file != n->vm_file)
		return false;
	if (v->vm_special || n->vm_special)
		return false; /* each stays one area, as Linux's */
	return !v->vm_file ||
	       (vma_pgoff_at(v, v->end) == n->vm_pgoff && v->vm_file_end == n->vm_file_end);
}

/* Join neighbours that touch and are alike. */
static void merge_areas(struct mm *mm)
{
	struct vma *v = mm->vmas;
	while (v && v->next) {
		struct vma *n = v->next;
		if (can_merge(v, n)) {
			v->end = n->end;
			v->next = n->next;
			vma_free(n); /* v keeps its own reference to the file */
		} else {
			v = n;
		}
	}
}

/* Put new into the sorted list; it must not overlap any area. */
static void insert_area(struct mm *mm, struct vma *new)
{
	struct vma **pp = &mm->vmas;
	while (*pp && (*pp)->start < new->start)
		pp = &(*pp)->next;
	new->next = *pp;
	*pp = new;
}

/* The vma_* functions below change areas and entries: each takes the
 * mm's mmap_lock for writing (include/vm.h); the __ ones are their
 * bodies, for callers that hold it. */
#define with_mmap_write_lock(mm, call)             \
	({                                         \
		mmap_write_lock(mm);               \
		int __err = (call);                \
		mmap_write_unlock(mm);             \
		__err;                             \
	})

static int __vma_unmap(struct mm *mm, uint64_t start, uint64_t len)
{
	uint64_t end;
	int err = user_range(start, len, &end);
	if (err)
		return err;
	/* No area there, so no entry and no table of its own to free: the
	 * common case of every map at a fresh address (exec maps 7 areas). */
	if (!find_vma_intersection(mm, start, end))
		return 0;
	err = split_at(mm, start, end);
	if (err)
		return err;
	/* Now every area is either wholly inside [start, end) or outside. */
	struct vma **pp = &mm->vmas;
	uint64_t floor = 0;
	while (*pp && (*pp)->start < end) {
		struct vma *v = *pp;
		if (v->start >= start) {
			*pp = v->next;
			vma_free(v);
		} else {
			floor = v->end;
			pp = &v->next;
		}
	}
	pgtable_zap(mm->pml4, start, end);
	pgtable_free_tables(mm->pml4, start, end, floor, *pp ? (*pp)->start : ~0UL);
	tlb_flush_freed(mm->pml4, start, end);
	return 0;
}

int vma_unmap(struct mm *mm, uint64_t start, uint64_t len)
{
	return with_mmap_write_lock(mm, __vma_unmap(mm, start, len));
}

static int __vma_map_file(struct mm *mm, uint64_t start, uint64_t len, unsigned flags,
			  struct file *file, uint64_t pgoff, uint64_t file_end)
{
	uint64_t end;
	int err = user_range(start, len, &end);
	if (err)
		return err;
	struct vma *new = kmalloc(sizeof(*new)); /* before anything changes */
	if (!new)
		return -ENOMEM;
	err = __vma_unmap(mm, start, len);
	if (err) {
		kfree(new);
		return err;
	}
	*new = (struct vma){ .start = start, .end = end, .flags = flags };
	if (file) {
		new->vm_file = get_file(file);
		new->vm_pgoff = pgoff;
		new->vm_file_end = file_end;
	}
	insert_area(mm, new);
	merge_areas(mm);
	return 0;
}

int vma_map_file(struct mm *mm, uint64_t start, uint64_t len, unsigned flags,
		 struct file *file, uint64_t pgoff, uint64_t file_end)
{
	return with_mmap_write_lock(mm, __vma_map_file(mm, start, len, flags, file, pgoff, file_end));
}

static int __vma_map_special(struct mm *mm, uint64_t start, uint64_t len, unsigned flags,
			     const struct vm_special_mapping *sm)
{
	int err = __vma_map_file(mm, start, len, flags, NULL, 0, 0);
	struct vma *v;

	if (err)
		return err;
	v = vma_find(mm, start);
	if (v->start != start || v->end != start + ALIGN_UP(len, PAGE_SIZE)) {
		/* merged with an anonymous neighbour: cut it out again */
		err = split_at(mm, start, start + ALIGN_UP(len, PAGE_SIZE));
		if (err)
			return err;
		v = vma_find(mm, start);
	}
	v->vm_special = sm;
	v->vm_pgoff = 0;
	return 0;
}

int vma_map_special(struct mm *mm, uint64_t start, uint64_t len, unsigned flags,
		    const struct vm_special_mapping *sm)
{
	return with_mmap_write_lock(mm, __vma_map_special(mm, start, len, flags, sm));
}

int vma_map(struct mm *mm, uint64_t start, uint64_t len, unsigned flags)
{
	return vma_map_file(mm, start, len, flags, NULL, 0, 0);
}

bool fully_mapped(struct mm *mm, uint64_t start, uint64_t end)
{
	uint64_t covered = start; /* [start, covered) is known to be mapped */
	for (struct vma *v = mm->vmas; v && covered < end; v = v->next) {
		if (v->end <= covered)
			continue;
		if (v->start > covered)
			return false; /* a hole */
		covered = v->end;
	}
	return covered >= end;
}

static int __vma_protect(struct mm *mm, uint64_t start, uint64_t len, unsigned prot)
{
	uint64_t end;
	int err = user_range(start, len, &end);
	if (err)
		return err;
	if (prot & ~(VM_READ | VM_WRITE | VM_EXEC))
		return -EINVAL;
	if (!fully_mapped(mm, start, end))
		return -ENOMEM; /* as Linux */
	/* A shared file mapping becomes writable only if the file was open
	 * for writing (VM_MAYWRITE), as Linux. */
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->end > start && (v->flags & VM_SHARED) && !(v->flags & VM_MAYWRITE) &&
		    (prot & VM_WRITE))
			return -EACCES;
	err = split_at(mm, start, end);
	if (err)
		return err;
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->start >= start)
			v->flags = (v->flags & ~(VM_READ | VM_WRITE | VM_EXEC)) | prot;
	pgtable_protect(mm->pml4, start, end, vm_pte_flags(prot));
	tlb_flush_range(mm->pml4, start, end);
	merge_areas(mm);
	return 0;
}

int vma_protect(struct mm *mm, uint64_t start, uint64_t len, unsigned prot)
{
	return with_mmap_write_lock(mm, __vma_protect(mm, start, len, prot));
}

static int __vma_set_lock_flags(struct mm *mm, uint64_t start, uint64_t end, unsigned lock)
{
	int err = split_at(mm, start, end);
	if (err)
		return err;
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->start >= start && !v->vm_special)
			v->flags = (v->flags & ~VM_LOCKED_MASK) | lock;
	merge_areas(mm);
	return 0;
}

int vma_set_lock_flags(struct mm *mm, uint64_t start, uint64_t end, unsigned lock)
{
	return with_mmap_write_lock(mm, __vma_set_lock_flags(mm, start, end, lock));
}

uint64_t mm_locked_pages(struct mm *mm, uint64_t start, uint64_t end)
{
	uint64_t bytes = 0;
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if ((v->flags & VM_LOCKED) && v->end > start)
			bytes += MIN(end, v->end) - MAX(start, v->start);
	return bytes >> PAGE_SHIFT;
}

static int __vma_grow(struct mm *mm, uint64_t end, uint64_t new_end)
{
	struct vma *v = vma_find(mm, end - 1);
	if (!v || v->end != end || new_end <= end || new_end > TASK_SIZE)
		return -ENOMEM;
	if (v->next && v->next->start < new_end)
		return -ENOMEM; /* the next area is in the way */
	v->end = new_end;   /* its pages come on demand, as any area's */
	merge_areas(mm);
	return 0;
}

int vma_grow(struct mm *mm, uint64_t end, uint64_t new_end)
{
	return with_mmap_write_lock(mm, __vma_grow(mm, end, new_end));
}

static int __vma_move(struct mm *mm, uint64_t from, uint64_t old_len, uint64_t to,
	     uint64_t new_len, bool keep_old)
{
	struct vma *v = vma_find(mm, from);
	BUG_ON(!v || old_len > v->end - from || old_len > new_len);
	/* Everything that can fail comes first: the splits that make
	 * [from, from+old_len) one whole area, and the new area's memory. */
	int err = split_at(mm, from, from + old_len);
	struct vma *new = err ? NULL : kmalloc(sizeof(*new));
	if (new)
		err = pgtable_move(mm->pml4, from, to, old_len);
	if (!new || err) {
		kfree(new);
		merge_areas(mm);
		return -ENOMEM;
	}
	tlb_flush_freed(mm->pml4, from, from + old_len); /* pgtable_move frees tables */
	v = vma_find(mm, from); /* the split may have made it a new area */
	/* The moved memory is plain memory: no longer the heap brk moves,
	 * nor a stack that grows. A file-backed area stays one, at the same
	 * file offsets: its grown part shows the file further on, as in
	 * Linux. */
	*new = *v;
	new->start = to;
	new->end = to + new_len;
	new->flags &= ~(VM_HEAP | VM_STACK);
	if (new->vm_file)
		get_file(new->vm_file);
	/* The new area first: unmapping the old one frees the tables that
	 * no area is under, and the moved entries' tables are under it. */
	insert_area(mm, new);
	if (!keep_old) {
		/* A whole area now, with no pages: this cannot fail. */
		err = __vma_unmap(mm, from, old_len);
		BUG_ON(err);
	}
	merge_areas(mm);
	return 0;
}

int vma_move(struct mm *mm, uint64_t from, uint64_t old_len, uint64_t to,
	     uint64_t new_len, bool keep_old)
{
	return with_mmap_write_lock(mm, __vma_move(mm, from, old_len, to, new_len, keep_old));
}

static int __vma_shift_down(struct mm *mm, uint64_t start, uint64_t shift)
{
	struct vma *v = vma_find(mm, start);
	unsigned flags;
	uint64_t len;
	int err;

	BUG_ON(!v || v->start != start || shift > start);
	flags = v->flags;
	len = v->end - v->start;
	err = __vma_move(mm, start, len, start - shift, len, false);
	if (err)
		return err;
	vma_find(mm, start - shift)->flags = flags;
	return 0;
}

int vma_shift_down(struct mm *mm, uint64_t start, uint64_t shift)
{
	return with_mmap_write_lock(mm, __vma_shift_down(mm, start, shift));
}

struct vma *find_vma_intersection(struct mm *mm, uint64_t start, uint64_t end)
{
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->end > start)
			return v;
	return NULL;
}

uint64_t vm_start_gap(const struct vma *v)
{
	if (!(v->flags & VM_STACK))
		return v->start;
	return v->start > STACK_GUARD_GAP ? v->start - STACK_GUARD_GAP : 0;
}

/*
 * The highest (topdown) or lowest free range of len bytes inside
 * [low, high), or 0. Linux's vm_unmapped_area.
 */
static uint64_t find_gap(struct mm *mm, uint64_t low, uint64_t high, uint64_t len, bool topdown)
{
	uint64_t best = 0, gap_start = low;

	if (high < low || high - low < len)
		return 0;
	/* Each gap runs from the end of an area to the start gap of the next. */
	for (struct vma *v = mm->vmas;; v = v->next) {
		uint64_t gap_end = v ? MIN(vm_start_gap(v), high) : high;

		if (gap_end > gap_start && gap_end - gap_start >= len) {
			if (!topdown)
				return gap_start;
			best = gap_end - len;
		}
		if (!v || v->start >= high)
			break;
		gap_start = MAX(gap_start, v->end);
	}
	return best;
}

uint64_t get_unmapped_area(struct mm *mm, uint64_t addr, uint64_t len)
{
	uint64_t got;

	len = ALIGN_UP(len, PAGE_SIZE);
	if (len == 0 || len > TASK_SIZE - MMAP_MIN_ADDR)
		return 0;
	/* A hint is taken, page-aligned down (raised to the lowest address
	 * mmap gives), if the range is free, stack guard gap included. */
	if (addr) {
		addr = MAX(ALIGN_DOWN(addr, PAGE_SIZE), MMAP_MIN_ADDR);
		if (addr <= TASK_SIZE - len) {
			struct vma *v = mm->vmas;
			while (v && v->end <= addr)
				v = v->next;
			if (!v || addr + len <= vm_start_gap(v))
				return addr;
		}
	}
	if (mm->mmap_legacy)
		return find_gap(mm, mm->mmap_base, TASK_SIZE, len, false);
	got = find_gap(mm, MMAP_MIN_ADDR, mm->mmap_base, len, true);
	/* Linux falls back to a bottom-up search when the area below the
	 * base is full. */
	return got ? got : find_gap(mm, TASK_UNMAPPED_BASE, TASK_SIZE, len, false);
}

/*
 * MAP_32BIT, for programs that need 32-bit addresses (old JITs, segment
 * bases): between 1 GiB (moved up by up to 32 MiB with randomization) and
 * 2 GiB, lowest first, a free hint below 2 GiB taken as it is; Linux's
 * find_start_end and its bottom-up search.
 */
uint64_t get_unmapped_area_32bit(struct mm *mm, uint64_t addr, uint64_t len)
{
	const uint64_t end = 0x80000000;
	uint64_t begin = 0x40000000;

	len = ALIGN_UP(len, PAGE_SIZE);
	if (len == 0 || len > end)
		return 0;
	if (current->flags & PF_RANDOMIZE)
		begin = randomize_page(begin, 0x02000000);
	if (addr) {
		addr = MAX(ALIGN_UP(addr, PAGE_SIZE), MMAP_MIN_ADDR);
		if (addr <= end - len) {
			struct vma *v = mm->vmas;
			while (v && v->end <= addr)
				v = v->next;
			if (!v || addr + len <= vm_start_gap(v))
				return addr;
		}
	}
	return find_gap(mm, begin, end, len, false);
}

static int __expand_stack(struct mm *mm, uint64_t addr)
{
	struct vma *prev = NULL, *v = mm->vmas;
	uint64_t limit = current ? current->rlim[RLIMIT_STACK].cur : RLIM_INFINITY;

	addr = ALIGN_DOWN(addr, PAGE_SIZE);
	while (v && v->end <= addr) {
		prev = v;
		v = v->next;
	}
	if (!v || !(v->flags & VM_STACK))
		return -ENOMEM;
	if (v->start <= addr)
		return 0; /* nothing to grow */
	if (!may_expand_vm(mm, v->flags, (v->start - addr) >> PAGE_SHIFT))
		return -ENOMEM;
	if (addr < MMAP_MIN_ADDR || v->end - addr > limit)
		return -ENOMEM;
	/* The area below keeps its distance (prev->end <= addr here), unless
	 * it is another stack or inaccessible (PROT_NONE), as in Linux. */
	if (prev && !(prev->flags & VM_STACK) && (prev->flags & (VM_READ | VM_WRITE | VM_EXEC)) &&
	    addr - prev->end < STACK_GUARD_GAP)
		return -ENOMEM;
	v->start = addr; /* its pages come on demand, as any area's */
	return 0;
}

int expand_stack(struct mm *mm, uint64_t addr)
{
	return with_mmap_write_lock(mm, __expand_stack(mm, addr));
}

/* Unmap from mm the pages of inode from index from_index on. */
static void unmap_mapping_in(struct mm *mm, struct inode *inode, uint64_t from_index)
{
	mmap_write_lock(mm);
	for (struct vma *v = mm->vmas; v; v = v->next) {
		uint64_t start = v->start;

		if (!vma_backing_file(v) || file_inode(v->vm_file) != inode ||
		    v->vm_pgoff + ((v->end - v->start) >> PAGE_SHIFT) <= from_index)
			continue;
		if (from_index > v->vm_pgoff)
			start += (from_index - v->vm_pgoff) << PAGE_SHIFT;
		pgtable_unmap(mm->pml4, start, v->end);
		tlb_flush_freed(mm->pml4, start, v->end);
	}
	mmap_write_unlock(mm);
}

void unmap_mapping_range(struct inode *inode, uint64_t from_index)
{
	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->mm)
			unmap_mapping_in(t->mm, inode, from_index);
}

void zap_special_mapping(struct mm *mm, const struct vm_special_mapping *sm)
{
	mmap_write_lock(mm); /* across the walk, as unmap_mapping_in */
	for (struct vma *v = mm->vmas; v; v = v->next) {
		if (v->vm_special != sm)
			continue;
		pgtable_unmap(mm->pml4, v->start, v->end);
		tlb_flush_freed(mm->pml4, v->start, v->end);
	}
	mmap_write_unlock(mm);
}

static bool writably_maps(struct mm *mm, struct inode *inode)
{
	bool found = false;

	mmap_read_lock(mm);
	for (struct vma *v = mm->vmas; v && !found; v = v->next)
		found = v->vm_file && file_inode(v->vm_file) == inode &&
			(v->flags & (VM_SHARED | VM_MAYWRITE)) == (VM_SHARED | VM_MAYWRITE);
	mmap_read_unlock(mm);
	return found;
}

bool mapping_writably_mapped(struct inode *inode)
{
	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->mm && writably_maps(t->mm, inode))
			return true;
	return false;
}

bool vm_enough_memory(uint64_t pages)
{
	return pages <= nr_total_pages();
}

/* ---- address spaces ---- */

static void free_areas(struct mm *mm)
{
	while (mm->vmas) {
		struct vma *v = mm->vmas;
		mm->vmas = v->next;
		vma_free(v);
	}
}

/*
 * A CPU that holds an mmap_lock without the big kernel lock keeps
 * interrupts off: an interrupt handler takes the big lock, and its holder
 * may be waiting for this very mmap_lock (a /proc reader, a fault), so
 * neither would go on. The first such lock turns them off, the last
 * unlock turns them back on; a CPU that holds the big lock needs nothing.
 * So the big lock is neither taken nor let go while an mmap_lock is held.
 */
static void mmap_lock_irqs_off(void)
{
	uint64_t flags;
	unsigned int depth;

	if (kernel_locked())
		return;
	flags = irq_save();
	depth = this_cpu_read(mmap_irq_depth);
	if (depth == 0)
		this_cpu_write(mmap_irq_flags, flags);
	this_cpu_write(mmap_irq_depth, depth + 1);
}

static void mmap_unlock_irqs_back(void)
{
	unsigned int depth;

	if (kernel_locked())
		return;
	depth = this_cpu_read(mmap_irq_depth) - 1;
	this_cpu_write(mmap_irq_depth, depth);
	if (depth == 0)
		irq_restore(this_cpu_read(mmap_irq_flags));
}

void mmap_read_lock(struct mm *mm)
{
	mmap_lock_irqs_off();
	while (!read_trylock(&mm->mmap_lock))
		cpu_relax_answering_calls();
}

void mmap_write_lock(struct mm *mm)
{
	mmap_lock_irqs_off();
	write_lock_relax(&mm->mmap_lock, cpu_relax_answering_calls);
}

void mmap_read_unlock(struct mm *mm)
{
	read_unlock(&mm->mmap_lock);
	mmap_unlock_irqs_back();
}

void mmap_write_unlock(struct mm *mm)
{
	write_unlock(&mm->mmap_lock);
	mmap_unlock_irqs_back();
}

/* One place initialises an address space's locks, so that they are one
 * lock class each for the validator (include/lockdep.h). */
static void mm_init_locks(struct mm *mm)
{
	rwlock_init(&mm->mmap_lock);
	spin_lock_init(&mm->page_table_lock);
}

struct mm *mm_create(void)
{
	struct mm *mm = kzalloc(sizeof(*mm));
	if (!mm)
		return NULL;
	mm->pml4 = alloc_page_nozero(); /* both halves are written below */
	if (!mm->pml4) {
		kfree(mm);
		return NULL;
	}
	pgtable_pages_add(1);
	memset(mm->pml4, 0, 256 * sizeof(uint64_t)); /* no user memory yet */
	memcpy(&mm->pml4[256], &boot_pml4[256], 256 * sizeof(uint64_t));
	mm->users = 1;
	mm->mmap_base = MMAP_BASE;
	mm_init_locks(mm);
	return mm;
}

struct mm *mm_get(struct mm *mm)
{
	mm->users++;
	return mm;
}

/*
 * The areas whose end needs no big kernel lock: a private one whose file
 * some other reference keeps open, or one without a file (kmalloc has its
 * lock). The rest (a shared area may be a System V segment's; a last
 * reference releases its file) stay for free_areas.
 */
static void free_areas_unlocked(struct mm *mm)
{
	struct vma **pp = &mm->vmas;

	while (*pp) {
		struct vma *v = *pp;
		if (!(v->flags & VM_SHARED) && (!v->vm_file || fput_if_not_last(v->vm_file))) {
			*pp = v->next;
			kfree(v);
		} else {
			pp = &v->next;
		}
	}
}

/*
 * Free the frames and page tables of an address space that has no user
 * left, and the areas that need no big kernel lock. Nothing here needs
 * it: the tables are the dead address space's alone (no task points to it
 * any more), frame and file counts are atomic and the page allocator has
 * its own locks. So the big lock is let go meanwhile, and the other CPUs
 * enter the kernel while this one tears down (each fork+execve+exit does
 * it twice).
 */
static void free_user_tables(struct mm *mm)
{
	bool locked = release_kernel_lock();

	/* Never free the tables a CPU is using (an idle CPU keeps the last
	 * task's). */
	leave_mm_everywhere(virt_to_phys(mm->pml4));
	for (struct vma *v = mm->vmas; v; v = v->next)
		pgtable_release(mm->pml4, v->start, v->end);
	for (struct vma *v = mm->vmas; v; v = v->next)
		pgtable_free_tables(mm->pml4, v->start, v->end, 0, v->next ? v->next->start : ~0UL);
	/* A table outside every area would be a bug: say so, and free what
	 * hangs from the top level. */
	if (!pgtable_user_empty(mm->pml4)) {
		pr_warn_once("mm: page tables outside every area\n");
		pgtable_free_user(mm->pml4);
	}
	free_page(mm->pml4);
	pgtable_pages_add(-1);
	free_areas_unlocked(mm);
	ldt_free(mm);
	reacquire_kernel_lock(locked);
}

/* The last user of mm lets go: the caller has already made every task
 * that pointed to mm point elsewhere. */
void mm_put(struct mm *mm)
{
	if (!mm || --mm->users > 0)
		return;
	free_user_tables(mm);
	free_areas(mm); /* the rest, under the big lock again */
	kfree(mm);
}

/*
 * Must the child get the parent's page-table entries for area v? Not for
 * a shared mapping nor the vDSO: every page there is the file's or the
 * kernel's own, which the child's first touch finds again (Linux's
 * vma_needs_copy, which skips every area without private pages). A
 * private file mapping's entries are copied: some may be private copies.
 */
static bool fork_copies_pages(const struct vma *v)
{
	return !(v->flags & VM_SHARED) && !v->vm_special;
}

/* The child's copy of each of the parent's areas, each holding its own
 * reference to its file. */
static int copy_areas(struct mm *mm, struct mm *parent)
{
	struct vma **tail = &mm->vmas;

	for (struct vma *v = parent->vmas; v; v = v->next) {
		struct vma *copy = kmalloc(sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		*copy = *v;
		copy->next = NULL;
		copy->flags &= ~VM_LOCKED_MASK; /* locks are not inherited */
		if (copy->vm_file)
			get_file(copy->vm_file);
		*tail = copy;
		tail = &copy->next;
	}
	return 0;
}

/*
 * Copy the parent's areas and share its pages with mm, the parent's
 * writable entries losing PTE_W. The parent's mmap_lock, held for writing,
 * keeps every other change to its areas and entries out (faults hold it
 * for reading, include/vm.h), so the big kernel lock is let go meanwhile:
 * the copy is most of a fork's work, and other CPUs enter the kernel
 * while this one does it. What else it touches has its own lock (kmalloc,
 * the page allocator) or is atomic (frame and file counts: the parent's
 * areas hold their files, so no count can reach zero here).
 */
static int copy_areas_unlocked(struct mm *mm, struct mm *parent)
{
	bool locked = release_kernel_lock();
	int err;

	mmap_write_lock(parent); /* and interrupts off (mmap_write_lock) */
	err = copy_areas(mm, parent);
	for (struct vma *v = parent->vmas; v && !err; v = v->next)
		if (fork_copies_pages(v))
			err = pgtable_share(mm->pml4, parent->pml4, v->start, v->end);
	/* The parent's writable entries lost PTE_W (even if sharing stopped
	 * half way), and the TLB may still hold them writable: without this
	 * flush the parent would write into frames the child sees. */
	tlb_flush_all(parent->pml4);
	mmap_write_unlock(parent);
	reacquire_kernel_lock(locked);
	return err;
}

/*
 * The child's address space, empty. mm_create needs no big kernel lock (a
 * zeroed structure, and a top table whose kernel half is copied from the
 * kernel's, which never changes after boot): it is let go meanwhile, as
 * for the copy below.
 */
static struct mm *mm_create_unlocked(void)
{
	bool locked = release_kernel_lock();
	struct mm *mm = mm_create();

	reacquire_kernel_lock(locked);
	return mm;
}

struct mm *mm_fork(struct mm *parent)
{
	struct mm *mm = mm_create_unlocked();
	if (!mm)
		return NULL;
	/* Everything but the tables and the list: the layout fields. */
	uint64_t *pml4 = mm->pml4;
	*mm = *parent;
	mm->pml4 = pml4;
	mm->users = 1;
	mm_init_locks(mm); /* not the parent's state */
	mm->vmas = NULL;
	mm->def_flags = 0;
	if (ldt_dup(mm, parent) || copy_areas_unlocked(mm, parent)) {
		mm_put(mm);
		return NULL;
	}
	return mm;
}

void mm_activate(struct mm *mm)
{
	uint64_t phys = virt_to_phys(mm ? mm->pml4 : boot_pml4);
	if ((read_cr3() & PTE_ADDR) != phys) { /* reloading would only flush */
		this_cpu_write(active_pml4, phys);
		write_cr3(phys);
	}
	/* A task's address space is loaded: the CPU is no longer lazy (a
	 * kernel thread that execs, too), and owes the flushes it was
	 * spared (arch/x86/kernel/tlb.c). */
	if (mm)
		leave_lazy_tlb();
}

/* ---- figures: /proc and the OOM killer ---- */

static void count_present(const uint64_t *table, int level, uint64_t base,
			  uint64_t start, uint64_t end, struct mm_counts *c)
{
	int shift = 12 + 9 * level;

	for (int i = 0; i < 512; i++) {
		uint64_t lo = base + ((uint64_t)i << shift), hi = lo + (1ULL << shift);
		uint64_t e = table[i];

		if (hi <= start || lo >= end || !(e & PTE_P))
			continue;
		if (level == 0 || (e & PTE_PS)) {
			c->rss += (MIN(hi, end) - MAX(lo, start)) >> PAGE_SHIFT;
			continue;
		}
		count_present(phys_to_virt(e & PTE_ADDR), level - 1, lo, start, end, c);
	}
}

/* Page-table pages below the top one (Linux's VmPTE counts those). */
static uint64_t count_tables(const uint64_t *table, int level, int limit)
{
	uint64_t n = 0;

	for (int i = 0; i < limit; i++) {
		uint64_t e = table[i];
		if (!(e & PTE_P) || (e & PTE_PS) || level == 1)
			continue;
		n += 1 + count_tables(phys_to_virt(e & PTE_ADDR), level - 1, 512);
	}
	return n;
}

void mm_count(struct mm *mm, struct mm_counts *c)
{
	memset(c, 0, sizeof(*c));
	mmap_read_lock(mm);
	for (struct vma *v = mm->vmas; v; v = v->next) {
		uint64_t pages = (v->end - v->start) >> PAGE_SHIFT, rss = c->rss;
		c->total += pages;
		if (v->flags & VM_STACK)
			c->stack += pages;
		else if (is_data_mapping(v->flags))
			c->data += pages;
		count_present(mm->pml4, 3, 0, v->start, v->end, c);
		if (vma_backing_file(v))
			c->file_rss += c->rss - rss;
	}
	/* The user half only: entries 0..255 of the top table. */
	c->pt_pages = count_tables(mm->pml4, 4, 256);
	mmap_read_unlock(mm);
}
