/*
 * traps.c - the interrupt descriptor table and what happens on each trap.
 *
 * A fault in user mode becomes a signal for the process (Linux's choice of
 * signal and its log line); a fault in kernel mode is a kernel bug, except
 * a page fault inside a user-copy routine, which becomes -EFAULT. An oops
 * says what happened in Linux's words, who was running (PID and Comm), the
 * registers and a backtrace, then stops QEMU with status 3. A kernel stack
 * overflow arrives as a double fault on a stack of its own and is named.
 */
#include <apic.h>
#include <cpu.h>
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <ksyms.h>
#include <lockdep.h>
#include <mm.h>
#include <nmi.h>
#include <power.h>
#include <sched.h>
#include <smp_lock.h>
#include <trap.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

void gdt_init(void);
bool cpu_smep_enabled(void);
void irq_dispatch(struct trapframe *tf);

struct idt_gate {
	uint16_t offset_low, selector;
	uint8_t ist, type;
	uint16_t offset_mid;
	uint32_t offset_high, reserved;
} __packed;

static struct idt_gate idt[256];
extern char isr_stubs[], nmi_entry[], machine_check_entry[];

#define VEC_DIVIDE 0
#define VEC_DEBUG 1
#define VEC_NMI 2
#define VEC_BREAKPOINT 3
#define VEC_INVALID_OP 6
#define VEC_DOUBLE_FAULT 8
#define VEC_SEGMENT_NP 11
#define VEC_STACK_SEGMENT 12
#define VEC_GP 13
#define VEC_PAGE_FAULT 14
#define VEC_MACHINE_CHECK 18

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "int3", "overflow", "bounds",
	"invalid opcode", "device not available", "double fault",
	"coprocessor segment overrun", "invalid TSS", "segment not present",
	"stack segment", "general protection fault", "page fault", "reserved",
	"x87 floating point", "alignment check", "machine check",
	"SIMD floating point", "virtualization", "control protection",
};

static void set_gate(int vec, void *handler, int dpl, int ist)
{
	uint64_t a = (uint64_t)handler;
	idt[vec] = (struct idt_gate){
		.offset_low = a & 0xffff,
		.selector = KERNEL_CS,
		.ist = ist,
		.type = 0x8e | (dpl << 5), /* present, 64-bit interrupt gate */
		.offset_mid = (a >> 16) & 0xffff,
		.offset_high = a >> 32,
	};
}

/* Load the calling CPU's GDT and TSS, and the one IDT. */
void trap_init_cpu(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __packed ptr = { sizeof(idt) - 1, (uint64_t)idt };

	gdt_init();
	__asm__ volatile("lidt %0" ::"m"(ptr));
}

/* The boot CPU: fill the IDT, then load it. */
void trap_init(void)
{
	for (int v = 0; v < 48; v++)
		set_gate(v, isr_stubs + 16 * v, 0, v == VEC_DOUBLE_FAULT ? IST_DOUBLE_FAULT : 0);
	set_gate(VEC_NMI, nmi_entry, 0, IST_NMI);
	set_gate(VEC_MACHINE_CHECK, machine_check_entry, 0, IST_MCE);
	for (int v = FIRST_SYSTEM_VECTOR; v < 256; v++) /* the local APIC's */
		set_gate(v, isr_stubs + 16 * v, 0, 0);
	/* int3 may be used from user mode, as on Linux. */
	set_gate(VEC_BREAKPOINT, isr_stubs + 16 * VEC_BREAKPOINT, 3, 0);
	trap_init_cpu();
}

/*
 * The stack that holds address p: a task's kernel stack, the boot (idle)
 * stack or the double-fault stack. A backtrace follows frame pointers only
 * inside it, so that a corrupt frame cannot make the oops itself fault.
 */
static bool stack_bounds(uint64_t p, uint64_t *lo, uint64_t *hi)
{
	extern char boot_stack[], boot_stack_top[];
	uint64_t ranges[3][2] = {
		{ (uint64_t)boot_stack, (uint64_t)boot_stack_top },
		{ (uint64_t)double_fault_stack[smp_processor_id()],
		  (uint64_t)double_fault_stack[smp_processor_id()] + DOUBLE_FAULT_STACK_SIZE },
		{ 0, 0 },
	};

	if (current && current->kstack) {
		ranges[2][0] = (uint64_t)current->kstack;
		ranges[2][1] = ranges[2][0] + KSTACK_SIZE;
	}
	for (int i = 0; i < 3; i++) {
		if (p >= ranges[i][0] && p < ranges[i][1]) {
			*lo = ranges[i][0];
			*hi = ranges[i][1];
			return true;
		}
	}
	return false;
}

/* The line above a report's backtrace (Linux's dump_stack_print_info). */
static void dump_stack_print_info(const char *level)
{
	char line[96];

	snprintf(line, sizeof(line), "CPU: %d PID: %d Comm: %s Not tainted\n", smp_processor_id(),
		 current ? current->pid : 0, current ? current->comm : "swapper");
	printk_emit(0, level[1] - '0', line);
}

void show_backtrace(uint64_t rbp)
{
	uint64_t lo, hi;

	printk(KERN_EMERG "Call Trace:\n");
	if (!stack_bounds(rbp, &lo, &hi))
		return;
	for (int depth = 0; depth < 32 && rbp >= lo && rbp + 16 <= hi && !(rbp & 7); depth++) {
		uint64_t *frame = (uint64_t *)rbp;
		uint64_t ret = frame[1], off;
		const char *name = ksym_lookup(ret, &off);
		if (name)
			printk(KERN_EMERG " [<%016lx>] %s+0x%lx\n", ret, name, off);
		else
			printk(KERN_EMERG " [<%016lx>] ?\n", ret);
		if (frame[0] <= rbp)
			break; /* frames go up the stack: anything else is corrupt */
		rbp = frame[0];
	}
}

/* noinline: the backtrace starts at this function's own frame. */
__attribute__((noinline)) void dump_stack_lvl(const char *level)
{
	dump_stack_print_info(level);
	show_backtrace((uint64_t)__builtin_frame_address(0));
}

void show_trapframe(const char *level, const struct trapframe *tf)
{
	dump_stack_print_info(level);
	show_regs(tf);
	if (!trap_from_user(tf))
		show_backtrace(tf->rbp);
}

void show_regs(const struct trapframe *tf)
{
	uint64_t off;
	const char *name = ksym_lookup(tf->rip, &off);

	printk(KERN_EMERG "RIP: %04lx:%016lx %s+0x%lx\n", tf->cs, tf->rip, name ? name : "?", name ? off : 0);
	printk(KERN_EMERG "RSP: %04lx:%016lx EFLAGS: %08lx\n", tf->ss, tf->rsp, tf->rflags);
	printk(KERN_EMERG "RAX: %016lx RBX: %016lx RCX: %016lx\n", tf->rax, tf->rbx, tf->rcx);
	printk(KERN_EMERG "RDX: %016lx RSI: %016lx RDI: %016lx\n", tf->rdx, tf->rsi, tf->rdi);
	printk(KERN_EMERG "RBP: %016lx R08: %016lx R09: %016lx\n", tf->rbp, tf->r8, tf->r9);
	printk(KERN_EMERG "R10: %016lx R11: %016lx R12: %016lx\n", tf->r10, tf->r11, tf->r12);
	printk(KERN_EMERG "R13: %016lx R14: %016lx R15: %016lx\n", tf->r13, tf->r14, tf->r15);
	printk(KERN_EMERG "CR2: %016lx CR3: %016lx CR4: %016lx\n", read_cr2(), read_cr3(), read_cr4());
}

/* Page-fault error code bits. */
#define PF_PROT (1UL << 0)
#define PF_WRITE (1UL << 1)
#define PF_USER (1UL << 2)
#define PF_RSVD (1UL << 3)
#define PF_INSTR (1UL << 4)

/* What a page fault in the kernel was, in Linux's words (show_fault_oops). */
static void show_fault(const struct trapframe *tf, uint64_t cr2)
{
	uint64_t err = tf->error;
	int uid = current ? (int)current_uid() : 0;

	if (!(err & PF_USER) && (err & PF_INSTR) && (err & PF_PROT)) {
		if (cr2 < TASK_SIZE && cpu_smep_enabled())
			printk(KERN_CRIT "unable to execute userspace code (SMEP?) (uid: %d)\n", uid);
		else if (cr2 >= TASK_SIZE)
			printk(KERN_CRIT "kernel tried to execute NX-protected page - exploit attempt? (uid: %d)\n", uid);
	}
	if (cr2 < PAGE_SIZE)
		printk(KERN_ALERT "BUG: kernel NULL pointer dereference, address: %016lx\n", cr2);
	else
		printk(KERN_ALERT "BUG: unable to handle page fault for address: %016lx\n", cr2);
	printk(KERN_ALERT "#PF: %s %s in %s mode\n", (err & PF_USER) ? "user" : "supervisor",
	       (err & PF_INSTR) ? "instruction fetch" : (err & PF_WRITE) ? "write access" : "read access",
	       trap_from_user(tf) ? "user" : "kernel");
	printk(KERN_ALERT "#PF: error_code(0x%04lx) - %s\n", err,
	       !(err & PF_PROT) ? "not-present page" :
	       (err & PF_RSVD) ? "reserved bit violation" : "permissions violation");
}

static int oops_count;

/*
 * Report a kernel bug and stop the machine: what happened (str, as Linux's
 * die(): "Oops" for a page fault, else the exception's name), who was
 * running, the registers, the call trace. QEMU then exits with status 3
 * (machine_halt_with_error). A fault while reporting one stops at once.
 */
static void __noreturn die(const char *str, struct trapframe *tf)
{
	if (oops_count++) {
		printk(KERN_EMERG "Fixing recursive fault but reboot is needed!\n");
		machine_halt_with_error();
	}
	printk(KERN_EMERG "%s: %04lx [#%d] NOPTI\n", str, tf->error & 0xffff, oops_count);
	show_trapframe(KERN_EMERG, tf);
	printk(KERN_EMERG "Kernel panic - not syncing: Fatal exception\n");
	machine_halt_with_error();
}

/* A fault the kernel caused itself: report it and stop. */
static void __noreturn kernel_oops(struct trapframe *tf, uint64_t cr2)
{
	uint64_t lo, hi;

	if (tf->vector == VEC_PAGE_FAULT) {
		show_fault(tf, cr2);
		die("Oops", tf);
	}
	if (tf->vector == VEC_DOUBLE_FAULT && kstack_guard_hit(cr2, &lo, &hi)) {
		/* A kernel stack ran into its guard page (mm/kstack.c). */
		printk(KERN_EMERG "BUG: task stack guard page was hit at %016lx (stack is %016lx..%016lx)\n",
		       cr2, lo, hi - 1);
		die("stack guard page", tf);
	}
	die(tf->vector < 32 && exception_names[tf->vector] ? exception_names[tf->vector]
							    : "unexpected interrupt", tf);
}

/*
 * A fault in user mode: log it as Linux does (KERN_INFO) and signal the
 * thread with Linux's siginfo. force_sig_fault: if the program blocks or
 * ignores that signal (or faults again inside its handler), it dies,
 * rather than run the faulting instruction forever.
 */
static void user_fault(struct trapframe *tf, uint64_t cr2)
{
	int sig = SIGSEGV, code = SI_KERNEL;
	uint64_t addr = 0;

	switch (tf->vector) {
	case VEC_PAGE_FAULT:
		printk(KERN_INFO "%s[%d]: segfault at %lx ip %016lx sp %016lx error %lx\n",
		       current->comm, current->pid, cr2, tf->rip, tf->rsp, tf->error);
		addr = cr2;
		code = current->mm && cr2 < TASK_SIZE && vma_find(current->mm, cr2) ? SEGV_ACCERR : SEGV_MAPERR;
		break;
	case VEC_DIVIDE:
		sig = SIGFPE, code = FPE_INTDIV, addr = tf->rip;
		goto trap;
	case VEC_INVALID_OP:
		sig = SIGILL, code = ILL_ILLOPN, addr = tf->rip;
		goto trap;
	case VEC_DEBUG:
	case VEC_BREAKPOINT:
		sig = SIGTRAP;
		goto trap;
	case VEC_SEGMENT_NP:
	case VEC_STACK_SEGMENT:
		sig = SIGBUS; /* as Linux's do_error_trap for #NP and #SS */
		goto trap;
	case VEC_GP:
		if (fixup_iopl_exception(tf))
			return;
		goto trap;
	default:
	trap:
		printk(KERN_INFO "traps: %s[%d] %s ip:%lx sp:%lx error:%lx\n",
		       current->comm, current->pid,
		       tf->vector < 32 && exception_names[tf->vector] ? exception_names[tf->vector] : "trap",
		       tf->rip, tf->rsp, tf->error);
	}
	force_sig_fault(sig, code, addr);
}

static void page_fault(struct trapframe *tf)
{
	uint64_t cr2 = read_cr2();

	/*
	 * The kernel may touch user memory only inside the user-copy routines
	 * (SMAP enforces it when the CPU has it; this, always), and never
	 * execute it (SMEP). Anything else is a kernel bug.
	 */
	if (!trap_from_user(tf) && cr2 < TASK_SIZE &&
	    ((tf->error & PF_INSTR) || !uaccess_fixup(tf->rip)))
		kernel_oops(tf, cr2);

	if (cr2 < TASK_SIZE && current && current->mm) {
		/*
		 * cr2 is read: the fault is handled with interrupts on if the
		 * faulting code had them on, as a system call is (Linux's
		 * do_user_addr_fault), so that the timer and the console are
		 * not held off by a fault that copies or zeroes a page (and
		 * the profiler sees the time spent here).
		 */
		if (tf->rflags & RFLAGS_IF)
			sti();
		int err = handle_mm_fault(current->mm, cr2, tf->error);
		if (err == 0) {
			current->min_flt++; /* Linux's mm_account_fault */
			return;
		}
		if (err == -ENOMEM) {
			/*
			 * No page to give: the OOM killer kills the largest
			 * process (mm/oom_kill.c). If that is not us, let it run
			 * and die, then retry the access. If it is us, we die on
			 * the way back to user mode; a user-copy routine returns
			 * -EFAULT meanwhile.
			 */
			if (!out_of_memory())
				panic("Out of memory and no killable processes...");
			if (!fatal_signal_pending(current)) {
				schedule();
				return;
			}
			if (trap_from_user(tf))
				return;
		} else if (err == -EIO && trap_from_user(tf)) {
			/* A page of a file mapping past the end of the file:
			 * SIGBUS, which Linux does not log. */
			force_sig_fault(SIGBUS, BUS_ADRERR, cr2);
			return;
		} else if (trap_from_user(tf)) {
			user_fault(tf, cr2);
			return;
		}
	}
	if (trap_from_user(tf)) {
		user_fault(tf, cr2);
		return;
	}
	uint64_t fixup = uaccess_fixup(tf->rip);
	if (fixup) {
		tf->rip = fixup;
		return;
	}
	kernel_oops(tf, cr2);
}

/*
 * iretq to user mode faulted (entry.S, iret_to_user): the fault is the
 * user's, not the kernel's. The registers were already the user's when it
 * struck, so tf holds them; the frame iretq was reading (its tail, rip to
 * ss) is the top of the kernel stack, current->tf. Rebuild current->tf as
 * if the fault had happened in user mode at the rip it was returning to,
 * and take it as a user fault there: SIGSEGV for #GP, SIGBUS for #NP and
 * #SS, as Linux's fixup_bad_iret leads to. Never returns.
 */
static bool is_bad_iret(const struct trapframe *tf)
{
	extern char iret_to_user[];

	return !trap_from_user(tf) && tf->rip == (uint64_t)iret_to_user && current &&
	       (tf->vector == VEC_GP || tf->vector == VEC_SEGMENT_NP || tf->vector == VEC_STACK_SEGMENT) &&
	       tf->rsp == (uint64_t)&current->tf->rip && trap_from_user(current->tf);
}

static void __noreturn fixup_bad_iret(struct trapframe *tf)
{
	struct trapframe *user = current->tf, fixed = *tf;

	fixed.rip = user->rip, fixed.cs = user->cs, fixed.rflags = user->rflags;
	fixed.rsp = user->rsp, fixed.ss = user->ss;
	*user = fixed; /* tf lies below user, partly over it: copied first */
	user_fault(user, 0);
	prepare_return_to_user(user);
	return_to_user(user);
}

/*
 * An interrupt's handler: the local APIC's (IPIs, the timer) or a
 * device's. The bracket is Linux's irq_enter/irq_exit for the lock
 * validator: a lock taken in between is taken in hard-IRQ context
 * (include/lockdep.h). It holds the handler alone, never the return to
 * user mode, which may switch tasks.
 */
static void handle_interrupt(struct trapframe *tf)
{
	lockdep_hardirq_enter();
	if (tf->vector >= FIRST_SYSTEM_VECTOR)
		apic_interrupt(tf);
	else
		irq_dispatch(tf);
	lockdep_hardirq_exit();
}

/*
 * The IPIs need no lock (include/smp_lock.h): they only flush, or say
 * that there is something to look at on the way back to user mode, which
 * is done under the lock.
 */
static bool ipi_handled(struct trapframe *tf)
{
	if (tf->vector != CALL_FUNCTION_VECTOR && tf->vector != RESCHEDULE_VECTOR &&
	    tf->vector != SPURIOUS_APIC_VECTOR)
		return false;
	handle_interrupt(tf);
	if (trap_from_user(tf)) {
		lock_kernel(); /* dropped on the way out (entry.S) */
		prepare_return_to_user(tf);
	}
	return true;
}

/* An idle CPU's own tick counts idle time and nothing else (sched_tick):
 * it takes no lock, so that idle CPUs never hold up the working ones. */
static bool idle_tick_handled(struct trapframe *tf)
{
	if (tf->vector != LOCAL_TIMER_VECTOR || current != this_cpu_read(idle) || kernel_locked())
		return false;
	handle_interrupt(tf);
	return true;
}

/*
 * A user's first touch of anonymous memory or of a file's page, and a
 * copy-on-write break, need no big kernel lock (handle_fault_unlocked,
 * mm/fault.c, with interrupts off); any other fault does. So does the
 * same fault taken by a user-copy routine of a CPU that runs without the
 * big lock (execve building the new program's memory, fs/binfmt_elf.c):
 * taking the lock there would undo the point of letting it go.
 */
static bool page_fault_unlocked(struct trapframe *tf)
{
	bool user = trap_from_user(tf);
	uint64_t cr2;

	if (tf->vector != VEC_PAGE_FAULT || (tf->error & PF_RSVD) || !current->mm)
		return false;
	if (!user && (kernel_locked() || (tf->error & PF_INSTR) || !uaccess_fixup(tf->rip)))
		return false;
	cr2 = read_cr2();
	if (cr2 >= TASK_SIZE || !handle_fault_unlocked(current->mm, cr2, tf->error))
		return false;
	current->min_flt++;
	if (user)
		prepare_return_to_user_unlocked(tf);
	return true;
}

/*
 * NMIs and machine checks take no lock and never do the return-to-user
 * work: they may have struck anywhere, the lock holder's own CPU among
 * them, and run on a stack of their own that must be left as found
 * (include/nmi.h). A machine check is fatal, as on Linux when no bank
 * says it can be recovered from (this kernel reads none).
 */
static bool paranoid_handled(struct trapframe *tf)
{
	if (tf->vector == VEC_NMI) {
		do_nmi(tf);
		return true;
	}
	if (tf->vector != VEC_MACHINE_CHECK)
		return false;
	printk(KERN_EMERG "mce: [Hardware Error]: CPU %d: Machine Check Exception: rip %016lx\n",
	       smp_processor_id(), (unsigned long)tf->rip);
	panic("Fatal machine check");
}

/*
 * The kernel's load of a user's stale selector faulted (load_fsgs): on at
 * the fixup, which loads the null one. That needs no lock, and must take
 * none: the context switch loads the selectors without the big kernel
 * lock, and a CPU holding the lock may be waiting for that switch to end
 * (wake_off_cpu, kernel/sched/core.c).
 */
static bool segment_fault_fixed(struct trapframe *tf)
{
	uint64_t fixup;

	if (trap_from_user(tf) || tf->vector >= IRQ_BASE || tf->vector == VEC_PAGE_FAULT ||
	    !(fixup = segment_load_fixup(tf->rip)))
		return false;
	tf->rip = fixup;
	return true;
}

void trap_handler(struct trapframe *tf)
{
	if (paranoid_handled(tf) || ipi_handled(tf) || idle_tick_handled(tf) || page_fault_unlocked(tf) ||
	    segment_fault_fixed(tf))
		return;
	/* In from user mode, the idle halt or a wait for the lock: take it. */
	bool took_lock = !kernel_locked();
	if (took_lock)
		lock_kernel();
	if (is_bad_iret(tf))
		fixup_bad_iret(tf);
	if (tf->vector >= IRQ_BASE)
		handle_interrupt(tf);
	else if (tf->vector == VEC_PAGE_FAULT)
		page_fault(tf);
	else if (trap_from_user(tf))
		user_fault(tf, 0);
	else
		kernel_oops(tf, read_cr2());

	if (trap_from_user(tf))
		prepare_return_to_user(tf); /* the lock is dropped on the way out */
	else if (took_lock)
		unlock_kernel();
}
