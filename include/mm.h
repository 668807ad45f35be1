/*
 * mm.h - physical memory and the kernel heap.
 *
 * Physical frames (mm/page_alloc.c): a bitmap over all RAM the boot loader
 * reported. Every frame is reachable through the direct map, so the kernel
 * works with virtual addresses (phys_to_virt) and converts only when it
 * writes page tables. Every allocated frame has a reference count, so that
 * several address spaces can map one frame (copy-on-write after fork).
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
/* kmalloc's per-frame descriptors (mm/kmalloc.c): kmalloc works from then
 * on. Right after page_alloc_init, before anything allocates. */
void kmalloc_init(void);
/* Give back the whole frames of physical [start, end) that were reserved at
 * boot and are RAM (the initramfs, once unpacked). Returns the bytes freed. */
uint64_t free_reserved_range(const struct boot_info *bi, uint64_t start, uint64_t end);
/* One zeroed page, as a direct-map address; NULL when memory is exhausted. */
void *alloc_page(void);
/* n physically contiguous zeroed pages; NULL if no such run is free. */
void *alloc_pages(size_t n);
/* Give back pages that have one owner (their count is 1): a kernel bug,
 * caught by BUG_ON, if they were shared or already free. */
void free_page(void *page);
void free_pages(void *first, size_t n);

/*
 * Reference counts. alloc_page/alloc_pages hand out frames with a count of
 * 1. get_page adds an owner; put_page drops one and frees the frame when
 * the count reaches 0. A count cannot overflow its 32 bits: every reference
 * to a user frame is a page-table entry, and 2^32 entries would need 32 GiB
 * of page tables, more than the 4 GiB the allocator manages.
 */
void get_page(void *page);
void put_page(void *page);
unsigned page_count(const void *page); /* the owners of an allocated page */

/* Free frames (each frame counts once, however many times it is mapped). */
size_t nr_free_pages(void);
size_t nr_total_pages(void);

/* Pages held by kmalloc (mm/kmalloc.c) and by user page tables
 * (mm/pgtable.c, mm/vm.c): /proc/meminfo's Slab and PageTables. */
extern size_t nr_slab_pages, nr_pgtable_pages;

void *kmalloc(size_t size); /* NULL when out of memory */
void *kzalloc(size_t size);
void kfree(void *ptr); /* kfree(NULL) does nothing */

/*
 * The kernel's own mappings (mm/kernel_map.c): kernel_map_init rebuilds
 * the kernel half with W^X rights; kernel_pte finds (or makes, if create)
 * the 4 KiB entry of a kernel address outside the direct map.
 */
void kernel_map_init(void);
uint64_t *kernel_pte(uint64_t va, bool create);
extern uint64_t pte_nx; /* PTE_NX, or 0 on a CPU without NX */
/* The first physical address past the direct map (mm/kernel_map.c). */
uint64_t direct_map_end(void);
/* Map a device's registers, uncached (mm/ioremap.c); NULL if no room. */
void *ioremap(uint64_t phys, size_t size);

/*
 * Kernel stacks (mm/kstack.c): KSTACK_SIZE bytes in KSTACK_AREA with an
 * unmapped guard below, so that an overflow faults. NULL if no memory.
 * kstack_guard_hit: is addr in a guard page? Then [*lo, *hi) is the stack
 * it guards.
 */
#define KSTACK_AREA 0xffffc90000000000UL
void *kstack_alloc(void);
void kstack_free(void *stack);
bool kstack_guard_hit(uint64_t addr, uint64_t *lo, uint64_t *hi);

/*
 * The OOM killer (mm/oom_kill.c): memory ran out. Kill the process holding
 * the most (never pid 1), unless the last one killed is still on its way
 * out; the caller then lets it run and tries again. false: there is no one
 * to kill.
 */
bool out_of_memory(void);
