/*
 * fault.c - demand paging, and reading or writing another address space.
 *
 * Design notes:
 *  - mmap, brk and exec only create areas; a frame is allocated the first
 *    time a page is touched. The CPU raises a page fault (vector 14) with
 *    the address in CR2 and an error code; arch/x86/kernel/traps.c passes both to
 *    handle_mm_fault, which either maps a zeroed frame (the access is then
 *    retried) or says no, and the caller kills the process (or, for a
 *    kernel access through copy_to_user & co, resumes at the -EFAULT exit).
 *  - Copy-on-write. fork (mm_fork, mm/vm.c) does not copy a process's
 *    memory: the child's page tables map the very same frames, every
 *    writable entry on both sides loses PTE_W, and each frame counts one
 *    more owner (mm/page_alloc.c keeps the counts). Most children call
 *    execve or exit soon and never write most of those pages, so copying
 *    them all (8 MiB of heap: 2048 pages) would be wasted work; with
 *    copy-on-write, fork costs only the page tables. The copy happens when
 *    someone writes: the write faults on a present page (error code
 *    PF_PROT | PF_WRITE) in an area that allows writing, and unshare_page
 *    gives the writer its own copy, or, if it is the last owner (the
 *    others have written or exited already), just gives PTE_W back.
 *    The area says whether writing is allowed; the entry's missing PTE_W
 *    then only means "shared". Read-only pages are shared the same way and
 *    are never copied, since no one may write them (but mm_write, which
 *    ignores protection, unshares first too).
 *  - The same fault comes from the kernel, when copy_to_user writes into a
 *    shared page on a process's behalf (CR0.WP is set, so the CPU checks
 *    PTE_W in kernel mode too): it is handled the same way and the copy
 *    loop resumes.
 *  - File-backed areas (mmap of a file, an ELF program's segments: see
 *    struct vma in include/vm.h) are demand-paged too, and that is their
 *    point: exec used to copy every byte of a program's segments into new
 *    pages, 2 MB for busybox even when it ran `true` and touched a few dozen
 *    pages. Now exec only makes the areas, and the first touch of a page
 *    gets it from the file (filemap_fault, Linux's name), one of two ways:
 *     . A read (or an instruction fetch) of a whole page of the file maps
 *       the file's own page, the one the in-memory filesystem keeps its
 *       data in (find_get_page: Linux's page cache), with one more
 *       reference and without PTE_W, even in a writable area. That is
 *       copy-on-write again: a later write faults and unshare_page gives
 *       the process its own copy. Every process running busybox maps the
 *       same frames for its code, and nothing is copied.
 *     . A write fault on a page the file keeps gets a copy of it, and so
 *       does any touch of a page partly past vm_file_end (the start of an
 *       ELF segment's bss), zeroed from there on.
 *     . Otherwise (a file that keeps no pages, a hole) a new page of the
 *       process's own, filled with kernel_read and zeros.
 *    Sharing is safe because no path ever gives PTE_W to a frame with
 *    other owners (unshare_page, mprotect, mm_write all check the count).
 *    Writes to the file change its page in place, so a mapping sees them
 *    until it writes the page itself, as in Linux. Truncation unmaps the
 *    pages past the new end from every mapping (unmap_mapping_range, mm/
 *    vm.c), so the next touch is SIGBUS, as in Linux. A page
 *    of the area that starts at or past the end of the file has no bytes
 *    to show: the access fails with -EIO, SIGBUS, as in Linux.
 *  - Copying needs a frame; when there is none, the fault fails with
 *    -ENOMEM (arch/x86/kernel/traps.c kills the process with SIGKILL, or a user
 *    copy fails with -EFAULT). Memory is never promised in advance.
 *  - Any other fault on a present page is a protection violation, unless
 *    the entry in fact allows the access (a stale TLB entry).
 *  - The stack is the one area that grows by itself: a fault below a
 *    VM_STACK area extends it (see grow_stack), up to RLIMIT_STACK, so exec
 *    maps only what the new program's stack holds and 128 KiB more.
 *  - mm_read/mm_write go through the page tables and the direct map instead
 *    of the loaded CR3, so they work on any mm (exec fills the new one
 *    before switching to it) and ignore the area's protection. They fault
 *    pages in as the CPU would, file pages included. mm_write
 *    breaks copy-on-write like a write fault: it must not write into a
 *    frame that another process maps.
 */
#include <errno.h>
#include <fs.h>
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

/* A private copy of a page the file keeps (dropping the reference
 * find_get_page took), of which the area shows the first in_file bytes:
 * the rest is zero (the start of a bss). */
static void *copy_file_page(void *page, uint64_t in_file, int *err)
{
	void *copy = alloc_page_nozero();

	if (copy) {
		copy_page(copy, page);
		if (in_file < PAGE_SIZE)
			memset((char *)copy + in_file, 0, PAGE_SIZE - in_file);
	} else {
		*err = -ENOMEM;
	}
	put_page(page);
	return copy;
}

/*
 * A frame holding page va of file-backed area v: the file's bytes, then
 * zeros (past the end of the file, or from v->vm_file_end on). For a read
 * (!write), the file's own page when it can be (*shared set: map it
 * without PTE_W), else a new one. NULL with *err = -EIO if the page starts
 * at or past the end of the file or the read fails, -ENOMEM if there is
 * no frame. With kept_only, only a page the file keeps, mapped or copied
 * (-EAGAIN for any other): adding a page to the file or reading it needs
 * the big kernel lock, finding one does not (find_get_page).
 */
static void *filemap_fault(const struct vma *v, uint64_t va, bool write, bool kept_only, bool *shared,
			   int *err)
{
	uint64_t pos = (v->vm_pgoff + (va - v->start) / PAGE_SIZE) * PAGE_SIZE;
	/* pos < size <= INT64_MAX below, so pos + PAGE_SIZE cannot wrap. */
	uint64_t size = inode_size(file_inode(v->vm_file)); /* >= 0 */
	size_t want = PAGE_SIZE;
	void *page;
	ssize_t got;

	/* Checked before anything is read: pos may not even be a valid
	 * loff_t after an mremap grew the area, but it is then far past the
	 * end of any file. */
	if (pos >= size) {
		*err = -EIO;
		return NULL;
	}
	if (!(v->flags & VM_SHARED) && v->vm_file_end > pos) {
		uint64_t in_file = v->vm_file_end - pos;
		page = find_get_page(v->vm_file, pos / PAGE_SIZE);
		if (page && !write && in_file >= PAGE_SIZE) {
			*shared = true;
			return page;
		}
		/* A write (Linux's do_cow_fault), or a page partly past
		 * vm_file_end: a copy of the file's page. */
		if (page)
			return copy_file_page(page, in_file, err);
	}
	if (kept_only) {
		*err = -EAGAIN;
		return NULL;
	}
	if (v->flags & VM_SHARED) {
		/* A shared mapping maps the file's page itself, read or write. */
		page = find_or_create_page(v->vm_file, pos / PAGE_SIZE);
		if (page) {
			*shared = false;
			return page;
		}
		*err = -ENOMEM;
		return NULL;
	}
	if (v->vm_file_end <= pos)
		want = 0; /* all bss: a file area should not hold such a page */
	else if (v->vm_file_end - pos < want)
		want = v->vm_file_end - pos;
	/*
	 * A zeroed frame, so that whatever the read does not fill is zero: a
	 * short read is the end of the file (it may have shrunk since its
	 * size was read). Zeroing first is also what makes this fast under
	 * QEMU's TCG: a frame that held code which QEMU translated (the last
	 * process to run this program freed it a moment ago) makes every
	 * store into it slow until that code is invalidated; 512 8-byte
	 * stores do that for a tenth of the cost of the byte copy alone
	 * (when every page was a copy, busybox's exec took 13 ms instead of
	 * 50 thanks to this).
	 */
	page = alloc_page();
	if (!page) {
		*err = -ENOMEM;
		return NULL;
	}
	got = want ? kernel_read(v->vm_file, page, want, (loff_t)pos) : 0;
	if (got < 0) {
		free_page(page);
		*err = -EIO;
		return NULL;
	}
	return page;
}

/*
 * A page of a special mapping (the vDSO): the kernel's own page, shared
 * (mapped without PTE_W), or for a write a copy of it. NULL with *err =
 * -EIO (SIGBUS) where the mapping has no page, -ENOMEM.
 */
static void *special_fault(const struct vma *v, uint64_t va, bool write, bool *shared, int *err)
{
	const struct vm_special_mapping *sm = v->vm_special;
	uint64_t idx = v->vm_pgoff + (va - v->start) / PAGE_SIZE;
	void *page = idx >= sm->npages ? NULL : sm->page ? sm->page(idx) : sm->pages[idx], *copy;

	if (!page) {
		*err = -EIO;
		return NULL;
	}
	if (!write) {
		get_page(page);
		*shared = true;
		return page;
	}
	copy = alloc_page_nozero();
	if (!copy) {
		*err = -ENOMEM;
		return NULL;
	}
	copy_page(copy, page);
	return copy;
}

/* LAB 07: BEGIN pte_alloc and fill_entry: two CPUs, one page table */
/* The entry for va, with the tables on the way added; NULL if there is
 * no memory for one. Two threads may add the same table at once. */
static uint64_t *pte_alloc(struct mm *mm, uint64_t va)
{
	spin_lock(&mm->page_table_lock);
	uint64_t *pte = pte_lookup(mm->pml4, va, true);
	spin_unlock(&mm->page_table_lock);
	return pte;
}

/* Fill the entry pte with a page, unless another fault has filled it
 * since it was seen empty: then the page goes back (a new page, a copy,
 * or a file's page: put_page drops the fault's reference to any of them).
 * Faults without the big kernel lock (handle_fault_unlocked) race so. */
static void fill_entry(struct mm *mm, uint64_t *pte, void *page, uint64_t entry)
{
	spin_lock(&mm->page_table_lock);
	bool empty = !pte_has_page(*pte);
	if (empty)
		*pte = entry;
	spin_unlock(&mm->page_table_lock);
	if (!empty)
		put_page(page);
}
/* LAB 07: ELSE: no lock, as on one CPU: what another CPU adds at once is lost
static uint64_t *pte_alloc(struct mm *mm, uint64_t va)
{
	return pte_lookup(mm->pml4, va, true);
}

static void fill_entry(struct mm *mm, uint64_t *pte, void *page, uint64_t entry)
{
	(void)mm;
	(void)page;
	*pte = entry;
}
   LAB 07: END */

/* fault_in_page, and with kept_only, -EAGAIN where a file's page would
 * have to be added or read (filemap_fault). */
static int __fault_in_page(struct mm *mm, const struct vma *v, uint64_t va, bool write,
			   bool kept_only, uint64_t **ptep)
{
	uint64_t *pte = pte_alloc(mm, va);
	if (!pte)
		return -ENOMEM;
	if (!pte_has_page(*pte)) {
		int err = -ENOMEM;
		bool shared = false;
		void *page = vma_backing_file(v) ? filemap_fault(v, va, write, kept_only, &shared, &err) :
			     v->vm_special ? special_fault(v, va, write, &shared, &err) : alloc_page();
		if (!page)
			return err;
		/* kernel_read may have run other code, but nothing that maps
		 * pages of this mm: the table is still there. */
		uint64_t entry = virt_to_phys(page) | vm_pte_flags(v->flags);
		if (shared)
			entry &= ~PTE_W; /* the file's page: copy-on-write */
		fill_entry(mm, pte, page, entry);
	}
	*ptep = pte;
	return 0;
}

int fault_in_page(struct mm *mm, const struct vma *v, uint64_t va, bool write, uint64_t **ptep)
{
	return __fault_in_page(mm, v, va, write, false, ptep);
}

int unshare_page(struct mm *mm, const struct vma *v, uint64_t va, uint64_t *pte)
{
	/* LAB 05: BEGIN unshare_page */
	void *page = pte_page(*pte);
	if (page_count(page) > 1) {
		/* Shared: copy it. The other owners keep the old frame. */
		void *copy = alloc_page_nozero(); /* copy_page overwrites it all */
		if (!copy)
			return -ENOMEM;
		copy_page(copy, page);
		put_page(page);
		page = copy;
	}
	/* Ours alone now: the area's own rights, PTE_W included. */
	*pte = virt_to_phys(page) | vm_pte_flags(v->flags);
	tlb_flush_range(mm->pml4, va, va + PAGE_SIZE);
	return 0;
	/* LAB 05: ELSE: always copy, and never let go of the shared page
	void *copy = alloc_page_nozero();

	if (!copy)
		return -ENOMEM;
	copy_page(copy, pte_page(*pte));
	*pte = virt_to_phys(copy) | vm_pte_flags(v->flags);
	tlb_flush_range(mm->pml4, va, va + PAGE_SIZE);
	return 0;
	   LAB 05: END */
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
 * A fault below a VM_STACK area grows the area down to it, as Linux does:
 * up to the RLIMIT_STACK of the task, and never within STACK_GUARD_GAP of
 * the area below (expand_stack, mm/vm.c). Returns the grown area, or NULL.
 */
static struct vma *grow_stack(struct mm *mm, uint64_t addr)
{
	if (expand_stack(mm, addr))
		return NULL;
	return vma_find(mm, addr);
}

/* Does the present entry pte allow an access of this kind? */
static bool pte_allows(uint64_t pte, uint64_t err)
{
	if ((err & PF_WRITE) && !(pte & PTE_W))
		return false;
	if ((err & PF_INSTR) && (pte & PTE_NX))
		return false;
	return true;
}

/*
 * Fault-around (Linux's do_fault_around): a read fault in a file-backed
 * area maps, besides the page asked for, the file's other pages of a
 * 64 KiB window (16 pages) that the filesystem already holds, read-only
 * and shared like any first read of a file page. The window starts at the
 * faulting address rounded down to 64 KiB, or at the area's start if that
 * is higher, and stops at the area's end and at the end of the page table
 * (2 MiB): Linux's window. A program that reads its text from start to
 * end then takes one fault every 16 pages instead of every page. Only
 * whole pages of the file and entries that are still empty; nothing is
 * allocated or read.
 */
#define FAULT_AROUND_BYTES (64 * 1024)
#define PAGE_TABLE_SPAN (512 * PAGE_SIZE) /* what one last-level table maps */

static void fault_around(struct mm *mm, const struct vma *v, uint64_t va, uint64_t *pte)
{
	uint64_t start = MAX(ALIGN_DOWN(va, FAULT_AROUND_BYTES), v->start);
	uint64_t table_end = ALIGN_DOWN(va, PAGE_TABLE_SPAN) + PAGE_TABLE_SPAN;
	uint64_t end = MIN(MIN(start + FAULT_AROUND_BYTES, v->end), table_end);
	uint64_t size = inode_size(file_inode(v->vm_file));
	uint64_t flags = vm_pte_flags(v->flags) & ~PTE_W;

	/* The window lies inside one page table, so its entries are next to
	 * the faulting page's. Another fault may fill them at once (without
	 * the big kernel lock): page_table_lock, once for the window. */
	spin_lock(&mm->page_table_lock);
	for (uint64_t a = start; a < end; a += PAGE_SIZE) {
		uint64_t *p = pte + (int64_t)(a - va) / (int64_t)PAGE_SIZE;
		uint64_t pos = (v->vm_pgoff + (a - v->start) / PAGE_SIZE) * PAGE_SIZE;
		void *page;

		if (a == va || pte_has_page(*p) || pos >= size || v->vm_file_end - pos < PAGE_SIZE)
			continue;
		page = find_get_page(v->vm_file, pos / PAGE_SIZE);
		if (page)
			*p = virt_to_phys(page) | flags;
	}
	spin_unlock(&mm->page_table_lock);
}

/*
 * Demand paging: a frame for page va of area v, which has none (read,
 * write or fetch as err says), and for a read of a file's page its
 * neighbours too (fault_around). kept_only: __fault_in_page.
 */
static int demand_page(struct mm *mm, const struct vma *v, uint64_t va, uint64_t err, bool kept_only)
{
	uint64_t *pte;
	int ret = __fault_in_page(mm, v, va, err & PF_WRITE, kept_only, &pte);

	if (ret == 0 && vma_backing_file(v) && !(err & PF_WRITE))
		fault_around(mm, v, va, pte);
	return ret;
}

/*
 * A write to a page present without PTE_W in a private writable area:
 * copy-on-write (unshare_page), without the big kernel lock. mmap_lock,
 * held for writing, keeps out every other fault and every other user of
 * the entries (mm_write, /proc) while unshare_page decides and writes the
 * entry; the shootdown it may send is answered by CPUs that wait for the
 * lock (mmap_read_lock answers calls). The same frame's other owners
 * (after a fork, the other process) may break their own entries at once:
 * each drops its own reference, atomically, and the last to look finds
 * the frame its alone.
 */
static bool cow_fault_unlocked(struct mm *mm, uint64_t addr)
{
	uint64_t va = ALIGN_DOWN(addr, PAGE_SIZE), *pte = NULL;
	bool done = false;

	if (!write_trylock(&mm->mmap_lock))
		return false;
	const struct vma *v = vma_find(mm, addr);
	if (v && !v->vm_special && (v->flags & (VM_SHARED | VM_WRITE)) == VM_WRITE)
		pte = pte_lookup(mm->pml4, va, false);
	if (pte && (*pte & PTE_P) && !(*pte & PTE_W))
		done = unshare_page(mm, v, va, pte) == 0;
	write_unlock(&mm->mmap_lock);
	return done;
}

/*
 * The faults programs take most (from user mode, or in a user copy of a
 * CPU without the big kernel lock: include/vm.h): the first touch of a
 * page of anonymous private memory or of a page a private file area maps
 * from a file that keeps it, and a write to a page it shares after a
 * fork (cow_fault_unlocked). They run without the big kernel lock, so
 * that threads and processes on several CPUs take them at once: the
 * mm's mmap_lock, held for reading, keeps every area and table in place,
 * and page_table_lock makes filling the entry one step with any other
 * fault's (include/vm.h). False for any other area (shared, the vDSO), a
 * file page that would have to be added or read (kept_only), an access
 * the area does not allow, when a writer has or wants mmap_lock, and
 * when there is no memory: the caller takes the big lock and
 * handle_mm_fault. A file's page is found under the inode's i_pages_lock
 * (find_get_page), so a truncation cannot free it meanwhile; truncation's
 * unmap then waits for our mmap_lock, and takes the entry away again.
 *
 * Interrupts stay off: an interrupt handler takes the big kernel lock,
 * and its holder may be waiting for our mmap_lock. It only tries
 * mmap_lock: when a writer has it, the locked path waits for it.
 */
bool handle_fault_unlocked(struct mm *mm, uint64_t addr, uint64_t err)
{
	bool done = false;

	if (err & PF_PROT)
		return (err & PF_WRITE) && cow_fault_unlocked(mm, addr);
	if (!read_trylock(&mm->mmap_lock))
		return false;
	const struct vma *v = vma_find(mm, addr);
	if (v && !v->vm_special && !(v->flags & VM_SHARED) && access_allowed(v, err))
		done = demand_page(mm, v, ALIGN_DOWN(addr, PAGE_SIZE), err, true) == 0;
	read_unlock(&mm->mmap_lock);
	return done;
}

static int fault_in_area(struct mm *mm, struct vma *v, uint64_t addr, uint64_t err);

int handle_mm_fault(struct mm *mm, uint64_t addr, uint64_t err)
{
	if (!mm || addr >= TASK_SIZE || (err & PF_RSVD))
		return -EFAULT;
	mmap_read_lock(mm); /* as every fault (include/vm.h) */
	struct vma *v = vma_find(mm, addr);
	if (!v) {
		/* Growing the stack changes an area: mmap_lock for writing. */
		mmap_read_unlock(mm);
		struct vma *grown = grow_stack(mm, addr);
		mmap_read_lock(mm);
		v = grown ? vma_find(mm, addr) : NULL;
	}
	int ret = v && access_allowed(v, err) ? fault_in_area(mm, v, addr, err) : -EFAULT;
	mmap_read_unlock(mm);
	return ret;
}

/* handle_mm_fault's work once the area allows the access. */
static int fault_in_area(struct mm *mm, struct vma *v, uint64_t addr, uint64_t err)
{
	uint64_t va = ALIGN_DOWN(addr, PAGE_SIZE);
	uint64_t *pte = pte_lookup(mm->pml4, va, false);
	if (!pte || !pte_has_page(*pte))
		return demand_page(mm, v, va, err, false);
	if (!(*pte & PTE_P))
		return -EFAULT; /* a PROT_NONE frame: cannot happen, the area says no */
	/* The page is there. The area allows a write, so an entry without
	 * PTE_W is a shared page: copy-on-write; but in a MAP_SHARED area
	 * the page is meant to be shared (fork, mprotect left it read-only):
	 * write into it. */
	if ((err & PF_WRITE) && !(*pte & PTE_W)) {
		if (v->flags & VM_SHARED) {
			*pte |= PTE_W;
			tlb_flush_range(mm->pml4, va, va + PAGE_SIZE);
			return 0;
		}
		return unshare_page(mm, v, va, pte);
	}
	if (!pte_allows(*pte, err))
		return -EFAULT; /* cannot happen either, as above */
	/* The entry allows the access: the TLB held a stale entry. Drop it
	 * so that the retry sees the page. */
	invlpg(va);
	return 0;
}

/*
 * Copy len bytes between the kernel buffer buf and user address va of mm,
 * one page at a time; to_mm says which way.
 */
static int __mm_copy(struct mm *mm, uint64_t va, void *buf, size_t len, bool to_mm)
{
	char *p = buf;
	if (va >= TASK_SIZE || len > TASK_SIZE - va)
		return -EFAULT;
	while (len > 0) {
		struct vma *v = vma_find(mm, va);
		if (!v)
			return -EFAULT;
		uint64_t page_va = ALIGN_DOWN(va, PAGE_SIZE);
		uint64_t *pte;
		int err = fault_in_page(mm, v, page_va, to_mm, &pte);
		if (err)
			return err == -EIO ? -EFAULT : err; /* past the end of the file */
		if (to_mm && !(v->flags & VM_SHARED) && page_count(pte_page(*pte)) > 1) {
			err = unshare_page(mm, v, page_va, pte);
			if (err)
				return err;
		}
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

static int mm_copy(struct mm *mm, uint64_t va, void *buf, size_t len, bool to_mm)
{
	mmap_read_lock(mm);
	int err = __mm_copy(mm, va, buf, len, to_mm);
	mmap_read_unlock(mm);
	return err;
}

static void *__mm_get_page_for_write(struct mm *mm, uint64_t va)
{
	struct vma *v = vma_find(mm, va);
	uint64_t page_va = ALIGN_DOWN(va, PAGE_SIZE), *pte;

	if (!v || fault_in_page(mm, v, page_va, true, &pte))
		return NULL;
	if (page_count(pte_page(*pte)) > 1 && unshare_page(mm, v, page_va, pte))
		return NULL;
	return pte_page(*pte);
}

void *mm_get_page_for_write(struct mm *mm, uint64_t va)
{
	mmap_read_lock(mm);
	void *page = __mm_get_page_for_write(mm, va);
	mmap_read_unlock(mm);
	return page;
}

int mm_write(struct mm *mm, uint64_t va, const void *src, size_t len)
{
	return mm_copy(mm, va, (void *)src, len, true);
}

int mm_read(struct mm *mm, uint64_t va, void *dst, size_t len)
{
	return mm_copy(mm, va, dst, len, false);
}
