/*
 * vm.h - user address spaces (mm/vm.c, mm/fault.c, mm/mmap.c).
 *
 * A struct mm is one process's view of user memory: a 4-level page table
 * whose upper half is shared with the kernel, and a sorted list of areas
 * (struct vma). No area gets its frames when it is made: the page-fault
 * handler supplies each page on first touch (demand paging). An anonymous
 * area's pages come zeroed; a file-backed area's (mmap of a file, the ELF
 * loader's segments) come from the file then: the file's own page, shared
 * copy-on-write, or a copy (see mm/fault.c). Callers that need a
 * page present now (the exec stack) use mm_write().
 */
#pragma once
#include <kernel.h>
#include <rwlock.h>
#include <spinlock.h>

/* Linux's TASK_SIZE and STACK_TOP on x86-64 (47-bit user half). */
#define TASK_SIZE 0x00007ffffffff000UL
#define STACK_TOP TASK_SIZE
/* Where mmap() looks for free space in an mm that exec did not lay out
 * (exec sets mm->mmap_base: mm/mmap_layout.c). */
#define MMAP_BASE 0x00007ff000000000UL
/* Where the legacy (bottom-up) mmap layout starts: PAGE_ALIGN(TASK_SIZE / 3). */
#define TASK_UNMAPPED_BASE 0x00002aaaaaaab000UL
/* Lowest address mmap hands out, or accepts without CAP_SYS_RAWIO
 * (Linux's vm.mmap_min_addr). */
#define MMAP_MIN_ADDR 0x10000UL
/* Linux's stack_guard_gap: 256 pages kept free below a stack. */
#define STACK_GUARD_GAP (256 * PAGE_SIZE)
/* Words of mm->saved_auxv, as Linux's AT_VECTOR_SIZE on x86-64 allows. */
#define AT_VECTOR_SIZE 52

/* Protection bits: the same values as PROT_READ/WRITE/EXEC. */
#define VM_READ 0x1
#define VM_WRITE 0x2
#define VM_EXEC 0x4
/* Kinds of area, for /proc and for brk's bookkeeping. */
#define VM_STACK 0x100
#define VM_HEAP 0x200
/* A MAP_SHARED mapping of a file: its pages are the file's own pages
 * (mm/fault.c), so writes through it are the file's bytes, seen by read()
 * and by every other mapping, and fork shares them rather than copy. It
 * may become writable only if the file was open for writing (VM_MAYWRITE;
 * mprotect says EACCES otherwise). MAP_SHARED | MAP_ANONYMOUS memory is
 * such a mapping of an unnamed file (VM_SHMEM). */
#define VM_SHARED 0x400
#define VM_MAYWRITE 0x800
#define VM_SHMEM 0x1000
/* mlock (mm/mlock.c): the area's pages stay in memory (VM_LOCKED), faulted
 * in when locked unless VM_LOCKONFAULT says at first touch. A fork's copy
 * is not locked; /proc/PID/status's VmLck sums the locked areas. */
#define VM_LOCKED 0x2000
#define VM_LOCKONFAULT 0x4000
#define VM_LOCKED_MASK (VM_LOCKED | VM_LOCKONFAULT)
/* A private mapping of /dev/zero: anonymous memory that keeps the file
 * it was mapped from, only to show it (/proc/PID/maps, map_files), as
 * Linux's anonymous areas with a vm_file. */
#define VM_ANON_FILE 0x8000

/* What /proc/PID/status and RLIMIT_DATA call data: private writable
 * memory that is not a stack (the heap, a bss, anonymous or file-backed
 * private mappings), as Linux's is_data_mapping. */
static inline bool is_data_mapping(unsigned flags)
{
	return (flags & (VM_WRITE | VM_SHARED | VM_STACK)) == VM_WRITE;
}

struct file;

/*
 * Pages the kernel owns and maps into processes as they are, read-only
 * (the vDSO and its data page): Linux's vm_special_mapping. Page i of an
 * area that maps it is pages[vm_pgoff + i]; a NULL entry is SIGBUS to
 * touch. The kernel keeps its own reference to each page.
 */
struct vm_special_mapping {
	const char *name; /* what /proc/PID/maps calls the area: "[vdso]" */
	void **pages;
	unsigned npages;
	/* Out of reach of /proc/PID/mem (and of ptrace's peeks): Linux maps
	 * [vvar] as I/O memory (VM_IO | VM_PFNMAP), which neither reads. */
	bool no_remote_access;
	/* If set, page i comes from here instead, for the faulting task (the
	 * pages differ from task to task: [vvar] in a time namespace). */
	void *(*page)(unsigned i);
};

/* vm_file_end of an area that shows the file up to its end (mmap). */
#define VM_FILE_END_NONE UINT64_MAX

struct vma {
	uint64_t start, end; /* [start, end), page aligned */
	unsigned flags;      /* VM_* */
	/*
	 * A file-backed area (vm_file not NULL; Linux's names). Page va shows
	 * the file's bytes from offset vm_pgoff * PAGE_SIZE + (va - start),
	 * from the first touch on (mm/fault.c: filemap_fault), and zeros from
	 * file offset vm_file_end on: that is how the last page of an ELF
	 * data segment shows its bss as zeros.
	 * A page that starts at or past the end of the file cannot be given:
	 * touching it is SIGBUS, as in Linux. The area holds a reference to
	 * vm_file (get_file), dropped when the area goes (fput). NULL: an
	 * anonymous area, demand-zero.
	 */
	struct file *vm_file;
	uint64_t vm_pgoff;     /* in pages, as Linux's */
	uint64_t vm_file_end;  /* a file offset, or VM_FILE_END_NONE */
	const struct vm_special_mapping *vm_special; /* or NULL; vm_pgoff indexes it */
	struct vma *next;      /* sorted by address */
};

/* The file an area's pages come from, or NULL for anonymous memory. */
static inline struct file *vma_backing_file(const struct vma *v)
{
	return v->flags & VM_ANON_FILE ? NULL : v->vm_file;
}

/*
 * Locks of an address space. The big kernel lock serializes most of the
 * kernel, but three users of an address space run without it: the page
 * fault of anonymous memory or of a file's page, and the copy-on-write
 * break (handle_fault_unlocked, mm/fault.c), fork's copy of the parent's
 * areas and entries (mm_fork, mm/vm.c), and execve building the new
 * program's (bprm_from_user, fs/exec.c; elf_build_mm, fs/binfmt_elf.c);
 * these two locks keep them and the rest apart. Order, outermost first:
 *     big kernel lock  >  mmap_lock  >  page_table_lock  >  an inode's
 *     i_pages_lock (fs/vfs.h)  >  a CPU's free-frame list lock  >
 *     zone_lock (the page allocator's, both in mm/page_alloc.c)
 * mmap_lock: the list of areas, and the tables, which stay in place while
 * it is read-held. Read-held by every fault (handle_mm_fault, the
 * unlocked fault, the kernel's own accesses to another address space:
 * mm_read, mm_write, mm_get_page_for_write) and by whoever looks at
 * another task's areas or tables (/proc/PID, mm_count, the OOM killer,
 * vmstat); write-held by whoever changes the areas, frees tables, or
 * clears or write-protects entries (mm/vm.c's vma_* functions, fork for
 * the parent, madvise, expand_stack, truncation's unmap). Holders never
 * sleep (a spinning rwlock), and a CPU that waits for it answers other
 * CPUs' calls (a writer may be shooting down TLBs). A CPU that holds it
 * without the big kernel lock has interrupts off (mmap_read_lock), and
 * takes neither the big lock nor lets it go until the last unlock.
 * page_table_lock: filling an empty entry, and adding a table (two
 * faults, each read-holding mmap_lock, may fill the same entry at once).
 * An entry that has a page is changed only with mmap_lock held for
 * writing, or read-held under the big kernel lock: the copy-on-write
 * break without the big lock write-holds it (cow_fault_unlocked), the
 * one under it (handle_mm_fault, mm_write) read-holds it.
 */
struct mm {
	int users;           /* tasks sharing it (vfork); freed at 0 */
	rwlock_t mmap_lock;
	spinlock_t page_table_lock;
	uint64_t *pml4;      /* direct-map address of the top table */
	struct vma *vmas;
	uint64_t start_code, end_code, start_data, end_data;
	uint64_t start_brk, brk;
	uint64_t start_stack;
	uint64_t arg_start, arg_end, env_start, env_end;
	/* SUID_DUMP_*: may the process's user look into it (/proc/PID, ptrace)?
	 * Set at exec and by commit_creds (kernel/cred.c); kept across fork. */
	int dumpable;
	/* Where mmap puts what it places itself: top-down below mmap_base, or
	 * with the legacy layout (ADDR_COMPAT_LAYOUT) bottom-up from it. */
	uint64_t mmap_base;
	bool mmap_legacy;
	uint64_t vdso;       /* the vDSO's address (AT_SYSINFO_EHDR), 0 if none */
	/* The auxiliary vector exec gave the program, up to AT_NULL:
	 * /proc/PID/auxv. */
	uint64_t saved_auxv[AT_VECTOR_SIZE];
	/* membarrier(2) registrations (kernel/sched/membarrier.c): kept
	 * across fork, none after exec (a new mm). */
	int membarrier_state;
	/* modify_ldt's descriptors (arch/x86/kernel/ldt.c), NULL for none. */
	struct ldt *ldt;
	/* Lock flags every new area gets: mlockall(MCL_FUTURE) sets them,
	 * fork and exec start without (Linux's def_flags). */
	unsigned def_flags;
};
/* arch/x86/kernel/ldt.c */
void load_mm_ldt(struct mm *mm);                    /* the scheduler, at a switch */
int ldt_dup(struct mm *child, struct mm *parent);   /* fork: 0 or -ENOMEM */
void ldt_free(struct mm *mm);
#define SUID_DUMP_DISABLE 0 /* no: it runs with privileges its user lacks */
#define SUID_DUMP_USER 1    /* yes */

struct mm *mm_create(void);             /* empty user half, users = 1; NULL if no memory */
struct mm *mm_get(struct mm *mm);       /* users++ */
/* Take and let go an address space's mmap_lock (the rules above struct
 * mm), as Linux's functions of these names. */
void mmap_read_lock(struct mm *mm);
void mmap_write_lock(struct mm *mm);
void mmap_read_unlock(struct mm *mm);
void mmap_write_unlock(struct mm *mm);
/* users--; at 0 frees every page and table, letting the big kernel lock
 * go meanwhile: no task may point to mm by then, and the caller holds no
 * spinlock. */
void mm_put(struct mm *mm);
/* A copy of every area; the pages are shared copy-on-write (the parent's
 * writable entries become read-only too). NULL if out of memory. */
struct mm *mm_fork(struct mm *parent);
void mm_activate(struct mm *mm);        /* load it into CR3 (NULL: kernel only) */

/* The kernel's own top-level table (boot/boot.S builds it). Entry 256 maps
 * all RAM at PHYS_MAP_BASE, entry 511 the kernel image; every mm shares
 * these upper-half entries. paging_init() removes boot's identity map. */
extern uint64_t boot_pml4[512];
void paging_init(void);
/* Page-table entry bits. */
#define PTE_P (1UL << 0)
#define PTE_W (1UL << 1)
#define PTE_U (1UL << 2)
#define PTE_A (1UL << 5) /* accessed: the CPU sets it */
#define PTE_D (1UL << 6) /* dirty: written through this entry */
#define PTE_PS (1UL << 7)
#define PTE_NX (1UL << 63)
#define PTE_ADDR 0x000ffffffffff000UL

/*
 * Add an area of zero-filled memory. Anything already mapped in
 * [start, start+len) is unmapped first (MAP_FIXED semantics).
 * Returns 0 or -errno (-ENOMEM, -EINVAL).
 */
int vma_map(struct mm *mm, uint64_t start, uint64_t len, unsigned flags);
/*
 * The same for an area backed by file (see struct vma): its first page
 * shows the file from offset pgoff * PAGE_SIZE, and bytes from file offset
 * file_end on read as zero (VM_FILE_END_NONE: up to the end of the file).
 * The area takes its own reference to file; the caller keeps its own.
 * Nothing is read now: the pages come from the file when first touched.
 * Returns 0 or -errno (-ENOMEM, -EINVAL).
 */
int vma_map_file(struct mm *mm, uint64_t start, uint64_t len, unsigned flags,
		 struct file *file, uint64_t pgoff, uint64_t file_end);
int vma_unmap(struct mm *mm, uint64_t start, uint64_t len);
/* An area of the kernel's pages sm (from its first), replacing what was
 * there. 0 or -errno. */
int vma_map_special(struct mm *mm, uint64_t start, uint64_t len, unsigned flags,
		    const struct vm_special_mapping *sm);
/*
 * Move the whole area that starts at start, with its pages (their
 * page-table entries: nothing is copied), shift bytes lower; it keeps its
 * flags. The range below it must be free. exec moves the new stack so
 * (Linux's shift_arg_pages). 0 or -ENOMEM (then nothing moved).
 */
int vma_shift_down(struct mm *mm, uint64_t start, uint64_t shift);
/* The first area that overlaps [start, end), or NULL (Linux's name). */
struct vma *find_vma_intersection(struct mm *mm, uint64_t start, uint64_t end);
int vma_protect(struct mm *mm, uint64_t start, uint64_t len, unsigned prot);
/*
 * Give the areas of [start, end) (page aligned, mapped throughout) the
 * lock flags lock (VM_LOCKED_MASK bits), replacing theirs; special
 * mappings (the vDSO) stay unlocked, as Linux's VM_SPECIAL areas. Splits
 * and merges areas as needed. 0 or -ENOMEM.
 */
int vma_set_lock_flags(struct mm *mm, uint64_t start, uint64_t end, unsigned lock);
/* Pages of the locked areas within [start, end): Linux's locked_vm for
 * the whole address space (0, TASK_SIZE). */
uint64_t mm_locked_pages(struct mm *mm, uint64_t start, uint64_t end);
struct vma *vma_find(struct mm *mm, uint64_t addr); /* area holding addr, or NULL */
/*
 * Where a mapping of len bytes goes when the caller does not fix it: addr
 * itself if it is page aligned and [addr, addr+len) is free (a hint), else
 * the highest free range below mm->mmap_base (top-down, as Linux's x86-64
 * layout), or the lowest above it with the legacy layout. A stack keeps
 * STACK_GUARD_GAP free below it. 0 if there is no room.
 */
uint64_t get_unmapped_area(struct mm *mm, uint64_t addr, uint64_t len);
/* The same for MAP_32BIT: in the first 2 GiB. */
uint64_t get_unmapped_area_32bit(struct mm *mm, uint64_t addr, uint64_t len);
/* Where the free gap below area v must end: v's start, or for a stack
 * STACK_GUARD_GAP lower, kept free for it to grow into (Linux's). */
uint64_t vm_start_gap(const struct vma *v);
/*
 * Grow the stack area that starts above addr down to addr's page, as a
 * fault below it does: not past the RLIMIT_STACK of the current task, not
 * within STACK_GUARD_GAP of the area below. 0 or -ENOMEM.
 */
int expand_stack(struct mm *mm, uint64_t addr);
struct inode;
/*
 * A file shrank: unmap its pages from file page from_index on, in every
 * address space that maps them (copies the process wrote included), so
 * that the next touch finds the file as it is now: SIGBUS past its end
 * (Linux's unmap_mapping_range, called by truncate).
 */
void unmap_mapping_range(struct inode *inode, uint64_t from_index);
/* Drop the pages mm maps from areas of sm: the next access faults them in
 * again (from sm->page, which may now give others). */
void zap_special_mapping(struct mm *mm, const struct vm_special_mapping *sm);
/* Does some process have a shared mapping of inode that is, or may be
 * made, writable (VM_SHARED and VM_MAYWRITE)? Linux's i_mmap_writable > 0,
 * for memfd's F_SEAL_WRITE (mm/memfd.c). */
bool mapping_writably_mapped(struct inode *inode);
/*
 * The kernel's way to map memory into current's address space, with the
 * checks and errors of mmap(2) (mm/mmap.c; prot and flags: include/mman.h).
 * do_mmap maps len bytes of file (NULL: anonymous) from page pgoff;
 * vm_mmap takes a byte offset, which must be page aligned. Both return the
 * address or -errno.
 */
long do_mmap(struct file *file, uint64_t addr, uint64_t len, unsigned long prot,
	     unsigned long flags, uint64_t pgoff);
long vm_mmap(struct file *file, uint64_t addr, uint64_t len, unsigned long prot,
	     unsigned long flags, uint64_t offset);
/*
 * Anonymous read-write memory at [addr, addr + len), len rounded up to a
 * page, replacing what was there, executable if flags holds VM_EXEC (its
 * only allowed bit): as brk makes the heap. 0 or -errno.
 */
int vm_brk_flags(uint64_t addr, uint64_t len, unsigned long flags);
/* Unmap [start, start + len) from current's address space, as munmap(2). */
int vm_munmap(uint64_t start, uint64_t len);
/* ipc/shm.c: an area that maps file goes away (munmap, exit, exec): if
 * file is a System V segment's, that is a detach (shm_dtime, shm_lpid). */
void shm_area_close(struct file *file);
/*
 * Linux's heuristic overcommit (vm.overcommit_memory = 0): may pages more
 * pages be promised at once? Only a request larger than all of RAM is
 * refused (there is no swap).
 */
bool vm_enough_memory(uint64_t pages);
/*
 * May mm gain npages more pages of areas with these flags (mm/mmap.c)?
 * Not past the current task's RLIMIT_AS in all, nor past its RLIMIT_DATA
 * in data (is_data_mapping), as Linux's may_expand_vm: every way an
 * address space grows asks it (mmap, brk, mremap, stack growth,
 * mprotect making memory data), and says -ENOMEM when it refuses.
 * Boot with ignore_rlimit_data to have RLIMIT_DATA only warned about.
 */
bool may_expand_vm(struct mm *mm, unsigned flags, uint64_t npages);
extern bool ignore_rlimit_data;

/*
 * Copy into another address space (or the current one) through its page
 * tables, faulting in pages of existing areas as needed (from their file,
 * for a file-backed area), ignoring their write permission: this is how
 * exec fills the new stack.
 * mm_write never writes into a frame shared with another address space: it
 * copies it first, as a write fault would (copy-on-write).
 * Returns 0 or -EFAULT (no area, or a file page past the end of its file)
 * or -ENOMEM.
 */
int mm_write(struct mm *mm, uint64_t va, const void *src, size_t len);
/*
 * The page that holds va in mm, present and mm's own (a shared one is
 * copied first), as its kernel (direct-map) address: for exec, which
 * copies the argument strings straight into the new stack's pages
 * (Linux's get_arg_page). NULL if va is in no area or memory ran out.
 */
void *mm_get_page_for_write(struct mm *mm, uint64_t va);
int mm_read(struct mm *mm, uint64_t va, void *dst, size_t len);

/*
 * The layout of a new address space and its randomization (mm/mmap_layout.c;
 * Linux's names). Each random offset is 0 unless current has PF_RANDOMIZE.
 */
extern int randomize_va_space; /* /proc/sys/kernel/randomize_va_space: 0, 1, 2 */
void arch_pick_mmap_layout(struct mm *mm, uint64_t rlim_stack); /* mmap_base */
uint64_t arch_mmap_rnd(void);                  /* 28 bits of pages */
uint64_t randomize_stack_top(uint64_t stack_top); /* down by 22 bits of pages */
uint64_t arch_align_stack(uint64_t sp);        /* down by < 8 KiB, 16-aligned */
uint64_t randomize_page(uint64_t start, uint64_t range);
uint64_t arch_randomize_brk(struct mm *mm);    /* brk + up to 1 GiB */

/*
 * What an address space holds, in pages (mm/vm.c): total (the areas'
 * size), rss (pages present; file_rss of them in file-backed areas), data
 * (writable areas but the stack), stack, pt_pages (page tables below the
 * top one). For /proc/PID/status and stat, and the OOM killer.
 */
/* The frames processes map, each counted once (mm/vmstat.c), for
 * /proc/meminfo: AnonPages, Mapped, and how many of both were touched. */
struct user_page_stats {
	uint64_t anon, file_mapped, active;
};
void count_user_pages(struct user_page_stats *s);

/*
 * Call fn(va, pte, arg) for every page of [start, end) in mm that holds a
 * frame, in address order: pte is the last-level entry (PTE_* bits and the
 * frame's physical address; a PROT_NONE page's entry is not PTE_P). Whole
 * missing tables are skipped (Linux's walk_page_range). /proc/PID/smaps.
 */
void walk_page_range(struct mm *mm, uint64_t start, uint64_t end,
		     void (*fn)(uint64_t va, uint64_t pte, void *arg), void *arg);

struct mm_counts {
	uint64_t total, rss, file_rss, data, stack, pt_pages;
};
/* The sizes of mm's areas and pages (/proc, the OOM killer), read under
 * its mmap_lock: the caller holds none of it. */
void mm_count(struct mm *mm, struct mm_counts *c);

/*
 * Called by the page-fault handler for an address below TASK_SIZE, for a
 * fault in user mode or in the kernel's user-copy routines. err is the
 * CPU's error code. Returns 0 if a page was supplied (demand paging) or
 * copied (copy-on-write) and the access may be retried, -EFAULT if the
 * access is not allowed (SIGSEGV), -EIO if the page lies past the end of
 * its file or the file could not be read (SIGBUS), -ENOMEM if memory for
 * the page ran out.
 */
int handle_mm_fault(struct mm *mm, uint64_t addr, uint64_t err);
/* The first touch of anonymous private memory or of a page a private
 * file area maps from a file that keeps it, or a copy-on-write break,
 * without the big kernel lock (mm/fault.c). The caller (trap_handler)
 * passes only a fault without PF_RSVD on a user address of a task with
 * an mm, from user mode or from a user-copy routine of a CPU without the
 * big lock, with interrupts off. False: not such a fault (or not allowed
 * there), or no memory. */
bool handle_fault_unlocked(struct mm *mm, uint64_t addr, uint64_t err);
