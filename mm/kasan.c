/*
 * kasan.c - KASAN-lite, the kernel address sanitizer's runtime (make
 * SANITIZE=kasan), after Linux's generic KASAN.
 *
 * Design notes:
 *  - The compiler (-fsanitize=kernel-address, calls rather than inline
 *    checks) puts a call to __asan_loadN_noabort or __asan_storeN_noabort
 *    before every load and store of the instrumented files, with the
 *    address. These functions look the address up in the shadow and report
 *    a bad access. This file and mm/kmalloc.c, which handle poisoned
 *    memory on purpose, are not instrumented.
 *  - Only the direct map is watched (where kmalloc objects and every page
 *    live): one shadow byte per 8 bytes of RAM up to max_pfn, allocated at
 *    boot (kasan_init), 1/8 of memory. Addresses elsewhere (the kernel
 *    image, the kernel stacks, user space) are not checked.
 *  - What a shadow byte says of its 8 bytes: 0, all accessible; 1..7, the
 *    first N only; anything else, none, and why (include/kasan.h): a free
 *    page, a kmalloc red zone, a freed object.
 *  - The page allocator poisons a page when it is freed and unpoisons it
 *    when it is handed out; kmalloc unpoisons exactly the size asked, and
 *    poisons the slot when freed (mm/kmalloc.c).
 *  - A report names the kind of bug (slab-out-of-bounds, use-after-free),
 *    the access, the function that made it and the task, with a call
 *    trace, as Linux's does; then the kernel goes on. Each instruction is
 *    reported once.
 */
#include <kasan.h>
#include <ksyms.h>
#include <mm.h>
#include <sched.h>
#include <trap.h>

#include "internal.h"

#ifdef CONFIG_KASAN /* the whole file: without it, kasan.h has empty hooks */

static uint8_t *shadow;     /* shadow[(addr - PHYS_MAP_BASE) >> 3] */
static uint64_t shadow_end; /* the first direct-map address not watched */
int kasan_reports;

/* memset without the checks string.c's makes (they would look at the
 * shadow itself). */
static void fill(uint8_t *p, uint8_t v, size_t n)
{
	while (n--)
		*p++ = v;
}

static uint8_t *shadow_of(uint64_t addr)
{
	return &shadow[(addr - PHYS_MAP_BASE) >> 3];
}

static bool watched(uint64_t addr)
{
	return shadow && addr >= PHYS_MAP_BASE && addr < shadow_end;
}

void kasan_init(void)
{
	uint64_t bytes = max_pfn * PAGE_SIZE / 8;
	uint8_t *s = alloc_pages(ALIGN_UP(bytes, PAGE_SIZE) / PAGE_SIZE); /* zeroed: all good */

	if (!s) {
		printk(KERN_ERR "kasan: no memory for the shadow: KASAN off\n");
		return;
	}
	/* Every page free now is poisoned; the allocated ones stay good. */
	for (uint64_t pfn = 0; pfn < max_pfn; pfn++)
		if (page_is_free(pfn))
			fill(&s[pfn * PAGE_SIZE / 8], KASAN_PAGE_FREE, PAGE_SIZE / 8);
	shadow_end = PHYS_MAP_BASE + max_pfn * PAGE_SIZE;
	shadow = s;
	printk(KERN_INFO "kasan: KernelAddressSanitizer initialized (generic, kmalloc and pages; %luK of shadow)\n",
	       (unsigned long)(bytes / 1024));
}

void kasan_poison(const void *addr, size_t size, uint8_t value)
{
	uint64_t a = (uint64_t)addr;
	if (!watched(a) || !size)
		return;
	fill(shadow_of(a), value, ALIGN_UP(size, 8) / 8);
}

void kasan_unpoison(const void *addr, size_t size)
{
	uint64_t a = (uint64_t)addr;
	if (!watched(a) || !size)
		return;
	fill(shadow_of(a), 0, size / 8);
	if (size % 8)
		*shadow_of(a + size - size % 8) = size % 8;
}

/* The first bad byte of [addr, addr+size), or 0 if all are good: a
 * granule at a time. */
static uint64_t first_bad(uint64_t addr, size_t size)
{
	uint64_t last = addr + size - 1;

	for (uint64_t g = addr & ~7UL; g <= last; g += 8) {
		int8_t s = (int8_t)*shadow_of(g);
		uint64_t lo = MAX(g, addr), hi = MIN(g + 7, last);
		if (s == 0)
			continue;
		if (s < 0)
			return lo;
		if ((int64_t)(hi & 7) >= s)
			return MAX(lo, g + s);
	}
	return 0;
}

/* Linux's names for what the shadow says. */
static const char *bug_type(uint64_t bad)
{
	uint8_t s = *shadow_of(bad);
	if (s > 0 && s < 8)
		s = *shadow_of(ALIGN_UP(bad + 1, 8)); /* past a partial granule */
	switch (s) {
	case KASAN_SLAB_REDZONE:
		return "slab-out-of-bounds";
	case KASAN_SLAB_FREE:
	case KASAN_PAGE_FREE:
		return "use-after-free";
	}
	return "out-of-bounds";
}

#define REPORTED_MAX 64
static uint64_t reported[REPORTED_MAX];

static void report(uint64_t addr, size_t size, bool write, uint64_t ip)
{
	uint64_t bad = first_bad(addr, size), off;
	const char *name = ksym_lookup(ip, &off);
	int i;

	for (i = 0; i < REPORTED_MAX && reported[i]; i++)
		if (reported[i] == ip)
			return;
	if (i < REPORTED_MAX)
		reported[i] = ip;
	kasan_reports++;
	printk(KERN_ERR "==================================================================\n");
	printk(KERN_ERR "BUG: KASAN: %s in %s+0x%lx\n", bug_type(bad), name ? name : "?",
	       (unsigned long)off);
	printk(KERN_ERR "%s of size %lu at addr %016lx by task %s/%d\n", write ? "Write" : "Read",
	       (unsigned long)size, (unsigned long)addr, current ? current->comm : "swapper",
	       current ? current->pid : 0);
	dump_stack_lvl(KERN_ERR);
	printk(KERN_ERR "The buggy address %016lx is %lu bytes into the page at %016lx (shadow %02x)\n",
	       (unsigned long)bad, (unsigned long)(bad % PAGE_SIZE), (unsigned long)ALIGN_DOWN(bad, PAGE_SIZE),
	       *shadow_of(bad));
	printk(KERN_ERR "==================================================================\n");
}

static inline void check(uint64_t addr, size_t size, bool write, uint64_t ip)
{
	if (!watched(addr) || !size)
		return;
	if (addr + size > shadow_end || first_bad(addr, size))
		report(addr, size, write, ip);
}

bool kasan_free_check(const void *obj, uint64_t ip)
{
	uint64_t a = (uint64_t)obj, off;
	const char *name = ksym_lookup(ip, &off);

	if (!watched(a) || *shadow_of(a) != KASAN_SLAB_FREE)
		return true;
	kasan_reports++;
	printk(KERN_ERR "==================================================================\n");
	printk(KERN_ERR "BUG: KASAN: double-free in %s+0x%lx\n", name ? name : "?", (unsigned long)off);
	printk(KERN_ERR "Free of addr %016lx by task %s/%d\n", (unsigned long)a,
	       current ? current->comm : "swapper", current ? current->pid : 0);
	printk(KERN_ERR "==================================================================\n");
	return false;
}

void kasan_check_read(const void *addr, size_t size)
{
	check((uint64_t)addr, size, false, (uint64_t)__builtin_return_address(0));
}

void kasan_check_write(const void *addr, size_t size)
{
	check((uint64_t)addr, size, true, (uint64_t)__builtin_return_address(0));
}

/* ---- what the compiler calls ---- */

#define DEFINE_ASAN(n)                                                                 \
	void __asan_load##n##_noabort(uint64_t addr);                                  \
	void __asan_load##n##_noabort(uint64_t addr)                                   \
	{                                                                              \
		check(addr, n, false, (uint64_t)__builtin_return_address(0));          \
	}                                                                              \
	void __asan_store##n##_noabort(uint64_t addr);                                 \
	void __asan_store##n##_noabort(uint64_t addr)                                  \
	{                                                                              \
		check(addr, n, true, (uint64_t)__builtin_return_address(0));           \
	}
DEFINE_ASAN(1)
DEFINE_ASAN(2)
DEFINE_ASAN(4)
DEFINE_ASAN(8)
DEFINE_ASAN(16)

void __asan_loadN_noabort(uint64_t addr, size_t size);
void __asan_loadN_noabort(uint64_t addr, size_t size)
{
	check(addr, size, false, (uint64_t)__builtin_return_address(0));
}

void __asan_storeN_noabort(uint64_t addr, size_t size);
void __asan_storeN_noabort(uint64_t addr, size_t size)
{
	check(addr, size, true, (uint64_t)__builtin_return_address(0));
}

/* Before a call that does not return (panic): nothing to do here, the
 * stack is not watched. */
void __asan_handle_no_return(void);
void __asan_handle_no_return(void)
{
}
#endif /* CONFIG_KASAN */
