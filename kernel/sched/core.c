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
			load_fsgs(next);
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

/*
 * Scheduling policies and real-time priorities (sched_setscheduler(2) and
 * its family), as Linux 6.1 checks and reports them. This scheduler does
 * not act on them: one CPU, round robin, every task alike. They are kept
 * because programs set them (pthread_attr_setschedpolicy with
 * PTHREAD_EXPLICIT_SCHED makes pthread_create call sched_setscheduler and
 * fail if it fails) and because futexes order their waiters by them
 * (futex_prio).
 */
#define SCHED_RESET_ON_FORK 0x40000000
#define MAX_USER_RT_PRIO 100
#define SETPARAM_POLICY (-1)

struct sched_param {
	int sched_priority;
};

static bool valid_policy(int policy)
{
	return policy == SCHED_NORMAL || policy == SCHED_FIFO || policy == SCHED_RR ||
	       policy == SCHED_BATCH || policy == SCHED_IDLE || policy == SCHED_DEADLINE;
}

/* The task sched_*(pid) names: 0 is the caller. NULL if there is none. */
static struct task *find_process_by_pid(pid_t pid)
{
	return pid ? find_task(pid) : current;
}

/* Without CAP_SYS_NICE, what may the caller change (Linux's user checks in
 * __sched_setscheduler)? We have no nice values, so only the real-time
 * part and the owner matter. */
static int sched_permitted(struct task *p, int policy, int prio, bool reset_on_fork)
{
	uint64_t rlim_rtprio = p->rlim[RLIMIT_RTPRIO].cur;

	if (capable(CAP_SYS_NICE))
		return 0;
	if (policy == SCHED_FIFO || policy == SCHED_RR) {
		if (policy != p->policy && !rlim_rtprio)
			return -EPERM;
		if ((unsigned)prio > p->rt_priority && (unsigned)prio > rlim_rtprio)
			return -EPERM;
	}
	if (policy == SCHED_DEADLINE)
		return -EPERM;
	if (current_euid() != task_cred(p)->euid && current_euid() != task_cred(p)->uid)
		return -EPERM;
	if (p->sched_reset_on_fork && !reset_on_fork)
		return -EPERM;
	return 0;
}

static long do_sched_setscheduler(pid_t pid, int policy, const struct sched_param __user *param)
{
	struct sched_param lp;
	bool reset_on_fork;
	struct task *p;

	if (!param || pid < 0)
		return -EINVAL;
	if (copy_from_user(&lp, param, sizeof(lp)))
		return -EFAULT;
	if (!(p = find_process_by_pid(pid)))
		return -ESRCH;
	if (policy == SETPARAM_POLICY) {
		policy = p->policy;
		reset_on_fork = p->sched_reset_on_fork;
	} else {
		reset_on_fork = policy & SCHED_RESET_ON_FORK;
		policy &= ~SCHED_RESET_ON_FORK;
		if (!valid_policy(policy))
			return -EINVAL;
	}
	/* A real-time policy takes a priority of 1 to 99, the others 0;
	 * SCHED_DEADLINE needs sched_setattr's parameters. */
	if (lp.sched_priority < 0 || lp.sched_priority > MAX_USER_RT_PRIO - 1 ||
	    policy == SCHED_DEADLINE ||
	    (policy == SCHED_FIFO || policy == SCHED_RR) != (lp.sched_priority != 0))
		return -EINVAL;
	int err = sched_permitted(p, policy, lp.sched_priority, reset_on_fork);
	if (err)
		return err;
	p->policy = policy;
	p->rt_priority = lp.sched_priority;
	p->sched_reset_on_fork = reset_on_fork;
	return 0;
}

long sys_sched_setscheduler(pid_t pid, int policy, const struct sched_param __user *param)
{
	if (policy < 0)
		return -EINVAL;
	return do_sched_setscheduler(pid, policy, param);
}

long sys_sched_setparam(pid_t pid, const struct sched_param __user *param)
{
	return do_sched_setscheduler(pid, SETPARAM_POLICY, param);
}

long sys_sched_getscheduler(pid_t pid)
{
	struct task *p;

	if (pid < 0)
		return -EINVAL;
	if (!(p = find_process_by_pid(pid)))
		return -ESRCH;
	return p->policy | (p->sched_reset_on_fork ? SCHED_RESET_ON_FORK : 0);
}

long sys_sched_getparam(pid_t pid, struct sched_param __user *param)
{
	struct sched_param lp = { 0 };
	struct task *p;

	if (!param || pid < 0)
		return -EINVAL;
	if (!(p = find_process_by_pid(pid)))
		return -ESRCH;
	if (task_has_rt_policy(p))
		lp.sched_priority = p->rt_priority;
	return copy_to_user(param, &lp, sizeof(lp)) ? -EFAULT : 0;
}

long sys_sched_get_priority_max(int policy)
{
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		return MAX_USER_RT_PRIO - 1;
	return valid_policy(policy) ? 0 : -EINVAL;
}

long sys_sched_get_priority_min(int policy)
{
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		return 1;
	return valid_policy(policy) ? 0 : -EINVAL;
}

/* fork: the child runs as its parent does, unless the parent asked for
 * SCHED_RESET_ON_FORK (then a real-time parent has a SCHED_NORMAL child). */
void sched_fork(struct task *child, struct task *parent)
{
	child->policy = parent->policy;
	child->rt_priority = parent->rt_priority;
	if (parent->sched_reset_on_fork && task_has_rt_policy(parent)) {
		child->policy = SCHED_NORMAL;
		child->rt_priority = 0;
	}
}
