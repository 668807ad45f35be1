/*
 * page_alloc.c - the physical frame allocator.
 *
 * Design notes:
 *  - One bit per 4 KiB frame of the first 4 GiB: 1 = in use or not RAM,
 *    0 = free. 4 GiB is the limit because boot maps only that much into the
 *    direct map, and a frame we cannot reach is useless to us. The bitmap is
 *    a static array (128 KiB of .bss), so it needs no memory to bootstrap.
 *  - At init everything starts "in use"; the usable regions from the boot
 *    loader are then freed, and the ranges that hold something (low 1 MiB,
 *    the kernel image, the multiboot info, the modules) are taken again.
 *  - Allocation scans the bitmap a 64-bit word at a time, starting where the
 *    last allocation succeeded (a "next fit" hint), so the usual case is fast.
 *    Single frames go through a small list per CPU in between (below), so
 *    that most allocations and frees touch only their own CPU's list.
 *  - Frames are zeroed when they are handed out, never when they are freed:
 *    callers always get clean memory, and no data leaks between processes.
 *    (alloc_page_nozero is the one exception, for a caller that is about to
 *    overwrite the whole frame anyway: the copy of a copy-on-write page.)
 *  - Each frame handed out has a reference count: how many owners it has.
 *    A kernel object (a page table, a kmalloc slab, a kernel stack) has one
 *    owner. A user page can have several: fork makes parent and child map
 *    the same frame, and each mapping is one reference (see mm/fault.c for
 *    why). The counts live here, in an array indexed by frame number
 *    (page_refs[pfn], 4 bytes a frame, allocated at boot), because they
 *    belong to the frame, whoever maps it. alloc_page starts a frame at 1;
 *    get_page adds an owner; put_page drops one and frees the frame when
 *    none is left. free_page and free_pages are for frames with one owner.
 *  - Free memory is counted in frames, not in mappings: a frame shared by
 *    ten processes is one frame in use, and nr_free_pages() does not care
 *    how many times it is mapped.
 */
#include <boot.h>
#include <kasan.h>
#include <mm.h>
#include <percpu.h>
#include <spinlock.h>
#include <string.h>

#include "internal.h"

#define MAX_PHYS (4UL << 30)              /* what the direct map covers */
#define MAX_FRAMES (MAX_PHYS / PAGE_SIZE) /* 1 Mi frames */
#define LOW_MEMORY (1UL << 20)            /* BIOS, real-mode stuff: never used */

/*
 * Locks. Page faults take frames without the big kernel lock (mm/fault.c),
 * on several CPUs at once, so:
 *  - zone_lock guards the bitmap and the hint. It is the innermost lock of
 *    the kernel: nothing is taken inside it.
 *  - Each CPU has a list of free frames of its own (struct pcp_list, below,
 *    Linux's per-CPU page lists) with its own lock, taken before zone_lock
 *    when a list is refilled from the bitmap or drained into it. A CPU
 *    takes another's list lock only when the bitmap has run dry, and never
 *    holds two of them.
 *  - The reference counts and free_frames are atomic.
 * Interrupts are off while any of these is held (lock order: include/vm.h).
 * Zeroing a frame is done outside them, after the frame is ours.
 */
static DEFINE_SPINLOCK(zone_lock);
static uint64_t frame_bitmap[MAX_FRAMES / 64];
/* page_refs[pfn]: the owners of frame pfn, 0 for a free or reserved frame.
 * Indexed up to max_pfn; NULL until page_alloc_init has allocated it. */
static uint32_t *page_refs;

uint64_t max_pfn;        /* one past the highest usable frame */
static uint64_t min_pfn; /* the first frame above LOW_MEMORY */
static size_t total_frames;
static size_t free_frames; /* in the bitmap and on the CPUs' lists */
static uint64_t next_hint; /* where the next single-frame search starts */

/*
 * A CPU's list of free frames. A frame on it is free (counted in
 * free_frames) but marked used in the bitmap, so that the bitmap does not
 * hand it out too, and its count is ON_LIST, so that it is not taken for
 * a reserved frame (used, count 0: free_reserved_range) and a get_page or
 * put_page of it is caught. The list is refilled PCP_BATCH frames
 * at a time when empty and drained PCP_BATCH at a time when full: one
 * zone_lock for PCP_BATCH frames, and frames freed on a CPU are reused
 * there while they are still in its cache.
 */
#define ON_LIST 0x80000000u /* a count no owned frame reaches: see mm.h */
#define PCP_HIGH 64
#define PCP_BATCH 16
/* A ring: the oldest frame at pfn[first], the newest count - 1 after it.
 * Frames are taken from the new end (the likeliest to be in the CPU's
 * cache) and drained from the old one. */
struct pcp_list {
	spinlock_t lock;
	unsigned first, count;
	uint64_t pfn[PCP_HIGH];
};

static uint64_t *pcp_slot(struct pcp_list *pcp, unsigned i)
{
	return &pcp->pfn[(pcp->first + i) % PCP_HIGH];
}
static struct pcp_list pcp_lists[NR_CPUS];

static void free_frames_add(long n) { __atomic_fetch_add(&free_frames, n, __ATOMIC_RELAXED); }

static bool frame_used(uint64_t pfn) { return frame_bitmap[pfn / 64] >> (pfn % 64) & 1; }
static void set_used(uint64_t pfn) { frame_bitmap[pfn / 64] |= 1UL << (pfn % 64); }
static void set_free(uint64_t pfn) { frame_bitmap[pfn / 64] &= ~(1UL << (pfn % 64)); }

/* Mark the frames overlapping physical [start, end) as used. */
static void reserve_range(uint64_t start, uint64_t end)
{
	uint64_t first = start / PAGE_SIZE;
	uint64_t last = MIN(ALIGN_UP(end, PAGE_SIZE), MAX_PHYS) / PAGE_SIZE;
	for (uint64_t pfn = first; pfn < last; pfn++) {
		if (!frame_used(pfn)) {
			set_used(pfn);
			free_frames--;
		}
	}
}

/* Mark the whole frames inside physical [base, base+len) as free RAM. */
static void add_region(uint64_t base, uint64_t len)
{
	if (base >= MAX_PHYS)
		return;
	uint64_t first = ALIGN_UP(base, PAGE_SIZE) / PAGE_SIZE;
	uint64_t last = ALIGN_DOWN(MIN(base + len, MAX_PHYS), PAGE_SIZE) / PAGE_SIZE;
	for (uint64_t pfn = first; pfn < last; pfn++) {
		if (frame_used(pfn)) { /* regions might overlap: count once */
			set_free(pfn);
			free_frames++;
			total_frames++;
		}
	}
	if (last > max_pfn)
		max_pfn = last;
}

void page_alloc_init(const struct boot_info *bi)
{
	memset(frame_bitmap, 0xff, sizeof(frame_bitmap));
	for (int i = 0; i < bi->nr_regions; i++)
		add_region(bi->regions[i].base, bi->regions[i].len);

	reserve_range(0, LOW_MEMORY);
	reserve_range(bi->kernel_start, bi->kernel_end);
	if (bi->info_end > bi->info_start)
		reserve_range(bi->info_start, bi->info_end);
	for (int i = 0; i < bi->nr_modules; i++)
		reserve_range(bi->modules[i].start, bi->modules[i].end);

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		spin_lock_init(&pcp_lists[cpu].lock);
	min_pfn = LOW_MEMORY / PAGE_SIZE;
	next_hint = min_pfn;
	if (max_pfn == 0)
		panic("page_alloc_init: the boot loader reported no usable memory");

	/* The reference counts, from the memory they describe: their own
	 * frames are taken while page_refs is still NULL, so they are given
	 * their count of 1 by hand. */
	size_t ref_pages = ALIGN_UP(max_pfn * sizeof(*page_refs), PAGE_SIZE) / PAGE_SIZE;
	uint32_t *refs = alloc_pages(ref_pages); /* zeroed: all counts 0 */
	if (!refs)
		panic("page_alloc_init: no memory for %lu reference counts",
		      (unsigned long)max_pfn);
	uint64_t refs_pfn = virt_to_phys(refs) / PAGE_SIZE;
	for (uint64_t pfn = refs_pfn; pfn < refs_pfn + ref_pages; pfn++)
		refs[pfn] = 1;
	page_refs = refs;

	printk(KERN_INFO "Memory: %luK/%luK available (%luK kernel, %luK reserved)\n",
	       (unsigned long)(free_frames * 4), (unsigned long)(total_frames * 4),
	       (unsigned long)(ALIGN_UP(bi->kernel_end - bi->kernel_start, PAGE_SIZE) / 1024),
	       (unsigned long)((total_frames - free_frames) * 4));
}

bool page_is_free(uint64_t pfn) { return !frame_used(pfn); }

/* Take frames [first, first+n), which are free, each with one owner.
 * zone_lock is held. */
static void take_frames(uint64_t first, size_t n)
{
	for (uint64_t pfn = first; pfn < first + n; pfn++) {
		set_used(pfn);
		if (page_refs)
			page_refs[pfn] = 1;
	}
	free_frames_add(-(long)n);
}

/* Hand out frames [first, first+n) just taken, zeroed if zero is set. */
static void *frames_ready(uint64_t first, size_t n, bool zero)
{
	void *va = phys_to_virt(first * PAGE_SIZE);

	kasan_unpoison(va, n * PAGE_SIZE);
	if (zero)
		for (size_t i = 0; i < n; i++)
			zero_page((char *)va + i * PAGE_SIZE);
	return va;
}

/* The first free frame in [from, to), or 0 if none: whole words of used
 * frames are skipped at once. */
static uint64_t find_free_frame(uint64_t from, uint64_t to)
{
	uint64_t pfn = from;
	while (pfn < to) {
		uint64_t word = frame_bitmap[pfn / 64] | ((1UL << (pfn % 64)) - 1);
		if (word != ~0UL) {
			uint64_t found = ALIGN_DOWN(pfn, 64) + __builtin_ctzl(~word);
			return found < to ? found : 0;
		}
		pfn = ALIGN_DOWN(pfn, 64) + 64;
	}
	return 0;
}

/* The next free frame of the bitmap, marked used (but not counted as
 * taken: it goes to a CPU's list); 0 if there is none. zone_lock is held. */
static uint64_t zone_take_one(void)
{
	uint64_t pfn = find_free_frame(next_hint, max_pfn);

	if (!pfn)
		pfn = find_free_frame(min_pfn, next_hint);
	if (pfn) {
		set_used(pfn);
		next_hint = pfn + 1;
	}
	return pfn;
}

/* Give frame pfn, free, back to the bitmap. zone_lock is held. */
static void zone_give_back(uint64_t pfn)
{
	page_refs[pfn] = 0;
	set_free(pfn);
	if (pfn < next_hint)
		next_hint = pfn; /* keep memory use low and compact */
}

static void pcp_refill(struct pcp_list *pcp)
{
	spin_lock(&zone_lock);
	while (pcp->count < PCP_BATCH) {
		uint64_t pfn = zone_take_one();
		if (!pfn)
			break;
		page_refs[pfn] = ON_LIST;
		*pcp_slot(pcp, pcp->count++) = pfn;
	}
	spin_unlock(&zone_lock);
}

/* Give the oldest n frames of the list back to the bitmap. */
static void pcp_drain(struct pcp_list *pcp, unsigned n)
{
	spin_lock(&zone_lock);
	for (unsigned i = 0; i < n; i++)
		zone_give_back(*pcp_slot(pcp, i));
	pcp->first = (pcp->first + n) % PCP_HIGH;
	pcp->count -= n;
	spin_unlock(&zone_lock);
}

/* A frame from cpu's list, refilled from the bitmap if mine; 0 if none.
 * Interrupts are off. */
static uint64_t pcp_take(int cpu, bool mine)
{
	struct pcp_list *pcp = &pcp_lists[cpu];
	uint64_t pfn = 0;

	spin_lock(&pcp->lock);
	if (!pcp->count && mine)
		pcp_refill(pcp);
	if (pcp->count)
		pfn = *pcp_slot(pcp, --pcp->count);
	spin_unlock(&pcp->lock);
	return pfn;
}

/* Put free frame pfn on this CPU's list. */
static void pcp_give(uint64_t pfn)
{
	uint64_t flags = irq_save();
	struct pcp_list *pcp = &pcp_lists[smp_processor_id()];

	spin_lock(&pcp->lock);
	if (pcp->count == PCP_HIGH)
		pcp_drain(pcp, PCP_BATCH);
	*pcp_slot(pcp, pcp->count++) = pfn;
	spin_unlock(&pcp->lock);
	irq_restore(flags);
}

/* Every CPU's list back into the bitmap: before a search for a run of
 * frames, which frames on the lists would break up. */
static void pcp_drain_all(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		uint64_t flags;
		spin_lock_irqsave(&pcp_lists[cpu].lock, flags);
		pcp_drain(&pcp_lists[cpu], pcp_lists[cpu].count);
		spin_unlock_irqrestore(&pcp_lists[cpu].lock, flags);
	}
}

static void *alloc_one(bool zero)
{
	uint64_t flags = irq_save();
	int me = smp_processor_id();
	uint64_t pfn = pcp_take(me, true);

	/* The bitmap is empty: what other CPUs keep is still free memory. */
	for (int cpu = 0; !pfn && cpu < NR_CPUS; cpu++)
		if (cpu != me)
			pfn = pcp_take(cpu, false);
	irq_restore(flags);
	if (!pfn)
		return NULL;
	page_refs[pfn] = 1;
	free_frames_add(-1);
	return frames_ready(pfn, 1, zero);
}

void *alloc_page(void) { return alloc_one(true); }
void *alloc_page_nozero(void) { return alloc_one(false); }

/* The first run of n free frames (first fit), 0 if none. zone_lock is
 * held. */
static uint64_t find_free_run(size_t n)
{
	size_t run = 0;
	uint64_t pfn = min_pfn;

	while (pfn < max_pfn) {
		if (frame_bitmap[pfn / 64] == ~0UL) { /* a word of used frames */
			run = 0;
			pfn = ALIGN_DOWN(pfn, 64) + 64;
			continue;
		}
		if (frame_used(pfn))
			run = 0;
		else if (++run == n)
			return pfn + 1 - n;
		pfn++;
	}
	return 0;
}

/* A run of n frames taken from the bitmap; 0 if there is none. */
static uint64_t zone_take_run(size_t n)
{
	uint64_t flags, first = 0;

	spin_lock_irqsave(&zone_lock, flags);
	if (n <= free_frames)
		first = find_free_run(n);
	if (first)
		take_frames(first, n);
	spin_unlock_irqrestore(&zone_lock, flags);
	return first;
}

static void *alloc_run(size_t n, bool zero)
{
	uint64_t first;

	if (n == 0)
		return NULL;
	/* Before page_refs exists (page_alloc_init's own run), even one
	 * frame comes from the bitmap: the CPU lists need the counts. */
	if (n == 1 && page_refs)
		return alloc_one(zero);
	first = zone_take_run(n);
	if (!first && page_refs) {
		pcp_drain_all();
		first = zone_take_run(n);
	}
	return first ? frames_ready(first, n, zero) : NULL;
}

void *alloc_pages(size_t n) { return alloc_run(n, true); }
void *alloc_pages_nozero(size_t n) { return alloc_run(n, false); }

/* The frame number of a page the allocator handed out; a bad pointer is a
 * kernel bug. */
static uint64_t page_to_pfn(const void *page)
{
	uint64_t va = (uint64_t)page;
	BUG_ON(va < PHYS_MAP_BASE || va % PAGE_SIZE);
	uint64_t pfn = (va - PHYS_MAP_BASE) / PAGE_SIZE;
	BUG_ON(pfn < min_pfn || pfn >= max_pfn);
	return pfn;
}

/* Frame pfn's last owner has let go: to this CPU's list. */
static void free_frame(uint64_t pfn)
{
	kasan_poison(phys_to_virt(pfn * PAGE_SIZE), PAGE_SIZE, KASAN_PAGE_FREE);
	page_refs[pfn] = ON_LIST;
	free_frames_add(1);
	pcp_give(pfn);
}

void free_pages(void *first, size_t n)
{
	uint64_t pfn = page_to_pfn(first);

	BUG_ON(pfn + n > max_pfn);
	for (uint64_t i = pfn; i < pfn + n; i++) {
		/* A frame with no owner is free already (on a list, or in the
		 * bitmap); a shared one must be put by its owner: put_page. */
		BUG_ON(page_refs[i] != 1);
		free_frame(i);
	}
}

void free_page(void *page) { free_pages(page, 1); }

void get_page(void *page)
{
	uint32_t old = __atomic_fetch_add(&page_refs[page_to_pfn(page)], 1, __ATOMIC_RELAXED);

	BUG_ON(old == 0 || old == ON_LIST); /* not allocated */
	BUG_ON(old + 1 == 0);    /* cannot happen: see mm.h */
}

void put_page(void *page)
{
	uint64_t pfn = page_to_pfn(page);
	/* Acquire and release: whatever an owner wrote to the frame is done
	 * before the last owner frees it. */
	uint32_t old = __atomic_fetch_sub(&page_refs[pfn], 1, __ATOMIC_ACQ_REL);

	BUG_ON(old == 0 || old == ON_LIST); /* one put too many */
	if (old == 1)
		free_frame(pfn);
}

unsigned page_count(const void *page) { return page_refs[page_to_pfn(page)]; }

size_t nr_free_pages(void) { return __atomic_load_n(&free_frames, __ATOMIC_RELAXED); }
size_t nr_total_pages(void) { return total_frames; }

uint64_t free_reserved_range(const struct boot_info *bi, uint64_t start, uint64_t end)
{
	uint64_t first = ALIGN_UP(start, PAGE_SIZE) / PAGE_SIZE;
	uint64_t last = MIN(ALIGN_DOWN(end, PAGE_SIZE) / PAGE_SIZE, max_pfn);
	uint64_t flags, n = 0;

	spin_lock_irqsave(&zone_lock, flags);
	for (uint64_t pfn = MAX(first, min_pfn); pfn < last; pfn++) {
		uint64_t pa = pfn * PAGE_SIZE;
		bool ram = false;
		for (int i = 0; i < bi->nr_regions && !ram; i++)
			ram = pa >= bi->regions[i].base && pa + PAGE_SIZE <= bi->regions[i].base + bi->regions[i].len;
		/* Reserved: used, without an owner (frames on a CPU's list are
		 * too, but a reserved range has none). */
		if (ram && frame_used(pfn) && page_refs[pfn] == 0) {
			kasan_poison(phys_to_virt(pfn * PAGE_SIZE), PAGE_SIZE, KASAN_PAGE_FREE);
			zone_give_back(pfn);
			free_frames_add(1);
			n++;
		}
	}
	spin_unlock_irqrestore(&zone_lock, flags);
	return n * PAGE_SIZE;
}
