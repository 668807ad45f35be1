/*
 * kernel/sched/core.c - the scheduler: round robin over runnable tasks on one CPU.
 *
 * Task 0 is the boot context; it becomes the idle task, which halts until
 * an interrupt makes someone runnable. The timer tick sets need_resched;
 * the switch happens on the way back to user mode (the kernel itself is
 * not preempted), or when a task sleeps.
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <kernel_stat.h>
#include <cpu.h>
#include <sched.h>
#include <trap.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

struct task *current;
bool need_resched;

static struct task idle_task = {
	.comm = "swapper",
	.state = TASK_RUNNABLE,
	.real_cred = &init_cred,
	.cred = &init_cred,
};
extern struct task *task_list; /* kernel/proc.c */

void switch_context(uint64_t *save_ksp, uint64_t new_ksp);

#define TIME_SLICE_TICKS 2
static unsigned slice_left = TIME_SLICE_TICKS;

/*
 * The soft lockup watchdog (Linux's kernel/watchdog.c, as with
 * softlockup_panic=1): a task that stays in the kernel for 2 *
 * watchdog_thresh seconds without giving up the CPU is a kernel bug (an
 * endless loop): panic, so that the machine stops with an error instead of
 * hanging. The kernel is never preempted, so such a task would otherwise
 * hold the CPU forever. watchdog_thresh=N on the command line; 0 turns the
 * watchdog off.
 */
int watchdog_thresh = 10;
static uint64_t kernel_ticks; /* ticks current has spent in the kernel in a row */

static void softlockup_check(bool from_user)
{
	if (from_user || current == &idle_task) {
		kernel_ticks = 0;
		return;
	}
	if (!watchdog_thresh || ++kernel_ticks < 2UL * watchdog_thresh * HZ)
		return;
	printk(KERN_EMERG "watchdog: BUG: soft lockup - CPU#0 stuck for %lus! [%s:%d]\n",
	       (unsigned long)(kernel_ticks / HZ), current->comm, current->pid);
	panic("softlockup: hung tasks");
}

void sched_init(void)
{
	current = &idle_task;
}

/* The next runnable task after current, round robin; idle if none. */
static struct task *pick_next(void)
{
	struct task *start = current == &idle_task || !current->next_task ? task_list : current->next_task;
	struct task *t = start;

	if (!t)
		return &idle_task;
	do {
		if (t->state == TASK_RUNNABLE)
			return t;
		t = t->next_task ? t->next_task : task_list;
	} while (t != start);
	return &idle_task;
}

void schedule(void)
{
	uint64_t flags = irq_save();
	struct task *prev = current, *next = pick_next();

	need_resched = false;
	slice_left = TIME_SLICE_TICKS;
	kernel_ticks = 0;
	if (next != prev) {
		if (prev != &idle_task) {
			rseq_preempt(prev);
			fpu_save(&prev->fpu);
			save_fsgs(prev); /* wrfsbase needs no system call */
		}
		current = next;
		if (next != &idle_task) {
			fpu_restore(&next->fpu);
			uint64_t top = (uint64_t)next->kstack + KSTACK_SIZE;
			tss_set_kernel_stack(top);
			syscall_set_kernel_stack(top);
			io_bitmap_switch(next);
			mm_activate(next->mm);
			load_mm_ldt(next->mm);
			wrmsr(MSR_FS_BASE, next->fs_base);
			wrmsr(MSR_GS_BASE, next->gs_base);
		}
		kstat.nr_context_switches++;
		switch_context(&prev->ksp, next->ksp);
	}
	release_dead_tasks();
	irq_restore(flags);
}

void sleep_on(void *chan)
{
	current->wait_chan = chan;
	current->state = TASK_SLEEPING;
	schedule();
	current->wait_chan = NULL;
}

void wakeup(void *chan)
{
	uint64_t flags = irq_save();

	for (struct task *t = task_list; t; t = t->next_task)
		if (t->state == TASK_SLEEPING && t->wait_chan == chan)
			make_runnable(t);
	irq_restore(flags);
}

/* A task that wakes up gets the CPU soon: the current one gives it up on
 * its way back to user mode, much as Linux preempts for a woken sleeper. */
void make_runnable(struct task *t)
{
	if (t->state == TASK_SLEEPING) {
		t->state = TASK_RUNNABLE;
		if (t != current)
			need_resched = true;
	}
}

int sleep_until(uint64_t when)
{
	int ret = 0;
	uint64_t flags = irq_save();

	current->wake_at = when;
	while (jiffies < when) {
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		sleep_on(&current->wake_at);
	}
	current->wake_at = 0;
	irq_restore(flags);
	return ret;
}

/* Called by the timer interrupt, with interrupts off. */
void sched_tick(bool from_user)
{
	if (current != &idle_task) {
		if (from_user)
			current->utime++;
		else
			current->stime++;
	}
	account_process_tick(from_user, current == &idle_task);
	calc_global_load_tick();
	itimer_tick(from_user);
	softlockup_check(from_user);
	for (struct task *t = task_list; t; t = t->next_task)
		if (t->state == TASK_SLEEPING && t->wake_at && jiffies >= t->wake_at)
			t->state = TASK_RUNNABLE;
	if (current == &idle_task || --slice_left == 0)
		need_resched = true;
}

void fpu_reset_current(void)
{
	fpu_clear(&current->fpu);
	fpu_restore(&current->fpu);
}

/* The idle loop: wait for interrupts, run whoever becomes runnable. */
void __noreturn cpu_idle(void)
{
	for (;;) {
		cli();
		schedule();
		/* sti takes effect after the next instruction: no lost wake-up. */
		__asm__ volatile("sti; hlt" ::: "memory");
	}
}

/*
 * sched_setaffinity(2): the CPUs thread pid (0: the caller) may run on, a
 * bit mask of len bytes. Only the first unsigned long counts (this kernel
 * has one CPU, as Linux's cpumask_size() then is), a shorter mask reads
 * as zeros; it must name CPU 0, else EINVAL (no CPU it could run on).
 * Another user's thread needs CAP_SYS_NICE (EPERM), as on Linux.
 */
long sys_sched_setaffinity(pid_t pid, unsigned int len, const unsigned long __user *user_mask)
{
	unsigned long mask = 0;
	struct task *t = pid ? (pid > 0 ? find_task(pid) : NULL) : current;

	if (copy_from_user(&mask, user_mask, MIN(len, sizeof(mask))))
		return -EFAULT;
	if (!t)
		return -ESRCH;
	if (!capable(CAP_SYS_NICE) && current_euid() != task_cred(t)->euid &&
	    current_euid() != task_cred(t)->uid)
		return -EPERM;
	if (!(mask & 1))
		return -EINVAL;
	return 0;
}
