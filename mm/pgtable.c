/*
 * pgtable.c - walking, filling, copying and freeing x86-64 page tables.
 *
 * Design notes:
 *  - Four levels: PML4 (level 4) -> PDPT (3) -> page directory (2) -> page
 *    table (1). Each table is one page of 512 entries; an entry at level L
 *    covers 4 KiB << (9 * (L - 1)) bytes. Virtual address bits 47..39 index
 *    the PML4, 38..30 the PDPT, 29..21 the directory, 20..12 the page table.
 *  - Tables are reached through the direct map: an entry holds a physical
 *    address, phys_to_virt() turns it into a pointer the kernel can use.
 *  - The upper half (PML4 entries 256..511) is the kernel's and is shared by
 *    every address space; nothing here ever touches it. User mappings use
 *    4 KiB pages only.
 *  - Intermediate entries are always present, writable and user: the
 *    last-level entry alone decides what user code may do with the page.
 *  - One recursive walker (walk_range) visits the last-level entries of a
 *    range, skipping whole missing tables; unmap and mprotect use it.
 *  - Tables exist only where some area is (every table is made for a
 *    page of an area, and unmapping frees the tables it empties). So an
 *    address space that dies is torn down area by area, as Linux's
 *    exit_mmap does: the frames of each area's range, then the tables
 *    (pgtable_release, pgtable_free_tables), never the whole 512 entries
 *    of every table. munmap frees the tables that no area is left
 *    under, bounded by the neighbouring areas (Linux's free_pgtables),
 *    without reading their entries.
 *  - A user frame may be mapped by several address spaces (after fork; see
 *    mm/fault.c): each last-level entry holds one reference to its frame
 *    (get_page/put_page, mm/page_alloc.c). Unmapping drops the reference,
 *    and only the last one frees the frame. Page tables themselves are
 *    never shared: each address space has its own.
 */
#include <errno.h>
#include <mm.h>
#include <x86.h>

#include "internal.h"

#define ENTRIES 512

size_t nr_pgtable_pages; /* user page tables, top levels included */

/* Atomic: a fault without the big kernel lock adds tables too. */
void pgtable_pages_add(long n)
{
	__atomic_fetch_add(&nr_pgtable_pages, n, __ATOMIC_RELAXED);
}
#define USER_END (1UL << 47) /* the user half: PML4 entries 0..255 */
#define TABLE_FLAGS (PTE_P | PTE_W | PTE_U)

/* Bytes covered by one entry of a level-L table. */
static uint64_t entry_span(int level) { return 1UL << (PAGE_SHIFT + 9 * (level - 1)); }
static unsigned entry_index(uint64_t va, int level) { return (va / entry_span(level)) % ENTRIES; }
static uint64_t *next_table(uint64_t entry) { return phys_to_virt(entry & PTE_ADDR); }
/* The first entry of a table whose entry 0 maps base, each entry span
 * bytes, that a walk from address start visits. */
static unsigned first_index(uint64_t base, uint64_t start, uint64_t span)
{
	return start > base ? (start - base) / span : 0;
}

uint64_t vm_pte_flags(unsigned vm_flags)
{
	if (!(vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return PTE_PROTNONE;
	/* x86 cannot make a page writable or executable but not readable:
	 * any access right makes the page present (readable). */
	uint64_t f = PTE_P | PTE_U;
	if (vm_flags & VM_WRITE)
		f |= PTE_W;
	if (!(vm_flags & VM_EXEC))
		f |= PTE_NX;
	return f;
}

uint64_t *pte_lookup(uint64_t *pml4, uint64_t va, bool create)
{
	uint64_t *table = pml4;
	for (int level = 4; level > 1; level--) {
		uint64_t *e = &table[entry_index(va, level)];
		if (!(*e & PTE_P)) {
			if (!create)
				return NULL;
			void *t = alloc_page(); /* zeroed: no entries */
			if (!t)
				return NULL;
			pgtable_pages_add(1);
			*e = virt_to_phys(t) | TABLE_FLAGS;
		}
		table = next_table(*e);
	}
	return &table[entry_index(va, 1)];
}

static bool table_empty(const uint64_t *table)
{
	for (int i = 0; i < ENTRIES; i++)
		if (table[i])
			return false;
	return true;
}

typedef void (*pte_fn)(uint64_t *pte, uint64_t va, void *arg);

/*
 * Call fn on every last-level entry holding a frame in [start, end), below
 * table (level `level`, whose entry 0 maps address base). With prune, a
 * lower table left empty is freed and its entry cleared.
 */
static void walk_range(uint64_t *table, int level, uint64_t base, uint64_t start,
		       uint64_t end, pte_fn fn, void *arg, bool prune)
{
	uint64_t span = entry_span(level);

	for (unsigned i = first_index(base, start, span); i < ENTRIES; i++) {
		uint64_t lo = base + i * span;
		if (lo >= end)
			break;
		if (level == 1) {
			if (pte_has_page(table[i]))
				fn(&table[i], lo, arg);
			continue;
		}
		if (!(table[i] & PTE_P))
			continue;
		uint64_t *child = next_table(table[i]);
		walk_range(child, level - 1, lo, start, end, fn, arg, prune);
		/* A child wholly inside the range was emptied: no need to look. */
		bool emptied = start <= lo && lo + span <= end;
		if (prune && (emptied || table_empty(child))) {
			table[i] = 0;
			free_page(child);
			pgtable_pages_add(-1);
		}
	}
}

static void unmap_pte(uint64_t *pte, uint64_t va __unused, void *arg __unused)
{
	put_page(pte_page(*pte));
	*pte = 0;
}

void pgtable_unmap(uint64_t *pml4, uint64_t start, uint64_t end)
{
	walk_range(pml4, 4, 0, start, MIN(end, USER_END), unmap_pte, NULL, true);
}

static void release_pte(uint64_t *pte, uint64_t va __unused, void *arg __unused)
{
	put_page(pte_page(*pte));
}

void pgtable_release(uint64_t *pml4, uint64_t start, uint64_t end)
{
	walk_range(pml4, 4, 0, start, MIN(end, USER_END), release_pte, NULL, false);
}

/*
 * Below table (level `level`, whose entry 0 maps address base), free the
 * tables that map [start, end) and lie wholly in [floor, ceiling),
 * clearing their entries. The recursion goes down to the page directories:
 * a page table's own entries are not looked at.
 */
static void free_tables(uint64_t *table, int level, uint64_t base, uint64_t start,
			uint64_t end, uint64_t floor, uint64_t ceiling)
{
	uint64_t span = entry_span(level);

	for (unsigned i = first_index(base, start, span); i < ENTRIES; i++) {
		uint64_t lo = base + i * span;
		if (lo >= end)
			break;
		if (!(table[i] & PTE_P))
			continue;
		uint64_t *child = next_table(table[i]);
		if (level > 2)
			free_tables(child, level - 1, lo, start, end, floor, ceiling);
		if (lo >= floor && lo + span <= ceiling) {
			table[i] = 0;
			free_page(child);
			pgtable_pages_add(-1);
		}
	}
}

void pgtable_free_tables(uint64_t *pml4, uint64_t start, uint64_t end, uint64_t floor,
			 uint64_t ceiling)
{
	free_tables(pml4, 4, 0, start, MIN(end, USER_END), floor, MIN(ceiling, USER_END));
}

bool pgtable_user_empty(const uint64_t *pml4)
{
	for (int i = 0; i < ENTRIES / 2; i++)
		if (pml4[i])
			return false;
	return true;
}

void pgtable_free_user(uint64_t *pml4) { pgtable_unmap(pml4, 0, USER_END); }

void pgtable_zap(uint64_t *pml4, uint64_t start, uint64_t end)
{
	walk_range(pml4, 4, 0, start, MIN(end, USER_END), unmap_pte, NULL, false);
}

static void protect_pte(uint64_t *pte, uint64_t va __unused, void *arg)
{
	uint64_t flags = *(uint64_t *)arg;
	if ((flags & PTE_W) && page_count(pte_page(*pte)) > 1)
		flags &= ~PTE_W; /* still shared: copy on the first write */
	*pte = (*pte & PTE_ADDR) | flags;
}

struct page_walk {
	void (*fn)(uint64_t va, uint64_t pte, void *arg);
	void *arg;
};

static void visit_pte(uint64_t *pte, uint64_t va, void *arg)
{
	struct page_walk *w = arg;
	w->fn(va, *pte, w->arg);
}

void walk_page_range(struct mm *mm, uint64_t start, uint64_t end,
		     void (*fn)(uint64_t va, uint64_t pte, void *arg), void *arg)
{
	struct page_walk w = { fn, arg };
	walk_range(mm->pml4, 4, 0, start, MIN(end, USER_END), visit_pte, &w, false);
}

void pgtable_protect(uint64_t *pml4, uint64_t start, uint64_t end, uint64_t pte_flags)
{
	walk_range(pml4, 4, 0, start, MIN(end, USER_END), protect_pte, &pte_flags, false);
}

/*
 * Make dst (level `level`, whose entry 0 maps address base) map what src
 * maps in [start, end): new tables below it where dst has none yet, but
 * the same frames at the last level, each with one more reference and, if
 * it was writable, write-protected on both sides. Read-only and PROT_NONE
 * frames are shared the same way; they keep their bits (a later mprotect
 * gives PTE_W only to a frame no longer shared).
 */
static int share_range(uint64_t *dst, uint64_t *src, int level, uint64_t base,
		       uint64_t start, uint64_t end)
{
	uint64_t span = entry_span(level);

	for (unsigned i = first_index(base, start, span); i < ENTRIES; i++) {
		uint64_t lo = base + i * span, e = src[i];
		if (lo >= end)
			break;
		if (level == 1) {
			if (!pte_has_page(e))
				continue;
			get_page(pte_page(e));
			e &= ~PTE_W;
			src[i] = dst[i] = e;
			continue;
		}
		if (!(e & PTE_P))
			continue;
		if (!(dst[i] & PTE_P)) {
			uint64_t *child = alloc_page();
			if (!child)
				return -ENOMEM;
			pgtable_pages_add(1);
			dst[i] = virt_to_phys(child) | TABLE_FLAGS;
		}
		int err = share_range(next_table(dst[i]), next_table(e), level - 1, lo, start, end);
		if (err)
			return err;
	}
	return 0;
}

int pgtable_share(uint64_t *dst, uint64_t *src, uint64_t start, uint64_t end)
{
	return share_range(dst, src, 4, 0, start, MIN(end, USER_END));
}

/*
 * The last-level entry for va, if its tables exist. If not, NULL, and *skip
 * is the first address above va that might have one: the end of the range
 * the missing entry covers (up to 512 GiB for a missing PML4 entry), so a
 * walk over a huge sparse range takes few steps.
 */
static uint64_t *pte_lookup_skip(uint64_t *pml4, uint64_t va, uint64_t *skip)
{
	uint64_t *table = pml4;
	for (int level = 4; level > 1; level--) {
		uint64_t e = table[entry_index(va, level)];
		if (!(e & PTE_P)) {
			*skip = ALIGN_DOWN(va, entry_span(level)) + entry_span(level);
			return NULL;
		}
		table = next_table(e);
	}
	return &table[entry_index(va, 1)];
}

int pgtable_move(uint64_t *pml4, uint64_t from, uint64_t to, uint64_t len)
{
	/* Two passes over the source: the first makes every destination
	 * table the second will need, so that the moving itself cannot fail
	 * half way. */
	uint64_t skip;
	for (uint64_t off = 0; off < len;) {
		uint64_t *src = pte_lookup_skip(pml4, from + off, &skip);
		if (!src) {
			off = skip - from;
			continue;
		}
		if (pte_has_page(*src) && !pte_lookup(pml4, to + off, true)) {
			pgtable_unmap(pml4, to, to + len); /* frees the empty tables */
			return -ENOMEM;
		}
		off += PAGE_SIZE;
	}
	for (uint64_t off = 0; off < len;) {
		uint64_t *src = pte_lookup_skip(pml4, from + off, &skip);
		if (!src) {
			off = skip - from;
			continue;
		}
		if (pte_has_page(*src)) {
			*pte_lookup(pml4, to + off, false) = *src; /* the reference moves too */
			*src = 0;
		}
		off += PAGE_SIZE;
	}
	return 0; /* the source's tables go with its area (vma_unmap) */
}

/* Above this many pages a full flush (reloading CR3) is cheaper. */
#define FLUSH_ALL_PAGES 32

/*
 * Forget the translations of [start, end) under pml4, on every CPU that
 * may hold them: this one, if pml4 is loaded here, and the others that
 * have it loaded (a TLB shootdown, arch/x86/kernel/tlb.c).
 */
static void flush_range(const uint64_t *pml4, uint64_t start, uint64_t end, bool freed_tables)
{
	uint64_t cr3 = read_cr3();

	flush_tlb_others(virt_to_phys(pml4), start, end, freed_tables);
	if ((cr3 & PTE_ADDR) == virt_to_phys(pml4))
		tlb_flush_local(start, end); /* else the next CR3 load flushes it */
}

void tlb_flush_range(const uint64_t *pml4, uint64_t start, uint64_t end)
{
	flush_range(pml4, start, end, false);
}

void tlb_flush_freed(const uint64_t *pml4, uint64_t start, uint64_t end)
{
	flush_range(pml4, start, end, true);
}

/* This CPU's part, for the tables it has loaded. */
void tlb_flush_local(uint64_t start, uint64_t end)
{
	if ((end - start) / PAGE_SIZE > FLUSH_ALL_PAGES) {
		write_cr3(read_cr3()); /* no page is global: this drops all */
		return;
	}
	/* invlpg also drops cached upper-level entries, so tables freed by
	 * pgtable_unmap are forgotten too. */
	for (uint64_t va = start; va < end; va += PAGE_SIZE)
		invlpg(va);
}

void tlb_flush_all(const uint64_t *pml4)
{
	uint64_t cr3 = read_cr3();

	flush_tlb_others(virt_to_phys(pml4), 0, ~0UL, false);
	/* Reloading CR3 drops every TLB entry (no page here is global). */
	if ((cr3 & PTE_ADDR) == virt_to_phys(pml4))
		write_cr3(cr3);
}
