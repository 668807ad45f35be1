/*
 * trampoline_64.S - where another CPU starts: in real mode, at the page
 * its start-up IPI named (smpboot.c copies this code to TRAMPOLINE_PHYS,
 * below 1 MiB, and fills in the parameters at its end).
 *
 * Like the boot CPU in boot/boot.S, but from 16-bit real mode: load a
 * GDT of our own, enter protected mode, turn on PAE, long mode and paging
 * with tr_cr3 (a page table that maps this page where it is and the
 * kernel where it is linked), far-jump to 64-bit code, and jump to
 * tr_entry (start_secondary) on tr_stack with tr_cpu in edi.
 *
 * The code runs at TRAMPOLINE_PHYS, not where it was linked: every
 * address in it is written as TRAMPOLINE_PHYS + (label - trampoline_start),
 * or relative to cs in real mode.
 */
#include <percpu.h>

#define TRAMPOLINE_PHYS 0x70000
#define ABS(label) (TRAMPOLINE_PHYS + (label) - trampoline_start)

	.data
	.balign 16
	.globl trampoline_start, trampoline_end
	.globl tr_cr3, tr_efer, tr_cr4, tr_stack, tr_entry, tr_cpu
trampoline_start:
	.code16
	cli
	cld
	mov	%cs, %ax		/* cs = TRAMPOLINE_PHYS >> 4 */
	mov	%ax, %ds
	lgdtl	tr_gdt_ptr - trampoline_start
	mov	%cr0, %eax
	or	$1, %eax		/* PE */
	mov	%eax, %cr0
	ljmpl	$0x08, $ABS(tr_protected)

	.code32
tr_protected:
	mov	$0x10, %ax
	mov	%ax, %ds
	mov	%ax, %es
	mov	%ax, %ss
	mov	ABS(tr_cr4), %eax	/* the boot CPU's: PAE and the rest */
	mov	%eax, %cr4
	mov	ABS(tr_cr3), %eax
	mov	%eax, %cr3
	mov	$0xc0000080, %ecx	/* EFER: LME, NXE, SCE as the boot CPU's */
	mov	ABS(tr_efer), %eax
	xor	%edx, %edx
	wrmsr
	mov	%cr0, %eax
	or	$0x80010000, %eax	/* PG, WP */
	mov	%eax, %cr0
	ljmpl	$0x18, $ABS(tr_long)

	.code64
tr_long:
	mov	ABS(tr_stack), %rsp
	mov	ABS(tr_cpu), %edi
	xor	%ebp, %ebp
	mov	ABS(tr_entry), %rax
	jmp	*%rax

	.balign 8
tr_gdt:
	.quad	0
	.quad	0x00cf9a000000ffff	/* 0x08 32-bit code */
	.quad	0x00cf92000000ffff	/* 0x10 data */
	.quad	0x00af9a000000ffff	/* 0x18 64-bit code */
tr_gdt_ptr:
	.word	tr_gdt_ptr - tr_gdt - 1
	.long	ABS(tr_gdt)

	.balign 8
tr_cr3:		.long 0
tr_efer:	.long 0
tr_cr4:		.long 0
tr_cpu:		.long 0
tr_stack:	.quad 0
tr_entry:	.quad 0
trampoline_end:
