/*
 * fpu.c - the x87/SSE/AVX register file of user tasks. See include/fpu.h.
 */
#include <fpu.h>
#include <kernel.h>
#include <string.h>
#include <x86.h>
#include "fpu_internal.h"

/* XSAVE's state components this kernel enables (XCR0): x87, SSE, AVX. */
#define XFEATURES_WANTED (XFEATURE_X87 | XFEATURE_SSE | XFEATURE_AVX)
#define CR4_OSXSAVE (1UL << 18)
#define CPUID1_ECX_XSAVE (1U << 26)

uint64_t fpu_xfeatures;      /* XCR0, or 0 without XSAVE */
uint32_t fpu_image_size = FXSAVE_SIZE;
uint32_t fpu_mxcsr_mask;     /* the MXCSR bits this CPU has */
static struct fpu_state clean_state;

uint8_t *fpu_area(const struct fpu_state *fpu)
{
	return (uint8_t *)ALIGN_UP((uint64_t)fpu->raw, 64);
}

/* Turn XSAVE on when the CPU has it: XCR0 = the components we keep, if
 * their image fits in struct fpu_state. */
static void xsave_init(void)
{
	uint32_t a, b, c, d;

	cpuid_count(0, 0, &a, &b, &c, &d);
	if (a < 0xd)
		return;
	cpuid_count(1, 0, &a, &b, &c, &d);
	if (!(c & CPUID1_ECX_XSAVE))
		return;
	write_cr4(read_cr4() | CR4_OSXSAVE);
	cpuid_count(0xd, 0, &a, &b, &c, &d);
	uint64_t features = (((uint64_t)d << 32) | a) & XFEATURES_WANTED;
	__asm__ volatile("xsetbv" ::"c"(0), "a"((uint32_t)features), "d"((uint32_t)(features >> 32)));
	cpuid_count(0xd, 0, &a, &b, &c, &d); /* b: the image size for XCR0 */
	BUG_ON(b > FPU_AREA_MAX);
	fpu_xfeatures = features;
	fpu_image_size = b;
}

void fpu_init(void)
{
	uint64_t cr0;
	uint32_t mxcsr = 0x1f80; /* all exceptions masked, round to nearest */

	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	cr0 &= ~(1UL << 2); /* EM: no emulation */
	cr0 |= 1UL << 1;    /* MP: wait/fwait honours TS */
	__asm__ volatile("mov %0, %%cr0" ::"r"(cr0));
	write_cr4(read_cr4() | (1UL << 9) | (1UL << 10)); /* OSFXSR, OSXMMEXCPT */
	xsave_init();
	__asm__ volatile("fninit; ldmxcsr %0" ::"m"(mxcsr));
	fpu_save(&clean_state);
	/* MXCSR_MASK at byte 28 of the image; 0 means the default 0xffbf. */
	memcpy(&fpu_mxcsr_mask, fpu_area(&clean_state) + 28, 4);
	if (!fpu_mxcsr_mask)
		fpu_mxcsr_mask = 0xffbf;
}

void fpu_save(struct fpu_state *fpu)
{
	if (fpu_xfeatures)
		__asm__ volatile("xsave64 (%0)" ::"r"(fpu_area(fpu)), "a"(-1), "d"(-1) : "memory");
	else
		__asm__ volatile("fxsave64 (%0)" ::"r"(fpu_area(fpu)) : "memory");
}

void fpu_restore(const struct fpu_state *fpu)
{
	if (fpu_xfeatures)
		__asm__ volatile("xrstor64 (%0)" ::"r"(fpu_area(fpu)), "a"(-1), "d"(-1) : "memory");
	else
		__asm__ volatile("fxrstor64 (%0)" ::"r"(fpu_area(fpu)) : "memory");
}

void fpu_copy(struct fpu_state *dst, const struct fpu_state *src)
{
	memcpy(fpu_area(dst), fpu_area(src), fpu_image_size);
}

void fpu_clear(struct fpu_state *fpu)
{
	fpu_copy(fpu, &clean_state);
}
