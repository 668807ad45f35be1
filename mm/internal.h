/*
 * mm/internal.h - what the files of mm/ share with each other and with no
 * one else. The rest of the kernel uses include/mm.h and include/vm.h.
 */
#pragma once
#include <kernel.h>
#include <mm.h>
#include <vm.h>

/* ---- mm/page_alloc.c ---- */

/* One past the highest frame number the allocator manages. */
extern uint64_t max_pfn;

/* Like alloc_page, but the frame is not zeroed: only for a caller that
 * overwrites all of it at once (it may hold another process's data). */
void *alloc_page_nozero(void);
void *alloc_pages_nozero(size_t n);
/* Is frame pfn free (for KASAN's shadow at boot)? */
bool page_is_free(uint64_t pfn);

/* ---- whole pages, with string instructions (faster than byte loops) ---- */

static inline void zero_page(void *page)
{
	void *d = page;
	uint64_t n = PAGE_SIZE / 8;
	__asm__ volatile("rep stosq" : "+D"(d), "+c"(n) : "a"(0UL) : "memory");
}

static inline void copy_page(void *dst, const void *src)
{
	void *d = dst;
	const void *s = src;
	uint64_t n = PAGE_SIZE / 8;
	__asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/* ---- mm/pgtable.c: the 4-level page tables of one address space ---- */

/*
 * A software bit (the CPU ignores bits 9-11): the entry holds a frame of a
 * PROT_NONE area. Such an entry is not present (any access faults) but
 * keeps its frame, so mprotect can make the page accessible again.
 */
#define PTE_PROTNONE (1UL << 9)
/* The entry holds a frame, accessible or not. */
static inline bool pte_has_page(uint64_t pte) { return pte & (PTE_P | PTE_PROTNONE); }
static inline void *pte_page(uint64_t pte) { return phys_to_virt(pte & PTE_ADDR); }

/* The last-level bits for an area with these VM_* flags. */
uint64_t vm_pte_flags(unsigned vm_flags);

/*
 * The last-level entry for va, or NULL if a table on the way is missing.
 * With create, missing tables are allocated (NULL then means no memory).
 */
uint64_t *pte_lookup(uint64_t *pml4, uint64_t va, bool create);
void pgtable_pages_add(long n); /* nr_pgtable_pages += n, atomically */

/* Fault in every page of [start, end) as a read (or write) would
 * (mm/mmap.c): -ENOMEM for a page in no area or no memory, -EINVAL where
 * the area forbids the access, -EFAULT past the end of a file. */
int populate(struct mm *mm, uint64_t start, uint64_t end, bool write);

/* ---- mm/mlock.c ---- */

/* May the current process lock memory at all (RLIMIT_MEMLOCK not 0, or
 * CAP_IPC_LOCK)? Linux's can_do_mlock. */
bool can_do_mlock(void);
/* May mm lock len more bytes (a new locked mapping, a locked area
 * growing) within RLIMIT_MEMLOCK? Linux's mlock_future_check, as a
 * boolean: the callers answer -EAGAIN. */
bool mlock_future_ok(struct mm *mm, uint64_t len);
/*
 * Fault in the pages of [start, end) as locking does (Linux's
 * __mm_populate): every accessible area but the lock-on-fault ones,
 * writing where the area is private and writable. 0, -EAGAIN when memory
 * runs out, -ENOMEM for a page past the end of its file.
 */
int mm_populate(struct mm *mm, uint64_t start, uint64_t end);

/* Drop the reference of every frame mapped in [start, end) (freeing those
 * that had no other owner), and free the tables left empty. */
void pgtable_unmap(uint64_t *pml4, uint64_t start, uint64_t end);
/*
 * Give every frame mapped in [start, end) these last-level bits, except
 * that a frame shared with another mapping (count > 1) never gets PTE_W:
 * it stays copy-on-write until a write fault gives this mapping its own.
 */
void pgtable_protect(uint64_t *pml4, uint64_t start, uint64_t end, uint64_t pte_flags);
/*
 * fork: make dst map the same frames as src in [start, end) (page
 * aligned), one more reference to each, and clear PTE_W in both, so that
 * the first write on either side faults and copies (mm/fault.c). The
 * caller must flush src's TLB, success or not. 0 or -ENOMEM (for a page
 * table; dst then holds a partial copy: free it).
 */
int pgtable_share(uint64_t *dst, uint64_t *src, uint64_t start, uint64_t end);
/*
 * Move the entries of [from, from+len) to [to, to+len), which must hold no
 * pages (the ranges do not overlap); the frames keep their counts. The
 * source's tables stay, empty, until its area is unmapped. The caller
 * flushes the TLB for the source. 0 or -ENOMEM (for a page table; then
 * nothing moved).
 */
int pgtable_move(uint64_t *pml4, uint64_t from, uint64_t to, uint64_t len);
/* Drop the whole user half: frames (as pgtable_unmap) and tables (not the
 * pml4 itself), looking at every entry of every table. */
void pgtable_free_user(uint64_t *pml4);
/* Drop the reference of every frame mapped in [start, end) and clear
 * their entries; the tables stay. */
void pgtable_zap(uint64_t *pml4, uint64_t start, uint64_t end);
/*
 * Free the tables that map [start, end) and lie wholly in [floor,
 * ceiling), whatever their entries hold: the caller knows that no area
 * is left in [floor, ceiling) but in [start, end), whose frames it has
 * dropped (pgtable_zap, or pgtable_release for an address space that
 * dies). Right only if no table maps addresses outside every area.
 *
 * Tearing down a whole address space (mm_put), area by area in address
 * order: pgtable_release for each [start, end) (the references only: the
 * entries are not cleared, nothing reads them again), then
 * pgtable_free_tables with floor 0 (the areas below are gone) and ceiling
 * the next area's start (a table reaching past it is also the next
 * area's, freed in its turn).
 */
void pgtable_release(uint64_t *pml4, uint64_t start, uint64_t end);
void pgtable_free_tables(uint64_t *pml4, uint64_t start, uint64_t end, uint64_t floor,
			 uint64_t ceiling);
/* Does the pml4 map nothing in the user half? */
bool pgtable_user_empty(const uint64_t *pml4);

/* Flush the TLB for [start, end) of pml4, whose entries changed, on
 * every CPU that has it loaded (this one too). */
void tlb_flush_range(const uint64_t *pml4, uint64_t start, uint64_t end);
/* The same after tables below [start, end) were freed too: lazy CPUs are
 * asked as well (arch/x86/kernel/tlb.c). */
void tlb_flush_freed(const uint64_t *pml4, uint64_t start, uint64_t end);
/* Flush all of pml4's user entries from the TLB, where it is loaded. */
void tlb_flush_all(const uint64_t *pml4);
/* The other CPUs' part of the three, and of dropping an address space
 * (arch/x86/kernel/tlb.c): end ~0UL flushes everything. */
void flush_tlb_others(uint64_t pml4_phys, uint64_t start, uint64_t end, bool freed_tables);
void leave_mm_everywhere(uint64_t pml4_phys);
void flush_tlb_kernel_range(uint64_t start, uint64_t end); /* on every CPU */
void tlb_flush_local(uint64_t start, uint64_t end);       /* on this CPU */

/* ---- mm/vm.c: what mremap and madvise (mm/mmap.c) build on ---- */

/* Is every byte of [start, end) inside some area? */
bool fully_mapped(struct mm *mm, uint64_t start, uint64_t end);
/* Make the area that ends exactly at end reach new_end, if [end, new_end)
 * is free and below TASK_SIZE. 0 or -ENOMEM. */
int vma_grow(struct mm *mm, uint64_t end, uint64_t new_end);
/*
 * Move [from, from+old_len), which lies inside one area, with its pages, to
 * [to, to+new_len) (new_len >= old_len), which must be free: the pages keep
 * their offsets, the rest of the new area is demand-zero, and it gets the
 * old area's rights (not VM_HEAP or VM_STACK). The old range is unmapped,
 * unless keep_old: then it stays, empty (MREMAP_DONTUNMAP).
 * 0 or -ENOMEM (then nothing moved).
 */
int vma_move(struct mm *mm, uint64_t from, uint64_t old_len, uint64_t to,
	     uint64_t new_len, bool keep_old);

/* ---- mm/fault.c ---- */

/*
 * Make sure the page va (inside area v) has a frame: a zeroed one, or for a
 * file-backed area the file's bytes: for a read (!write), maybe the file's
 * own page, shared and mapped without PTE_W (see mm/fault.c). 0 with its
 * last-level entry in *pte; -ENOMEM; -EIO for a file page past the end of
 * the file, or a read error (the access is then SIGBUS).
 */
int fault_in_page(struct mm *mm, const struct vma *v, uint64_t va, bool write, uint64_t **pte);
/*
 * Give mm its own copy of the frame that *pte (the entry of page va, inside
 * area v) maps, if it is shared, and then the area's full rights (PTE_W if
 * the area is writable). 0 or -ENOMEM (then nothing changed).
 */
int unshare_page(struct mm *mm, const struct vma *v, uint64_t va, uint64_t *pte);
