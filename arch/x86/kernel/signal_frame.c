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
 *	          ...the x87/SSE/AVX registers (XSAVE image, 64-byte
 *	             aligned: fpu_signal.c)
 *
 * and enter the handler with rdi = signal, rsi = &info, rdx = &uc. The
 * restorer (from musl or glibc) calls rt_sigreturn, which reads the frame
 * back and resumes where the signal struck.
 */
#include <cpu.h>
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
	struct user_stack uc_stack;
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
_Static_assert(sizeof(struct rt_sigframe) == 440, "Linux's x86-64 rt_sigframe");

#define UC_FP_XSTATE 0x1 /* fpstate is an XSAVE image (fpu_signal.c) */
#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4
/* Flags a handler may change through the saved context. */
#define FIX_EFLAGS (RFLAGS_AC | RFLAGS_OF | RFLAGS_DF | RFLAGS_TF | RFLAGS_SF | RFLAGS_ZF | \
		    RFLAGS_AF | RFLAGS_PF | RFLAGS_CF | RFLAGS_RF)

/*
 * Where the frame goes, as Linux's get_sigframe: past the red zone of the
 * interrupted stack, or at the top of the alternate stack when the handler
 * asks for it (SA_ONSTACK) and the thread is not on it already. Below that
 * the register state, with the room XSAVE needs on this CPU for every
 * component it has (we write only those enabled; the room makes the same
 * frames fit, or not, as on Linux), 64-byte aligned; then the frame. A frame that would run off the
 * alternate stack is refused (0): the thread gets SIGSEGV instead.
 */
static uint64_t get_sigframe(const struct k_sigaction *ka, uint64_t sp, uint64_t *fpstate)
{
	bool nested = on_sig_stack(sp), entering = false;

	sp -= 128; /* the red zone belongs to the interrupted code */
	if ((ka->flags & SA_ONSTACK) && sas_ss_flags(sp) == 0) {
		sp = current->altstack_sp + current->altstack_size;
		entering = true;
	}
	sp = ALIGN_DOWN(sp - fpu_sigframe_size(), 64);
	*fpstate = sp;
	sp = ALIGN_DOWN(sp - sizeof(struct rt_sigframe), 16) - 8;
	if ((nested || entering) && !__on_sig_stack(sp)) {
		printk(KERN_INFO "%s[%d] overflowed sigaltstack\n", current->comm, current->pid);
		return 0;
	}
	return sp;
}

/*
 * A handler runs in 64-bit mode, whatever code the signal interrupted, on a
 * valid stack segment: the interrupted one if it is a writable data
 * segment of user privilege (programs that switch segments look at it),
 * else the flat one (Linux's force_valid_ss). lar reads the descriptor's
 * access rights, or clears ZF if the selector names none.
 */
#define AR_TYPE_MASK (7U << 9)
#define AR_TYPE_RWDATA (1U << 9)
#define AR_TYPE_RWDATA_EXPDOWN (3U << 9)
#define AR_S (1U << 12)
#define AR_DPL3 (3U << 13)
#define AR_P (1U << 15)

static uint64_t valid_ss(uint64_t ss)
{
	uint32_t ar = 0;
	uint8_t ok;

	__asm__("lar %k2, %0\n\tsetz %1" : "+r"(ar), "=q"(ok) : "r"(ss & 0xffff) : "cc");
	ar &= AR_DPL3 | AR_S | AR_P | AR_TYPE_MASK;
	if (ok && (ar == (AR_DPL3 | AR_S | AR_P | AR_TYPE_RWDATA) ||
		   ar == (AR_DPL3 | AR_S | AR_P | AR_TYPE_RWDATA_EXPDOWN)))
		return ss;
	return USER_DS;
}

int setup_rt_frame(const struct ksiginfo *info, struct k_sigaction *ka, struct trapframe *tf,
		   uint64_t saved_mask)
{
	int sig = info->si_signo;
	uint64_t fp, frame_addr = get_sigframe(ka, tf->rsp, &fp);
	struct rt_sigframe f;

	if (!(ka->flags & SA_RESTORER) || !frame_addr)
		return -EFAULT; /* x86-64 has no kernel-provided return path */
	memset(&f, 0, sizeof(f));
	f.pretcode = ka->restorer;
	/* SS is saved; sigreturn must restore it as saved (strict) when the
	 * signal came from 64-bit code. */
	f.uc.uc_flags = UC_SIGCONTEXT_SS | (tf->cs == USER_CS ? UC_STRICT_RESTORE_SS : 0) |
			(fpu_sigframe_is_xstate() ? UC_FP_XSTATE : 0);
	f.uc.uc_stack.ss_sp = current->altstack_sp;
	f.uc.uc_stack.ss_size = current->altstack_size;
	f.uc.uc_stack.ss_flags = current->altstack_flags;
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

	if (fpu_to_sigframe(fp) || copy_to_user((void __user *)frame_addr, &f, sizeof(f)))
		return -EFAULT;

	tf->rsp = frame_addr;
	tf->rip = ka->handler;
	tf->rdi = sig;
	tf->rsi = frame_addr + offsetof(struct rt_sigframe, info);
	tf->rdx = frame_addr + offsetof(struct rt_sigframe, uc);
	tf->rax = 0;
	tf->rflags &= ~(RFLAGS_TF | RFLAGS_DF); /* the ABI wants DF clear */
	tf->cs = USER_CS;
	tf->ss = valid_ss(tf->ss);
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
	/* As Linux: the mask, then the registers, then the x87/SSE/AVX
	 * state; a state the CPU would refuse leaves the rest restored and
	 * the program gets SIGSEGV. */
	current->blocked = f.uc.uc_sigmask & ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	tf->r8 = sc->r8, tf->r9 = sc->r9, tf->r10 = sc->r10, tf->r11 = sc->r11;
	tf->r12 = sc->r12, tf->r13 = sc->r13, tf->r14 = sc->r14, tf->r15 = sc->r15;
	tf->rdi = sc->rdi, tf->rsi = sc->rsi, tf->rbp = sc->rbp, tf->rbx = sc->rbx;
	tf->rdx = sc->rdx, tf->rax = sc->rax, tf->rcx = sc->rcx, tf->rsp = sc->rsp;
	tf->rip = sc->rip;
	tf->rflags = (tf->rflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS) | RFLAGS_IF;
	/*
	 * Whatever segments the frame names, with user privilege: a bad one
	 * makes the return itself fault (entry.S, iret_to_user), and the
	 * program gets that signal. A frame from an old program that did not
	 * ask for strict SS (DOSEMU's) gets the flat SS when the one it names
	 * is unusable and the code is 64-bit.
	 */
	tf->cs = sc->cs | 3;
	tf->ss = sc->ss | 3;
	if (!(f.uc.uc_flags & UC_STRICT_RESTORE_SS) && tf->cs == USER_CS)
		tf->ss = valid_ss(tf->ss);
	tf->error = -1; /* not a syscall to restart */
	if (!sc->fpstate)
		fpu_reset_current();
	else if (fpu_from_sigframe(sc->fpstate))
		goto bad;
	if (restore_altstack((const struct user_stack __user *)(frame_addr + offsetof(struct rt_sigframe, uc.uc_stack))))
		goto bad;
	return tf->rax; /* the dispatcher stores this back in rax */

bad:
	printk(KERN_INFO "%s[%d] bad frame in rt_sigreturn frame:%lx ip:%lx sp:%lx\n",
	       current->comm, current->pid, frame_addr, tf->rip, tf->rsp);
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
	return tf->rax;
}
