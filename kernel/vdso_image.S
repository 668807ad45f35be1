/*
 * vdso_image.S - the vDSO (kernel/vdso/, built as build/vdso/vdso.so) as
 * data in the kernel image; kernel/vdso.c copies it into pages at boot.
 */
	.section .rodata
	.balign 4096
	.globl vdso_image_start, vdso_image_end
vdso_image_start:
	.incbin "build/vdso/vdso.so"
vdso_image_end:
