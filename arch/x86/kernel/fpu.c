/*
 * fpu.c - the x87/SSE register file of user tasks. See include/fpu.h.
 */
#include <fpu.h>
#include <kernel.h>
#include <string.h>

static struct fpu_state clean_state;

static void *area(const struct fpu_state *fpu)
{
	return (void *)ALIGN_UP((uint64_t)fpu->raw, 16);
}

void fpu_init(void)
{
	uint64_t cr0, cr4;
	uint32_t mxcsr = 0x1f80; /* all exceptions masked, round to nearest */

	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	cr0 &= ~(1UL << 2); /* EM: no emulation */
	cr0 |= 1UL << 1;    /* MP: wait/fwait honours TS */
	__asm__ volatile("mov %0, %%cr0" ::"r"(cr0));
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= (1UL << 9) | (1UL << 10); /* OSFXSR, OSXMMEXCPT */
	__asm__ volatile("mov %0, %%cr4" ::"r"(cr4));
	__asm__ volatile("fninit; ldmxcsr %0" ::"m"(mxcsr));
	fpu_save(&clean_state);
}

void fpu_save(struct fpu_state *fpu)
{
	__asm__ volatile("fxsave64 (%0)" ::"r"(area(fpu)) : "memory");
}

void fpu_restore(const struct fpu_state *fpu)
{
	__asm__ volatile("fxrstor64 (%0)" ::"r"(area(fpu)) : "memory");
}

void fpu_copy(struct fpu_state *dst, const struct fpu_state *src)
{
	memcpy(area(dst), area(src), 512);
}

void fpu_clear(struct fpu_state *fpu)
{
	fpu_copy(fpu, &clean_state);
}

uint8_t *fpu_regs(struct fpu_state *fpu)
{
	return area(fpu);
}

/* fxrstor faults on reserved MXCSR bits: keep only those the CPU has. */
void fpu_sanitize(struct fpu_state *fpu)
{
	uint32_t *clean = (uint32_t *)area(&clean_state);
	uint32_t *regs = (uint32_t *)area(fpu);
	uint32_t mask = clean[7] ? clean[7] : 0xffbf; /* MXCSR_MASK at byte 28 */

	regs[6] &= mask; /* MXCSR at byte 24 */
}
