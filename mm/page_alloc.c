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
#include <spinlock.h>
#include <string.h>

#include "internal.h"

#define MAX_PHYS (4UL << 30)              /* what the direct map covers */
#define MAX_FRAMES (MAX_PHYS / PAGE_SIZE) /* 1 Mi frames */
#define LOW_MEMORY (1UL << 20)            /* BIOS, real-mode stuff: never used */

/*
 * zone_lock guards everything below: the bitmap, the reference counts, the
 * counters and the hint. Page faults take frames without the big kernel
 * lock (mm/fault.c), so every change to them holds it. Interrupts are off
 * while it is held, and it is the innermost lock of the kernel: nothing is
 * taken inside it (lock order: include/vm.h). Zeroing a frame is done
 * outside it, after the frame is ours.
 */
static DEFINE_SPINLOCK(zone_lock);
static uint64_t frame_bitmap[MAX_FRAMES / 64];
/* page_refs[pfn]: the owners of frame pfn, 0 for a free or reserved frame.
 * Indexed up to max_pfn; NULL until page_alloc_init has allocated it. */
static uint32_t *page_refs;

uint64_t max_pfn;        /* one past the highest usable frame */
static uint64_t min_pfn; /* the first frame above LOW_MEMORY */
static size_t total_frames, free_frames;
static uint64_t next_hint; /* where the next single-frame search starts */

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

/* Take frames [first, first+n), which are free, each with one owner, and
 * return them (zeroed if zero is set). */
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
	free_frames -= n;
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

static void *alloc_one(bool zero)
{
	uint64_t flags, pfn = 0;

	spin_lock_irqsave(&zone_lock, flags);
	if (free_frames) {
		pfn = find_free_frame(next_hint, max_pfn);
		if (!pfn)
			pfn = find_free_frame(min_pfn, next_hint);
	}
	if (pfn) {
		next_hint = pfn + 1;
		take_frames(pfn, 1);
	}
	spin_unlock_irqrestore(&zone_lock, flags);
	return pfn ? frames_ready(pfn, 1, zero) : NULL;
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

void *alloc_pages(size_t n)
{
	uint64_t flags, first = 0;

	if (n == 1)
		return alloc_page();
	spin_lock_irqsave(&zone_lock, flags);
	if (n && n <= free_frames)
		first = find_free_run(n);
	if (first)
		take_frames(first, n);
	spin_unlock_irqrestore(&zone_lock, flags);
	return first ? frames_ready(first, n, true) : NULL;
}

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

/* Give frame pfn, whose last owner has let go, back to the free pool. */
static void release_frame(uint64_t pfn)
{
	kasan_poison(phys_to_virt(pfn * PAGE_SIZE), PAGE_SIZE, KASAN_PAGE_FREE);
	set_free(pfn);
	free_frames++;
	if (pfn < next_hint)
		next_hint = pfn; /* keep memory use low and compact */
}

void free_pages(void *first, size_t n)
{
	uint64_t flags, pfn = page_to_pfn(first);

	BUG_ON(pfn + n > max_pfn);
	spin_lock_irqsave(&zone_lock, flags);
	for (uint64_t i = pfn; i < pfn + n; i++) {
		BUG_ON(!frame_used(i));     /* double free */
		BUG_ON(page_refs[i] != 1);  /* shared: the owner must put_page */
		page_refs[i] = 0;
		release_frame(i);
	}
	spin_unlock_irqrestore(&zone_lock, flags);
}

void free_page(void *page) { free_pages(page, 1); }

void get_page(void *page)
{
	uint64_t flags, pfn = page_to_pfn(page);

	spin_lock_irqsave(&zone_lock, flags);
	BUG_ON(page_refs[pfn] == 0);          /* not allocated */
	BUG_ON(page_refs[pfn] == ~0U);      /* cannot happen: see mm.h */
	page_refs[pfn]++;
	spin_unlock_irqrestore(&zone_lock, flags);
}

void put_page(void *page)
{
	uint64_t flags, pfn = page_to_pfn(page);

	spin_lock_irqsave(&zone_lock, flags);
	BUG_ON(page_refs[pfn] == 0 || !frame_used(pfn)); /* one put too many */
	if (--page_refs[pfn] == 0)
		release_frame(pfn);
	spin_unlock_irqrestore(&zone_lock, flags);
}

unsigned page_count(const void *page) { return page_refs[page_to_pfn(page)]; }

size_t nr_free_pages(void) { return free_frames; }
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
		if (ram && frame_used(pfn) && page_refs[pfn] == 0) {
			release_frame(pfn);
			n++;
		}
	}
	spin_unlock_irqrestore(&zone_lock, flags);
	return n * PAGE_SIZE;
}
