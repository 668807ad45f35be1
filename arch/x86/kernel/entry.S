/*
 * entry.S - every way into the kernel and back out.
 *
 * Interrupts and exceptions enter through a 16-byte stub per vector that
 * pushes a dummy error code (when the CPU pushes none) and the vector
 * number, then isr_common saves the general registers: the result is a
 * struct trapframe (include/trap.h) on the kernel stack.
 *
 * The syscall instruction enters at syscall_entry with the user's rsp still
 * loaded; we switch to the task's kernel stack and build the same trapframe
 * (rip from rcx, rflags from r11), so that every return to user mode,
 * including a new process's first, goes through trap_return and iretq.
 */
#include <trap.h>
#include <x86.h>

/* Push the general registers in the order of struct trapframe. */
.macro SAVE_REGS
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
.endm

	.text

/* Vectors 8, 10-14, 17, 21, 29 and 30 push an error code; the rest not. */
#define HAS_ERROR(n) ((n) == 8 || ((n) >= 10 && (n) <= 14) || (n) == 17 || \
		      (n) == 21 || (n) == 29 || (n) == 30)

	.balign 16
	.globl isr_stubs
isr_stubs:
	.set vec, 0
	.rept 48
	.balign 16
	.if !HAS_ERROR(vec)
	pushq	$0
	.endif
	pushq	$vec
	jmp	isr_common
	.set vec, vec + 1
	.endr

isr_common:
	SAVE_REGS
	cld
	ASM_CLAC			/* user space may have set AC: SMAP stays on */
	mov	%rsp, %rdi
	call	trap_handler
	/* fall through */

	.globl trap_return
trap_return:
	/*
	 * A stack segment from the LDT may be 16-bit: espfix_prepare
	 * (espfix_64.c) then sets espfix_rsp, the stack iretq must run on.
	 * Interrupts stay off from here to iretq, so that no interrupt's
	 * own return consumes espfix_rsp.
	 */
	cli
	testb	$4, TRAPFRAME_SS(%rsp)
	jz	1f
	mov	%rsp, %rdi
	call	espfix_prepare
1:	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	add	$16, %rsp		/* vector and error code */
	/*
	 * The one instruction on the way out that user space can make fault:
	 * a sigreturn may have left a bad cs or ss, or a non-canonical rip,
	 * in the frame. The fault (#GP, #NP or #SS) arrives in kernel mode
	 * with this rip; arch/x86/kernel/traps.c turns it into the user's.
	 */
	cmpq	$0, espfix_rsp(%rip)
	jne	iret_from_espfix
	.globl iret_to_user
iret_to_user:
	iretq

/* The frame's copy in the espfix page, at an alias whose bits 31:16 are
 * the user's RSP's; espfix_prepare made sure this iretq cannot fault. */
iret_from_espfix:
	mov	espfix_rsp(%rip), %rsp
	movq	$0, espfix_rsp(%rip)
	iretq

/* void return_to_user(struct trapframe *tf) */
	.globl return_to_user
return_to_user:
	cli
	mov	%rdi, %rsp
	jmp	trap_return

	.globl syscall_entry
syscall_entry:
	/* rflags.IF is already clear (MSR_FMASK); one CPU, so globals do. */
	mov	%rsp, syscall_user_rsp(%rip)
	mov	syscall_kernel_rsp(%rip), %rsp
	pushq	$USER_DS
	pushq	syscall_user_rsp(%rip)
	pushq	%r11			/* user rflags */
	pushq	$USER_CS
	pushq	%rcx			/* user rip */
	pushq	%rax			/* the syscall number, for restarts */
	pushq	$TRAP_SYSCALL
	SAVE_REGS
	xor	%ebp, %ebp		/* backtraces stop here */
	mov	%rsp, %rdi
	sti
	call	syscall_dispatch
	cli
	jmp	trap_return

/*
 * syscall from 32-bit code (cs 0x23): AMD's CPUs enter here (MSR_CSTAR),
 * Intel's raise #UD. This kernel has no 32-bit system calls: return
 * -ENOSYS at once, stack and registers untouched, as a Linux built
 * without IA32 emulation does. sysretl goes back to ecx with r11's flags.
 */
	.globl syscall32_entry
syscall32_entry:
	mov	$-38, %eax		/* -ENOSYS */
	sysretl

/*
 * void switch_context(uint64_t *save_ksp, uint64_t new_ksp)
 * Save the callee-saved registers on this stack, park the stack pointer in
 * *save_ksp, take up new_ksp and return into whatever task saved it.
 */
	.globl switch_context
switch_context:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	mov	%rsp, (%rdi)
	mov	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret

	.data
	.globl syscall_kernel_rsp
syscall_user_rsp:	.quad 0
syscall_kernel_rsp:	.quad 0

	.text
/* First run of a task made by start_kernel_task: call rbx(r12). */
	.globl kernel_thread_start
kernel_thread_start:
	mov	%r12, %rdi
	call	*%rbx
	ud2
