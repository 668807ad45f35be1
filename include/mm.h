/*
 * mm.h - physical memory and the kernel heap.
 *
 * Physical frames (mm/page_alloc.c): a bitmap over all RAM the boot loader
 * reported. Every frame is reachable through the direct map, so the kernel
 * works with virtual addresses (phys_to_virt) and converts only when it
 * writes page tables.
 *
 * The heap (mm/kmalloc.c): kmalloc/kfree for objects of any size.
 */
#pragma once
#include <kernel.h>

struct boot_info;

static inline void *phys_to_virt(uint64_t phys) { return (void *)(phys + PHYS_MAP_BASE); }
/* Works for direct-map addresses and for addresses inside the kernel image. */
static inline uint64_t virt_to_phys(const void *virt)
{
	uint64_t v = (uint64_t)virt;
	return v >= KERNEL_VMA ? v - KERNEL_VMA : v - PHYS_MAP_BASE;
}

void page_alloc_init(const struct boot_info *bi);
/* One zeroed page, as a direct-map address; NULL when memory is exhausted. */
void *alloc_page(void);
void free_page(void *page);
/* n physically contiguous zeroed pages; NULL if no such run is free. */
void *alloc_pages(size_t n);
void free_pages(void *first, size_t n);
size_t nr_free_pages(void);
size_t nr_total_pages(void);

void *kmalloc(size_t size); /* NULL when out of memory */
void *kzalloc(size_t size);
void kfree(void *ptr); /* kfree(NULL) does nothing */
