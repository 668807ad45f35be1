/*
 * kstack.c - kernel stacks with a guard below each (Linux's
 * CONFIG_VMAP_STACK).
 *
 * Design notes:
 *  - A kernel stack is small (KSTACK_SIZE, 16 KiB) and nothing checks its
 *    depth: a deep recursion in the kernel walks off its bottom. If the
 *    stack were a run of pages of the direct map, it would then silently
 *    overwrite whatever page lies below: another task's stack, a page
 *    table, a file's data.
 *  - So stacks live in an area of their own, KSTACK_AREA (mm/kernel_map.c
 *    made its top-level entry), cut into slots of KSTACK_SLOT_PAGES pages.
 *    The top KSTACK_PAGES of a slot map the stack's frames (any free
 *    frames: they need not be contiguous); the pages below stay unmapped,
 *    a guard. Running into it faults; the CPU cannot even push the fault's
 *    frame on that stack, so the fault becomes a double fault, which runs
 *    on a stack of its own (the TSS's IST1) and reports the overflow as a
 *    clean oops (arch/x86/kernel/traps.c, kstack_guard_hit).
 *  - Free slots are kept in a bitmap; a freed slot's pages are unmapped
 *    and their TLB entries dropped, on every CPU, before the slot is
 *    reused.
 *  - That drop is an IPI to every other CPU and a wait for each: too dear
 *    for every exit. So, like Linux (NR_CACHED_STACKS), the last few
 *    freed stacks stay mapped, and the next tasks take them (cleared).
 *  - kstack_lock guards the bitmap, the cache and the area's page tables
 *    (no one else maps in KSTACK_AREA), so that stacks are made and freed
 *    without the big kernel lock. It is a leaf but for the page allocator
 *    (include/vm.h); the clearing and the TLB drop are done outside it.
 */
#include <mm.h>
#include <sched.h>
#include <spinlock.h>
#include <x86.h>

#include "internal.h"

#define KSTACK_SLOT_PAGES 8 /* the stack on top, a guard of 4 pages below */
#define KSTACK_SLOT_SIZE (KSTACK_SLOT_PAGES * PAGE_SIZE)
#define KSTACK_GUARD_SIZE (KSTACK_SLOT_SIZE - KSTACK_SIZE)
#define KSTACK_SLOTS 32768 /* more than max_tasks with 4 GiB of RAM */

static DEFINE_SPINLOCK(kstack_lock);
static uint64_t slots_used[KSTACK_SLOTS / 64];
#define KSTACK_CACHE 2
static void *cached_stacks[KSTACK_CACHE]; /* freed, still mapped */
static int nr_cached;

extern char boot_stack_guard[], boot_stack[], boot_stack_top[];

static uint64_t slot_stack(uint64_t slot)
{
	return KSTACK_AREA + slot * KSTACK_SLOT_SIZE + KSTACK_GUARD_SIZE;
}

/* Free the frames of a slot's first pages and drop their entries.
 * kstack_lock is not held: the TLB drop waits for the other CPUs. */
static void unmap_stack(uint64_t stack, int pages)
{
	for (int i = 0; i < pages; i++) {
		uint64_t va = stack + i * PAGE_SIZE;
		uint64_t *pte = kernel_pte(va, false);
		free_page(phys_to_virt(*pte & PTE_ADDR));
		*pte = 0;
	}
	flush_tlb_kernel_range(stack, stack + pages * PAGE_SIZE);
}

/* A free slot, marked used; KSTACK_SLOTS if there is none. */
static uint64_t take_slot(void)
{
	for (int w = 0; w < KSTACK_SLOTS / 64; w++) {
		if (slots_used[w] != ~0UL) {
			uint64_t slot = w * 64 + __builtin_ctzl(~slots_used[w]);
			slots_used[w] |= 1UL << (slot % 64);
			return slot;
		}
	}
	return KSTACK_SLOTS;
}

/* Give back a slot whose stack is unmapped. */
static void release_slot(uint64_t slot)
{
	uint64_t flags;

	spin_lock_irqsave(&kstack_lock, flags);
	slots_used[slot / 64] &= ~(1UL << (slot % 64));
	spin_unlock_irqrestore(&kstack_lock, flags);
}

/* Map fresh frames at slot's stack pages; the number mapped before a
 * frame or a table ran out is returned. kstack_lock is held. */
static int map_stack(uint64_t stack)
{
	for (int i = 0; i < KSTACK_PAGES; i++) {
		void *page = alloc_page();
		uint64_t *pte = page ? kernel_pte(stack + i * PAGE_SIZE, true) : NULL;
		if (!pte) {
			if (page)
				free_page(page);
			return i;
		}
		*pte = virt_to_phys(page) | PTE_P | PTE_W | pte_nx;
	}
	return KSTACK_PAGES;
}

void *kstack_alloc(void)
{
	uint64_t flags, slot, stack;
	char *cached = NULL;
	int mapped = 0;

	spin_lock_irqsave(&kstack_lock, flags);
	if (nr_cached)
		cached = cached_stacks[--nr_cached];
	slot = cached ? 0 : take_slot();
	stack = slot_stack(slot);
	if (!cached && slot < KSTACK_SLOTS)
		mapped = map_stack(stack);
	spin_unlock_irqrestore(&kstack_lock, flags);

	if (cached) {
		for (int i = 0; i < KSTACK_PAGES; i++) /* as fresh pages come */
			zero_page(cached + i * PAGE_SIZE);
		return cached;
	}
	if (slot == KSTACK_SLOTS)
		return NULL;
	if (mapped < KSTACK_PAGES) {
		unmap_stack(stack, mapped);
		release_slot(slot);
		return NULL;
	}
	return (void *)stack;
}

void kstack_free(void *stack)
{
	uint64_t slot = ((uint64_t)stack - KSTACK_AREA) / KSTACK_SLOT_SIZE, flags;
	bool kept = false;

	BUG_ON((uint64_t)stack != slot_stack(slot) || slot >= KSTACK_SLOTS);
	spin_lock_irqsave(&kstack_lock, flags);
	if (nr_cached < KSTACK_CACHE) {
		cached_stacks[nr_cached++] = stack;
		kept = true;
	}
	spin_unlock_irqrestore(&kstack_lock, flags);
	if (kept)
		return;
	/* The slot is ours until its bit is clear: unmap it first. */
	unmap_stack((uint64_t)stack, KSTACK_PAGES);
	release_slot(slot);
}

bool kstack_guard_hit(uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	if (addr >= (uint64_t)boot_stack_guard && addr < (uint64_t)boot_stack) {
		*lo = (uint64_t)boot_stack;
		*hi = (uint64_t)boot_stack_top;
		return true;
	}
	if (addr < KSTACK_AREA || addr >= KSTACK_AREA + (uint64_t)KSTACK_SLOTS * KSTACK_SLOT_SIZE)
		return false;
	uint64_t slot = (addr - KSTACK_AREA) / KSTACK_SLOT_SIZE;
	if (addr >= slot_stack(slot))
		return false; /* in the stack itself */
	*lo = slot_stack(slot);
	*hi = *lo + KSTACK_SIZE;
	return true;
}
