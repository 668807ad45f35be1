/*
 * signal_frame.c - running a user's signal handler and coming back
 * (the x86-64 part of signals, as Linux's arch/x86/kernel/signal.c).
 *
 * To run a handler we push, below the interrupted stack pointer (past the
 * 128-byte red zone) or on the alternate stack, Linux's rt_sigframe:
 *
 *	pretcode  -> sa_restorer (the handler "returns" into it)
 *	ucontext  -> uc_flags, uc_link, uc_stack, the saved registers
 *	             (struct sigcontext), uc_sigmask (the mask to restore)
 *	siginfo   -> 128 bytes
 *	          ...the x87/SSE registers (fxsave image, 64-byte aligned)
 *
 * and enter the handler with rdi = signal, rsi = &info, rdx = &uc. The
 * restorer (from musl or glibc) calls rt_sigreturn, which reads the frame
 * back and resumes where the signal struck.
 */
#include <errno.h>
#include <fpu.h>
#include <kernel.h>
#include <sched.h>
#include <signum.h>
#include <string.h>
#include <uaccess.h>
#include <x86.h>

struct sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2;
	uint64_t fpstate; /* user address of the fxsave image */
	uint64_t reserved1[8];
};

struct ucontext {
	uint64_t uc_flags;
	uint64_t uc_link;
	struct {
		uint64_t ss_sp;
		int32_t ss_flags, pad;
		uint64_t ss_size;
	} uc_stack;
	struct sigcontext uc_mcontext;
	uint64_t uc_sigmask;
};

/* The user's siginfo_t: struct ksiginfo (include/sched.h), then zeros. */
struct siginfo {
	struct ksiginfo k;
	uint8_t rest[128 - sizeof(struct ksiginfo)];
};

struct rt_sigframe {
	uint64_t pretcode;
	struct ucontext uc;
	struct siginfo info;
};

#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4
#define FPU_IMAGE_SIZE 512
/* Flags a handler may change through the saved context. */
#define FIX_EFLAGS 0x00050dd5UL /* AC, RF, OF, DF, TF, SF, ZF, AF, PF, CF */

bool on_altstack(uint64_t sp);

int setup_rt_frame(const struct ksiginfo *info, struct k_sigaction *ka, struct trapframe *tf,
		   uint64_t saved_mask)
{
	int sig = info->si_signo;
	uint64_t sp = tf->rsp;

	if (!(ka->flags & SA_RESTORER))
		return -EFAULT; /* x86-64 has no kernel-provided return path */
	if ((ka->flags & SA_ONSTACK) && current->altstack_size && !on_altstack(sp))
		sp = current->altstack_sp + current->altstack_size;
	else
		sp -= 128; /* the red zone belongs to the interrupted code */

	uint64_t fp = ALIGN_DOWN(sp - FPU_IMAGE_SIZE, 64);
	uint64_t frame_addr = ALIGN_DOWN(fp - sizeof(struct rt_sigframe), 16) - 8;
	struct rt_sigframe f;

	memset(&f, 0, sizeof(f));
	f.pretcode = ka->restorer;
	f.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	f.uc.uc_stack.ss_sp = current->altstack_sp;
	f.uc.uc_stack.ss_size = current->altstack_size;
	f.uc.uc_stack.ss_flags = current->altstack_size ? (on_altstack(tf->rsp) ? 1 : 0) : 2;
	struct sigcontext *sc = &f.uc.uc_mcontext;
	sc->r8 = tf->r8, sc->r9 = tf->r9, sc->r10 = tf->r10, sc->r11 = tf->r11;
	sc->r12 = tf->r12, sc->r13 = tf->r13, sc->r14 = tf->r14, sc->r15 = tf->r15;
	sc->rdi = tf->rdi, sc->rsi = tf->rsi, sc->rbp = tf->rbp, sc->rbx = tf->rbx;
	sc->rdx = tf->rdx, sc->rax = tf->rax, sc->rcx = tf->rcx, sc->rsp = tf->rsp;
	sc->rip = tf->rip, sc->eflags = tf->rflags;
	sc->cs = tf->cs, sc->ss = tf->ss;
	sc->trapno = tf->vector == TRAP_SYSCALL ? 0 : tf->vector;
	sc->err = tf->vector == TRAP_SYSCALL ? 0 : tf->error;
	sc->oldmask = saved_mask;
	sc->fpstate = fp;
	f.uc.uc_sigmask = saved_mask;
	f.info.k = *info;
	if (tf->vector == 14 /* page fault */)
		sc->cr2 = info->si_addr;

	fpu_save(&current->fpu);
	if (copy_to_user((void __user *)fp, fpu_regs(&current->fpu), FPU_IMAGE_SIZE) ||
	    copy_to_user((void __user *)frame_addr, &f, sizeof(f)))
		return -EFAULT;

	tf->rsp = frame_addr;
	tf->rip = ka->handler;
	tf->rdi = sig;
	tf->rsi = frame_addr + offsetof(struct rt_sigframe, info);
	tf->rdx = frame_addr + offsetof(struct rt_sigframe, uc);
	tf->rax = 0;
	tf->rflags &= ~(0x100UL | 0x400UL); /* TF, DF: the ABI wants DF clear */
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	/* The handler starts with a clean x87/SSE state, as on Linux. */
	fpu_reset_current();
	return 0;
}

long sys_rt_sigreturn(void)
{
	struct trapframe *tf = current->tf;
	uint64_t frame_addr = tf->rsp - 8; /* the handler's ret popped pretcode */
	struct rt_sigframe f;

	if (copy_from_user(&f, (void __user *)frame_addr, sizeof(f)))
		goto bad;
	struct sigcontext *sc = &f.uc.uc_mcontext;
	if (sc->fpstate) {
		struct fpu_state fpu;
		if (copy_from_user(fpu_regs(&fpu), (void __user *)sc->fpstate, FPU_IMAGE_SIZE))
			goto bad;
		fpu_sanitize(&fpu);
		fpu_copy(&current->fpu, &fpu);
		fpu_restore(&current->fpu);
	} else {
		fpu_reset_current();
	}
	tf->r8 = sc->r8, tf->r9 = sc->r9, tf->r10 = sc->r10, tf->r11 = sc->r11;
	tf->r12 = sc->r12, tf->r13 = sc->r13, tf->r14 = sc->r14, tf->r15 = sc->r15;
	tf->rdi = sc->rdi, tf->rsi = sc->rsi, tf->rbp = sc->rbp, tf->rbx = sc->rbx;
	tf->rdx = sc->rdx, tf->rax = sc->rax, tf->rcx = sc->rcx, tf->rsp = sc->rsp;
	tf->rip = sc->rip;
	tf->rflags = (tf->rflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS) | 0x200;
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	tf->error = -1; /* not a syscall to restart */
	current->blocked = f.uc.uc_sigmask & ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	return tf->rax; /* the dispatcher stores this back in rax */

bad:
	printk(KERN_INFO "%s[%d] bad frame in rt_sigreturn frame:%lx ip:%lx sp:%lx\n",
	       current->comm, current->pid, frame_addr, tf->rip, tf->rsp);
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
	return tf->rax;
}
