/*
 * vmalloc.h - kernel memory that is contiguous only in virtual addresses
 * (mm/vmalloc.c): the module area.
 *
 * Loadable modules are linked into the running kernel. Their code is
 * compiled with -mcmodel=kernel, like the kernel's own: every symbol it
 * refers to must lie in the top 2 GiB of the address space, within a
 * signed 32-bit displacement of the code that uses it. So module memory
 * comes from a range right above the kernel image, [MODULES_VADDR,
 * MODULES_END), as in Linux; the kernel image is in the GiB below.
 *
 * Pages are mapped one by one (the frames need not be physically
 * contiguous), read-write and not executable; set_memory_* then change
 * the rights of pages of an allocation: the module loader makes a
 * module's text read-only and executable, its read-only data read-only,
 * and leaves its data writable and not executable (W^X).
 */
#pragma once
#include <kernel.h>

/* The last GiB of the address space, but for its top 16 MiB (left unused,
 * where Linux keeps its fixmap). */
#define MODULES_VADDR 0xffffffffc0000000UL
#define MODULES_END 0xffffffffff000000UL
#define MODULES_LEN (MODULES_END - MODULES_VADDR)

/*
 * size bytes (rounded up to pages) of zeroed memory, readable and
 * writable, not executable; one unmapped guard page follows it, so a run
 * past the end faults instead of corrupting a neighbour. NULL if there is
 * no room or no memory (size 0 gives NULL too).
 */
void *vmalloc(size_t size);
/* Unmap and free an allocation of vmalloc (the start address it gave, or
 * NULL). Its pages may have had their rights changed. */
void vfree(const void *addr);
/* The memory of a loadable module: vmalloc'd (Linux: module_alloc). */
void *module_alloc(size_t size);
void module_memfree(void *addr);

/*
 * Change the rights of numpages pages from addr (page aligned, inside one
 * vmalloc allocation), as Linux's set_memory_*: ro/rw clear or set write
 * permission, x/nx clear or set no-execute. 0, or -EINVAL for a range that
 * is not vmalloc'd memory.
 */
int set_memory_ro(unsigned long addr, int numpages);
int set_memory_rw(unsigned long addr, int numpages);
int set_memory_x(unsigned long addr, int numpages);
int set_memory_nx(unsigned long addr, int numpages);

/* Whether addr lies in some vmalloc allocation (for backtraces). */
bool is_vmalloc_addr(const void *addr);
/* Pages of memory the area holds now (allocations, not guards or tables). */
size_t vmalloc_nr_pages(void);
