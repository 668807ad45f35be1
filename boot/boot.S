/*
 * boot.S - from the boot loader to C, in long mode, in the higher half.
 *
 * Both GRUB (multiboot2) and QEMU's -kernel (multiboot1) enter _start in
 * 32-bit protected mode with paging off, eax = the loader's magic and
 * ebx = the physical address of its information block. We:
 *   1. build page tables that map the first 4 GiB of physical memory three
 *      times with 2 MiB pages: at 0 (identity, so the next instruction after
 *      enabling paging still exists), at PHYS_MAP_BASE (the direct map) and
 *      at KERNEL_VMA (where the kernel is linked);
 *   2. enable PAE, long mode (with NX and syscall) and paging;
 *   3. jump to 64-bit code, then to the higher half, and call
 *      kernel_main(magic, info).
 * The kernel is linked at KERNEL_VMA + 1 MiB but runs here at 1 MiB, so
 * until paging is on every address is written as "symbol - KERNEL_VMA".
 */
#define KERNEL_VMA 0xffffffff80000000
#define PHYS(x) ((x) - KERNEL_VMA)

#define MB1_MAGIC 0x1badb002
#define MB1_FLAGS 0x00010003 /* page-aligned modules, memory map, address fields */
#define MB2_MAGIC 0xe85250d6

	.section .multiboot, "a"
	/* multiboot1: the address fields let QEMU load this 64-bit ELF file
	 * as a flat image (its loader refuses ELF64 otherwise). */
	.balign 4
mb1_header:
	.long MB1_MAGIC
	.long MB1_FLAGS
	.long -(MB1_MAGIC + MB1_FLAGS)
	.long PHYS(mb1_header)		/* header_addr */
	.long _kernel_start_phys	/* load_addr */
	.long _image_end_phys		/* load_end_addr */
	.long _kernel_end_phys		/* bss_end_addr */
	.long _start_phys		/* entry_addr */

	/* multiboot2, for GRUB: loads the ELF by its program headers. */
	.balign 8
mb2_header:
	.long MB2_MAGIC
	.long 0				/* architecture: i386 protected mode */
	.long mb2_header_end - mb2_header
	.long -(MB2_MAGIC + (mb2_header_end - mb2_header))
	.balign 8
	.word 3, 0			/* entry address tag */
	.long 12
	.long _start_phys
	.balign 8
	.word 6, 0			/* page-align modules */
	.long 8
	.balign 8
	.word 0, 0			/* end tag */
	.long 8
mb2_header_end:

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	cli
	cld
	mov	%eax, %edi		/* keep magic and info for kernel_main */
	mov	%ebx, %esi
	mov	$PHYS(boot_stack_top), %esp

	/* Four page directories of 2 MiB pages cover physical 0..4 GiB. */
	mov	$PHYS(boot_pd), %ebx
	xor	%ecx, %ecx
1:	mov	%ecx, %eax
	shl	$21, %eax		/* low 32 bits of i * 2 MiB */
	or	$0x83, %eax		/* present, writable, 2 MiB page */
	mov	%eax, (%ebx, %ecx, 8)
	mov	%ecx, %eax
	shr	$11, %eax		/* high bits of i * 2 MiB */
	mov	%eax, 4(%ebx, %ecx, 8)
	inc	%ecx
	cmp	$2048, %ecx
	jne	1b

	/* The direct map's PDPT points at all four directories; the identity
	 * and kernel PDPTs at the first (the kernel needs only its first GiB). */
	mov	$PHYS(boot_pdpt_direct), %edx
	mov	$PHYS(boot_pd) + 3, %eax
	mov	%eax, 0(%edx)
	add	$4096, %eax
	mov	%eax, 8(%edx)
	add	$4096, %eax
	mov	%eax, 16(%edx)
	add	$4096, %eax
	mov	%eax, 24(%edx)
	mov	$PHYS(boot_pd) + 3, %eax
	mov	%eax, PHYS(boot_pdpt_low)
	mov	%eax, PHYS(boot_pdpt_high) + 510 * 8

	mov	$PHYS(boot_pml4), %edx
	movl	$PHYS(boot_pdpt_low) + 3, 0(%edx)
	movl	$PHYS(boot_pdpt_direct) + 3, 256 * 8(%edx)
	movl	$PHYS(boot_pdpt_high) + 3, 511 * 8(%edx)

	mov	%cr4, %eax
	or	$(1 << 5), %eax		/* PAE */
	mov	%eax, %cr4
	mov	%edx, %cr3

	/* EFER: long mode and syscall always; NX if the CPU has it. */
	push	%esi
	push	%edi
	mov	$0x80000001, %eax
	cpuid
	mov	$0x101, %eax		/* LME | SCE */
	bt	$20, %edx
	jnc	2f
	or	$0x800, %eax		/* NXE */
2:	mov	$0xc0000080, %ecx
	xor	%edx, %edx
	wrmsr
	pop	%edi
	pop	%esi

	mov	%cr0, %eax
	or	$0x80010001, %eax	/* PG | WP | PE */
	mov	%eax, %cr0

	lgdt	PHYS(boot_gdt_ptr)
	ljmp	$0x08, $PHYS(long_mode_entry)

	.code64
long_mode_entry:
	movabs	$higher_half, %rax
	jmp	*%rax

	.text
higher_half:
	mov	$0x10, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	xor	%eax, %eax
	mov	%eax, %fs
	mov	%eax, %gs
	movabs	$boot_stack_top, %rsp
	xor	%ebp, %ebp		/* ends backtraces */
	mov	%edi, %edi		/* zero-extend magic and info */
	mov	%esi, %esi
	push	%rdi
	push	%rsi
	call	boot_init_stack_canary	/* before any function that checks it */
	pop	%rsi
	pop	%rdi
	call	kernel_main
3:	cli
	hlt
	jmp	3b

	/* A minimal GDT for the far jump; arch/x86/kernel/gdt.c installs the real one. */
	.section .boot.text
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff	/* 0x10: data */
boot_gdt_ptr:
	.word boot_gdt_ptr - boot_gdt - 1
	.long PHYS(boot_gdt)

	.bss
	.balign 4096
	.globl boot_pml4
boot_pml4:	.skip 4096
boot_pdpt_low:	.skip 4096
boot_pdpt_direct: .skip 4096
boot_pdpt_high:	.skip 4096
boot_pd:	.skip 4 * 4096
	/* A page never mapped once the kernel has its own page tables: a boot
	 * stack overflow faults there instead of overwriting boot_pd. */
	.globl boot_stack_guard, boot_stack, boot_stack_top
boot_stack_guard: .skip 4096
boot_stack:	.skip 16384
boot_stack_top:
