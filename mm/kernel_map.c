/*
 * kernel_map.c - the kernel's half of the address space, rebuilt with the
 * rights each page needs (W^X), and the kernel stacks' area.
 *
 * Design notes:
 *  - boot/boot.S maps all of the first 4 GiB, writable and executable,
 *    with 2 MiB pages: enough to start, but any bug could then write over
 *    the kernel's code or run its data. Once pages can be allocated,
 *    kernel_map_init builds the kernel half anew and installs it in
 *    boot_pml4, whose upper half every address space shares:
 *
 *      PML4 256  0xffff800000000000  the direct map: all RAM, read-write,
 *                                    never executable (2 MiB pages; the
 *                                    kernel image's own pages in it are
 *                                    as read-only as below)
 *      PML4 402  0xffffc90000000000  the kernel stacks (mm/kstack.c), each
 *                                    with unmapped guard pages below it
 *      PML4 511  0xffffffff80100000  the kernel image, 4 KiB pages:
 *                  .boot .text       read-only; only .text executable
 *                  .rodata .ksyms    read-only, not executable
 *                  .data .bss        read-write, not executable
 *                                    (but the boot stack's guard page,
 *                                    which is not mapped at all)
 *    Nothing else is mapped: not the first 1 MiB above KERNEL_VMA, not
 *    virtual page 0 (the lower half is user space: only a process with
 *    CAP_SYS_RAWIO may map below MMAP_MIN_ADDR, as on Linux, and SMAP and
 *    SMEP keep the kernel from using such a page), so a NULL pointer in
 *    the kernel always faults.
 *  - The new tables are built aside and installed in one go: the code
 *    that builds them runs from the old mapping of the same pages.
 *  - The top-level entries never change afterwards: mm_create copies them
 *    into every new address space, and lower levels are shared.
 *  - Like Linux's CONFIG_DEBUG_WX, the result is checked: no page of the
 *    kernel half may be both writable and executable.
 */
#include <boot.h>
#include <mm.h>
#include <string.h>
#include <x86.h>

#include "internal.h"

#define KTABLE_FLAGS (PTE_P | PTE_W) /* no PTE_U: the kernel's alone */
#define LARGE_PAGE (2UL << 20)

extern char _kernel_start[], _text[], _etext[], __start_rodata[], __end_rodata[];
extern char _sdata[], _kernel_end[], boot_stack_guard[];

uint64_t pte_nx; /* PTE_NX if the CPU has NX (boot.S turned it on), else 0 */

static uint64_t *new_table(void)
{
	uint64_t *t = alloc_page();
	if (!t)
		panic("kernel_map: out of memory for page tables");
	return t;
}

static unsigned index_at(uint64_t va, int level)
{
	return (va >> (PAGE_SHIFT + 9 * (level - 1))) & 511;
}

/*
 * The entry of va at `level` (1: a 4 KiB page, 2: a 2 MiB page) under
 * pml4, making the tables on the way if create. NULL if a table is
 * missing and !create.
 */
static uint64_t *walk(uint64_t *pml4, uint64_t va, int level, bool create)
{
	uint64_t *table = pml4;
	for (int l = 4; l > level; l--) {
		uint64_t *e = &table[index_at(va, l)];
		if (!(*e & PTE_P)) {
			if (!create)
				return NULL;
			*e = virt_to_phys(new_table()) | KTABLE_FLAGS;
		}
		BUG_ON(*e & PTE_PS);
		table = phys_to_virt(*e & PTE_ADDR);
	}
	return &table[index_at(va, level)];
}

uint64_t *kernel_pte(uint64_t va, bool create)
{
	return walk(boot_pml4, va, 1, create);
}

/* The rights of kernel image page va (linked address), or 0: not mapped. */
static uint64_t image_page_flags(uint64_t va)
{
	if (va == (uint64_t)boot_stack_guard)
		return 0;
	if (va < (uint64_t)_text)
		return PTE_P | pte_nx; /* .boot: multiboot headers, 32-bit code */
	if (va < ALIGN_UP((uint64_t)_etext, PAGE_SIZE))
		return PTE_P;
	if (va < (uint64_t)__end_rodata)
		return PTE_P | pte_nx;
	return PTE_P | PTE_W | pte_nx;
}

/* Map the kernel image at its linked address under pml4, page by page. */
static void map_image(uint64_t *pml4)
{
	for (uint64_t va = (uint64_t)_kernel_start; va < (uint64_t)_kernel_end; va += PAGE_SIZE) {
		uint64_t flags = image_page_flags(va);
		if (flags)
			*walk(pml4, va, 1, true) = (va - KERNEL_VMA) | flags;
	}
}

/*
 * The direct map under pml4: RAM up to max_pfn, read-write, not
 * executable, in 2 MiB pages; the 2 MiB pages that hold the kernel image
 * in 4 KiB pages, the image's own with its rights (never executable).
 */
static void map_direct(uint64_t *pml4)
{
	uint64_t end = ALIGN_UP(max_pfn * PAGE_SIZE, LARGE_PAGE);
	uint64_t img_start = (uint64_t)_kernel_start - KERNEL_VMA;
	uint64_t img_end = (uint64_t)_kernel_end - KERNEL_VMA;

	for (uint64_t pa = 0; pa < end; pa += LARGE_PAGE) {
		uint64_t *pde = walk(pml4, PHYS_MAP_BASE + pa, 2, true);
		if (pa + LARGE_PAGE <= img_start || pa >= img_end) {
			*pde = pa | PTE_P | PTE_W | PTE_PS | pte_nx;
			continue;
		}
		for (uint64_t p = pa; p < pa + LARGE_PAGE; p += PAGE_SIZE) {
			uint64_t flags = PTE_P | PTE_W | pte_nx;
			if (p >= img_start && p < img_end)
				flags = (image_page_flags(p + KERNEL_VMA) & ~PTE_NX) | pte_nx | PTE_P;
			*walk(pml4, PHYS_MAP_BASE + p, 1, true) = p | flags;
		}
	}
}

uint64_t direct_map_end(void)
{
	return ALIGN_UP(max_pfn * PAGE_SIZE, LARGE_PAGE);
}

/* Count the pages of the kernel half that are writable and executable. */
static uint64_t count_wx(const uint64_t *table, int level)
{
	uint64_t n = 0;
	for (int i = level == 4 ? 256 : 0; i < 512; i++) {
		uint64_t e = table[i];
		if (!(e & PTE_P))
			continue;
		if (level == 1 || (e & PTE_PS)) {
			if ((e & PTE_W) && !(e & PTE_NX))
				n += 1UL << (9 * (level - 1));
			continue;
		}
		n += count_wx(phys_to_virt(e & PTE_ADDR), level - 1);
	}
	return n;
}

void kernel_map_init(void)
{
	uint64_t *pml4 = new_table(); /* a scratch top level: entries moved below */

	pte_nx = (rdmsr(MSR_EFER) & EFER_NX) ? PTE_NX : 0;
	printk(KERN_INFO "NX (Execute Disable) protection: %s\n", pte_nx ? "active" : "not present!");
	map_direct(pml4);
	map_image(pml4);
	walk(pml4, KSTACK_AREA, 3, true); /* the stacks' PDPT, empty for now */

	/* Install it: the kernel half of boot_pml4, which the CPU uses now. */
	for (int i = 256; i < 512; i++)
		boot_pml4[i] = pml4[i];
	write_cr3(virt_to_phys(boot_pml4));
	free_page(pml4);

	printk(KERN_INFO "Write protecting the kernel read-only data: %luk\n",
	       (unsigned long)((uint64_t)__end_rodata - (uint64_t)_text) / 1024);
	uint64_t wx = count_wx(boot_pml4, 4);
	if (wx)
		printk(KERN_WARNING "x86/mm: Checked W+X mappings: FAILED, %lu W+X pages found.\n",
		       (unsigned long)wx);
	else
		printk(KERN_INFO "x86/mm: Checked W+X mappings: passed, no W+X pages found.\n");
}
