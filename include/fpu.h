/*
 * fpu.h - the user's x87, SSE and AVX registers (arch/x86/kernel/fpu.c,
 * fpu_signal.c).
 *
 * The kernel itself is built without SSE (-mgeneral-regs-only), so these
 * registers belong to user programs alone: they are saved and restored
 * when the scheduler switches tasks, copied by fork and reset to their
 * initial state by exec. With XSAVE (every x86-64 CPU since 2011, and
 * QEMU's) the kernel enables, as Linux does, the x87, SSE and AVX state
 * components, and saves them with xsave/xrstor; without it, fxsave/fxrstor
 * keep x87 and SSE. AVX-512, AMX and protection keys stay disabled: a
 * program sees them off in XCR0 (xgetbv) and does not use them.
 */
#pragma once
#include <kernel.h>

/* The largest register image kept: XSAVE's standard layout up to the
 * end of the AVX component (832 bytes), rounded up. */
#define FPU_AREA_MAX 1024

struct fpu_state {
	/* xsave needs a 64-byte boundary; the area is found inside this
	 * buffer, whatever the alignment of the task. */
	uint8_t raw[FPU_AREA_MAX + 64];
};

void fpu_init(void);                        /* enable SSE (and XSAVE); record a clean state */
void fpu_save(struct fpu_state *fpu);       /* registers -> fpu */
void fpu_restore(const struct fpu_state *fpu); /* fpu -> registers */
void fpu_copy(struct fpu_state *dst, const struct fpu_state *src);
/* Give fpu the clean state a new program starts with. */
void fpu_clear(struct fpu_state *fpu);

/*
 * Signal frames (fpu_signal.c), in Linux's x86-64 format: the XSAVE image
 * (or the fxsave one) at user address fp, 64-byte aligned, with the
 * description of its extent in the fxsave area's software bytes and an
 * end marker after it.
 */
/* Write current's registers to fp. 0 or -EFAULT. */
int fpu_to_sigframe(uint64_t fp);
/* Load current's registers from fp, checked as the CPU would check them.
 * 0, or -EFAULT (unreadable) or -EINVAL (a state xrstor would refuse): then
 * the registers are reset to the clean state. */
int fpu_from_sigframe(uint64_t fp);
/* Does the frame hold an XSAVE image (ucontext's UC_FP_XSTATE)? */
bool fpu_sigframe_is_xstate(void);
