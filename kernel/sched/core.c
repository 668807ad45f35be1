/*
 * kernel/sched/core.c - the scheduler: round robin over the runnable
 * tasks, on every CPU.
 *
 * Each CPU has a run queue of the runnable tasks waiting for it
 * (kernel/sched/sched.h) and an idle task (the boot CPU's is the boot
 * context), which halts until an interrupt brings work. The timer tick
 * sets the CPU's need_resched at the end of a time slice; the switch
 * happens on the way back to user mode (the kernel itself is not
 * preempted), or when a task sleeps: the task that was running goes to
 * the tail of the queue, the head runs. Where tasks are queued and how
 * they move between CPUs: kernel/sched/balance.c.
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <kernel_stat.h>
#include <lockdep.h>
#include <cpu.h>
#include <sched.h>
#include <smp.h>
#include <smp_lock.h>
#include <string.h>
#include <trap.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>
#include "sched.h"

/*
 * Each CPU's idle task; cpus[0]'s is the boot context. An idle task runs
 * only on its own CPU and is on no list.
 */
static struct task idle_tasks[NR_CPUS];
extern struct task *task_list; /* kernel/proc.c */

void switch_context(uint64_t *save_ksp, uint64_t new_ksp);

#define TIME_SLICE_TICKS 2

/*
 * The soft lockup watchdog (Linux's kernel/watchdog.c, as with
 * softlockup_panic=1): a task that stays in the kernel for 2 *
 * watchdog_thresh seconds without giving up the CPU is a kernel bug (an
 * endless loop): panic, so that the machine stops with an error instead of
 * hanging. The kernel is never preempted, so such a task would otherwise
 * hold the CPU forever. watchdog_thresh=N on the command line; 0 turns the
 * watchdog off. Each CPU counts for itself.
 */
int watchdog_thresh = 10;

static void softlockup_check(struct percpu *cpu, bool from_user)
{
	if (from_user || current == cpu->idle) {
		cpu->kernel_ticks = 0;
		return;
	}
	if (!watchdog_thresh || ++cpu->kernel_ticks < 2UL * watchdog_thresh * HZ)
		return;
	printk(KERN_EMERG "watchdog: BUG: soft lockup - CPU#%d stuck for %lus! [%s:%d]\n",
	       cpu->cpu, (unsigned long)(cpu->kernel_ticks / HZ), current->comm, current->pid);
	panic("softlockup: hung tasks");
}

/* Make the calling CPU's idle task, and run as it (the boot CPU: the boot
 * context; another CPU: its first stack, smpboot.c). */
void sched_init_cpu(int n)
{
	struct task *idle = &idle_tasks[n];

	strlcpy(idle->comm, "swapper", sizeof(idle->comm));
	idle->state = TASK_RUNNABLE;
	idle->real_cred = idle->cred = &init_cred;
	idle->on_cpu = true;
	idle->cpu = n;
	idle->cpus_allowed = 1UL << n;
	cpus[n].idle = idle;
	cpus[n].slice_left = TIME_SLICE_TICKS;
	spin_lock_init(&cpu_rq(n)->lock);
	cpu_rq(n)->cpu = n;
	this_cpu_write(current_task, idle);
}

void sched_init(void)
{
	sched_init_cpu(0);
}

/* The next task for this CPU: the head of its queue, else one pulled
 * from a busier CPU, else the idle task. Interrupts are off. */
static struct task *pick_next_task(struct percpu *cpu)
{
	struct rq *rq = cpu_rq(cpu->cpu);

	spin_lock(&rq->lock);
	struct task *next = pick_queued(rq);
	spin_unlock(&rq->lock);
	if (!next)
		next = pull_task(cpu->cpu);
	return next ? next : cpu->idle;
}

/*
 * prev stops running but stays runnable: to the tail of this CPU's
 * queue. If it may no longer run here (sched_setaffinity), it goes to a
 * CPU it may use, but only once this one has switched away from it
 * (finish_task_switch): queued there now, it could be run there while
 * this CPU is still on its stack.
 */
static void put_prev_task(struct percpu *cpu, struct task *prev)
{
	struct rq *rq = cpu_rq(cpu->cpu);

	if (!(prev->cpus_allowed >> cpu->cpu & 1)) {
		cpu->migrate_task = prev;
		return;
	}
	spin_lock(&rq->lock);
	enqueue_task(rq, prev);
	spin_unlock(&rq->lock);
}

static void activate_task(struct task *t, int n, bool preempt);

void wait_until_off_cpu(struct task *t)
{
	while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax_answering_calls();
}

/* Give this CPU to next: its registers, stacks and address space. */
static void switch_to(struct percpu *cpu, struct task *prev, struct task *next)
{
	/* A thread that has exited never runs again: nothing of its
	 * registers is kept (the idle task keeps none either). */
	bool keep_prev = prev != cpu->idle && prev->state != TASK_ZOMBIE && prev->state != TASK_DEAD;

	if (keep_prev) {
		rseq_preempt(prev);
		fpu_save(&prev->fpu);
		save_fsgs(prev); /* wrfsbase needs no system call */
	}
	/* No other CPU runs next: a task is queued elsewhere only once it
	 * is off its CPU (wake_off_cpu, steal_from). prev stays on_cpu until
	 * the switch is over (finish_task_switch). */
	BUG_ON(next->on_cpu);
	next->on_cpu = true;
	next->cpu = cpu->cpu;
	cpu->current_task = next;
	if (next != cpu->idle) {
		fpu_restore(&next->fpu);
		uint64_t top = (uint64_t)next->kstack + KSTACK_SIZE;
		tss_set_kernel_stack(top);
		cpu->syscall_rsp = top;
		io_bitmap_switch(next);
		/* A kernel thread has no user memory and runs on whatever
		 * tables the CPU has loaded, as the idle task does (Linux's
		 * lazy TLB mode): no CR3 switch, no TLB flush. The address
		 * space is left before it is freed (leave_mm_everywhere). */
		if (next->mm)
			mm_activate(next->mm);
		load_mm_ldt(next->mm);
		load_fsgs(next);
	}
	if (!next->mm)
		enter_lazy_tlb(); /* mm_activate leaves it */
	__atomic_fetch_add(&kstat.nr_context_switches, 1, __ATOMIC_RELAXED);
	cpu->prev_task = prev;
	switch_context(&prev->ksp, next->ksp);
	/* Back in prev, maybe on another CPU: cpu is stale from here. */
}

/*
 * The first thing a task does on the CPU that switched to it (back in
 * schedule(), or at its first run: schedule_tail): the task that CPU left
 * is off it now. From here another CPU may run that task, or free it if it
 * has exited (free_task waits for this), so it is not touched again.
 */
static void finish_task_switch(void)
{
	struct task *prev = this_cpu_read(prev_task), *migrating = this_cpu_read(migrate_task);

	__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
	if (migrating) { /* prev, runnable: put_prev_task */
		this_cpu_write(migrate_task, NULL);
		activate_task(migrating, select_task_rq(migrating), true);
	}
}

/* Take the big kernel lock back after a switch. Interrupts are on while
 * it waits, so that it may halt: the sleep is over, and whatever the
 * caller checked with interrupts off before it slept, it checks again. */
static void relock_after_switch(void)
{
	sti();
	lock_kernel();
	cli();
}

/* A new task's first run (entry.S's ret_from_fork, on its way to user
 * mode, which needs no big kernel lock). */
void schedule_tail(void)
{
	finish_task_switch();
}

/* A new kernel thread's first run (entry.S's kernel_thread_start): its
 * function starts with the big kernel lock, interrupts off. */
void schedule_tail_kernel(void)
{
	finish_task_switch();
	relock_after_switch();
}

/*
 * Pick the next task and switch to it; false if current goes on. The big
 * kernel lock is let go for the switch, which touches only the two tasks
 * and this CPU (the address space's own flags: arch/x86/kernel/tlb.c), so
 * that the switch, and the TLB refill a new CR3 costs under QEMU, do not
 * hold up other CPUs: Linux 2.6's schedule() did the same. Back in prev,
 * the lock is taken again if prev held it (the idle task goes on without
 * it: schedule_idle). Interrupts are off.
 */
static bool __schedule(struct percpu *cpu)
{
	struct task *prev = current, *next;

	cpu->need_resched = false;
	cpu->slice_left = TIME_SLICE_TICKS;
	cpu->kernel_ticks = 0;
	if (prev != cpu->idle && prev->state == TASK_RUNNABLE)
		put_prev_task(cpu, prev);
	next = pick_next_task(cpu);
	if (next == prev)
		return false;
	bool locked = release_kernel_lock();
	switch_to(cpu, prev, next);
	finish_task_switch();
	if (locked && prev != this_cpu_read(idle))
		relock_after_switch();
	return true;
}

/* Neither may sleep holding a spinlock, nor in an interrupt handler: the
 * lock validator checks it (might_sleep, include/lockdep.h). The caller
 * holds the big kernel lock, and holds it again on return. */
void schedule(void)
{
	might_sleep();
	uint64_t flags = irq_save();

	__schedule(this_cpu());
	release_dead_tasks();
	irq_restore(flags);
}

/* The idle task's: free the tasks that ended, run whoever is runnable.
 * Called with the big kernel lock and interrupts off; returns without the
 * lock. */
static void schedule_idle(void)
{
	release_dead_tasks();
	if (!__schedule(this_cpu()))
		unlock_kernel();
}

void sleep_on(void *chan)
{
	might_sleep();
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

/* CPU n should look for another task at its next chance. */
void resched_cpu(int n)
{
	if (n == smp_processor_id()) {
		this_cpu_write(need_resched, true);
		return;
	}
	cpus[n].need_resched = true;
	smp_send_reschedule(n);
}

/*
 * t, runnable and on no CPU, goes on CPU n's queue, and n is told to look:
 * at once if preempt (the woken task gets the CPU at n's next return to
 * user mode), else only if n is idle.
 */
static void activate_task(struct task *t, int n, bool preempt)
{
	struct rq *rq = cpu_rq(n);
	uint64_t flags;

	spin_lock_irqsave(&rq->lock, flags);
	enqueue_task(rq, t);
	spin_unlock_irqrestore(&rq->lock, flags);
	if (preempt || __atomic_load_n(&cpus[n].current_task, __ATOMIC_RELAXED) == cpus[n].idle)
		resched_cpu(n);
}

/*
 * t was just made runnable: queue it where select_task_rq says. A task
 * still on a CPU is either this CPU's current, woken before it switched
 * away (it goes on running: schedule() sees it runnable and queues it), or
 * one that another CPU is switching away from right now, without the big
 * kernel lock (it slept under the lock, which the waker holds): that
 * switch waits for nothing and ends soon (even its one fault, a user's
 * stale selector, is fixed without the lock: segment_fault_fixed), and is
 * waited for, since queued elsewhere the task could run there while still
 * on the first CPU.
 */
static void wake_off_cpu(struct task *t, bool preempt)
{
	if (t == current)
		return;
	wait_until_off_cpu(t);
	activate_task(t, select_task_rq(t), preempt);
}

/* A sleeping task wakes: it gets a CPU soon (select_task_rq says which).
 * A task woken before it got to schedule() (an interrupt between its
 * sleep_on and the switch) is still on its CPU and just keeps running. */
void make_runnable(struct task *t)
{
	if (t->state != TASK_SLEEPING)
		return;
	t->state = TASK_RUNNABLE;
	wake_off_cpu(t, true);
}

/* A stopped task continues (SIGCONT, SIGKILL): it runs when a CPU is free. */
void wake_up_stopped(struct task *t)
{
	t->state = TASK_RUNNABLE;
	wake_off_cpu(t, false);
}

/* A new task (fork, a kernel thread) is ready to run for the first time. */
void wake_up_new_task(struct task *t)
{
	t->state = TASK_RUNNABLE;
	activate_task(t, select_task_rq_fork(t), false);
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

/* Each CPU's timer tick, with interrupts off: charge the tick to the
 * running task, and end its time slice. On an idle CPU it touches only
 * that CPU's own data, and runs without the big kernel lock
 * (arch/x86/kernel/traps.c). */
void sched_tick(bool from_user)
{
	struct percpu *cpu = this_cpu();
	bool idle = current == cpu->idle;

	if (!idle) {
		if (from_user)
			current->utime++;
		else
			current->stime++;
	}
	account_process_tick(from_user, idle);
	itimer_tick(from_user);
	softlockup_check(cpu, from_user);
	if (idle)
		return; /* it looks for work after every interrupt: cpu_idle */
	if (--cpu->slice_left == 0)
		cpu->need_resched = true;
	rebalance_tick(cpu->cpu);
}

/* The tick of the CPU that counts jiffies: fire the timers, wake the
 * sleepers whose time has come, and sample the load average. */
void sched_tick_global(void)
{
	timers_tick();
	calc_global_load_tick();
	for (struct task *t = task_list; t; t = t->next_task)
		if (t->state == TASK_SLEEPING && t->wake_at && jiffies >= t->wake_at) {
			t->state = TASK_RUNNABLE; /* at the end of the slice, or now if idle */
			wake_off_cpu(t, false);
		}
}

void fpu_reset_current(void)
{
	fpu_clear(&current->fpu);
	fpu_restore(&current->fpu);
}

/*
 * Take the big kernel lock to look for work: wait for it if a task was
 * queued for this CPU (need_resched, with a reschedule IPI); else (after
 * a mere tick) only if some CPU has tasks queued that this one might
 * pull, or an ended task waits to be freed, and only if the lock is free,
 * so that idle CPUs never hold up the ones that have work.
 */
static bool idle_lock_to_look(void)
{
	int me = smp_processor_id();

	if (this_cpu_read(need_resched)) {
		sti(); /* so that lock_kernel halts while it waits */
		lock_kernel();
		cli();
		return true;
	}
	return (cpu_rq(me)->nr_queued || work_queued_elsewhere(me) || dead_tasks_waiting()) &&
	       try_lock_kernel();
}

/*
 * A task that just ended on this CPU (the idle task runs after it) is
 * freed before the CPU halts, if the lock is free: a pid namespace's init
 * may be waiting for that. Else the next tick looks again
 * (idle_lock_to_look).
 */
static void free_ended_tasks(void)
{
	if (dead_tasks_waiting() && try_lock_kernel()) {
		release_dead_tasks();
		unlock_kernel();
	}
}

/*
 * The idle loop: run whoever is runnable, else halt until an interrupt.
 * Entered with the big kernel lock held, which the CPU drops while it
 * halts.
 */
void __noreturn cpu_idle(void)
{
	for (;;) {
		cli();
		schedule_idle();
		free_ended_tasks();
		do {
			/* sti takes effect after the next instruction: no lost wake-up. */
			__asm__ volatile("sti; hlt" ::: "memory");
			cli();
		} while (!idle_lock_to_look());
	}
}

/* The first online CPU of mask; -1 if none. */
static int first_online_cpu(uint64_t mask)
{
	for_each_online_cpu(n)
		if (mask >> n & 1)
			return n;
	return -1;
}

/*
 * t may now run only on the CPUs of its cpus_allowed: move it off a CPU
 * it may no longer use. A queued task moves to another queue; the caller
 * leaves at once, through schedule(), so that sched_setaffinity returns
 * on an allowed CPU, as on Linux; a thread running elsewhere leaves at
 * its next return to user mode.
 */
static void migrate_if_needed(struct task *t)
{
	struct rq *rq = cpu_rq(t->cpu);
	uint64_t flags;

	if (t->cpus_allowed >> t->cpu & 1)
		return;
	if (t->on_rq) {
		/* Queued by the switch away from it that another CPU is
		 * making; no CPU picks it meanwhile (that takes the big lock). */
		wait_until_off_cpu(t);
		spin_lock_irqsave(&rq->lock, flags);
		dequeue_task(rq, t);
		spin_unlock_irqrestore(&rq->lock, flags);
		activate_task(t, select_task_rq(t), false);
	} else if (t == current) {
		schedule(); /* put_prev_task queues it where it may run */
	} else if (t->on_cpu) {
		resched_cpu(t->cpu);
	}
}

/*
 * sched_setaffinity(2): the CPUs thread pid (0: the caller) may run on, a
 * bit mask of len bytes. Only the first unsigned long counts (this kernel
 * has at most 64 CPUs, as Linux's cpumask_size() then is), a shorter mask
 * reads as zeros; it must name an online CPU, else EINVAL (no CPU it
 * could run on). Another user's thread needs CAP_SYS_NICE (EPERM), as on
 * Linux.
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
	if (first_online_cpu(mask) < 0)
		return -EINVAL;
	t->cpus_allowed = mask;
	migrate_if_needed(t);
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
	child->cpus_allowed = parent->cpus_allowed;
	child->policy = parent->policy;
	child->rt_priority = parent->rt_priority;
	if (parent->sched_reset_on_fork && task_has_rt_policy(parent)) {
		child->policy = SCHED_NORMAL;
		child->rt_priority = 0;
	}
}
