/*
 * kmalloc.c - the kernel heap: kmalloc, kzalloc, kfree.
 *
 * Design notes:
 *  - Small requests (up to 2048 bytes) are rounded up to a power of two,
 *    16..2048, and served from "slabs": a slab is one page cut into objects
 *    of one size class. Free objects of a slab form a singly linked list
 *    threaded through the objects themselves. Objects are aligned to their
 *    size, so every kmalloc result is at least 16-byte aligned.
 *  - Larger requests get a run of whole pages from the page allocator.
 *  - kfree(ptr) must learn how big ptr's block is. Like Linux, we keep one
 *    small descriptor per physical frame (struct kpage, an array indexed by
 *    frame number, allocated at boot): it tells whether the frame is a slab
 *    (and of which class) or the first frame of a large run (and how long).
 *  - Each class keeps a list of its slabs that have free objects. A slab
 *    that becomes entirely free goes straight back to the page allocator, so
 *    the heap never hoards memory: free pages return to what they were once
 *    every object is freed, which is what the fork/exec leak test checks.
 *  - slab_lock guards the slabs: the partial lists, every slab's free list
 *    and count, and the KASAN quarantine. It is taken with interrupts off,
 *    so kmalloc and kfree may be called from anywhere but an NMI, with or
 *    without the big kernel lock. Lock order: whatever the caller holds >
 *    slab_lock > the page allocator's locks (include/vm.h). A large run
 *    needs no lock of its own: its frames' descriptor is written by the
 *    one who allocates it or frees it.
 */
#include <kasan.h>
#include <mm.h>
#include <spinlock.h>
#include <string.h>

#include "internal.h"

#define MIN_SHIFT 4  /* 16 bytes */
#define MAX_SHIFT 11 /* 2048 bytes */
#define NR_CLASSES (MAX_SHIFT - MIN_SHIFT + 1)

enum kpage_kind {
	KP_NONE = 0, /* not from kmalloc */
	KP_SLAB,     /* a page of objects of one class */
	KP_LARGE,    /* the first page of a large allocation */
};

struct free_object {
	struct free_object *next;
};

/* One per physical frame. */
struct kpage {
	uint8_t kind;                 /* enum kpage_kind */
	uint8_t cls;                  /* slab: size class index */
	uint16_t inuse;               /* slab: objects handed out */
	uint32_t npages;              /* large: pages in the run */
	struct free_object *freelist; /* slab: its free objects */
	struct kpage *prev, *next;    /* slab: its class's partial list */
};

static struct kpage *kpages; /* kpages[pfn] describes frame pfn */
size_t nr_slab_pages; /* changed atomically (slab_pages_add) */
static DEFINE_SPINLOCK(slab_lock);
/* Per class: the slabs that have at least one free object. */
static struct kpage *partial[NR_CLASSES];

static void slab_pages_add(long n) { __atomic_fetch_add(&nr_slab_pages, n, __ATOMIC_RELAXED); }

static struct kpage *kpage_of(const void *ptr)
{
	uint64_t pfn = virt_to_phys(ptr) / PAGE_SIZE;
	if (pfn >= max_pfn)
		panic("kmalloc: %p is not heap memory", ptr);
	return &kpages[pfn];
}
static void *kpage_addr(const struct kpage *kp)
{
	return phys_to_virt((uint64_t)(kp - kpages) * PAGE_SIZE);
}
static size_t class_size(int cls) { return 1UL << (cls + MIN_SHIFT); }

void kmalloc_init(void)
{
	size_t pages = ALIGN_UP(max_pfn * sizeof(struct kpage), PAGE_SIZE) / PAGE_SIZE;
	kpages = alloc_pages(pages); /* zeroed: every frame starts as KP_NONE */
	if (!kpages)
		panic("kmalloc_init: no memory for %lu page descriptors",
		      (unsigned long)max_pfn);
}

/* The smallest class that holds size bytes (size <= 2048). */
static int size_class(size_t size)
{
	int cls = 0;
	while (class_size(cls) < size)
		cls++;
	return cls;
}

static void partial_add(int cls, struct kpage *kp)
{
	kp->prev = NULL;
	kp->next = partial[cls];
	if (kp->next)
		kp->next->prev = kp;
	partial[cls] = kp;
}

static void partial_remove(int cls, struct kpage *kp)
{
	if (kp->prev)
		kp->prev->next = kp->next;
	else
		partial[cls] = kp->next;
	if (kp->next)
		kp->next->prev = kp->prev;
	kp->prev = kp->next = NULL;
}

/* A fresh slab for class cls, all objects free, on the partial list. */
static struct kpage *new_slab(int cls)
{
	char *page = alloc_page_nozero(); /* objects are handed out as they are */
	if (!page)
		return NULL;
	slab_pages_add(1);
	struct kpage *kp = kpage_of(page);
	size_t size = class_size(cls);
	kp->kind = KP_SLAB;
	kp->cls = cls;
	kp->inuse = 0;
	kp->freelist = NULL;
	/* Thread the list from the end so objects are handed out in order. */
	for (size_t off = PAGE_SIZE; off >= size; off -= size) {
		struct free_object *obj = (struct free_object *)(page + off - size);
		obj->next = kp->freelist;
		kp->freelist = obj;
	}
	partial_add(cls, kp);
	kasan_poison(page, PAGE_SIZE, KASAN_SLAB_REDZONE);
	return kp;
}

static void *slab_alloc(int cls)
{
	struct kpage *kp = partial[cls];
	if (!kp && !(kp = new_slab(cls)))
		return NULL;
	struct free_object *obj = kp->freelist;
	kp->freelist = obj->next;
	kp->inuse++;
	if (!kp->freelist) /* now full: no longer a candidate */
		partial_remove(cls, kp);
	return obj;
}

static void slab_free(struct kpage *kp, void *ptr)
{
	struct free_object *obj = ptr;
	BUG_ON((uint64_t)ptr % class_size(kp->cls)); /* not an object start */
	BUG_ON(kp->inuse == 0);
	if (!kp->freelist) /* was full: becomes partial again */
		partial_add(kp->cls, kp);
	obj->next = kp->freelist;
	kp->freelist = obj;
	if (--kp->inuse == 0) { /* entirely free: give the page back */
		partial_remove(kp->cls, kp);
		kp->kind = KP_NONE;
		kp->freelist = NULL;
		free_page(kpage_addr(kp));
		slab_pages_add(-1);
	}
}

#ifdef CONFIG_KASAN
/*
 * KASAN's quarantine: a freed object is poisoned and kept aside for a
 * while before it goes back to its slab, so that a use after free finds
 * it poisoned instead of reused. The objects are chained through their
 * first 8 bytes (this file is not instrumented); the oldest go back once
 * the quarantine holds more than QUARANTINE_MAX bytes.
 */
#define QUARANTINE_MAX (512 * 1024)
static struct free_object *q_head, *q_tail;
static size_t q_bytes;

static void quarantine_release_one(void)
{
	struct free_object *obj = q_head;
	struct kpage *kp = kpage_of(obj);

	q_head = obj->next;
	if (!q_head)
		q_tail = NULL;
	q_bytes -= class_size(kp->cls);
	slab_free(kp, obj);
}

static void quarantine_put(struct kpage *kp, void *ptr)
{
	struct free_object *obj = ptr;

	kasan_poison(ptr, class_size(kp->cls), KASAN_SLAB_FREE);
	obj->next = NULL;
	if (q_tail)
		q_tail->next = obj;
	else
		q_head = obj;
	q_tail = obj;
	q_bytes += class_size(kp->cls);
	while (q_bytes > QUARANTINE_MAX)
		quarantine_release_one();
}

void kmalloc_quarantine_flush(void)
{
	uint64_t flags;

	spin_lock_irqsave(&slab_lock, flags);
	while (q_head)
		quarantine_release_one();
	spin_unlock_irqrestore(&slab_lock, flags);
}
#endif

/*
 * The bytes kmalloc reserves for a request of size bytes. Under KASAN each
 * object gets a red zone behind it, as in Linux's generic KASAN: without
 * one, a write just past an object whose size is a power of two lands in
 * the next slot, and goes unreported whenever that slot is in use.
 */
static size_t reserved_size(size_t size)
{
#ifdef CONFIG_KASAN
	if (size <= 64 - 16)
		return size + 16;
	if (size <= 128 - 32)
		return size + 32;
	if (size <= 512 - 64)
		return size + 64;
	return size + 128;
#else
	return size;
#endif
}

void *kmalloc(size_t size)
{
	if (size > (size_t)max_pfn * PAGE_SIZE) /* hopeless; avoids overflow */
		return NULL;
	size_t reserved = reserved_size(size);

	if (reserved <= class_size(NR_CLASSES - 1)) {
		uint64_t flags;
		spin_lock_irqsave(&slab_lock, flags);
		void *obj = slab_alloc(size_class(reserved));
		spin_unlock_irqrestore(&slab_lock, flags);
		if (obj) { /* the slot's slack is a red zone */
			kasan_poison(obj, class_size(size_class(reserved)), KASAN_SLAB_REDZONE);
			kasan_unpoison(obj, size);
		}
		return obj;
	}
	size_t n = ALIGN_UP(reserved, PAGE_SIZE) / PAGE_SIZE;
	void *run = alloc_pages_nozero(n); /* kmalloc does not zero */
	if (!run)
		return NULL;
	struct kpage *kp = kpage_of(run);
	kp->kind = KP_LARGE;
	kp->npages = n;
	slab_pages_add(n);
	kasan_poison(run, n * PAGE_SIZE, KASAN_SLAB_REDZONE);
	kasan_unpoison(run, size);
	return run;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *ptr)
{
	if (!ptr)
		return;
	struct kpage *kp = kpage_of(ptr);
	if (!kasan_free_check(ptr, (uint64_t)__builtin_return_address(0)))
		return; /* a double free, reported */
	uint64_t flags;

	switch (kp->kind) {
	case KP_SLAB:
		spin_lock_irqsave(&slab_lock, flags);
#ifdef CONFIG_KASAN
		quarantine_put(kp, ptr);
#else
		slab_free(kp, ptr);
#endif
		spin_unlock_irqrestore(&slab_lock, flags);
		break;
	case KP_LARGE:
		BUG_ON((uint64_t)ptr % PAGE_SIZE);
		kp->kind = KP_NONE;
		slab_pages_add(-(long)kp->npages);
		free_pages(ptr, kp->npages);
		break;
	default:
		panic("kfree: %p was not allocated by kmalloc", ptr);
	}
}
