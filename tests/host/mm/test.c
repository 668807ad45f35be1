/*
 * test.c - host test of mm/ (see tests/host/run.sh): the frame allocator, kmalloc,
 * areas and page tables, demand paging, fork and copy-on-write (reference
 * counts, write faults from user and kernel mode, mm_write, out of memory),
 * the memory system calls (brk, mmap, munmap, mprotect, mremap, madvise),
 * file-backed areas (over a fake file layer, below) and the user-copy
 * routines, each checked against free-page counts (and file reference
 * counts) so that any leak shows.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <boot.h>
#include <cred.h>
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <uaccess.h>
#include <vm.h>

#include "../../../mm/internal.h"

/* What the rest of the kernel would provide. */
uint64_t fake_cr3;
int nr_invlpg, nr_cr3_writes;
struct percpu host_cpu;
/* One CPU: no other to shoot down; an address space going away is left
 * if loaded, as arch/x86/kernel/tlb.c does. */
void flush_tlb_others(uint64_t pml4_phys, uint64_t start, uint64_t end, bool freed_tables) {}
void leave_lazy_tlb(void) {}
void leave_mm_everywhere(uint64_t pml4_phys)
{
	if ((fake_cr3 & PTE_ADDR) == pml4_phys)
		mm_activate(NULL);
}
/* No big kernel lock on the host: mm_put's teardown lets go of none. */
bool release_kernel_lock(void) { return false; }
void reacquire_kernel_lock(bool was_held) { (void)was_held; }
bool kernel_locked(void) { return true; } /* one CPU: interrupts stay as they are */
void cpu_relax_answering_calls(void) {}
uint64_t boot_pml4[512];
struct task *current;
struct boot_info boot_info;
uint64_t get_random_u64(void) { return 0x123456789abcdefUL; }
struct task *first_task(void) { return NULL; }
/* One user namespace: a capability is the effective set's. */
struct user_namespace { int unused; } init_user_ns;
bool ns_capable(struct user_namespace *ns, int cap) { (void)ns; return cap_raised(current->cred->cap_effective, cap); }

void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt[0] == 1 ? fmt + 2 : fmt, ap); /* drop the KERN_ level */
	va_end(ap);
}

void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("PANIC: ");
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	abort();
}

/*
 * A fake file layer: what mm/ asks of include/fs.h. A struct file is its
 * own inode; "descriptors" index fake_fd[]. Every reference is counted, so
 * a test can check that the areas took and gave back theirs.
 */
#define CHECK_FILE(c)                                                        \
	do {                                                                 \
		if (!(c)) {                                                  \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); \
			exit(1);                                             \
		}                                                            \
	} while (0)

struct file {
	int f_count;
	const char *data;
	loff_t size;
	bool readable, writable, regular, path, read_fails;
	void **cache; /* its page cache (find_get_page), or NULL */
	size_t nr_cache;
};
#define NR_FAKE_FD 8
static struct file *fake_fd[NR_FAKE_FD];
static int nr_kernel_reads;

/* arch/x86/kernel/ldt.c: no process of these tests has an LDT. */
int ldt_dup(struct mm *child, struct mm *parent)
{
	(void)parent;
	child->ldt = NULL;
	return 0;
}
void ldt_free(struct mm *mm) { (void)mm; }

struct file *get_file(struct file *f)
{
	CHECK_FILE(f->f_count > 0);
	f->f_count++;
	return f;
}
void fput(struct file *f)
{
	if (!f)
		return;
	CHECK_FILE(f->f_count > 0);
	f->f_count--;
}
bool fput_if_not_last(struct file *f)
{
	CHECK_FILE(f->f_count > 0);
	if (f->f_count == 1)
		return false;
	f->f_count--;
	return true;
}
struct file *fget(int fd)
{
	return fd >= 0 && fd < NR_FAKE_FD && fake_fd[fd] ? get_file(fake_fd[fd]) : NULL;
}
struct inode *file_inode(const struct file *f) { return (struct inode *)f; }
loff_t inode_size(const struct inode *inode) { return ((const struct file *)inode)->size; }
ssize_t kernel_read(struct file *f, void *buf, size_t count, loff_t pos)
{
	nr_kernel_reads++;
	CHECK_FILE(f->f_count > 0 && pos >= 0);
	if (f->read_fails)
		return -EIO;
	if (pos >= f->size)
		return 0;
	size_t n = MIN(count, (size_t)(f->size - pos));
	memcpy(buf, f->data + pos, n);
	return n;
}
void *find_get_page(struct file *f, uint64_t index)
{
	if (!f->cache || index >= f->nr_cache || !f->cache[index])
		return NULL;
	get_page(f->cache[index]);
	return f->cache[index];
}
/* The page cache of a fake file: the page at index, made (zeroed) if it
 * is not there yet; with a reference for the caller. */
void *find_or_create_page(struct file *f, uint64_t index)
{
	if (!f->cache || index >= f->nr_cache)
		return NULL;
	if (!f->cache[index]) {
		f->cache[index] = alloc_page();
		if (!f->cache[index])
			return NULL;
		memset(f->cache[index], 0, 4096);
	}
	get_page(f->cache[index]);
	return f->cache[index];
}
/* MAP_SHARED | MAP_ANONYMOUS memory: a fake file with a page cache of its
 * own, which the test frees once the mappings are gone (f_count 0). */
static struct file *last_shmem;
struct file *shmem_zero_setup(uint64_t size)
{
	struct file *f = calloc(1, sizeof(*f));

	CHECK_FILE(f);
	f->f_count = 1;
	f->size = size;
	f->readable = f->writable = f->regular = true;
	f->nr_cache = (size + 4095) / 4096;
	f->cache = calloc(f->nr_cache, sizeof(void *));
	last_shmem = f;
	return f;
}
/* ipc/shm.c is not here: no area is a System V segment's. */
void shm_area_close(struct file *f) {}
unsigned int memfd_file_seals(struct file *f) { (void)f; return 0; }
/* No device files here: nothing maps as /dev/zero does. */
bool file_mmap_anonymous(const struct file *f) { (void)f; return false; }
int file_mmap_check(struct file *f, bool shared_write)
{
	if (f->path)
		return -EBADF;
	if ((shared_write && !f->writable) || !f->readable)
		return -EACCES;
	return f->regular ? 0 : -ENODEV;
}

long sys_brk(unsigned long);
long sys_mmap(unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long);
long sys_munmap(unsigned long, unsigned long);
long sys_mprotect(unsigned long, unsigned long, unsigned long);

#define CHECK(c)                                                             \
	do {                                                                 \
		if (!(c)) {                                                  \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); \
			exit(1);                                             \
		}                                                            \
	} while (0)

#define RAM (64UL << 20)
#define ANON 0x22 /* MAP_PRIVATE | MAP_ANONYMOUS */
#define FIXED 0x10
#define NOREPLACE 0x100000

#define SHARED 0x01
#define PRIVATE 0x02

static size_t free0; /* free pages after page_alloc_init */
static char pattern[10000];

static uint64_t *pte_of(struct mm *mm, uint64_t va) { return pte_lookup(mm->pml4, va, false); }

static void boot(void)
{
	void *ram = mmap((void *)PHYS_MAP_BASE, RAM, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	CHECK(ram == (void *)PHYS_MAP_BASE);
	memset(ram, 0x5a, RAM); /* dirty RAM: allocations must come zeroed */
	struct boot_info *bi = &boot_info;
	bi->nr_regions = 3;
	bi->regions[0] = (struct mem_region){ 0, 0x9f000 };
	bi->regions[1] = (struct mem_region){ 0x100000, RAM - 0x110000 };
	bi->regions[2] = (struct mem_region){ 0x100000, 0x1000 }; /* overlaps */
	bi->kernel_start = 0x100000;
	bi->kernel_end = 0x300000;
	bi->info_start = 0x9000;
	bi->info_end = 0x9100;
	bi->nr_modules = 1;
	bi->modules[0] = (struct boot_module){ 0x400800, 0x500001 };
	page_alloc_init(bi);
	kmalloc_init(); /* as kernel_main does */
	free0 = nr_free_pages();
	CHECK(nr_total_pages() == (0x9f000 + RAM - 0x110000) / 4096);
	for (size_t i = 0; i < sizeof(pattern); i++)
		pattern[i] = i * 7;
}

static int by_address(const void *a, const void *b)
{
	char *x = *(char *const *)a, *y = *(char *const *)b;
	return x < y ? -1 : x > y;
}

static void test_page_alloc(void)
{
	static char *pages[20000];
	size_t n = 0;
	char *p;
	while ((p = alloc_page())) {
		uint64_t phys = virt_to_phys(p);
		CHECK(n < 20000);
		CHECK(phys >= 0x300000 && !(phys >= 0x400000 && phys < 0x501000));
		CHECK(phys < RAM - 0x10000);
		for (int i = 0; i < 4096; i++)
			CHECK(p[i] == 0);
		memset(p, 0x77, 4096);
		pages[n++] = p;
	}
	CHECK(nr_free_pages() == 0 && n == free0);
	/* In address order: a CPU's list hands frames out last in, first out. */
	qsort(pages, n, sizeof(pages[0]), by_address);
	for (size_t i = 0; i < n; i += 2)
		free_page(pages[i]);
	CHECK(alloc_pages(2) == NULL); /* every other page is free: no run */
	for (size_t i = 1; i < n; i += 2)
		free_page(pages[i]);
	CHECK(nr_free_pages() == free0);
	char *run = alloc_pages(100);
	CHECK(run);
	for (int i = 0; i < 100 * 4096; i++)
		CHECK(run[i] == 0);
	free_pages(run, 100);
	CHECK(nr_free_pages() == free0);
	printf("page_alloc ok\n");
}

static void test_kmalloc(void)
{
	enum { N = 5000 };
	static char *obj[N];
	static size_t size[N];
	srand(1);
	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < N; i++) {
			if (obj[i] && rand() % 2) {
				for (size_t k = 0; k < size[i]; k++)
					CHECK(obj[i][k] == (char)i);
				kfree(obj[i]);
				obj[i] = NULL;
			}
			if (obj[i])
				continue;
			int r = rand() % 100;
			size[i] = r < 80 ? rand() % 300 : r < 95 ? rand() % 2100 : rand() % 20000;
			obj[i] = (round & 1) ? kzalloc(size[i]) : kmalloc(size[i]);
			CHECK(obj[i] && (uint64_t)obj[i] % 16 == 0);
			if (round & 1)
				for (size_t k = 0; k < size[i]; k++)
					CHECK(obj[i][k] == 0);
			memset(obj[i], (char)i, size[i]);
		}
	}
	for (int i = 0; i < N; i++) {
		for (size_t k = 0; k < size[i]; k++)
			CHECK(obj[i][k] == (char)i);
		kfree(obj[i]);
	}
	kfree(NULL);
	CHECK(nr_free_pages() == free0); /* empty slabs went back */
	printf("kmalloc ok\n");
}

/* Areas, page-table bits, demand paging: mm is left with some areas. */
static void test_areas(struct mm *mm)
{
	char back[10000];
	CHECK(mm->pml4[256] == 0x1234003 && mm->pml4[511] == 0x5678003 && mm->pml4[0] == 0);
	CHECK(vma_map(mm, 0x400000, 0x3000, VM_READ | VM_EXEC) == 0);
	CHECK(vma_map(mm, 0x403000, 0x2000, VM_READ | VM_WRITE) == 0);
	CHECK(vma_map(mm, 0x401001, 0x1000, VM_READ) == -EINVAL);
	CHECK(vma_map(mm, 0x401000, 0, VM_READ) == -EINVAL);
	CHECK(vma_map(mm, TASK_SIZE - 0x1000, 0x2000, VM_READ) == -EINVAL);

	/* mm_write/mm_read cross pages and areas, and ignore protection. */
	CHECK(mm_write(mm, 0x400ffa, pattern, 10000) == 0);
	CHECK(mm_read(mm, 0x400ffa, back, 10000) == 0 && !memcmp(pattern, back, 10000));
	CHECK(mm_write(mm, 0x404ff0, pattern, 0x20) == -EFAULT);
	CHECK(mm_read(mm, 0x3ff000, back, 1) == -EFAULT);
	uint64_t *pte = pte_of(mm, 0x400000);
	CHECK(pte && (*pte & PTE_P) && (*pte & PTE_U) && !(*pte & PTE_W) && !(*pte & PTE_NX));
	pte = pte_of(mm, 0x403000);
	CHECK(pte && (*pte & PTE_W) && (*pte & PTE_NX));

	/* Faults: error code bit 0 present, 1 write, 2 user, 4 fetch. */
	CHECK(handle_mm_fault(mm, 0x404010, 2 | 4) == 0);
	CHECK((pte = pte_of(mm, 0x404000)) && (*pte & PTE_W));
	/* A protection fault the entry allows: a stale TLB entry, flushed. */
	int n = nr_invlpg;
	CHECK(handle_mm_fault(mm, 0x404010, 1 | 2 | 4) == 0 && nr_invlpg == n + 1);
	CHECK(handle_mm_fault(mm, 0x404010, 1 | 0x10 | 4) == -EFAULT);
	CHECK(handle_mm_fault(mm, 0x405000, 4) == -EFAULT);
	CHECK(handle_mm_fault(mm, 0x402000, 2 | 4) == -EFAULT);
	CHECK(handle_mm_fault(mm, 0x403000, 0x10 | 4) == -EFAULT);
	CHECK(handle_mm_fault(NULL, 0x403000, 4) == -EFAULT);

	/* Stacks grow down, to RLIMIT_STACK (8 MiB here), keeping Linux's
	 * guard gap (1 MiB) from the area below. */
	CHECK(vma_map(mm, 0x60000000, 0x1000, 3) == 0);
	CHECK(vma_map(mm, 0x60200000, 0x2000, VM_READ | VM_WRITE | VM_STACK) == 0);
	CHECK(handle_mm_fault(mm, 0x601ffff8, 6) == 0);
	CHECK(vma_find(mm, 0x601ff000)->start == 0x601ff000);
	CHECK(handle_mm_fault(mm, 0x60100ff8, 6) == -EFAULT);
	CHECK(handle_mm_fault(mm, 0x60101000, 6) == 0);
	CHECK(handle_mm_fault(mm, 0x61000000, 6) == -EFAULT);
	CHECK(vma_map(mm, 0x70000000, 0x1000, VM_READ | VM_WRITE | VM_STACK) == 0);
	CHECK(handle_mm_fault(mm, 0x70001000 - (8 << 20), 6) == 0);
	CHECK(handle_mm_fault(mm, 0x70000000 - (8 << 20) - 8, 6) == -EFAULT);
	current->rlim[RLIMIT_STACK].cur = 16 << 20; /* the limit is read at each fault */
	CHECK(handle_mm_fault(mm, 0x70000000 - (8 << 20) - 8, 6) == 0);
	current->rlim[RLIMIT_STACK].cur = 8 << 20;
	/* mmap keeps the guard gap free below a stack. */
	CHECK(get_unmapped_area(mm, 0x70000000 - (8 << 20) - 0x2000, 0x1000) !=
	      0x70000000 - (8 << 20) - 0x2000);
	printf("areas ok\n");
}

static void test_syscalls(struct mm *mm)
{
	mm->start_brk = mm->brk = 0x406000;
	CHECK(sys_brk(0) == 0x406000);
	CHECK(sys_brk(0x406010) == 0x406010);
	CHECK(sys_brk(0x409123) == 0x409123);
	struct vma *h = vma_find(mm, 0x408000);
	CHECK(h && h->start == 0x406000 && h->end == 0x40a000 && (h->flags & VM_HEAP));
	CHECK(mm_write(mm, 0x409000, pattern, 0x1000) == 0);
	CHECK(sys_brk(0x407000) == 0x407000); /* shrinking frees */
	CHECK(vma_find(mm, 0x407000) == NULL && *pte_of(mm, 0x409000) == 0);
	CHECK(sys_brk(0x100) == 0x407000);
	CHECK(sys_brk(0x409000) == 0x409000);
	CHECK(vma_find(mm, 0x406000)->end == 0x409000); /* merged */
	CHECK(sys_mmap(0x40a000, 0x1000, 3, ANON | FIXED, -1, 0) == 0x40a000);
	CHECK(sys_brk(0x40b000) == 0x409000); /* blocked by a mapping */

	long a = sys_mmap(0, 5000, 3, ANON, -1, 0);
	CHECK(a == (long)(MMAP_BASE - 0x2000)); /* top-down */
	long b = sys_mmap(0, 4096, 3, ANON, -1, 0);
	CHECK(b == a - 0x1000 && vma_find(mm, b)->end == MMAP_BASE);
	CHECK(sys_mmap(0, 0, 3, ANON, -1, 0) == -EINVAL);
	CHECK(sys_mmap(0, 10, 3, 0x20, -1, 0) == -EINVAL);
	CHECK(sys_mmap(0, 10, 3, 0x02, 5, 0) == -ENODEV); /* not a regular file */
	CHECK(sys_mmap(0, 10, 3, 0x02, 7, 0) == -EBADF);
	CHECK(sys_mmap(0, 10, 3, ANON, -1, 5) == -EINVAL);
	CHECK(sys_mmap(0x10001, 10, 3, ANON | FIXED, -1, 0) == -EINVAL);
	CHECK(sys_mmap(0x1000, 10, 3, ANON | FIXED, -1, 0) == -EPERM); /* no CAP_SYS_RAWIO */
	CHECK(sys_mmap(b, 10, 3, ANON | NOREPLACE, -1, 0) == -EEXIST);
	CHECK(sys_mmap(b - 0x1000, 10, 3, ANON | NOREPLACE, -1, 0) == b - 0x1000);
	CHECK(sys_mmap(0x20000000, 10, 3, ANON, -1, 0) == 0x20000000); /* hint */
	CHECK(sys_mmap(0x20000000, 10, 3, ANON, -1, 0) == b - 0x2000); /* taken */
	CHECK(sys_mmap(0, 1UL << 50, 3, ANON, -1, 0) == -ENOMEM);

	/* munmap in the middle splits the area and frees its pages. */
	long c = sys_mmap(0x30000000, 0x10000, 3, ANON | FIXED, -1, 0);
	CHECK(c == 0x30000000);
	for (int i = 0; i < 16; i++)
		CHECK(handle_mm_fault(mm, c + i * 0x1000, 2 | 4) == 0);
	size_t f = nr_free_pages();
	CHECK(sys_munmap(c + 0x4000, 0x3000) == 0);
	CHECK(nr_free_pages() == f + 3);
	CHECK(vma_find(mm, c + 0x3fff)->end == (uint64_t)c + 0x4000);
	CHECK(vma_find(mm, c + 0x4000) == NULL);
	CHECK(vma_find(mm, c + 0x7000)->start == (uint64_t)c + 0x7000);
	CHECK(sys_munmap(c + 1, 0x3000) == -EINVAL);
	CHECK(sys_munmap(c, 0) == -EINVAL);
	CHECK(sys_munmap(0x50000000, 0x1000) == 0);

	/* mprotect: holes give ENOMEM; PROT_NONE keeps the frames. */
	CHECK(sys_mprotect(c, 0x5000, 1) == -ENOMEM);
	CHECK(sys_mprotect(c + 0x1000, 0x1000, 1) == 0);
	CHECK(!(*pte_of(mm, c + 0x1000) & PTE_W) && (*pte_of(mm, c) & PTE_W));
	CHECK(vma_find(mm, c + 0x1000)->start == (uint64_t)c + 0x1000);
	CHECK(vma_find(mm, c + 0x1000)->end == (uint64_t)c + 0x2000);
	CHECK(handle_mm_fault(mm, c + 0x1000, 1 | 2 | 4) == -EFAULT);
	CHECK(sys_mprotect(c + 0x1000, 0x1000, 0) == 0);
	uint64_t e = *pte_of(mm, c + 0x1000);
	CHECK(!(e & PTE_P) && (e & PTE_PROTNONE) && (e & PTE_ADDR));
	CHECK(handle_mm_fault(mm, c + 0x1000, 4) == -EFAULT);
	CHECK(sys_mprotect(c + 0x1000, 0x1000, 3) == 0);
	CHECK(vma_find(mm, c)->end == (uint64_t)c + 0x4000); /* merged back */
	CHECK(*pte_of(mm, c + 0x1000) & PTE_P);
	CHECK(sys_mprotect(c + 1, 0x1000, 1) == -EINVAL);
	CHECK(sys_mprotect(c, 0x1000, 8) == -EINVAL);
	CHECK(sys_mprotect(c, 0, 1) == 0);

	/* MAP_FIXED over mapped pages frees them. */
	f = nr_free_pages();
	CHECK(sys_mmap(c, 0x2000, 1, ANON | FIXED, -1, 0) == c);
	CHECK(nr_free_pages() == f + 2);
	CHECK(mm_write(mm, c + 0x2000, "hello", 6) == 0);
	printf("syscalls ok\n");
}

static void test_fork(struct mm *mm)
{
	uint64_t va = 0x30002000; /* "hello", from test_syscalls */
	char s[8];
	size_t f = nr_free_pages();
	struct mm *child = mm_fork(mm);
	CHECK(child);
	CHECK(mm_read(child, va, s, 6) == 0 && !strcmp(s, "hello"));
	CHECK(mm_write(child, va, "HELLO", 6) == 0);
	CHECK(mm_read(mm, va, s, 6) == 0 && !strcmp(s, "hello"));
	CHECK(child->brk == mm->brk && child->pml4[256] == 0x1234003);
	mm_put(child);
	CHECK(nr_free_pages() == f);
	mm_activate(mm);
	CHECK(fake_cr3 == virt_to_phys(mm->pml4));
	printf("fork ok\n");
}

static uint64_t frame_of(struct mm *mm, uint64_t va) { return *pte_of(mm, va) & PTE_ADDR; }
static unsigned count_of(struct mm *mm, uint64_t va) { return page_count(phys_to_virt(frame_of(mm, va))); }
static char byte_at(struct mm *mm, uint64_t va)
{
	char c;
	CHECK(mm_read(mm, va, &c, 1) == 0);
	return c;
}

long sys_mremap(unsigned long, unsigned long, unsigned long, unsigned long, unsigned long);
long sys_madvise(unsigned long, unsigned long, unsigned long);

/*
 * Copy-on-write: fork shares frames, write faults (from user mode and from
 * the kernel's user-copy routines) and mm_write copy them or give PTE_W
 * back to the last owner, and every memory call keeps the counts right.
 */
static void test_cow(void)
{
	size_t f0 = nr_free_pages();
	struct mm *p = mm_create();
	CHECK(p);
	current->mm = p;
	uint64_t rw = 0x10000000, ro = 0x20000000, none = 0x30000000;
	CHECK(vma_map(p, rw, 0x4000, VM_READ | VM_WRITE) == 0);
	CHECK(vma_map(p, ro, 0x1000, VM_READ) == 0);
	CHECK(vma_map(p, none, 0x1000, VM_READ | VM_WRITE) == 0);
	for (int i = 0; i < 4; i++)
		CHECK(mm_write(p, rw + i * 0x1000, "p", 1) == 0);
	CHECK(mm_write(p, ro, "r", 1) == 0);
	CHECK(mm_write(p, none, "n", 1) == 0);
	CHECK(sys_mprotect(none, 0x1000, 0) == 0);
	CHECK(*pte_of(p, rw) & PTE_W);

	/* fork: new tables only, no page copied; the loaded parent's TLB is
	 * flushed by a CR3 reload. */
	mm_activate(p);
	int cr3_writes = nr_cr3_writes;
	size_t f = nr_free_pages();
	struct mm *c = mm_fork(p);
	CHECK(c);
	CHECK(nr_cr3_writes == cr3_writes + 1 && fake_cr3 == virt_to_phys(p->pml4));
	/* The child's pml4, a PDPT, a directory and three page tables (*c
	 * and its areas fit in slabs that exist already), and no frame. */
	CHECK(f - nr_free_pages() == 1 + 1 + 1 + 3);
	for (uint64_t va = rw; va < rw + 0x4000; va += 0x1000) {
		CHECK(frame_of(p, va) == frame_of(c, va) && count_of(p, va) == 2);
		CHECK(!(*pte_of(p, va) & PTE_W) && !(*pte_of(c, va) & PTE_W));
	}
	CHECK(frame_of(p, ro) == frame_of(c, ro) && count_of(c, ro) == 2);
	CHECK(frame_of(p, none) == frame_of(c, none) && count_of(c, none) == 2);
	CHECK(*pte_of(c, none) & PTE_PROTNONE);

	/* A user write fault in the parent copies; the child keeps the old
	 * frame, now its alone, and its own write fault copies nothing. */
	uint64_t old = frame_of(p, rw);
	f = nr_free_pages();
	CHECK(handle_mm_fault(p, rw + 8, 1 | 2 | 4) == 0);
	CHECK(nr_free_pages() == f - 1);
	CHECK(frame_of(p, rw) != old && frame_of(c, rw) == old);
	CHECK((*pte_of(p, rw) & PTE_W) && !(*pte_of(c, rw) & PTE_W));
	CHECK(count_of(p, rw) == 1 && count_of(c, rw) == 1);
	CHECK(byte_at(p, rw) == 'p' && byte_at(c, rw) == 'p');
	CHECK(handle_mm_fault(c, rw, 1 | 2 | 4) == 0);
	CHECK(nr_free_pages() == f - 1 && frame_of(c, rw) == old && (*pte_of(c, rw) & PTE_W));

	/* The same fault from the kernel (copy_to_user: no user bit). */
	CHECK(handle_mm_fault(c, rw + 0x1000, 1 | 2) == 0);
	CHECK(frame_of(c, rw + 0x1000) != frame_of(p, rw + 0x1000));
	CHECK(count_of(p, rw + 0x1000) == 1);

	/* Read-only and PROT_NONE pages are shared, never written by faults;
	 * a read fault on a shared page changes nothing. */
	CHECK(handle_mm_fault(c, ro, 1 | 2 | 4) == -EFAULT);
	CHECK(handle_mm_fault(c, none, 2 | 4) == -EFAULT);
	CHECK(handle_mm_fault(c, rw + 0x2000, 1 | 4) == 0 && count_of(c, rw + 0x2000) == 2);

	/* mm_write (exec, CLONE_CHILD_SETTID) unshares too, even a read-only
	 * page, which stays read-only. */
	CHECK(mm_write(c, ro, "R", 1) == 0);
	CHECK(byte_at(c, ro) == 'R' && byte_at(p, ro) == 'r');
	CHECK(count_of(p, ro) == 1 && count_of(c, ro) == 1 && !(*pte_of(c, ro) & PTE_W));
	CHECK(mm_write(c, rw + 0x2000, "C", 1) == 0);
	CHECK(byte_at(c, rw + 0x2000) == 'C' && byte_at(p, rw + 0x2000) == 'p');
	CHECK(*pte_of(c, rw + 0x2000) & PTE_W);

	/* mprotect never makes a shared frame writable; an unshared one, yes. */
	CHECK(sys_mprotect(none, 0x1000, 3) == 0); /* in the parent */
	CHECK((*pte_of(p, none) & PTE_P) && !(*pte_of(p, none) & PTE_W));
	CHECK(byte_at(p, none) == 'n');
	CHECK(handle_mm_fault(p, none, 1 | 2 | 4) == 0 && count_of(c, none) == 1);
	current->mm = c;
	CHECK(sys_mprotect(none, 0x1000, 3) == 0);
	CHECK(*pte_of(c, none) & PTE_W); /* the last owner */
	CHECK(sys_mprotect(rw, 0x4000, 1) == 0 && sys_mprotect(rw, 0x4000, 3) == 0);
	CHECK(!(*pte_of(c, rw + 0x3000) & PTE_W) && (*pte_of(c, rw) & PTE_W));

	/* munmap in the child drops its references; the parent's pages stay. */
	CHECK(sys_munmap(rw + 0x3000, 0x1000) == 0);
	CHECK(count_of(p, rw + 0x3000) == 1 && byte_at(p, rw + 0x3000) == 'p');

	/* A grandchild: three owners, then one. */
	current->mm = p;
	struct mm *g = mm_fork(c);
	CHECK(g && count_of(g, rw + 0x2000) == 2 && count_of(g, none) == 2);
	f = nr_free_pages();
	mm_put(c);
	CHECK(count_of(g, rw + 0x2000) == 1 && byte_at(g, rw + 0x2000) == 'C');
	mm_put(g);

	/* Out of memory at a copy: -ENOMEM, and nothing changed. */
	c = mm_fork(p);
	CHECK(c);
	static void *hog[20000];
	size_t n = 0;
	while ((hog[n] = alloc_page()))
		n++;
	old = frame_of(p, rw + 0x1000);
	CHECK(count_of(p, rw + 0x1000) == 2);
	CHECK(handle_mm_fault(p, rw + 0x1000, 1 | 2 | 4) == -ENOMEM);
	CHECK(mm_write(c, rw + 0x1000, "x", 1) == -ENOMEM);
	CHECK(frame_of(p, rw + 0x1000) == old && frame_of(c, rw + 0x1000) == old);
	CHECK(count_of(p, rw + 0x1000) == 2 && !(*pte_of(p, rw + 0x1000) & PTE_W));
	CHECK(mm_fork(p) == NULL); /* no memory for its tables */
	CHECK(count_of(p, rw + 0x1000) == 2); /* the failed fork let go */
	while (n > 0)
		free_page(hog[--n]);
	CHECK(handle_mm_fault(p, rw + 0x1000, 1 | 2 | 4) == 0 && count_of(c, rw + 0x1000) == 1);
	mm_put(c);

	/* Counts are of frames: all back once every mm is gone. */
	mm_put(p);
	CHECK(nr_free_pages() == f0);
	current->mm = NULL;
	printf("copy-on-write ok\n");
}

static void test_mremap_madvise(void)
{
	size_t f0 = nr_free_pages();
	struct mm *mm = mm_create();
	CHECK(mm);
	current->mm = mm;
	long a = sys_mmap(0, 0x3000, 3, ANON, -1, 0);
	CHECK(a > 0);
	CHECK(mm_write(mm, a, pattern, 9000) == 0);
	char back[9000];

	/* Argument checks, in Linux's order. */
	CHECK(sys_mremap(a, 0x3000, 0x4000, 8, 0) == -EINVAL);
	CHECK(sys_mremap(a, 0x3000, 0x4000, 2, 0x50000000) == -EINVAL); /* FIXED alone */
	CHECK(sys_mremap(a, 0x3000, 0x4000, 1 | 4, 0) == -EINVAL); /* DONTUNMAP resizes */
	CHECK(sys_mremap(a + 1, 0x3000, 0x4000, 1, 0) == -EINVAL);
	CHECK(sys_mremap(a, 0x3000, 0, 1, 0) == -EINVAL);
	CHECK(sys_mremap(0x50000000, 0x1000, 0x2000, 1, 0) == -EFAULT);
	CHECK(sys_mremap(a, 0, 0x2000, 1, 0) == -EINVAL); /* duplicate private */
	CHECK(sys_mremap(a, 0x4000, 0x5000, 1, 0) == -EFAULT); /* past the area */
	CHECK(sys_mremap(a, 0x1000, 0x1000, 1 | 2, a + 0x800) == -EINVAL);
	CHECK(sys_mremap(a, 0x2000, 0x2000, 1 | 2, a + 0x1000) == -EINVAL); /* overlap */
	CHECK(sys_mremap(a, 0x1000, 0x1000, 1 | 2, 0x1000) == -EPERM);

	/* Something right above a and right below it: a cannot grow in
	 * place. Without MAYMOVE, -ENOMEM. */
	CHECK(sys_mmap(a + 0x3000, 0x1000, 1, ANON | FIXED, -1, 0) == a + 0x3000);
	long b = sys_mmap(0, 0x1000, 1, ANON, -1, 0); /* right below a */
	CHECK(b == a - 0x1000);
	CHECK(mm_write(mm, b, "b", 1) == 0);
	CHECK(sys_mremap(b, 0x1000, 0x2000, 0, 0) == -ENOMEM);
	CHECK(sys_mremap(a, 0x3000, 0x4000, 0, 0) == -ENOMEM);
	/* Moving: the frames move, nothing is copied or allocated but a
	 * table. */
	uint64_t frame = frame_of(mm, a + 0x1000);
	long m = sys_mremap(a, 0x3000, 0x5000, 1, 0);
	CHECK(m > 0 && m != a);
	CHECK(frame_of(mm, m + 0x1000) == frame);
	CHECK(vma_find(mm, a) == NULL && pte_of(mm, a) && *pte_of(mm, a) == 0);
	CHECK(mm_read(mm, m, back, 9000) == 0 && !memcmp(back, pattern, 9000));
	CHECK(byte_at(mm, m + 0x4000) == 0); /* the new tail: demand-zero */
	struct vma *v = vma_find(mm, m);
	CHECK(v->start == (uint64_t)m && v->end == (uint64_t)m + 0x5000 && v->flags == 3);
	/* Now b has room above it: it grows in place. */
	CHECK(sys_mremap(b, 0x1000, 0x2000, 0, 0) == b);
	CHECK(vma_find(mm, b)->end == (uint64_t)b + 0x2000 && byte_at(mm, b) == 'b');
	/* Shrinking unmaps the tail. */
	size_t f = nr_free_pages();
	CHECK(sys_mremap(m, 0x5000, 0x1001, 0, 0) == m);
	CHECK(nr_free_pages() == f + 2 && vma_find(mm, m)->end == (uint64_t)m + 0x2000);
	/* FIXED replaces what was at the target; DONTUNMAP leaves the old
	 * range mapped and empty. */
	CHECK(sys_mremap(m, 0x2000, 0x2000, 1 | 2, b) == b);
	CHECK(byte_at(mm, b + 0x1000) == pattern[0x1000] && vma_find(mm, m) == NULL);
	long d = sys_mremap(b, 0x2000, 0x2000, 1 | 4, 0);
	CHECK(d > 0 && d != b && byte_at(mm, d) == pattern[0] && vma_find(mm, d)->flags == 3);
	CHECK(vma_find(mm, b) && *pte_of(mm, b) == 0 && byte_at(mm, b) == 0);
	/* The heap moved is no longer the heap. */
	mm->start_brk = mm->brk = 0x600000;
	CHECK(sys_brk(0x602000) == 0x602000);
	long h = sys_mremap(0x600000, 0x2000, 0x2000, 1 | 2, 0x700000);
	CHECK(h == 0x700000 && vma_find(mm, h)->flags == 3);

	/* COW pages move with their references. */
	CHECK(mm_write(mm, h, "h", 1) == 0);
	struct mm *child = mm_fork(mm);
	CHECK(child);
	CHECK(sys_mremap(h, 0x2000, 0x2000, 1 | 2, 0x800000) == 0x800000);
	CHECK(count_of(mm, 0x800000) == 2 && frame_of(mm, 0x800000) == frame_of(child, h));
	CHECK(handle_mm_fault(mm, 0x800000, 1 | 2 | 4) == 0 && count_of(child, h) == 1);
	mm_put(child);

	/* madvise. */
	CHECK(sys_madvise(h, 0x1000, 77) == -EINVAL);
	CHECK(sys_madvise(h + 1, 0x1000, 4) == -EINVAL);
	CHECK(sys_madvise(h, -1UL, 4) == -EINVAL);
	CHECK(sys_madvise(h, 0, 4) == 0);
	CHECK(sys_madvise(0x900000, 0x1000, 0) == -ENOMEM);
	CHECK(sys_madvise(0x800000, 0x1000, 9) == -EINVAL); /* MADV_REMOVE */
	CHECK(sys_madvise(0x900000, 0x1000, 9) == -ENOMEM);
	CHECK(sys_madvise(0x800000, 0x2000, 3) == 0);  /* WILLNEED */
	CHECK(sys_madvise(0x800000, 0x2000, 10) == 0); /* DONTFORK: ignored */
	CHECK(mm_write(mm, 0x801000, "y", 1) == 0);
	f = nr_free_pages();
	CHECK(sys_madvise(0x800000, 0x3000, 4) == -ENOMEM); /* acts, then says */
	/* Two pages, and their page table, directory and PDPT: nothing
	 * else is mapped in the first 512 GiB now. */
	CHECK(nr_free_pages() == f + 2 + 3);
	CHECK(byte_at(mm, 0x800000) == 0 && byte_at(mm, 0x801000) == 0);
	CHECK(sys_madvise(0x800000, 0x2000, 23) == 0); /* POPULATE_WRITE */
	CHECK(*pte_of(mm, 0x801000) & PTE_W);
	CHECK(sys_mprotect(0x800000, 0x1000, 1) == 0);
	CHECK(sys_madvise(0x800000, 0x1000, 23) == -EINVAL);
	CHECK(sys_madvise(0x800000, 0x1000, 22) == 0 && (*pte_of(mm, 0x800000) & PTE_P));
	CHECK(sys_madvise(0x800000, 0x2000, 8) == 0); /* FREE: as DONTNEED */
	CHECK(pte_of(mm, 0x801000) == NULL || *pte_of(mm, 0x801000) == 0);

	/* mremap moving a huge sparse area is quick: empty tables skipped.
	 * (MAP_NORESERVE: more than all of RAM, the overcommit heuristic
	 * would refuse it otherwise.) */
	CHECK(sys_mmap(0, 1UL << 32, 3, ANON, -1, 0) == -ENOMEM);
	long big = sys_mmap(0, 1UL << 32, 3, ANON | 0x4000, -1, 0);
	CHECK(big > 0 && mm_write(mm, big + (3UL << 30), "z", 1) == 0);
	long nb = sys_mremap(big, 1UL << 32, (1UL << 32) + 0x1000, 1, 0);
	CHECK(nb > 0 && byte_at(mm, nb + (3UL << 30)) == 'z');

	mm_put(mm);
	current->mm = NULL;
	CHECK(nr_free_pages() == f0);
	printf("mremap, madvise ok\n");
}

/* The fake files: descriptors 2 to 6 (7 is closed). */
#define FILE_SIZE (3 * 4096 + 100)
static char file_data[FILE_SIZE];
static struct file f_rw = { 1, file_data, FILE_SIZE, true, true, true, false, false, NULL, 0 };
static struct file f_ro = { 1, file_data, FILE_SIZE, true, false, true, false, false, NULL, 0 };
static struct file f_wo = { 1, file_data, FILE_SIZE, false, true, true, false, false, NULL, 0 };
static struct file f_dev = { 1, file_data, FILE_SIZE, true, false, false, false, false, NULL, 0 };
static struct file f_path = { 1, file_data, FILE_SIZE, false, false, true, true, false, NULL, 0 };

static void fake_files(void)
{
	for (int i = 0; i < FILE_SIZE; i++)
		file_data[i] = 'A' + i % 23 + i / 4096;
	fake_fd[2] = &f_rw;
	fake_fd[3] = &f_ro;
	fake_fd[4] = &f_wo;
	fake_fd[5] = &f_dev;
	fake_fd[6] = &f_path;
}

/* Does the page at va of mm hold the file's bytes from pos, then zeros? */
static bool shows_file(struct mm *mm, uint64_t va, size_t pos)
{
	char page[4096];
	if (mm_read(mm, va, page, 4096))
		return false;
	for (size_t i = 0; i < 4096; i++)
		if (page[i] != (pos + i < FILE_SIZE ? file_data[pos + i] : 0))
			return false;
	return true;
}

/*
 * File-backed areas: mmap's checks, pages read on first touch (and only
 * then), zeros past the end of the file or past vm_file_end, -EIO past the
 * last page, private writes, and file offsets and references carried
 * through split, merge, fork, mremap and teardown.
 */
static void test_file_areas(void)
{
	size_t f0 = nr_free_pages();
	struct mm *mm = mm_create();
	CHECK(mm);
	current->mm = mm;

	/* The checks, in Linux's order. */
	CHECK(sys_mmap(0, 0x1000, 1, PRIVATE, 3, 0x800) == -EINVAL);
	CHECK(sys_mmap(0, 0x1000, 1, PRIVATE, 7, 0) == -EBADF);
	CHECK(sys_mmap(0, 0x1000, 1, PRIVATE, -1, 0) == -EBADF);
	CHECK(sys_mmap(0, 0x1000, 1, PRIVATE, 6, 0) == -EBADF); /* O_PATH */
	CHECK(sys_mmap(0, 0x1000, 1, PRIVATE, 4, 0) == -EACCES);
	CHECK(sys_mmap(0, 0x1000, 3, SHARED, 3, 0) == -EACCES);
	/* A shared writable mapping of a file open for writing (its pages
	 * are the file's own: see test_shared_anon). */
	long sh = sys_mmap(0, 0x1000, 3, SHARED, 2, 0);
	CHECK(sh > 0 && f_rw.f_count == 2 && sys_munmap(sh, 0x1000) == 0);
	CHECK(sys_mmap(0, 0x1000, 1, PRIVATE, 5, 0) == -ENODEV);
	CHECK(sys_mmap(0, 0x2000, 1, PRIVATE, 3, 0x7ffffffffffff000) == -EOVERFLOW);
	CHECK(sys_mmap(0, 1UL << 50, 1, PRIVATE, 3, 0) == -ENOMEM);
	CHECK(f_ro.f_count == 1 && f_rw.f_count == 1 && f_wo.f_count == 1);

	/* Five pages of a 3-page-and-100-bytes file: nothing read yet. */
	int reads = nr_kernel_reads;
	size_t f = nr_free_pages();
	long a = sys_mmap(0, 0x5000, 3, PRIVATE, 3, 0);
	CHECK(a > 0 && f_ro.f_count == 2 && nr_kernel_reads == reads);
	CHECK(f - nr_free_pages() <= 1); /* a slab for the area, at most */
	CHECK(pte_of(mm, a) == NULL);
	struct vma *v = vma_find(mm, a);
	CHECK(v->vm_file == &f_ro && v->vm_pgoff == 0 && v->vm_file_end == VM_FILE_END_NONE);
	/* A read fault reads the page, which is ours: writable at once. */
	CHECK(handle_mm_fault(mm, a + 0x1010, 4) == 0 && nr_kernel_reads == reads + 1);
	CHECK((*pte_of(mm, a + 0x1000) & PTE_W) && count_of(mm, a + 0x1000) == 1);
	CHECK(shows_file(mm, a + 0x1000, 0x1000));
	CHECK(shows_file(mm, a, 0));
	CHECK(shows_file(mm, a + 0x3000, 0x3000)); /* 100 bytes, then zeros */
	/* Past the last page of the file: SIGBUS, nothing allocated. */
	f = nr_free_pages();
	CHECK(handle_mm_fault(mm, a + 0x4000, 4) == -EIO);
	CHECK(handle_mm_fault(mm, a + 0x4000, 2 | 4) == -EIO);
	CHECK(mm_read(mm, a + 0x4000, &(char){ 0 }, 1) == -EFAULT);
	CHECK(sys_madvise(a + 0x3000, 0x2000, 22) == -EFAULT); /* POPULATE_READ */
	CHECK(nr_free_pages() == f);
	/* A write changes the private copy only. */
	CHECK(mm_write(mm, a + 0x10, "private", 7) == 0);
	CHECK(handle_mm_fault(mm, a + 0x2000, 2 | 4) == 0);
	CHECK(mm_write(mm, a + 0x2000, "x", 1) == 0);
	CHECK(file_data[0x10] == 'A' + 0x10 % 23 && byte_at(mm, a + 0x10) == 'p');

	/* mprotect splits: the upper parts keep their file offsets, and each
	 * part holds a reference; merged back, one again. */
	CHECK(sys_mprotect(a + 0x1000, 0x1000, 1) == 0);
	CHECK(f_ro.f_count == 4);
	CHECK(vma_find(mm, a + 0x1000)->vm_pgoff == 1 && vma_find(mm, a + 0x2000)->vm_pgoff == 2);
	CHECK(sys_mprotect(a + 0x1000, 0x1000, 3) == 0);
	CHECK(f_ro.f_count == 2 && vma_find(mm, a)->end == (uint64_t)a + 0x5000);
	/* munmap in the middle: the upper part reads from offset 0x3000 on. */
	CHECK(sys_munmap(a + 0x2000, 0x1000) == 0 && f_ro.f_count == 3);
	CHECK(vma_find(mm, a + 0x3000)->vm_pgoff == 3);
	CHECK(sys_madvise(a + 0x3000, 0x1000, 4) == 0); /* DONTNEED: read again */
	CHECK(shows_file(mm, a + 0x3000, 0x3000));
	/* MADV_DONTNEED on a written private page gives the file back. */
	CHECK(sys_madvise(a, 0x1000, 4) == 0 && shows_file(mm, a, 0));
	CHECK(sys_madvise(a, 0x1000, 8) == -EINVAL); /* FREE: anonymous only */
	CHECK(sys_madvise(a, 0x1000, 9) == -EACCES); /* REMOVE */
	/* An area at another offset does not merge with its neighbour. */
	CHECK(sys_mmap(a + 0x2000, 0x1000, 3, PRIVATE | FIXED, 3, 0) == a + 0x2000);
	CHECK(vma_find(mm, a + 0x2000)->end == (uint64_t)a + 0x3000 && f_ro.f_count == 4);
	CHECK(shows_file(mm, a + 0x2000, 0));
	/* The right offset does: one area again. */
	CHECK(sys_mmap(a + 0x2000, 0x1000, 3, PRIVATE | FIXED, 3, 0x2000) == a + 0x2000);
	CHECK(vma_find(mm, a)->end == (uint64_t)a + 0x5000 && f_ro.f_count == 2);
	CHECK(shows_file(mm, a + 0x2000, 0x2000));
	/* Anonymous memory over a file page drops its reference. */
	CHECK(sys_mmap(a + 0x4000, 0x1000, 3, ANON | FIXED, -1, 0) == a + 0x4000);
	CHECK(f_ro.f_count == 2 && byte_at(mm, a + 0x4000) == 0);

	/* fork: the child's areas hold their own references; its pages are
	 * shared copy-on-write like any. */
	CHECK(mm_write(mm, a + 0x1000, "P", 1) == 0);
	struct mm *c = mm_fork(mm);
	CHECK(c && f_ro.f_count == 3 && count_of(c, a + 0x1000) == 2);
	CHECK(byte_at(c, a + 0x1000) == 'P' && shows_file(c, a, 0));
	CHECK(handle_mm_fault(c, a + 0x1000, 1 | 2 | 4) == 0 && count_of(mm, a + 0x1000) == 1);
	mm_put(c);
	CHECK(f_ro.f_count == 2);

	/* mremap moves the pages and the offsets; a grown area shows the
	 * file further on (here: past its end). */
	long m = sys_mremap(a + 0x1000, 0x1000, 0x3000, 1, 0);
	CHECK(m > 0 && byte_at(mm, m) == 'P' && f_ro.f_count == 4); /* a hole cut in one area */
	CHECK(vma_find(mm, m)->vm_pgoff == 1 && shows_file(mm, m + 0x1000, 0x2000));
	CHECK(handle_mm_fault(mm, m + 0x2000, 4) == 0 && shows_file(mm, m + 0x2000, 0x3000));
	CHECK(sys_mremap(m, 0x3000, 0x2000, 0, 0) == m);
	CHECK(sys_mremap(m, 0x2000, 0x3000, 0, 0) == m); /* grown in place */
	CHECK(shows_file(mm, m + 0x2000, 0x3000));
	m = sys_mremap(m, 0x3000, 0x4000, 1, 0);
	CHECK(m > 0 && handle_mm_fault(mm, m + 0x3000, 4) == -EIO && f_ro.f_count == 4);

	/* MAP_SHARED of a file open read-only: read-only for good (no
	 * VM_MAYWRITE). Closing the descriptor (the file layer's reference)
	 * leaves the area's. Open for writing too: mprotect may add write. */
	long s = sys_mmap(0, 0x1000, 1, SHARED, 3, 0x1000);
	CHECK(s > 0 && (vma_find(mm, s)->flags & VM_SHARED) && f_ro.f_count == 5);
	CHECK(!(vma_find(mm, s)->flags & VM_MAYWRITE));
	CHECK(sys_mprotect(s, 0x1000, 3) == -EACCES && sys_mprotect(s, 0x1000, 5) == 0);
	CHECK(handle_mm_fault(mm, s, 2 | 4) == -EFAULT); /* a write: no right */
	long w = sys_mmap(0, 0x1000, 1, SHARED, 2, 0x1000);
	CHECK(w > 0 && (vma_find(mm, w)->flags & VM_MAYWRITE) && f_rw.f_count == 2);
	CHECK(sys_mprotect(w, 0x1000, 3) == 0 && sys_munmap(w, 0x1000) == 0 && f_rw.f_count == 1);

	/* The ELF loader's kind: zeros from file offset 0x1000 + 50 on. */
	CHECK(vma_map_file(mm, 0x400000, 0x2000, VM_READ, &f_ro, 0, 0x1000 + 50) == 0);
	char buf[4096];
	CHECK(mm_read(mm, 0x401000, buf, 4096) == 0 && !memcmp(buf, file_data + 0x1000, 50));
	for (int i = 50; i < 4096; i++)
		CHECK(buf[i] == 0);
	CHECK(shows_file(mm, 0x400000, 0));

	/* A read that fails: SIGBUS, and the page given back. */
	struct file bad = { 1, file_data, FILE_SIZE, true, false, true, false, true, NULL, 0 };
	CHECK(vma_map_file(mm, 0x500000, 0x1000, VM_READ, &bad, 0, VM_FILE_END_NONE) == 0);
	f = nr_free_pages();
	CHECK(handle_mm_fault(mm, 0x500000, 4) == -EIO);
	CHECK(nr_free_pages() == f);

	/* No frame for a file page: -ENOMEM, nothing read. */
	CHECK(sys_madvise(0x401000, 0x1000, 4) == 0); /* its table stays */
	static void *hog[20000];
	size_t n = 0;
	while ((hog[n] = alloc_page()))
		n++;
	reads = nr_kernel_reads;
	CHECK(handle_mm_fault(mm, 0x401000, 4) == -ENOMEM && nr_kernel_reads == reads);
	while (n > 0)
		free_page(hog[--n]);

	/* All gone with the mm: pages, tables and references. */
	mm_put(mm);
	current->mm = NULL;
	CHECK(nr_free_pages() == f0);
	CHECK(f_ro.f_count == 1 && f_rw.f_count == 1 && bad.f_count == 1);
	printf("file areas ok\n");
}

/*
 * The page cache: a read fault maps the file's own page, write-protected
 * even in a writable area; a write copies it; the file's writes show until
 * then; a page truncated away stays with its mapping, which becomes its
 * only owner.
 */
static void test_page_cache(void)
{
	size_t f0 = nr_free_pages();
	void *cache[4] = { NULL };
	for (int i = 0; i < 3; i++) { /* page 3 is a hole */
		CHECK((cache[i] = alloc_page()));
		memcpy(cache[i], file_data + i * 4096, MIN(4096, FILE_SIZE - i * 4096));
	}
	struct file f = { 1, file_data, FILE_SIZE, true, false, true, false, false, cache, 4 };
	struct mm *mm = mm_create();
	CHECK(mm);
	uint64_t a = 0x10000000;
	CHECK(vma_map_file(mm, a, 0x4000, VM_READ | VM_WRITE, &f, 0, VM_FILE_END_NONE) == 0);

	/* A read fault: the file's page, shared and write-protected. */
	int reads = nr_kernel_reads;
	CHECK(handle_mm_fault(mm, a, 4) == 0 && nr_kernel_reads == reads);
	CHECK(pte_page(*pte_of(mm, a)) == cache[0] && page_count(cache[0]) == 2);
	CHECK(!(*pte_of(mm, a) & PTE_W) && shows_file(mm, a, 0));
	/* The file's writes show through it. */
	((char *)cache[0])[5] = '!';
	CHECK(byte_at(mm, a + 5) == '!');
	((char *)cache[0])[5] = file_data[5];
	/* A write copies: the process's own page, the file's unchanged. */
	CHECK(handle_mm_fault(mm, a + 5, 1 | 2 | 4) == 0);
	CHECK(pte_page(*pte_of(mm, a)) != cache[0] && page_count(cache[0]) == 1);
	CHECK((*pte_of(mm, a) & PTE_W) && shows_file(mm, a, 0));
	CHECK(mm_write(mm, a, "w", 1) == 0 && ((char *)cache[0])[0] == file_data[0]);
	/* A first touch that writes copies at once. */
	CHECK(handle_mm_fault(mm, a + 0x1000, 2 | 4) == 0 && page_count(cache[1]) == 1);
	CHECK(pte_page(*pte_of(mm, a + 0x1000)) != cache[1] && shows_file(mm, a + 0x1000, 0x1000));
	/* mm_read shares, mm_write unshares; fork shares once more. */
	CHECK(shows_file(mm, a + 0x2000, 0x2000) && page_count(cache[2]) == 2);
	struct mm *c = mm_fork(mm);
	CHECK(c && page_count(cache[2]) == 3);
	CHECK(mm_write(c, a + 0x2000, "c", 1) == 0 && page_count(cache[2]) == 2);
	mm_put(c);
	/* mprotect never makes the file's page writable. */
	CHECK(vma_protect(mm, a + 0x2000, 0x1000, VM_READ) == 0);
	CHECK(vma_protect(mm, a + 0x2000, 0x1000, VM_READ | VM_WRITE) == 0);
	CHECK(!(*pte_of(mm, a + 0x2000) & PTE_W));
	/* A page not in the cache (a hole) is read, never shared. */
	reads = nr_kernel_reads;
	CHECK(handle_mm_fault(mm, a + 0x3000, 4) == 0 && nr_kernel_reads == reads + 1);
	CHECK((*pte_of(mm, a + 0x3000) & PTE_W) && shows_file(mm, a + 0x3000, 0x3000));
	/* Truncated away: the mapping keeps the page, now its only owner,
	 * and a write takes it without a copy. */
	void *p2 = cache[2];
	put_page(p2);
	cache[2] = NULL;
	size_t fr = nr_free_pages();
	CHECK(handle_mm_fault(mm, a + 0x2000, 1 | 2 | 4) == 0 && nr_free_pages() == fr);
	CHECK(pte_page(*pte_of(mm, a + 0x2000)) == p2 && (*pte_of(mm, a + 0x2000) & PTE_W));
	/* The ELF kind: a page partly past vm_file_end is a copy. */
	CHECK(vma_map_file(mm, 0x20000000, 0x2000, VM_READ, &f, 0, 0x1000 + 10) == 0);
	CHECK(shows_file(mm, 0x20000000, 0) && pte_page(*pte_of(mm, 0x20000000)) == cache[0]);
	CHECK(pte_page(*pte_of(mm, 0x20001000)) != cache[1] && byte_at(mm, 0x20001000 + 10) == 0);

	mm_put(mm);
	CHECK(f.f_count == 1 && page_count(cache[0]) == 1 && page_count(cache[1]) == 1);
	free_page(cache[0]);
	free_page(cache[1]);
	CHECK(nr_free_pages() == f0);
	printf("page cache ok\n");
}

void install_segv_handler(void); /* segv.c */

static void test_uaccess(void)
{
	install_segv_handler();
	char ub[64] = "user string", kb[64];
	void *bad = (void *)16;
	CHECK(copy_from_user(kb, ub, 12) == 0 && !strcmp(kb, "user string"));
	CHECK(copy_to_user(ub, "xyz", 4) == 0 && !strcmp(ub, "xyz"));
	CHECK(copy_from_user(kb, bad, 8) == -EFAULT);
	CHECK(copy_to_user(bad, kb, 8) == -EFAULT);
	CHECK(clear_user(bad, 8) == -EFAULT);
	CHECK(clear_user(ub, 8) == 0 && ub[0] == 0 && ub[7] == 0);
	CHECK(copy_from_user(kb, (void *)(TASK_SIZE - 4), 8) == -EFAULT);
	CHECK(copy_from_user(kb, (void *)-1UL, 2) == -EFAULT);
	CHECK(copy_from_user(kb, (void *)0xffff800000000000UL, 2) == -EFAULT);
	strcpy(ub, "abc");
	CHECK(strncpy_from_user(kb, ub, 64) == 3 && !strcmp(kb, "abc"));
	CHECK(strncpy_from_user(kb, ub, 4) == 3);
	CHECK(strncpy_from_user(kb, ub, 3) == -ENAMETOOLONG);
	CHECK(strncpy_from_user(kb, bad, 3) == -EFAULT);
	CHECK(strncpy_from_user(kb, (void *)(TASK_SIZE + 5), 3) == -EFAULT);
	CHECK(strnlen_user(ub, 64) == 4 && strnlen_user(ub, 4) == 4);
	CHECK(strnlen_user(ub, 3) == 4 && strnlen_user(ub, 2) == 3);
	CHECK(strnlen_user(bad, 10) == 0);
	/* A string running into an unmapped page. */
	char *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(two + 4096, 4096);
	memset(two, 'a', 4096);
	CHECK(strncpy_from_user(kb, two + 4086, 64) == -EFAULT);
	CHECK(strnlen_user(two + 4086, 64) == 0);
	CHECK(copy_from_user(kb, two + 4086, 20) == -EFAULT);
	printf("uaccess ok\n");
}

static void test_teardown(struct mm *mm)
{
	CHECK(vma_map(mm, STACK_TOP - 0x10000, 0x10000, VM_READ | VM_WRITE | VM_STACK) == 0);
	CHECK(mm_write(mm, STACK_TOP - 8, "x", 1) == 0);
	CHECK(get_unmapped_area(mm, 0, 0x1000) == MMAP_BASE - 0x6000);
	/* Unmapping everything frees every page and every table. */
	CHECK(vma_unmap(mm, 0, TASK_SIZE) == 0);
	CHECK(mm->vmas == NULL);
	for (int i = 0; i < 256; i++)
		CHECK(mm->pml4[i] == 0);
	CHECK(nr_free_pages() == free0 - 2); /* the pml4, the slab holding *mm */
	mm_put(mm);
	CHECK(fake_cr3 == virt_to_phys(boot_pml4)); /* switched away first */
	CHECK(nr_free_pages() == free0);
	printf("teardown ok\n");
}

/* What a fork + exec + exit cycle does to memory, many times. */
static void test_cycles(void)
{
	for (int i = 0; i < 300; i++) {
		struct mm *m = mm_create();
		CHECK(m);
		CHECK(vma_map(m, 0x400000, 0x10000, VM_READ | VM_EXEC) == 0);
		CHECK(mm_write(m, 0x400000, pattern, 10000) == 0);
		CHECK(vma_map(m, STACK_TOP - 0x20000, 0x20000, VM_READ | VM_WRITE | VM_STACK) == 0);
		CHECK(mm_write(m, STACK_TOP - 100, pattern, 100) == 0);
		for (int j = 0; j < 20; j++)
			CHECK(vma_map(m, 0x10000000 + j * 0x3000, 0x2000, 3) == 0);
		struct mm *k = mm_fork(m);
		CHECK(k);
		mm_put(m);
		mm_get(k);
		mm_put(k);
		mm_put(k);
	}
	CHECK(nr_free_pages() == free0);
	printf("cycles ok\n");
}

/* MAP_SHARED | MAP_ANONYMOUS: one page seen by parent and child. */
static void test_shared_anon(void)
{
	size_t f0 = nr_free_pages();
	struct mm *mm = mm_create(), *saved = current->mm;
	CHECK(mm);
	current->mm = mm;
	long a = sys_mmap(0, 8192, 3, 0x21 /* MAP_SHARED | MAP_ANONYMOUS */, -1, 0);
	CHECK(a > 0 && last_shmem && last_shmem->f_count == 1);
	struct file *f = last_shmem;
	CHECK(mm_write(mm, a + 4096, "s", 1) == 0 && f->cache[1] && !f->cache[0]);
	struct mm *c = mm_fork(mm);
	CHECK(c && f->f_count == 2);
	/* The child's write is the parent's: no copy is made. */
	CHECK(mm_write(c, a + 4097, "t", 1) == 0 && byte_at(mm, a + 4097) == 't');
	CHECK(((char *)f->cache[1])[0] == 's');
	mm_put(c);
	current->mm = saved;
	mm_put(mm);
	CHECK(f->f_count == 0 && page_count(f->cache[1]) == 1);
	free_page(f->cache[1]);
	free(f->cache);
	free(f);
	CHECK(nr_free_pages() == f0);
	printf("shared anonymous memory ok\n");
}

static void test_oom(void)
{
	struct mm *big = mm_create();
	CHECK(vma_map(big, 0x10000000, 1UL << 30, 3) == 0);
	uint64_t va = 0x10000000;
	int r;
	while ((r = handle_mm_fault(big, va, 6)) == 0)
		va += 4096;
	CHECK(r == -ENOMEM);
	CHECK(mm_fork(big) == NULL);
	mm_put(big);
	CHECK(nr_free_pages() == free0);
	printf("out of memory ok\n");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	boot();
	test_page_alloc();
	test_kmalloc();

	boot_pml4[0] = 0x999003; /* boot's identity map */
	boot_pml4[256] = 0x1234003;
	boot_pml4[511] = 0x5678003;
	paging_init();
	CHECK(boot_pml4[0] == 0 && boot_pml4[256] == 0x1234003);
	struct mm *mm = mm_create();
	CHECK(mm);
	/* A user without capabilities: mmap below mmap_min_addr is EPERM. */
	static struct cred user_cred = { .usage = 1, .uid = 1000, .euid = 1000 };
	struct task task = { .mm = mm, .cred = &user_cred, .real_cred = &user_cred };
	task.rlim[RLIMIT_STACK] = (struct rlimit){ 8 << 20, RLIM_INFINITY };
	/* No limit on the address space or data, as a new process has. */
	task.rlim[RLIMIT_AS] = task.rlim[RLIMIT_DATA] = (struct rlimit){ RLIM_INFINITY, RLIM_INFINITY };
	current = &task;
	fake_files();
	test_areas(mm);
	test_syscalls(mm);
	test_fork(mm);
	test_uaccess();
	test_teardown(mm);
	test_cycles();
	test_cow();
	test_mremap_madvise();
	test_file_areas();
	test_page_cache();
	test_shared_anon();
	test_oom();
	printf("ALL OK\n");
	return 0;
}
