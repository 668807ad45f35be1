/*
 * mmap_layout.c - where exec puts things in a new address space, and how
 * much chance moves them (address space layout randomization, ASLR).
 *
 * The numbers are Linux 6.1's on x86-64 (arch/x86/mm/mmap.c, fs/exec.c,
 * fs/binfmt_elf.c), so that the same program finds the same layout here
 * and on Linux, and the same range of random offsets:
 *
 *   what                  where (no randomization)      random offset
 *   the stack's top       STACK_TOP 0x7ffffffff000      - 22 bits of pages (16 GiB),
 *                                                         then up to 8 KiB
 *   mmap_base (top-down)  STACK_TOP - gap               - 28 bits of pages (1 TiB)
 *     gap = RLIMIT_STACK + the stack's random range + the guard gap,
 *           at least 128 MiB, at most 5/6 of the address space
 *   a PIE program         ELF_ET_DYN_BASE 0x555555554aaa + 28 bits of pages,
 *                         aligned down to its segments' p_align
 *   brk (the heap)        after the program's bss     + up to 1 GiB
 *   the vDSO              above the stack, in its 2 MiB region
 *
 * Randomization is on when /proc/sys/kernel/randomize_va_space is 1 or 2
 * (2, the default, also moves brk) and the process's personality does not
 * have ADDR_NO_RANDOMIZE (setarch -R); the kernel word "norandmaps" sets
 * randomize_va_space to 0. exec decides once (PF_RANDOMIZE) and every
 * function here asks that flag.
 */
#include <kernel.h>
#include <personality.h>
#include <random.h>
#include <sched.h>
#include <vm.h>

int randomize_va_space = 2;

/* Linux's CONFIG_ARCH_MMAP_RND_BITS as Debian builds it, and STACK_RND_MASK. */
#define MMAP_RND_BITS 28
#define STACK_RND_MASK 0x3fffffUL
#define SIZE_128M (128UL << 20)

static bool randomizing(void)
{
	return current->flags & PF_RANDOMIZE;
}

/* A random number of pages below 2^MMAP_RND_BITS, in bytes (0 if not
 * randomizing): the offset of mmap_base and of a PIE program. */
uint64_t arch_mmap_rnd(void)
{
	if (!randomizing())
		return 0;
	return (get_random_u64() & ((1UL << MMAP_RND_BITS) - 1)) << PAGE_SHIFT;
}

/* How far the stack's top may move down: the mmap area stays below that. */
static uint64_t stack_maxrandom_size(void)
{
	return randomizing() ? STACK_RND_MASK << PAGE_SHIFT : 0;
}

/* Top of the mmap area: below the stack, its growth (RLIMIT_STACK), its
 * random range and its guard gap. */
static uint64_t mmap_base(uint64_t rnd, uint64_t rlim_stack)
{
	uint64_t gap = rlim_stack, pad = stack_maxrandom_size() + STACK_GUARD_GAP;
	uint64_t gap_max = TASK_SIZE / 6 * 5;

	if (gap + pad > gap) /* RLIM_INFINITY would overflow */
		gap += pad;
	if (gap < SIZE_128M)
		gap = SIZE_128M;
	else if (gap > gap_max)
		gap = gap_max;
	return ALIGN_UP(TASK_SIZE - gap - rnd, PAGE_SIZE);
}

void arch_pick_mmap_layout(struct mm *mm, uint64_t rlim_stack)
{
	uint64_t rnd = arch_mmap_rnd();

	mm->mmap_legacy = current->personality & ADDR_COMPAT_LAYOUT;
	if (mm->mmap_legacy)
		mm->mmap_base = TASK_UNMAPPED_BASE + rnd;
	else
		mm->mmap_base = mmap_base(rnd, rlim_stack);
}

uint64_t randomize_stack_top(uint64_t stack_top)
{
	uint64_t rnd = 0;

	if (randomizing())
		rnd = (get_random_u64() & STACK_RND_MASK) << PAGE_SHIFT;
	return ALIGN_UP(stack_top, PAGE_SIZE) - rnd;
}

/* Down by up to 8 KiB, then to 16 bytes (Linux's arch_align_stack). Asks
 * the sysctl and the personality itself, as Linux does. */
uint64_t arch_align_stack(uint64_t sp)
{
	if (!(current->personality & ADDR_NO_RANDOMIZE) && randomize_va_space)
		sp -= get_random_u64() % 8192;
	return sp & ~0xfUL;
}

/* A page-aligned address in [start, start + range). */
uint64_t randomize_page(uint64_t start, uint64_t range)
{
	if (start & ~PAGE_MASK) {
		range -= ALIGN_UP(start, PAGE_SIZE) - start;
		start = ALIGN_UP(start, PAGE_SIZE);
	}
	if (start > UINT64_MAX - range)
		range = UINT64_MAX - start;
	range >>= PAGE_SHIFT;
	if (range == 0)
		return start;
	return start + ((get_random_u64() % range) << PAGE_SHIFT);
}

/* 1 GiB for a 64-bit program: Debian's 6.1 has this from later kernels
 * (32 MiB before, as for 32-bit programs); the oracle shows it. */
uint64_t arch_randomize_brk(struct mm *mm)
{
	return randomize_page(mm->brk, 0x40000000);
}
