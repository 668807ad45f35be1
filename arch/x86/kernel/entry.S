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
 *
 * GS: in the kernel, the GS base is this CPU's struct percpu
 * (include/percpu.h); in user mode it is the program's. Every way in from
 * user mode starts with swapgs and every way out to it ends with one, so
 * that the kernel runs with its own GS exactly when the saved cs says it
 * came from user mode -- with one exception: a fault of the iretq to user
 * mode itself, which strikes in kernel mode after the swapgs back; and
 * NMIs and machine checks, which strike anywhere (paranoid_entry).
 */
#include <percpu.h>
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

/* Pop them back. */
.macro RESTORE_REGS
	popq	%r15
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
.endm

	.text

/* Vectors 8, 10-14, 17, 21, 29 and 30 push an error code; the rest not. */
#define HAS_ERROR(n) ((n) == 8 || ((n) >= 10 && (n) <= 14) || (n) == 17 || \
		      (n) == 21 || (n) == 29 || (n) == 30)

	.balign 16
	.globl isr_stubs
isr_stubs:
	.set vec, 0
	.rept 256
	.balign 16
	.if !HAS_ERROR(vec)
	pushq	$0
	.endif
	pushq	$vec
	jmp	isr_common
	.set vec, vec + 1
	.endr

/* The hardware frame above the vector and error code. */
#define FRAME_RIP 16
#define FRAME_CS 24

isr_common:
	testb	$3, FRAME_CS(%rsp)	/* from user mode: take the kernel's GS */
	jnz	1f
	cmpq	$iret_to_user, FRAME_RIP(%rsp)
	jne	2f			/* from the kernel: GS is the kernel's already */
1:	swapgs
2:	SAVE_REGS
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
	 * own return consumes espfix_rsp. A return to user mode drops the
	 * big kernel lock last.
	 */
	cli
	testb	$3, TRAPFRAME_CS(%rsp)
	jz	2f
	testb	$4, TRAPFRAME_SS(%rsp)
	jz	1f
	mov	%rsp, %rdi
	call	espfix_prepare
1:	call	unlock_kernel_to_user	/* include/smp_lock.h */
2:	RESTORE_REGS
	add	$16, %rsp		/* vector and error code */
	/*
	 * The one instruction on the way out that user space can make fault:
	 * a sigreturn may have left a bad cs or ss, or a non-canonical rip,
	 * in the frame. The fault (#GP, #NP or #SS) arrives in kernel mode
	 * with this rip; arch/x86/kernel/traps.c turns it into the user's.
	 */
	testb	$3, 8(%rsp)		/* the frame's cs */
	jz	iret_to_kernel
	cmpq	$0, %gs:PCPU_ESPFIX_RSP
	jne	iret_from_espfix
	swapgs
	.globl iret_to_user
iret_to_user:
	iretq
iret_to_kernel:
	iretq

/* The frame's copy in the espfix page, at an alias whose bits 31:16 are
 * the user's RSP's; espfix_prepare made sure this iretq cannot fault. */
iret_from_espfix:
	mov	%gs:PCPU_ESPFIX_RSP, %rsp
	movq	$0, %gs:PCPU_ESPFIX_RSP
	swapgs
	iretq

/*
 * NMI and machine check (include/nmi.h): they come even with interrupts
 * off, on a stack of their own (IST), and may strike in kernel mode while
 * the user's GS base is loaded: on syscall_entry's swapgs, or between the
 * swapgs and the iretq on the way out. From user mode they take the usual
 * path. From kernel mode the GS base itself says whose it is (the
 * kernel's per-CPU area is a kernel address, negative); rbx, which the C
 * code keeps, remembers whether to swap back.
 */
	.globl nmi_entry
nmi_entry:
	pushq	$0
	pushq	$2
	jmp	paranoid_entry

	.globl machine_check_entry
machine_check_entry:
	pushq	$0
	pushq	$18
	jmp	paranoid_entry

paranoid_entry:
	testb	$3, FRAME_CS(%rsp)
	jnz	isr_common
	SAVE_REGS
	cld
	xor	%ebx, %ebx
	mov	$0xc0000101, %ecx	/* MSR_GS_BASE */
	rdmsr
	test	%edx, %edx
	js	1f			/* the kernel's GS */
	swapgs
	inc	%ebx
1:	mov	%rsp, %rdi
	call	trap_handler
	test	%ebx, %ebx
	jz	2f
	swapgs
2:	RESTORE_REGS
	add	$16, %rsp
	iretq

/* void return_to_user(struct trapframe *tf) */
	.globl return_to_user
return_to_user:
	cli
	mov	%rdi, %rsp
	jmp	trap_return

	.globl syscall_entry
syscall_entry:
	/* rflags.IF is already clear (MSR_FMASK): nothing comes between
	 * swapgs and the switch to the task's kernel stack. */
	swapgs
	mov	%rsp, %gs:PCPU_USER_RSP
	mov	%gs:PCPU_SYSCALL_RSP, %rsp
	pushq	$USER_DS
	pushq	%gs:PCPU_USER_RSP
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

	.text
/* First run of a forked task: on to user mode (kernel/sched/core.c). */
	.globl ret_from_fork
ret_from_fork:
	call	schedule_tail
	jmp	trap_return

/* First run of a task made by start_kernel_task: call rbx(r12). */
	.globl kernel_thread_start
kernel_thread_start:
	call	schedule_tail_kernel
	mov	%r12, %rdi
	call	*%rbx
	ud2
