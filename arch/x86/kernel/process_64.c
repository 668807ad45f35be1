/*
 * process_64.c - a thread's x86-64 state at the start of a program
 * (Linux's arch/x86/kernel/process_64.c, where start_thread lives).
 */
#include <cpu.h>
#include <fpu.h>
#include <linux/binfmts.h>
#include <sched.h>
#include <trap.h>
#include <x86.h>

/*
 * The registers a new program starts with (Linux: start_thread and
 * ELF_PLAT_INIT): rip at the entry point, rsp at argc, interrupts on,
 * every general register 0 (rdx = 0 tells the program there is no exit
 * handler to register), FS and GS selectors and bases 0 (no TLS yet), and a clean
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

	current->fsindex = current->gsindex = 0;
	current->fs_base = current->gs_base = 0;
	load_fsgs(current);
	fpu_reset_current(); /* as Linux's flush_thread: a clean x87/SSE state */
}

/*
 * A thread's FS and GS: the selectors a program loaded (mov to %gs) and
 * the bases it set (arch_prctl, or wrfsbase without the kernel knowing),
 * saved when it is switched out and loaded when it comes back, as
 * Linux's save_fsgs and x86_fsgsbase_load. Loading a selector sets the
 * base from its descriptor, so the base is written after it. In the
 * kernel, the program's GS base waits in MSR_KERNEL_GS_BASE (entry.S's
 * swapgs); the active one is this CPU's (include/percpu.h).
 */
void save_fsgs(struct task *t)
{
	__asm__ volatile("mov %%fs, %0" : "=r"(t->fsindex));
	__asm__ volatile("mov %%gs, %0" : "=r"(t->gsindex));
	t->fs_base = rdmsr(MSR_FS_BASE);
	t->gs_base = rdmsr(MSR_KERNEL_GS_BASE);
}

void load_fsgs(struct task *t)
{
	uint16_t fs, gs;

	__asm__ volatile("mov %%fs, %0" : "=r"(fs));
	__asm__ volatile("mov %%gs, %0" : "=r"(gs));
	/* A selector other than 0 on either side is loaded afresh: its
	 * descriptor may have changed (modify_ldt), as Linux does. */
	if (fs || t->fsindex)
		load_fs_index(t->fsindex);
	if (gs || t->gsindex)
		load_gs_index(t->gsindex);
	wrmsr(MSR_FS_BASE, t->fs_base);
	wrmsr(MSR_KERNEL_GS_BASE, t->gs_base);
}

/*
 * The loads themselves: the instruction that may fault, and where the
 * fault handler sends it (segment_load_fixup): load the null selector.
 * Loading GS also loads the active GS base, this CPU's: load_gs_index
 * puts it back (rsi holds it across a fault), interrupts off meanwhile.
 */
extern const char load_fs_insn[], load_fs_refused[], load_gs_insn[], load_gs_refused[];
__asm__(".text\n"
	".globl load_fs_index\n"
	"load_fs_index:\n"
	"load_fs_insn:	movw %di, %fs\n"
	"	ret\n"
	"load_fs_refused:\n"
	"	xorl %edi, %edi\n"
	"	movw %di, %fs\n"
	"	ret\n"
	".globl load_gs_index\n"
	"load_gs_index:\n"
	"	pushfq\n"
	"	cli\n"
	"	movq %gs:0, %rsi\n" /* PCPU_SELF */
	"load_gs_insn:	movw %di, %gs\n"
	"load_gs_done:\n"
	"	movl $0xc0000101, %ecx\n" /* MSR_GS_BASE */
	"	movl %esi, %eax\n"
	"	shrq $32, %rsi\n"
	"	movl %esi, %edx\n"
	"	wrmsr\n"
	"	popfq\n"
	"	ret\n"
	"load_gs_refused:\n"
	"	xorl %edi, %edi\n"
	"	movw %di, %gs\n"
	"	jmp load_gs_done\n");

uint64_t segment_load_fixup(uint64_t rip)
{
	if (rip == (uint64_t)load_fs_insn)
		return (uint64_t)load_fs_refused;
	if (rip == (uint64_t)load_gs_insn)
		return (uint64_t)load_gs_refused;
	return 0;
}
