/*
 * kasan.h - KASAN-lite (make SANITIZE=kasan, mm/kasan.c): every byte of
 * the direct map has a state in a shadow (one byte per 8), and every
 * access the compiler instruments is checked against it. A kmalloc object
 * is accessible for the size asked and no further (its slot's slack is a
 * red zone); a freed object is poisoned and waits in a quarantine before
 * it is reused, so that a use after free is caught; a free page is
 * poisoned whole. Without CONFIG_KASAN every hook is an empty inline.
 */
#pragma once
#include <kernel.h>

/* Shadow values: 0 all 8 bytes good, 1..7 only the first N, else bad. */
#define KASAN_PAGE_FREE 0xff     /* a page the allocator holds */
#define KASAN_SLAB_REDZONE 0xfc  /* past the end of a kmalloc object */
#define KASAN_SLAB_FREE 0xfb     /* a kfree'd object */

#ifdef CONFIG_KASAN
/* Make the shadow (after page_alloc_init): checks start then. */
void kasan_init(void);
/* Mark [addr, addr+size) accessible, or bad with value. addr is 8-byte
 * aligned; an unpoisoned size that is not a multiple of 8 leaves the last
 * granule partly accessible. */
void kasan_unpoison(const void *addr, size_t size);
void kasan_poison(const void *addr, size_t size, uint8_t value);
/* Check an access made without the compiler's help (assembly: memcpy,
 * the user copies); report a bad one. */
void kasan_check_read(const void *addr, size_t size);
void kasan_check_write(const void *addr, size_t size);
/* Give back what the quarantine holds (mm/kmalloc.c): free memory as the
 * user sees it (sysinfo, /proc/meminfo) does not count it. */
void kmalloc_quarantine_flush(void);
/* kfree of obj: false, after a report, if it was freed already. */
bool kasan_free_check(const void *obj, uint64_t ip);
#else
static inline void kasan_init(void) {}
static inline void kasan_unpoison(const void *addr, size_t size) { (void)addr, (void)size; }
static inline void kasan_poison(const void *addr, size_t size, uint8_t value)
{
	(void)addr, (void)size, (void)value;
}
static inline void kasan_check_read(const void *addr, size_t size) { (void)addr, (void)size; }
static inline void kasan_check_write(const void *addr, size_t size) { (void)addr, (void)size; }
static inline void kmalloc_quarantine_flush(void) {}
static inline bool kasan_free_check(const void *obj, uint64_t ip) { (void)obj, (void)ip; return true; }
#endif
