/*
 * fpu_signal.c - the x87/SSE/AVX registers in a signal frame, in Linux's
 * x86-64 format (uc_mcontext.fpstate points at it):
 *
 *	bytes 0-511     the fxsave image; its software bytes 464-511 say,
 *	                when the frame holds more (struct sw_bytes below),
 *	                how much and which components
 *	bytes 512-575   the XSAVE header (XSTATE_BV: the components present)
 *	...             the other components (AVX) in XSAVE's standard layout
 *	xstate_size     FP_XSTATE_MAGIC2, the end marker
 *
 * A handler may change the registers in the frame, and rt_sigreturn loads
 * them. What xrstor would refuse (a reserved MXCSR bit, a header with
 * reserved bits or a component the CPU does not have enabled) fails the
 * sigreturn, as on Linux: the program gets SIGSEGV. A frame without the
 * two magic words (an old program's copy of the fxsave image) restores
 * x87 and SSE only.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>
#include <x86.h>
#include "fpu_internal.h"

#define FP_XSTATE_MAGIC1 0x46505853U
#define FP_XSTATE_MAGIC2 0x46505845U
#define SW_BYTES_OFFSET 464
#define MXCSR_OFFSET 24

/* Linux's struct _fpx_sw_bytes, in the fxsave image's unused bytes. */
struct sw_bytes {
	uint32_t magic1;        /* FP_XSTATE_MAGIC1: an XSAVE image follows */
	uint32_t extended_size; /* xstate_size + the end marker's 4 bytes */
	uint64_t xfeatures;     /* the components the image may hold */
	uint32_t xstate_size;   /* the image's bytes, up to the end marker */
	uint32_t padding[7];
};
_Static_assert(sizeof(struct sw_bytes) == 48, "Linux's _fpx_sw_bytes");

struct xsave_header {
	uint64_t xstate_bv, xcomp_bv;
	uint64_t reserved[6];
};

bool fpu_sigframe_is_xstate(void)
{
	return fpu_xfeatures != 0;
}

static struct xsave_header *header_of(uint8_t *img)
{
	return (struct xsave_header *)(img + FXSAVE_SIZE);
}

int fpu_to_sigframe(uint64_t fp)
{
	uint8_t *img = fpu_area(&current->fpu);
	uint32_t magic2 = FP_XSTATE_MAGIC2;

	fpu_save(&current->fpu);
	if (!fpu_xfeatures)
		return copy_to_user((void __user *)fp, img, FXSAVE_SIZE) ? -EFAULT : 0;
	struct sw_bytes sw = {
		.magic1 = FP_XSTATE_MAGIC1,
		.extended_size = fpu_image_size + sizeof(magic2),
		.xfeatures = fpu_xfeatures,
		.xstate_size = fpu_image_size,
	};
	memcpy(img + SW_BYTES_OFFSET, &sw, sizeof(sw));
	/* x87 and SSE always marked present, so that a restorer that knows
	 * only fxsave's part finds it valid (as Linux). */
	header_of(img)->xstate_bv |= XFEATURE_X87 | XFEATURE_SSE;
	if (copy_to_user((void __user *)fp, img, fpu_image_size) ||
	    copy_to_user((void __user *)(fp + fpu_image_size), &magic2, sizeof(magic2)))
		return -EFAULT;
	return 0;
}

/*
 * How many bytes of the frame at fp to load, and which components they
 * may hold (Linux's check_xstate_in_sigframe): the XSAVE image the
 * software bytes describe if both magic words are right, else the fxsave
 * image alone. -EFAULT if the frame cannot be read.
 */
static int frame_extent(uint64_t fp, uint32_t *size, uint64_t *features)
{
	struct sw_bytes sw;
	uint32_t magic2;

	*size = FXSAVE_SIZE;
	*features = XFEATURE_X87 | XFEATURE_SSE;
	if (!fpu_xfeatures)
		return 0;
	if (copy_from_user(&sw, (const void __user *)(fp + SW_BYTES_OFFSET), sizeof(sw)))
		return -EFAULT;
	if (sw.magic1 != FP_XSTATE_MAGIC1 || sw.xstate_size < FXSAVE_SIZE + XSAVE_HEADER_SIZE ||
	    sw.xstate_size > fpu_image_size || sw.xstate_size > sw.extended_size)
		return 0;
	if (copy_from_user(&magic2, (const void __user *)(fp + sw.xstate_size), sizeof(magic2)))
		return -EFAULT;
	if (magic2 == FP_XSTATE_MAGIC2) {
		*size = sw.xstate_size;
		*features = sw.xfeatures;
	}
	return 0;
}

/* Would xrstor (standard form) accept the header? No reserved bit, no
 * compaction, no component XCR0 lacks. */
static bool header_valid(const struct xsave_header *h)
{
	for (int i = 0; i < 6; i++)
		if (h->reserved[i])
			return false;
	return !h->xcomp_bv && !(h->xstate_bv & ~fpu_xfeatures);
}

/* The AVX component's bytes must be in the frame for it to be loaded. */
static uint64_t features_within(uint32_t size)
{
	uint32_t a, offset, c, d;

	if (!(fpu_xfeatures & XFEATURE_AVX))
		return fpu_xfeatures;
	cpuid_count(0xd, 2, &a, &offset, &c, &d); /* a: its size, offset: where */
	return offset + a <= size ? fpu_xfeatures : fpu_xfeatures & ~XFEATURE_AVX;
}

/* Load the image into img (current's area), checked. 0, -EFAULT, -EINVAL. */
static int load_image(uint64_t fp, uint8_t *img)
{
	uint32_t size, mxcsr;
	uint64_t features;
	int err = frame_extent(fp, &size, &features);

	if (err)
		return err;
	if (copy_from_user(img, (const void __user *)fp, size))
		return -EFAULT;
	memcpy(&mxcsr, img + MXCSR_OFFSET, sizeof(mxcsr));
	if (mxcsr & ~fpu_mxcsr_mask)
		return -EINVAL; /* fxrstor and xrstor fault on it */
	if (!fpu_xfeatures)
		return 0;
	struct xsave_header *h = header_of(img);
	if (size == FXSAVE_SIZE) { /* fxrstor's part only: the rest starts clean */
		memset(h, 0, sizeof(*h));
		h->xstate_bv = XFEATURE_X87 | XFEATURE_SSE;
		return 0;
	}
	if (!header_valid(h))
		return -EINVAL;
	/* Components the frame does not cover start clean (Linux: init_bv). */
	h->xstate_bv &= features & features_within(size);
	return 0;
}

int fpu_from_sigframe(uint64_t fp)
{
	uint8_t *img = fpu_area(&current->fpu);
	int err = load_image(fp, img);

	if (err)
		fpu_clear(&current->fpu); /* Linux's fpu__clear_user_states */
	fpu_restore(&current->fpu);
	return err;
}
