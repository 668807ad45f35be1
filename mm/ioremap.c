/*
 * ioremap.c - device registers in the kernel's address space.
 *
 * A device's registers (the local APIC's page, the I/O APIC's) sit at
 * physical addresses that are not RAM, so the direct map does not cover
 * them. ioremap maps them, uncached, in a region of their own: PDPT entry
 * IOREMAP_PDPT under the kernel's PML4 entry 511 (vmalloc.c's neighbour),
 * which every address space shares. Mappings are made at boot and stay.
 */
#include <mm.h>
#include <vm.h>

#include "internal.h"

#define IOREMAP_BASE 0xffffffff40000000UL /* PDPT entry 509 of PML4 entry 511 */
#define IOREMAP_SIZE (1UL << 30)
#define PTE_PWT (1UL << 3)
#define PTE_PCD (1UL << 4)

static uint64_t next_free = IOREMAP_BASE;

void *ioremap(uint64_t phys, size_t size)
{
	uint64_t first = phys & ~(PAGE_SIZE - 1);
	uint64_t pages = (ALIGN_UP(phys + size, PAGE_SIZE) - first) / PAGE_SIZE;
	uint64_t va = next_free;

	if (va + pages * PAGE_SIZE > IOREMAP_BASE + IOREMAP_SIZE)
		return NULL;
	for (uint64_t i = 0; i < pages; i++) {
		uint64_t *pte = kernel_pte(va + i * PAGE_SIZE, true);
		*pte = (first + i * PAGE_SIZE) | PTE_P | PTE_W | PTE_PWT | PTE_PCD | pte_nx;
	}
	next_free += pages * PAGE_SIZE;
	return (void *)(va + (phys - first));
}
