/*
 * fpu.h - the user's x87/SSE registers (arch/x86/kernel/fpu.c).
 *
 * The kernel itself is built without SSE (-mgeneral-regs-only), so these
 * registers belong to user programs alone: they are saved and restored with
 * fxsave/fxrstor when the scheduler switches tasks, copied by fork and
 * reset to their initial state by exec.
 */
#pragma once
#include <kernel.h>

struct fpu_state {
	/* fxsave needs 512 bytes at a 16-byte boundary; the area is found
	 * inside this buffer, whatever the alignment of the task. */
	uint8_t raw[512 + 16];
};

void fpu_init(void);                        /* enable SSE; record a clean state */
void fpu_save(struct fpu_state *fpu);       /* registers -> fpu */
void fpu_restore(const struct fpu_state *fpu); /* fpu -> registers */
void fpu_copy(struct fpu_state *dst, const struct fpu_state *src);
/* Give fpu the clean state a new program starts with. */
void fpu_clear(struct fpu_state *fpu);
/* The 512-byte fxsave image inside fpu (for signal frames). */
uint8_t *fpu_regs(struct fpu_state *fpu);
/* Make an image that came from user space safe to load (MXCSR bits). */
void fpu_sanitize(struct fpu_state *fpu);
