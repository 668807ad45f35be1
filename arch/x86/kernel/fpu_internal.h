/*
 * fpu_internal.h - what fpu.c and fpu_signal.c share: the CPU's register
 * image format, chosen once at boot by fpu_init.
 */
#pragma once
#include <fpu.h>

/* XSAVE state components (bits of XCR0 and of an image's XSTATE_BV). */
#define XFEATURE_X87 (1UL << 0)
#define XFEATURE_SSE (1UL << 1)
#define XFEATURE_AVX (1UL << 2)

#define FXSAVE_SIZE 512
#define XSAVE_HEADER_SIZE 64 /* at byte 512: XSTATE_BV, XCOMP_BV, reserved */

extern uint64_t fpu_xfeatures;   /* XCR0, or 0: fxsave only */
extern uint32_t fpu_image_size;  /* bytes of a saved image */
extern uint32_t fpu_mxcsr_mask;  /* MXCSR bits a restore may set */

/* The image inside fpu, 64-byte aligned. */
uint8_t *fpu_area(const struct fpu_state *fpu);
