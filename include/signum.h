/* signum.h - Linux's x86-64 signal numbers and sigaction flags. */
#pragma once

#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPWR 30
#define SIGSYS 31
#define SIGRTMIN 32
#define NSIG 64

#define SIG_DFL 0UL
#define SIG_IGN 1UL

#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO 0x00000004
#define SA_RESTORER 0x04000000
#define SA_ONSTACK 0x08000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* sigaltstack(2) */
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1U << 31)
#define SS_FLAG_BITS SS_AUTODISARM
#define MINSIGSTKSZ 2048

#ifndef __ASSEMBLY__
#include <kernel.h>
/* stack_t: an alternate signal stack as sigaltstack(2) and uc_stack hold it. */
struct user_stack {
	uint64_t ss_sp;
	int32_t ss_flags;
	int32_t pad;
	uint64_t ss_size;
};

struct task;
/* kernel/signal.c: the current thread's alternate stack, as seen from the
 * user stack pointer sp. */
bool __on_sig_stack(uint64_t sp);        /* sp inside it */
bool on_sig_stack(uint64_t sp);          /* ...and it is in use (armed) */
int sas_ss_flags(uint64_t sp);          /* SS_DISABLE, SS_ONSTACK or 0 */
void sas_ss_reset(struct task *t);       /* none, flags SS_DISABLE */
/* rt_sigreturn: set it back from a frame's uc_stack; 0 or -EFAULT. */
int restore_altstack(const struct user_stack __user *uss);
#endif

#define sigmask(sig) (1UL << ((sig) - 1))
