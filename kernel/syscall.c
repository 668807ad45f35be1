/*
 * syscall.c - the system call table and dispatcher.
 *
 * User code executes `syscall` with the number in rax and up to six
 * arguments in rdi, rsi, rdx, r10, r8, r9; arch/x86/kernel/entry.S saves them in a
 * trapframe and calls syscall_dispatch, which puts the result (or -errno)
 * back in rax. "strace" on the command line logs every call.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <smp_lock.h>
#include <syscalls.h>
#include <trap.h>
#include <x86.h>

#define NR_SYSCALLS 512

/* Casting through void (*)(void) tells the compiler the mismatch of
 * prototypes is intended: every handler takes integer-sized arguments. */
#define TABLE_ENTRY(nr, name) [nr] = (syscall_fn)(void (*)(void))sys_##name,
static const syscall_fn syscall_table[NR_SYSCALLS] = { SYSCALL_LIST(TABLE_ENTRY) };

#define NAME_ENTRY(nr, name) [nr] = #name,
static const char *const syscall_names[NR_SYSCALLS] = { SYSCALL_LIST(NAME_ENTRY) };

extern char syscall_entry[], syscall32_entry[];

void syscall_init(void)
{
	/* sysret would use 0x20+16 | 3 = 0x33 and 0x20+8 | 3 = 0x2b; syscall
	 * enters with cs 0x08 and ss 0x10. */
	wrmsr(MSR_STAR, ((uint64_t)(USER32_CS & ~3) << 48) | ((uint64_t)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	/* syscall from 32-bit code (AMD's CPUs allow it): see entry.S. */
	wrmsr(MSR_CSTAR, (uint64_t)syscall32_entry);
	/*
	 * The flags the kernel must not run with, cleared on entry as Linux
	 * clears them: IF (the entry switches stacks first), TF (no single
	 * step in the kernel), DF and AC (string instructions and SMAP), NT
	 * (iretq with NT set would try a task switch: #GP), RF, IOPL, ID and
	 * the arithmetic flags. The user's own flags are in r11 and come back
	 * on the way out.
	 */
	wrmsr(MSR_FMASK, RFLAGS_CF | RFLAGS_PF | RFLAGS_AF | RFLAGS_ZF | RFLAGS_SF | RFLAGS_TF |
				 RFLAGS_IF | RFLAGS_DF | RFLAGS_OF | RFLAGS_IOPL | RFLAGS_NT | RFLAGS_RF |
				 RFLAGS_AC | RFLAGS_ID);
}

/* Log one call. ret_known is false for calls that do not return (exit). */
static void strace_log(uint32_t nr, const uint64_t args[6], bool ret_known, long ret)
{
	const char *name = nr < NR_SYSCALLS ? syscall_names[nr] : NULL;
	char nbuf[24];

	if (!name) {
		snprintf(nbuf, sizeof(nbuf), "syscall_%u", nr);
		name = nbuf;
	}
	/* KERN_ERR so that the trace shows even with "quiet". */
	if (ret_known)
		printk(KERN_ERR "strace: %d %s(0x%lx, 0x%lx, 0x%lx, 0x%lx, 0x%lx, 0x%lx) = %ld\n",
		       current->pid, name, args[0], args[1], args[2], args[3], args[4], args[5], ret);
	else
		printk(KERN_ERR "strace: %d %s(0x%lx, 0x%lx, 0x%lx, 0x%lx, 0x%lx, 0x%lx) = ?\n",
		       current->pid, name, args[0], args[1], args[2], args[3], args[4], args[5]);
}

/*
 * The number is the low 32 bits of rax, as on Linux (its do_syscall_64
 * takes an int): 0x100000027 is getpid. Numbers with bit 30 set are the
 * x32 ABI's, which Debian's kernel turns off unless booted with
 * syscall.x32=y, and this kernel does not have: -ENOSYS, as for any
 * number past the table. The full rax stays in tf->error (orig_ax).
 */
static long invoke(uint32_t nr, const struct trapframe *tf)
{
	if (nr >= NR_SYSCALLS || !syscall_table[nr])
		return -ENOSYS;
	return syscall_table[nr](tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9);
}

/* The same call, logged ("strace" on the command line). */
static __attribute__((noinline)) long invoke_traced(uint32_t nr, const struct trapframe *tf)
{
	uint64_t args[6] = { tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9 };

	/* exit and exit_group never come back: log them on the way in. */
	if (nr == 60 || nr == 231)
		strace_log(nr, args, false, 0);
	long ret = invoke(nr, tf);
	strace_log(nr, args, true, ret);
	return ret;
}

/*
 * The calls that need no big kernel lock: they read or set only the
 * calling thread's own state, which no other CPU changes, and where
 * another CPU reads it, it is one aligned word. rt_sigprocmask's
 * contract with the signal senders is written at it (kernel/signal.c).
 * Their return to user mode takes the lock only if there is work.
 */
#define NR_ENUM(nr, name) NR_##name = nr,
enum { SYSCALL_LIST(NR_ENUM) };
static const bool runs_unlocked[NR_SYSCALLS] = {
	[NR_getpid] = true,
	[NR_gettid] = true,
	[NR_set_tid_address] = true,
	[NR_arch_prctl] = true,
	[NR_rt_sigprocmask] = true,
};

static __attribute__((noinline)) void dispatch_unlocked(uint32_t nr, struct trapframe *tf)
{
	tf->rax = cmdline_strace ? invoke_traced(nr, tf) : invoke(nr, tf);
	prepare_return_to_user_unlocked(tf);
}

void syscall_dispatch(struct trapframe *tf)
{
	uint32_t nr = (uint32_t)tf->rax;

	if (nr < NR_SYSCALLS && runs_unlocked[nr]) {
		dispatch_unlocked(nr, tf);
		return;
	}
	lock_kernel(); /* dropped on the way out (entry.S) */
	tf->rax = cmdline_strace ? invoke_traced(nr, tf) : invoke(nr, tf);
	prepare_return_to_user(tf);
}
