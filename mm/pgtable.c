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
 */
#include <errno.h>
#include <mm.h>
#include <x86.h>

#include "internal.h"

#define ENTRIES 512
#define USER_END (1UL << 47) /* the user half: PML4 entries 0..255 */
#define TABLE_FLAGS (PTE_P | PTE_W | PTE_U)

/* Bytes covered by one entry of a level-L table. */
static uint64_t entry_span(int level) { return 1UL << (PAGE_SHIFT + 9 * (level - 1)); }
static unsigned entry_index(uint64_t va, int level) { return (va / entry_span(level)) % ENTRIES; }
static uint64_t *next_table(uint64_t entry) { return phys_to_virt(entry & PTE_ADDR); }

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

typedef void (*pte_fn)(uint64_t *pte, void *arg);

/*
 * Call fn on every last-level entry holding a frame in [start, end), below
 * table (level `level`, whose entry 0 maps address base). With prune, a
 * lower table left empty is freed and its entry cleared.
 */
static void walk_range(uint64_t *table, int level, uint64_t base, uint64_t start,
		       uint64_t end, pte_fn fn, void *arg, bool prune)
{
	uint64_t span = entry_span(level);
	unsigned i = start > base ? (start - base) / span : 0;
	for (; i < ENTRIES; i++) {
		uint64_t lo = base + i * span;
		if (lo >= end)
			break;
		if (level == 1) {
			if (pte_has_page(table[i]))
				fn(&table[i], arg);
			continue;
		}
		if (!(table[i] & PTE_P))
			continue;
		uint64_t *child = next_table(table[i]);
		walk_range(child, level - 1, lo, start, end, fn, arg, prune);
		if (prune && table_empty(child)) {
			table[i] = 0;
			free_page(child);
		}
	}
}

static void unmap_pte(uint64_t *pte, void *arg __unused)
{
	free_page(pte_page(*pte));
	*pte = 0;
}

void pgtable_unmap(uint64_t *pml4, uint64_t start, uint64_t end)
{
	walk_range(pml4, 4, 0, start, MIN(end, USER_END), unmap_pte, NULL, true);
}

void pgtable_free_user(uint64_t *pml4) { pgtable_unmap(pml4, 0, USER_END); }

static void protect_pte(uint64_t *pte, void *arg)
{
	*pte = (*pte & PTE_ADDR) | *(uint64_t *)arg;
}

void pgtable_protect(uint64_t *pml4, uint64_t start, uint64_t end, uint64_t pte_flags)
{
	walk_range(pml4, 4, 0, start, MIN(end, USER_END), protect_pte, &pte_flags, false);
}

/* Copy table src (level `level`) into the empty table dst. */
static int copy_table(uint64_t *dst, const uint64_t *src, int level)
{
	int n = level == 4 ? ENTRIES / 2 : ENTRIES; /* PML4: user half only */
	for (int i = 0; i < n; i++) {
		uint64_t e = src[i];
		if (level == 1) {
			if (!pte_has_page(e))
				continue;
			void *page = alloc_page();
			if (!page)
				return -ENOMEM;
			copy_page(page, pte_page(e));
			dst[i] = virt_to_phys(page) | (e & ~PTE_ADDR);
			continue;
		}
		if (!(e & PTE_P))
			continue;
		uint64_t *child = alloc_page();
		if (!child)
			return -ENOMEM;
		dst[i] = virt_to_phys(child) | TABLE_FLAGS;
		int err = copy_table(child, next_table(e), level - 1);
		if (err)
			return err;
	}
	return 0;
}

int pgtable_copy(uint64_t *dst, const uint64_t *src) { return copy_table(dst, src, 4); }

/* Above this many pages a full flush (reloading CR3) is cheaper. */
#define FLUSH_ALL_PAGES 32

void tlb_flush_range(const uint64_t *pml4, uint64_t start, uint64_t end)
{
	uint64_t cr3 = read_cr3();
	if ((cr3 & PTE_ADDR) != virt_to_phys(pml4))
		return; /* not loaded: the next CR3 load flushes it anyway */
	if ((end - start) / PAGE_SIZE > FLUSH_ALL_PAGES) {
		write_cr3(cr3);
		return;
	}
	/* invlpg also drops cached upper-level entries, so tables freed by
	 * pgtable_unmap are forgotten too. */
	for (uint64_t va = start; va < end; va += PAGE_SIZE)
		invlpg(va);
}
