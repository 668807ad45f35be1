/*
 * cpufuzz.h - random CPU state at the kernel's doors, for sysfuzz
 * (userland/hardening/sysfuzz.c): what a program can hand the kernel
 * besides a system call's number and arguments.
 *
 *  - cpu_syscall: a system call made with random flags in RFLAGS (NT, TF,
 *    AC, DF, RF, ID, the arithmetic ones; IOPL and IF too, which the CPU
 *    ignores at user privilege) and random selectors in DS, ES, GS and SS;
 *    now and then with LDT entries made first (so that LDT selectors
 *    load), and the call itself clearing the entry GS holds, whose stale
 *    selector the kernel must survive reloading when it switches back.
 *  - cpu_sigreturn: rt_sigreturn on a random frame: any CS, SS, RIP (none
 *    that lands in the program's own code), flags, FPU state pointer,
 *    signal mask and alternate stack.
 *
 * Each may end in a signal (SIGSEGV for a bad selector or address, SIGBUS,
 * SIGILL, SIGTRAP for TF or int3, SIGFPE): a handler on an alternate stack
 * jumps back (siglongjmp), and the batch goes on. Everything else a
 * random frame could reach is a page of instructions that trap at once
 * (trap_page), run as 64-bit or 32-bit code: int3, syscall, int $0x80,
 * sysenter, ud2, icebp, cli, hlt, swapgs, iret, mov to SS then syscall.
 * The kernel must answer each with a signal, never an oops.
 */
#ifndef CPUFUZZ_H
#define CPUFUZZ_H

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

#define CPU_ALT_SIZE 65536

static sigjmp_buf cpu_jmp;
static volatile sig_atomic_t cpu_armed; /* cpu_jmp is live: a test runs */
static unsigned char *trap_page;  /* below 4 GiB, for 32-bit code too */
static void *cpu_alt_stack;
static uint64_t *cpu_frame;       /* room for a fake signal frame */

/* The snippets of trap_page, one every 16 bytes; each ends in int3 where
 * it could fall through. */
static const unsigned char trap_snippets[][16] = {
	{ 0xcc },                     /* int3 */
	{ 0x0f, 0x05, 0xcc },         /* syscall */
	{ 0xcd, 0x80, 0xcc },         /* int $0x80 */
	{ 0x0f, 0x34, 0xcc },         /* sysenter */
	{ 0x0f, 0x0b },               /* ud2 */
	{ 0xf1, 0xcc },               /* icebp */
	{ 0xfa, 0xcc },               /* cli */
	{ 0xf4, 0xcc },               /* hlt */
	{ 0x0f, 0x01, 0xf8, 0xcc },   /* swapgs */
	{ 0x48, 0xcf, 0xcc },         /* iretq, on whatever the stack holds */
	{ 0x8e, 0xd0, 0x0f, 0x05, 0xcc }, /* mov %eax,%ss; syscall */
	{ 0x9d, 0xcc },               /* popf */
};
#define N_SNIPPETS (sizeof(trap_snippets) / sizeof(trap_snippets[0]))

/* Selectors: Linux's (and ours) for user code and data, the kernel's,
 * the TSS, LDT selectors (entries 0 to 3: see cpu_ldt), null ones. */
static const uint16_t selectors[] = {
	0x33, 0x2b, 0x23, 0x33, 0x2b, 0x23, 0, 3, 0x08, 0x0b, 0x10, 0x13,
	0x18, 0x1b, 0x38, 0x3b, 0x43, 0x47, 0x4f, 0x7b, 0xffff, 0x7, 0xf, 0x17, 0x1f,
};

/* modify_ldt's entry (Linux's asm/ldt.h). */
struct cpu_user_desc {
	unsigned int entry_number, base_addr, limit;
	unsigned int seg_32bit : 1, contents : 2, read_exec_only : 1, limit_in_pages : 1,
		seg_not_present : 1, useable : 1, lm : 1;
};

/* LDT entries 0 to 3 as present data segments of random base. */
static void cpu_ldt(void)
{
	struct cpu_user_desc d = { .base_addr = (unsigned)rnd(), .limit = 0xfffff, .seg_32bit = 1,
				   .limit_in_pages = 1 };

	for (d.entry_number = 0; d.entry_number < 4; d.entry_number++)
		syscall(154 /* modify_ldt */, 1, &d, sizeof(d));
}

static uint16_t selector(void)
{
	if (below(8) == 0)
		return (uint16_t)rnd();
	return selectors[below(sizeof(selectors) / sizeof(selectors[0]))];
}

/* The end of a test. The same signals may come at other times (a random
 * kill of itself): then they do what they would have done. */
static void cpu_trapped(int sig, siginfo_t *si, void *uc)
{
	(void)si, (void)uc;
	if (cpu_armed) {
		cpu_armed = 0;
		siglongjmp(cpu_jmp, sig);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void cpu_fuzz_init(void)
{
	trap_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	cpu_alt_stack = mmap(NULL, CPU_ALT_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cpu_frame = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (trap_page == MAP_FAILED || cpu_alt_stack == MAP_FAILED || cpu_frame == MAP_FAILED)
		_exit(1);
	memset(trap_page, 0xcc, 4096);
	for (unsigned i = 0; i < N_SNIPPETS; i++)
		memcpy(trap_page + 16 * i, trap_snippets[i], sizeof(trap_snippets[i]) - 1);
	mprotect(trap_page, 4096, PROT_READ | PROT_EXEC);
}

/* Before each test: the handlers and the alternate stack, which the
 * random calls in between may have changed. */
static void cpu_arm(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE };
	struct sigaction sa = { .sa_sigaction = cpu_trapped, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	stack_t ss = { .ss_sp = cpu_alt_stack, .ss_size = CPU_ALT_SIZE };

	sigaltstack(&ss, NULL);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* After a test: the data selectors the program started with, and AC
 * clear (a handler runs with the interrupted code's AC, and C code makes
 * unaligned accesses). */
static void cpu_reset_state(void)
{
	__asm__ volatile("mov %0, %%ds\n\tmov %0, %%es\n\tmov %0, %%gs\n\t"
			 "pushfq\n\tandq $~0x40000, (%%rsp)\n\tpopfq" ::"r"(0) : "cc", "memory");
}

/* A call number nobody minds: getpid, 64-bit or 32-bit, or none. */
static uint64_t harmless_nr(void)
{
	static const uint64_t nrs[] = { 39, 20, 0x100000027ULL, (uint64_t)-1, 500, 0x40000027 };
	return nrs[below(sizeof(nrs) / sizeof(nrs[0]))];
}

/* System call nr(a) with random flags and selectors; its result, or 0
 * when a signal cut it short. nr must be safe to make (tamed). */
static long cpu_syscall_gs(long nr, const uint64_t a[6], uint64_t gs)
{
	/* CF PF AF ZF SF TF DF OF IOPL NT RF AC ID, and IF always. */
	uint64_t flags = (rnd() & 0x257fd5) | 0x202;
	uint64_t ds = selector(), es = selector();
	uint64_t ss = below(4) ? 0x2b : selector();
	long ret = 0;

	cpu_arm();
	if (sigsetjmp(cpu_jmp, 1) == 0) {
		cpu_armed = 1;
		register uint64_t r10 __asm__("r10") = a[3];
		register uint64_t r8 __asm__("r8") = a[4];
		register uint64_t r9 __asm__("r9") = a[5];
		__asm__ volatile("sub $128, %%rsp\n\t"  /* spare the red zone */
				 "mov %[ds], %%ds\n\t"
				 "mov %[es], %%es\n\t"
				 "mov %[gs], %%gs\n\t"
				 "pushq %[fl]\n\t"
				 "popfq\n\t"
				 "mov %[ss], %%ss\n\t"
				 "syscall\n\t"
				 "pushq $0x202\n\t"
				 "popfq\n\t"
				 "add $128, %%rsp"
				 : "=a"(ret)
				 : "a"(nr), "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8), "r"(r9),
				   [fl] "r"(flags), [ds] "r"(ds), [es] "r"(es), [gs] "r"(gs), [ss] "r"(ss)
				 : "rcx", "r11", "memory", "cc");
	}
	cpu_armed = 0;
	cpu_reset_state();
	return ret;
}

/* System call nr(a) with random flags and selectors (cpu_syscall_gs);
 * now and then with LDT entries made first and GS on one of them, the
 * call then being modify_ldt clearing that entry. */
static long cpu_syscall(long nr, const uint64_t a[6])
{
	uint64_t clear[6] = { 1, (uint64_t)cpu_frame, sizeof(struct cpu_user_desc) };
	struct cpu_user_desc d = { .entry_number = below(4) };

	if (below(16))
		return cpu_syscall_gs(nr, a, selector());
	cpu_ldt();
	if (below(2))
		return cpu_syscall_gs(nr, a, selector());
	memcpy(cpu_frame, &d, sizeof(d));
	return cpu_syscall_gs(154 /* modify_ldt */, clear, (d.entry_number << 3) | 7);
}

/* Where a random frame may send the CPU: a trap snippet (mostly), or
 * nowhere mapped: null, the first non-canonical addresses, the kernel. */
static uint64_t trap_rip(void)
{
	static const uint64_t nowhere[] = {
		0, 0x800000000000ULL, 0x7ffffffffffeULL, 0xffff800000000000ULL,
		0xffffffff80100000ULL, 0xfffffffffffff000ULL, 0x8000000000000000ULL,
	};
	if (below(4))
		return (uint64_t)trap_page + 16 * below(N_SNIPPETS);
	if (below(4) == 0)
		return rnd() | 0x800000000000ULL; /* never in our own code */
	return nowhere[below(sizeof(nowhere) / sizeof(nowhere[0]))];
}

/* Offsets, in 8-byte words from the frame's start (the return address
 * the handler's ret popped), of Linux's x86-64 rt_sigframe. */
enum { UC_FLAGS = 1, UC_STACK_SP = 3, UC_STACK_FLAGS = 4, UC_STACK_SIZE = 5,
       SC_RAX = 6 + 13, SC_RSP = 6 + 15, SC_RIP = 6 + 16, SC_EFLAGS = 6 + 17,
       SC_SEGS = 6 + 18, SC_FPSTATE = 6 + 23, UC_SIGMASK = 6 + 32, FRAME_WORDS = 6 + 33 };

/* rt_sigreturn on a random frame. value() gives the general registers
 * and the FPU state pointer (sysfuzz's argument pool). */
static void cpu_sigreturn(uint64_t (*value)(void))
{
	uint64_t *f = cpu_frame + 64;

	for (int i = 0; i < FRAME_WORDS; i++)
		f[i] = value();
	f[UC_FLAGS] = below(4) ? 2 + 4 * below(2) : rnd();
	if (below(4)) { /* mostly the stack we have, so that the next test has it */
		f[UC_STACK_SP] = (uint64_t)cpu_alt_stack;
		f[UC_STACK_FLAGS] = below(4) ? 0 : (uint64_t)1 << 31; /* SS_AUTODISARM */
		f[UC_STACK_SIZE] = CPU_ALT_SIZE;
	}
	f[SC_RIP] = trap_rip();
	if (f[SC_RIP] >= (uint64_t)trap_page && f[SC_RIP] < (uint64_t)trap_page + 4096)
		f[SC_RAX] = harmless_nr(); /* it may reach a syscall */
	f[SC_RSP] = below(2) ? (uint64_t)cpu_frame + 4096 : value();
	f[SC_EFLAGS] = rnd();
	f[SC_SEGS] = selector() | (uint64_t)selector() << 48; /* cs ... ss */
	if (below(2))
		f[SC_FPSTATE] = 0;
	/* Any mask but one that blocks SIGALRM, sysfuzz's way out of a
	 * blocking call. */
	f[UC_SIGMASK] = below(8) ? 0 : rnd() & ~(1ULL << (SIGALRM - 1));

	cpu_arm();
	if (sigsetjmp(cpu_jmp, 1) == 0) {
		cpu_armed = 1;
		__asm__ volatile("mov %0, %%rsp\n\t"
				 "mov $15, %%eax\n\t" /* rt_sigreturn */
				 "syscall\n\t"
				 "ud2" ::"r"(f + 1) : "memory");
	}
	cpu_reset_state();
}

#endif
