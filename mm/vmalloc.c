/*
 * vmalloc.c - the module area: kernel memory mapped page by page in
 * [MODULES_VADDR, MODULES_END), for loadable modules and the buffers of
 * the module loader (include/vmalloc.h says why it sits there).
 *
 * Design notes:
 *  - The range is PDPT entry 511 under the kernel's PML4 entry 511
 *    (boot/boot.S uses entry 510 for the kernel image and leaves 511
 *    empty). Every address space copies the kernel half of boot_pml4, so
 *    the tables made here, which hang below that shared PDPT, are seen by
 *    all of them at once. The area's page tables stay once made: they are
 *    few (one per 2 MiB), and the next allocation uses them again.
 *  - Allocations are kept in a list sorted by address (Linux's vm_struct
 *    list) and placed first-fit, each followed by one unmapped guard page.
 *  - The tables are reached with kernel_pte (mm/kernel_map.c), which makes
 *    the missing ones. Last-level entries are supervisor-only (no PTE_U) and start as
 *    read-write, no-execute; set_memory_* change them and flush each page
 *    from the TLB of every CPU (flush_tlb_kernel_range).
 */
#include <errno.h>
#include <mm.h>
#include <vm.h>
#include <vmalloc.h>
#include <x86.h>

#include "internal.h"

struct vm_area {
	uint64_t addr;          /* first byte */
	size_t pages;           /* mapped pages; the guard page follows */
	struct vm_area *next;   /* sorted by address */
};

static struct vm_area *areas;
static size_t mapped_pages;

/* Unmap the pages [addr, addr + pages * PAGE_SIZE) and free their frames. */
static void unmap_pages(uint64_t addr, size_t pages)
{
	for (size_t i = 0; i < pages; i++) {
		uint64_t va = addr + i * PAGE_SIZE;
		uint64_t *pte = kernel_pte(va, false);

		if (!pte || !(*pte & PTE_P))
			continue;
		free_page(phys_to_virt(*pte & PTE_ADDR));
		*pte = 0;
		mapped_pages--;
	}
	flush_tlb_kernel_range(addr, addr + pages * PAGE_SIZE);
}

/* Where a run of pages (and its guard) fits, first fit; *prevp is the
 * list link to insert it at. 0 if the area is full. */
static uint64_t find_room(size_t pages, struct vm_area ***prevp)
{
	uint64_t start = MODULES_VADDR, need = (pages + 1) * PAGE_SIZE;
	struct vm_area **pp = &areas;

	for (; *pp; pp = &(*pp)->next) {
		if ((*pp)->addr - start >= need)
			break;
		start = (*pp)->addr + ((*pp)->pages + 1) * PAGE_SIZE;
	}
	if (MODULES_END - start < need)
		return 0;
	*prevp = pp;
	return start;
}

void *vmalloc(size_t size)
{
	struct vm_area *a, **pp;
	size_t pages;
	uint64_t addr;

	if (size == 0 || size > MODULES_LEN)
		return NULL;
	pages = ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE;
	addr = find_room(pages, &pp);
	if (!addr)
		return NULL;
	a = kmalloc(sizeof(*a));
	if (!a)
		return NULL;
	for (size_t i = 0; i < pages; i++) {
		uint64_t *pte = kernel_pte(addr + i * PAGE_SIZE, true);
		void *frame = pte ? alloc_page() : NULL;

		if (!frame) {
			unmap_pages(addr, i);
			kfree(a);
			return NULL;
		}
		*pte = virt_to_phys(frame) | PTE_P | PTE_W | PTE_NX;
		mapped_pages++;
	}
	a->addr = addr;
	a->pages = pages;
	a->next = *pp;
	*pp = a;
	return (void *)addr;
}

/* The allocation holding [addr, addr + pages * PAGE_SIZE), or NULL. With
 * prevp, also the link that points to it. */
static struct vm_area *find_area(uint64_t addr, size_t pages, struct vm_area ***prevp)
{
	for (struct vm_area **pp = &areas; *pp; pp = &(*pp)->next) {
		struct vm_area *a = *pp;

		if (addr >= a->addr && addr < a->addr + a->pages * PAGE_SIZE) {
			if (pages > a->pages - (addr - a->addr) / PAGE_SIZE)
				return NULL;
			if (prevp)
				*prevp = pp;
			return a;
		}
	}
	return NULL;
}

void vfree(const void *ptr)
{
	struct vm_area *a, **pp;

	if (!ptr)
		return;
	a = find_area((uint64_t)ptr, 1, &pp);
	if (!a || a->addr != (uint64_t)ptr)
		panic("vfree: %p was not given by vmalloc", ptr);
	unmap_pages(a->addr, a->pages);
	*pp = a->next;
	kfree(a);
}

void *module_alloc(size_t size)
{
	return vmalloc(size);
}

void module_memfree(void *addr)
{
	vfree(addr);
}

bool is_vmalloc_addr(const void *addr)
{
	return find_area((uint64_t)addr, 1, NULL) != NULL;
}

size_t vmalloc_nr_pages(void)
{
	return mapped_pages;
}

/* Set and clear bits in the entries of numpages pages from addr. */
static int change_page_attr(unsigned long addr, int numpages, uint64_t set, uint64_t clear)
{
	if (addr % PAGE_SIZE || numpages < 0 || !find_area(addr, numpages, NULL))
		return numpages == 0 ? 0 : -EINVAL;
	for (int i = 0; i < numpages; i++) {
		uint64_t va = addr + (uint64_t)i * PAGE_SIZE;
		uint64_t *pte = kernel_pte(va, false);

		*pte = (*pte & ~clear) | set;
	}
	flush_tlb_kernel_range(addr, addr + (uint64_t)numpages * PAGE_SIZE);
	return 0;
}

int set_memory_ro(unsigned long addr, int numpages)
{
	return change_page_attr(addr, numpages, 0, PTE_W);
}

int set_memory_rw(unsigned long addr, int numpages)
{
	return change_page_attr(addr, numpages, PTE_W, 0);
}

int set_memory_x(unsigned long addr, int numpages)
{
	return change_page_attr(addr, numpages, 0, PTE_NX);
}

int set_memory_nx(unsigned long addr, int numpages)
{
	return change_page_attr(addr, numpages, PTE_NX, 0);
}
