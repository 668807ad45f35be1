/*
 * uaccess.S - the only instructions in the kernel that touch user memory.
 *
 * Design notes:
 *  - mm/uaccess.c checks the address range, then calls one of these
 *    routines with the current process's page tables loaded. The routines
 *    simply load and store; a user page that is not there yet faults, and
 *    the page-fault handler (arch/x86/kernel/traps.c) tries demand paging first.
 *  - If the fault cannot be satisfied (a bad pointer), the handler asks
 *    uaccess_fixup(rip): for any rip between uaccess_begin and uaccess_end
 *    it resumes at uaccess_fault, which returns -EFAULT to the C caller.
 *  - That single exit works for all routines because none of them uses the
 *    stack: at any instruction, (%rsp) is still the caller's return address.
 *  - SMAP: the kernel may touch user pages only between stac and clac
 *    (ASM_STAC/ASM_CLAC, include/x86.h): each routine opens the window on
 *    entry and closes it on every way out, the fault exit included. Any
 *    other kernel access to user memory is an oops (arch/x86/kernel/traps.c).
 *  - System V ABI: arguments in rdi, rsi, rdx; result in rax; rcx, rdx,
 *    rsi, rdi, r8-r11 may be clobbered; the direction flag is clear.
 */
#include <errno.h>
#include <x86.h>

	.text
	.globl uaccess_begin, uaccess_end, uaccess_fault
	.globl __uaccess_copy, __uaccess_clear, __uaccess_strncpy, __uaccess_strnlen

uaccess_begin:

/*
 * long __uaccess_copy(void *dst, const void *src, size_t n): 0 or -EFAULT.
 * Eight bytes a step, then the rest: under QEMU's TCG each step of a rep
 * string instruction costs about the same whatever its size.
 */
__uaccess_copy:
	ASM_STAC
	mov	%rdx, %rcx
	shr	$3, %rcx
	rep movsq			/* n / 8 quadwords from (rsi) to (rdi) */
	mov	%rdx, %rcx
	and	$7, %rcx
	rep movsb			/* and the last n % 8 bytes */
	xor	%eax, %eax
	ASM_CLAC
	ret

/* long __uaccess_clear(void *dst, size_t n): 0 or -EFAULT. Eight bytes a
 * step too. */
__uaccess_clear:
	ASM_STAC
	xor	%eax, %eax
	mov	%rsi, %rcx
	shr	$3, %rcx
	rep stosq			/* n / 8 zero quadwords at (rdi) */
	mov	%rsi, %rcx
	and	$7, %rcx
	rep stosb			/* and the last n % 8 bytes */
	ASM_CLAC
	ret

/*
 * long __uaccess_strncpy(char *dst, const char *src, long n): copy bytes
 * up to and including a NUL, at most n. Returns the length before the NUL,
 * n if there was no NUL in n bytes, or -EFAULT.
 */
__uaccess_strncpy:
	ASM_STAC
	xor	%eax, %eax		/* rax = index of the next byte */
1:	cmp	%rdx, %rax
	je	2f			/* n bytes and no NUL */
	movb	(%rsi,%rax), %cl
	movb	%cl, (%rdi,%rax)
	test	%cl, %cl
	jz	2f			/* the NUL: rax is the length */
	inc	%rax
	jmp	1b
2:	ASM_CLAC
	ret

/*
 * long __uaccess_strnlen(const char *s, long n): the length of s before its
 * NUL, n if there is no NUL in n bytes, or -EFAULT.
 *
 * A word at a time, aligned words only (an aligned word never spans two
 * pages, so it faults only where a byte-wise scan would): exec measures
 * every argument and environment string, 100 KB of them for 1000
 * arguments. A word w has a zero byte if (w - 0x0101..01) & ~w &
 * 0x8080..80 is not 0, and the lowest bit set is that of the first zero
 * byte (the bytes in memory order are the word's from its low end): bsf
 * finds it, with no byte loop. The bytes of the first word before s are
 * made non-zero first. rdi is the current word, rax its offset from s
 * (negative for the first one when s is not aligned).
 */
__uaccess_strnlen:
	ASM_STAC
	xor	%eax, %eax
	test	%rsi, %rsi
	jz	2f			/* n == 0 */
	movabs	$0x0101010101010101, %r8
	movabs	$0x8080808080808080, %r9
	mov	%rdi, %rcx
	and	$7, %ecx		/* s's offset in its word */
	sub	%rcx, %rax		/* rax = -offset */
	sub	%rcx, %rdi		/* rdi = the word's address */
	shl	$3, %ecx
	mov	$-1, %r10
	shl	%cl, %r10
	not	%r10			/* the bits of the bytes before s */
	mov	(%rdi), %rdx
	or	%r10, %rdx
1:	mov	%rdx, %rcx
	sub	%r8, %rcx
	not	%rdx
	and	%rdx, %rcx
	and	%r9, %rcx
	jnz	3f			/* a NUL in this word */
	add	$8, %rax
	cmp	%rsi, %rax
	jge	4f			/* the next word starts n bytes on: none */
	add	$8, %rdi
	mov	(%rdi), %rdx
	jmp	1b
3:	bsf	%rcx, %rcx
	shr	$3, %ecx		/* the NUL's byte in the word */
	add	%rcx, %rax
	cmp	%rsi, %rax
	cmovg	%rsi, %rax		/* past n bytes: n */
2:	ASM_CLAC
	ret
4:	mov	%rsi, %rax
	ASM_CLAC
	ret

/* Where a faulting routine resumes (see uaccess_fixup). */
uaccess_fault:
	ASM_CLAC
	mov	$-EFAULT, %rax
	ret

uaccess_end:

	.section .note.GNU-stack, "", @progbits
