/*
 * process_64.c - a thread's x86-64 state at the start of a program
 * (Linux's arch/x86/kernel/process_64.c, where start_thread lives).
 */
#include <fpu.h>
#include <linux/binfmts.h>
#include <sched.h>
#include <trap.h>
#include <x86.h>

/*
 * The registers a new program starts with (Linux: start_thread and
 * ELF_PLAT_INIT): rip at the entry point, rsp at argc, interrupts on,
 * every general register 0 (rdx = 0 tells the program there is no exit
 * handler to register), FS and GS bases 0 (no TLS yet), and a clean
 * x87/SSE state (Linux's flush_thread).
 */
void start_thread(struct trapframe *regs, uint64_t new_ip, uint64_t new_sp)
{
	regs->r15 = regs->r14 = regs->r13 = regs->r12 = 0;
	regs->r11 = regs->r10 = regs->r9 = regs->r8 = 0;
	regs->rbp = regs->rdi = regs->rsi = regs->rdx = 0;
	regs->rcx = regs->rbx = regs->rax = 0;
	regs->rip = new_ip;
	regs->rsp = new_sp;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rflags = 0x202; /* IF, and bit 1 which is always set */

	current->fs_base = 0;
	current->gs_base = 0;
	wrmsr(MSR_FS_BASE, 0);
	wrmsr(MSR_GS_BASE, 0);
	fpu_reset_current(); /* as Linux's flush_thread: a clean x87/SSE state */
}
