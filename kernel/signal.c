/*
 * signal.c - sending signals, acting on them, and the system calls that
 * set them up (rt_sigaction, rt_sigprocmask, kill, tgkill, ...).
 *
 * As in Linux, a signal is sent either to one thread (tgkill, a fault,
 * SIGPIPE: the thread's own `pending`) or to a whole process (kill, the
 * tty's signals, SIGCHLD, timers: the process's `signal->shared_pending`,
 * which any thread that does not block the signal may take). Sending
 * (send_signal) is three steps, Linux's:
 *   prepare_signal   what the signal does to the process at once: SIGCONT
 *                    resumes a stopped process and drops pending stop
 *                    signals, a stop signal drops a pending SIGCONT; a
 *                    signal that would be ignored is dropped here
 *   queue it         the bit, and its siginfo (see struct sigpending)
 *   complete_signal  choose a thread that will take it and wake it; a
 *                    signal whose action kills (SIGKILL, or a default
 *                    action of "terminate") kills the whole group at once
 *                    (SIGNAL_GROUP_EXIT: every thread gets SIGKILL)
 *
 * A thread acts on its signals on its way back to user mode
 * (prepare_return_to_user, Linux's get_signal): its own first, then the
 * process's; ignore, stop (a group stop: every thread of the process
 * stops, the last to stop tells the parent), terminate the process, or run
 * the user's handler on a frame that arch/x86/kernel/signal_frame.c builds. A
 * blocking system call that sees signal_pending() returns -ERESTARTSYS (or
 * a cousin, see errno.h); here that becomes EINTR, or the call is
 * restarted by moving rip back over the syscall instruction.
 *
 * Faults (arch/x86/kernel/traps.c) come through force_sig_fault: a program cannot
 * block or ignore the signal of its own fault, since the faulting
 * instruction would only run again.
 */
#include <cred.h>
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/user_namespace.h>
#include <mm.h>
#include <proc_fs.h>
#include <sched.h>
#include <smp_lock.h>
#include <smp.h>
#include <signum.h>
#include <string.h>
#include <uaccess.h>
#include <x86.h>

int setup_rt_frame(const struct ksiginfo *info, struct k_sigaction *ka, struct trapframe *tf,
		   uint64_t saved_mask);

#define UNBLOCKABLE (sigmask(SIGKILL) | sigmask(SIGSTOP))
#define STOP_SIGNALS (sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))
#define IGNORED_BY_DEFAULT (sigmask(SIGCHLD) | sigmask(SIGURG) | sigmask(SIGWINCH) | sigmask(SIGCONT))
/* Taken before the others: the signals of the thread's own faults. */
#define SYNCHRONOUS (sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | sigmask(SIGTRAP) | \
		     sigmask(SIGFPE) | sigmask(SIGSYS))

static bool valid_signal(int sig) { return sig >= 1 && sig <= NSIG; }

static struct k_sigaction *sigaction_of(struct task *t, int sig)
{
	return &t->sighand->action[sig - 1];
}

/* ---- pending sets ---- */

/*
 * A new entry for a real-time signal to t. Each one counts against the
 * RLIMIT_SIGPENDING of t's user until it is taken, as Linux's
 * __sigqueue_alloc counts them (with no exception for real-time signals):
 * NULL past the limit or out of memory. Only system calls send real-time
 * signals, so kmalloc is safe.
 */
static struct sigqueue *sigqueue_alloc(struct task *t)
{
	uid_t uid = task_cred(t)->uid;
	struct sigqueue *q;

	if (!inc_rlimit_ucounts_max(uid, UCOUNT_RLIMIT_SIGPENDING, 1, t->rlim[RLIMIT_SIGPENDING].cur))
		return NULL;
	q = kmalloc(sizeof(*q));
	if (!q) {
		dec_rlimit_ucounts(uid, UCOUNT_RLIMIT_SIGPENDING, 1);
		return NULL;
	}
	*q = (struct sigqueue){ .flags = SIGQUEUE_CHARGED, .uid = uid };
	return q;
}

/* q has left its pending list: a timer's stays the timer's, and is not
 * re-armed (as Linux, a periodic timer whose signal is flushed stops). */
static void sigqueue_unlink(struct sigqueue *q)
{
	if (q->flags & SIGQUEUE_PREALLOC) {
		q->queued = false;
		return;
	}
	if (q->flags & SIGQUEUE_CHARGED)
		dec_rlimit_ucounts(q->uid, UCOUNT_RLIMIT_SIGPENDING, 1);
	kfree(q);
}

/* Forget the signals of mask in pending set p (and their siginfo). */
static void flush_sigqueue_mask(struct sigpending *p, uint64_t mask)
{
	p->signal &= ~mask;
	for (struct sigqueue **pp = &p->rt_queue; *pp;) {
		struct sigqueue *q = *pp;
		if (mask & sigmask(q->info.si_signo)) {
			*pp = q->next;
			sigqueue_unlink(q);
		} else {
			pp = &q->next;
		}
	}
}

/* Forget mask in the process's pending set and in every thread's. */
static void flush_process_mask(struct task *p, uint64_t mask)
{
	flush_sigqueue_mask(&p->signal->shared_pending, mask);
	for_each_thread(p, t)
		flush_sigqueue_mask(&t->pending, mask);
}

void exit_signal_state(struct task *t)
{
	list_del(&t->thread_node);
	flush_sigqueue_mask(&t->pending, ~0UL);
	if (t->signal && --t->signal->count == 0) {
		flush_sigqueue_mask(&t->signal->shared_pending, ~0UL);
		kfree(t->signal);
	}
	t->signal = NULL;
	if (t->sighand && --t->sighand->count == 0)
		kfree(t->sighand);
	t->sighand = NULL;
}

/* ---- sending ---- */

static bool handler_ignores(uint64_t handler, int sig)
{
	return handler == SIG_IGN || (handler == SIG_DFL && (IGNORED_BY_DEFAULT & sigmask(sig)));
}

/* Would delivering sig to t do nothing at all? A blocked signal is never
 * ignored: it may be unblocked, or waited for with sigwait, later. force:
 * the kernel sends it, or a process t cannot see (in an ancestor pid
 * namespace). */
static bool sig_ignored(struct task *t, int sig, bool force)
{
	uint64_t handler = sigaction_of(t, sig)->handler;

	if ((t->blocked | t->real_blocked) & sigmask(sig))
		return false;
	/* init takes only the signals it handles (a fault clears the flag:
	 * force_sig_fault); a namespace's init takes SIGKILL and SIGSTOP from
	 * outside its namespace too. */
	if ((t->signal->flags & SIGNAL_UNKILLABLE) && handler == SIG_DFL &&
	    !(force && (UNBLOCKABLE & sigmask(sig))))
		return true;
	return handler_ignores(handler, sig);
}

/* Does sig, unhandled, end the process (its action is to terminate)? */
static bool sig_fatal(struct task *t, int sig)
{
	uint64_t h = sigaction_of(t, sig)->handler;
	return sig == SIGKILL ||
	       (h == SIG_DFL && !(sigmask(sig) & (IGNORED_BY_DEFAULT | STOP_SIGNALS)));
}

static void signal_wake_up(struct task *t, bool resume)
{
	if (t->state == TASK_SLEEPING)
		make_runnable(t);
	else if (resume && t->state == TASK_STOPPED)
		wake_up_stopped(t);
	else if (t->on_cpu && t != current)
		smp_send_reschedule(t->cpu); /* running elsewhere: into the kernel, to see it */
}

/* Tell the parent of t's process that it stopped or continued. */
static void notify_parent_cldstop(struct task *t, int why)
{
	struct task *leader = t->group_leader, *parent = leader->parent;

	if (!parent || !parent->sighand)
		return;
	if (!(sigaction_of(parent, SIGCHLD)->flags & SA_NOCLDSTOP)) {
		struct ksiginfo info = { .si_signo = SIGCHLD, .si_code = why };
		info.si_pid = task_tgid_nr_ns(leader, task_active_pid_ns(parent));
		info.si_uid = task_cred(leader)->uid;
		info.si_status = why == CLD_CONTINUED ? SIGCONT : t->signal->stop_signal;
		send_sig_info(&info, parent, true);
	}
	wakeup(parent->signal);
}

/*
 * What sig does to t's process before it is queued (Linux's
 * prepare_signal). False: drop it.
 */
static bool prepare_signal(int sig, struct task *p, bool force)
{
	struct signal_struct *s = p->signal;

	if (s->flags & SIGNAL_GROUP_EXIT)
		return false; /* dying: nothing matters any more */
	if (STOP_SIGNALS & sigmask(sig)) {
		flush_process_mask(p, sigmask(SIGCONT));
	} else if (sig == SIGCONT) {
		flush_process_mask(p, STOP_SIGNALS);
		s->group_stop_count = 0;
		for_each_thread(p, t) {
			t->stop_pending = false;
			if (t->state == TASK_STOPPED)
				wake_up_stopped(t);
		}
		if (s->flags & SIGNAL_STOP_STOPPED) {
			s->flags &= ~SIGNAL_STOP_STOPPED;
			s->wait_cont_report = true;
			s->wait_stop_report = false;
			notify_parent_cldstop(p, CLD_CONTINUED);
		}
	}
	return !sig_ignored(p, sig, force);
}

/* Could t take sig now? */
static bool wants_signal(int sig, struct task *t)
{
	if (t->blocked & sigmask(sig))
		return false;
	if (t->state == TASK_ZOMBIE || t->state == TASK_DEAD)
		return false;
	if (sig == SIGKILL)
		return true;
	return t->state != TASK_STOPPED;
}

/* Choose the thread that takes sig and wake it (Linux's complete_signal). */
static void complete_signal(int sig, struct task *p, bool group)
{
	struct signal_struct *s = p->signal;
	struct task *t = NULL;

	/* The signal is pending; only now look at the masks, which their
	 * threads change without the big kernel lock (sys_rt_sigprocmask). */
	smp_mb();
	if (wants_signal(sig, p)) {
		t = p;
	} else if (group) {
		for_each_thread(p, c) {
			if (wants_signal(sig, c)) {
				t = c;
				break;
			}
		}
	}
	if (!t)
		return; /* it waits until some thread unblocks it */
	if (sig_fatal(t, sig) && !(s->flags & SIGNAL_GROUP_EXIT) && !(t->real_blocked & sigmask(sig))) {
		/* The whole process dies: every thread takes SIGKILL. */
		s->flags = SIGNAL_GROUP_EXIT;
		s->group_exit_code = sig;
		s->group_stop_count = 0;
		for_each_thread(p, c) {
			c->stop_pending = false;
			c->pending.signal |= sigmask(SIGKILL);
			signal_wake_up(c, true);
		}
		return;
	}
	signal_wake_up(t, sig == SIGKILL);
}

/* A sender t cannot see (in an ancestor pid namespace) is shown as pid 0,
 * and its signals are forced as the kernel's (Linux's send_signal_locked). */
static bool sender_forces(struct ksiginfo *info, struct task *t)
{
	bool user = info->si_code == SI_USER || info->si_code == SI_TKILL || info->si_code == SI_QUEUE;

	if (info->si_code == SI_KERNEL)
		return true;
	if (user && current && current->thread_pid &&
	    !pid_ns_sees(task_active_pid_ns(t), current)) {
		info->si_pid = 0;
		return true;
	}
	return false;
}

int send_sig_info(const struct ksiginfo *uinfo, struct task *t, bool group)
{
	int sig = uinfo->si_signo, ret = 0;
	struct ksiginfo copy = *uinfo, *info = &copy;

	if (!valid_signal(sig) || !t->signal || t->state == TASK_ZOMBIE || t->state == TASK_DEAD)
		return 0;
	uint64_t irq = irq_save();
	if (!prepare_signal(sig, t, sender_forces(info, t)))
		goto out;
	struct sigpending *pending = group ? &t->signal->shared_pending : &t->pending;
	if (sig < SIGRTMIN) {
		if (pending->signal & sigmask(sig))
			goto out; /* a standard signal is pending once */
		pending->info[sig - 1] = *info;
	} else {
		struct sigqueue *q = sigqueue_alloc(t);
		if (!q) {
			if (info->si_code != SI_USER) {
				ret = -EAGAIN;
				goto out;
			}
		} else {
			struct sigqueue **pp = &pending->rt_queue;
			while (*pp)
				pp = &(*pp)->next;
			q->info = *info;
			*pp = q;
		}
	}
	pending->signal |= sigmask(sig);
	signalfd_notify(); /* a signalfd may take it, blocked as it is */
	complete_signal(sig, t, group);
out:
	irq_restore(irq);
	return ret;
}

int send_sigqueue(struct sigqueue *q, struct task *t, bool group)
{
	int sig = q->info.si_signo, ret = -1;
	uint64_t irq = irq_save();

	if (!t || !t->signal || t->state == TASK_ZOMBIE || t->state == TASK_DEAD)
		goto out;
	ret = 1;
	if (!prepare_signal(sig, t, false))
		goto out;
	ret = 0;
	if (q->queued) { /* not yet taken: one more expiration missed */
		q->info.si_overrun++;
		goto out;
	}
	q->info.si_overrun = 0;
	struct sigpending *pending = group ? &t->signal->shared_pending : &t->pending;
	struct sigqueue **pp = &pending->rt_queue;
	while (*pp)
		pp = &(*pp)->next;
	q->next = NULL;
	q->queued = true;
	*pp = q;
	pending->signal |= sigmask(sig);
	signalfd_notify();
	complete_signal(sig, t, group);
out:
	irq_restore(irq);
	return ret;
}

/* exec: the signals of the old program's timers are dropped. */
static void flush_itimer_pending(struct sigpending *p)
{
	uint64_t dropped = 0, kept = 0;

	for (struct sigqueue **pp = &p->rt_queue; *pp;) {
		struct sigqueue *q = *pp;
		if (q->info.si_code == SI_TIMER) {
			dropped |= sigmask(q->info.si_signo);
			*pp = q->next;
			sigqueue_unlink(q);
		} else {
			kept |= sigmask(q->info.si_signo);
			pp = &q->next;
		}
	}
	p->signal &= ~(dropped & ~kept);
}

void flush_itimer_signals(void)
{
	uint64_t irq = irq_save();

	flush_itimer_pending(&current->pending);
	flush_itimer_pending(&current->signal->shared_pending);
	irq_restore(irq);
}

void zap_other_threads(struct task *p)
{
	p->signal->group_stop_count = 0;
	for_each_thread(p, t) {
		t->stop_pending = false;
		if (t == p || t->state == TASK_ZOMBIE)
			continue;
		t->pending.signal |= sigmask(SIGKILL);
		signal_wake_up(t, true);
	}
}

void send_sig(int sig, struct task *t)
{
	struct ksiginfo info = { .si_signo = sig, .si_code = SI_KERNEL };
	send_sig_info(&info, t, false);
}

void group_send_sig(int sig, struct task *t)
{
	struct ksiginfo info = { .si_signo = sig, .si_code = SI_KERNEL };
	send_sig_info(&info, t, true);
}

void force_sig_fault(int sig, int code, uint64_t addr)
{
	struct task *t = current;
	struct k_sigaction *ka = sigaction_of(t, sig);
	bool blocked = t->blocked & sigmask(sig);

	/* A fault it cannot take: the faulting instruction would run again
	 * and again. The default action it is, and the process dies. */
	if (blocked || ka->handler == SIG_IGN) {
		ka->handler = SIG_DFL;
		t->blocked &= ~sigmask(sig);
	}
	if (ka->handler == SIG_DFL) /* even init dies of its own fault */
		t->signal->flags &= ~SIGNAL_UNKILLABLE;
	struct ksiginfo info = { .si_signo = sig, .si_code = code };
	info.si_addr = addr;
	send_sig_info(&info, t, false);
}

bool signal_pending(struct task *t)
{
	uint64_t pending = t->pending.signal;

	if (t->signal) {
		if (t->signal->flags & SIGNAL_GROUP_EXIT)
			return true;
		pending |= t->signal->shared_pending.signal;
	}
	return (pending & ~t->blocked) != 0 || t->stop_pending;
}

bool fatal_signal_pending(struct task *t)
{
	return (t->pending.signal & sigmask(SIGKILL)) != 0;
}

/* Send sig to process p as kill() does: si_code SI_USER and the sender. */
/*
 * May current signal t's process? (Linux's kill_ok_by_cred): if its real
 * or effective uid is t's real or saved uid, or with CAP_KILL; SIGCONT
 * also within a session. Signal 0 asks the same question.
 */
static int check_kill_permission(int sig, struct task *t)
{
	const struct cred *cred = current_cred(), *tcred = task_cred(t);

	if (same_thread_group(t, current))
		return 0;
	if (cred->euid == tcred->suid || cred->euid == tcred->uid ||
	    cred->uid == tcred->suid || cred->uid == tcred->uid || ns_capable(tcred->user_ns, CAP_KILL))
		return 0;
	if (sig == SIGCONT && t->sid == current->sid)
		return 0;
	return -EPERM;
}

static int kill_one(struct task *p, int sig)
{
	struct ksiginfo info = { .si_signo = sig, .si_code = SI_USER };
	int err = check_kill_permission(sig, p);

	if (err || !sig)
		return err;
	info.si_pid = task_tgid_vnr(current);
	info.si_uid = current_uid();
	return send_sig_info(&info, p, true);
}

int kill_pgrp(pid_t pgrp, int sig)
{
	int found = 0;

	for (struct task *t = first_task(); t; t = t->next_task) {
		if (thread_group_leader(t) && t->pgid == pgrp && t->state != TASK_ZOMBIE &&
		    t->state != TASK_DEAD) {
			group_send_sig(sig, t);
			found = 1;
		}
	}
	return found ? 0 : -ESRCH;
}

/* At exec: handlers reset to the default, ignored signals stay ignored,
 * and the alternate stack is forgotten. The mask and pending set stay. */
void flush_signal_handlers(struct task *t)
{
	if (t->sighand->installed) {
		for (int i = 0; i < NSIG; i++) {
			struct k_sigaction *ka = &t->sighand->action[i];
			if (ka->handler != SIG_IGN)
				ka->handler = SIG_DFL;
			ka->flags = ka->restorer = ka->mask = 0;
		}
		t->sighand->installed = false;
	}
	/* exec: no alternate stack, but its flags stay, as on Linux */
	t->altstack_sp = t->altstack_size = 0;
}

/* ---- taking signals ---- */

/*
 * Current takes part in a group stop, started now with sig (by the thread
 * that took the stop signal) or earlier by another thread (stop_pending).
 * The last thread to stop tells the parent. Returns when continued.
 */
static void do_signal_stop(int sig)
{
	struct signal_struct *s = current->signal;
	uint64_t irq = irq_save();

	if (!current->stop_pending) {
		/* We start it: every other thread must stop too. */
		s->stop_signal = sig;
		s->group_stop_count = 1;
		for_each_thread(current, t) {
			if (t == current || t->state == TASK_ZOMBIE)
				continue;
			t->stop_pending = true;
			s->group_stop_count++;
			signal_wake_up(t, false);
		}
	}
	current->stop_pending = false;
	if (s->group_stop_count > 0 && --s->group_stop_count == 0) {
		s->flags |= SIGNAL_STOP_STOPPED;
		s->wait_stop_report = true;
		s->wait_cont_report = false;
		notify_parent_cldstop(current, CLD_STOPPED);
	}
	current->state = TASK_STOPPED;
	schedule();
	irq_restore(irq);
}

/* An exiting thread no longer takes part in a group stop. */
void exit_group_stop(struct task *t)
{
	struct signal_struct *s = t->signal;

	if (t->stop_pending) {
		t->stop_pending = false;
		if (s->group_stop_count > 0 && --s->group_stop_count == 0) {
			s->flags |= SIGNAL_STOP_STOPPED;
			s->wait_stop_report = true;
			s->wait_cont_report = false;
			notify_parent_cldstop(t, CLD_STOPPED);
		}
	}
}

/* One of the four restart codes, 512 to 516 but 515 (not one of them). */
static bool is_restart(int64_t ret)
{
	return ret >= -ERESTART_RESTARTBLOCK && ret <= -ERESTARTSYS && ret != -515;
}

#define NR_RESTART_SYSCALL 219

/* Go back over the 2-byte syscall instruction, with the number in rax:
 * the same call again, or restart_syscall to go on with a saved one. */
static void restart_syscall(struct trapframe *tf, uint64_t nr)
{
	tf->rax = nr;
	tf->rip -= 2;
}

/* restart_syscall(2): go on with the call the restart block describes. */
long sys_restart_syscall(void)
{
	struct restart_block *rb = &current->restart_block;

	return rb->fn ? rb->fn(rb) : -EINTR;
}

/* The syscall the frame returns from was interrupted: decide what the
 * program sees, given whether a handler (ka) is about to run. */
static void handle_interrupted_syscall(struct trapframe *tf, struct k_sigaction *ka)
{
	int64_t ret = (int64_t)tf->rax;

	if (tf->vector != TRAP_SYSCALL || (int64_t)tf->error < 0 || !is_restart(ret))
		return;
	if (ret == -ERESTART_RESTARTBLOCK) {
		if (!ka)
			restart_syscall(tf, NR_RESTART_SYSCALL);
		else
			tf->rax = -EINTR;
	} else if (!ka || ret == -ERESTARTNOINTR || (ret == -ERESTARTSYS && (ka->flags & SA_RESTART))) {
		restart_syscall(tf, tf->error);
	} else {
		tf->rax = -EINTR;
	}
	tf->error = -1; /* once */
}

/* The signal to take first from the set x: SIGKILL, then the faults' own
 * signals, then the lowest number (Linux's next_signal). */
static int next_signal(uint64_t x)
{
	if (x & sigmask(SIGKILL))
		return SIGKILL;
	if (x & SYNCHRONOUS)
		x &= SYNCHRONOUS;
	return __builtin_ctzl(x) + 1;
}

/* Take sig's first queued entry off pending set p into *info; whether
 * another entry of sig stays queued. False and no entry: *info untouched. */
static bool take_queued(struct sigpending *p, int sig, struct ksiginfo *info, bool *found)
{
	struct sigqueue **pp = &p->rt_queue, *first = NULL;

	while (*pp) {
		if ((*pp)->info.si_signo == sig) {
			if (first)
				return *found = true; /* another instance stays pending */
			first = *pp;
			*pp = first->next;
			*info = first->info;
			sigqueue_unlink(first);
			*found = true;
			continue;
		}
		pp = &(*pp)->next;
	}
	return false;
}

/* Take sig off pending set p, with its siginfo. A standard signal has its
 * slot, but a timer's entry is queued, as a real-time signal's is. */
static void collect_signal(struct sigpending *p, int sig, struct ksiginfo *info)
{
	bool found = false, more = take_queued(p, sig, info, &found);

	if (!found) {
		if (sig < SIGRTMIN)
			*info = p->info[sig - 1];
		else /* sent when no entry could be queued */
			*info = (struct ksiginfo){ .si_signo = sig, .si_code = SI_USER };
	}
	if (!more)
		p->signal &= ~sigmask(sig);
}

int dequeue_signal(uint64_t allowed, struct ksiginfo *info)
{
	uint64_t irq = irq_save();
	struct sigpending *p = &current->pending;
	uint64_t x = p->signal & allowed;
	int sig = 0;

	if (!x) {
		p = &current->signal->shared_pending;
		x = p->signal & allowed;
	}
	if (x) {
		sig = next_signal(x);
		collect_signal(p, sig, info);
		/* A periodic timer goes on once its signal is taken. */
		if (info->si_code == SI_TIMER && info->si_sys_private)
			posixtimer_rearm(info);
	}
	irq_restore(irq);
	return sig;
}

/*
 * Is there anything for prepare_return_to_user to do? Most returns have
 * nothing: one look at each thing that could, as Linux tests its thread
 * flags before exit_to_user_mode_loop.
 */
static inline __attribute__((always_inline)) bool return_work_pending(const struct trapframe *tf)
{
	const struct task *t = current;
	const struct signal_struct *s = t->signal;

	return this_cpu_read(need_resched) || t->stop_pending || t->restore_mask || t->rseq_resume ||
	       ((t->pending.signal | s->shared_pending.signal) & ~t->blocked) ||
	       (s->flags & SIGNAL_GROUP_EXIT) || s->group_exec_task ||
	       (tf->vector == TRAP_SYSCALL && is_restart((int64_t)tf->rax));
}

/* The work itself: Linux's exit_to_user_mode_loop. Kept out of line, so
 * that a return with nothing to do pays for none of its frame. */
static __attribute__((noinline)) void return_to_user_work(struct trapframe *tf)
{
	struct ksiginfo info;

	for (;;) {
		if (this_cpu_read(need_resched))
			schedule();
		struct signal_struct *s = current->signal;
		/* The process is dying (exit_group, a fatal signal), or another
		 * thread execs: this thread ends. */
		if ((s->flags & SIGNAL_GROUP_EXIT) ||
		    (s->group_exec_task && s->group_exec_task != current)) {
			current->pending.signal &= ~sigmask(SIGKILL);
			do_group_exit(SIGKILL);
		}
		if (current->stop_pending) {
			do_signal_stop(0);
			continue;
		}
		int sig = dequeue_signal(~current->blocked, &info);
		if (!sig)
			break;
		struct k_sigaction *ka = sigaction_of(current, sig);
		if (ka->handler == SIG_IGN)
			continue;
		if (ka->handler == SIG_DFL) {
			if (IGNORED_BY_DEFAULT & sigmask(sig))
				continue;
			/* init: one that was blocked when sent, since unblocked */
			if ((s->flags & SIGNAL_UNKILLABLE) && !(UNBLOCKABLE & sigmask(sig)))
				continue;
			if (STOP_SIGNALS & sigmask(sig)) {
				do_signal_stop(sig);
				continue;
			}
			/* Terminate the process. Core-dump signals would set 0x80
			 * when a core file is written; we write none (as
			 * RLIMIT_CORE = 0). */
			do_group_exit(sig);
		}
		handle_interrupted_syscall(tf, ka);
		rseq_signal_deliver(tf); /* an interrupted critical section aborts */
		uint64_t old_mask = current->restore_mask ? current->saved_mask : current->blocked;
		current->restore_mask = false;
		if (setup_rt_frame(&info, ka, tf, old_mask)) {
			/* No room for the frame: the program cannot go on
			 * (Linux's force_sigsegv). */
			if (sig == SIGSEGV)
				ka->handler = SIG_DFL;
			force_sig_fault(SIGSEGV, SI_KERNEL, 0);
			continue;
		}
		current->blocked |= ka->mask | (ka->flags & SA_NODEFER ? 0 : sigmask(sig));
		current->blocked &= ~UNBLOCKABLE;
		if (current->altstack_flags & SS_AUTODISARM)
			sas_ss_reset(current); /* the frame's uc_stack brings it back */
		if (ka->flags & SA_RESETHAND)
			ka->handler = SIG_DFL;
		return; /* one handler at a time, as Linux */
	}
	handle_interrupted_syscall(tf, NULL);
	if (current->restore_mask) {
		current->blocked = current->saved_mask;
		current->restore_mask = false;
	}
	rseq_handle_notify_resume(tf);
}

void prepare_return_to_user(struct trapframe *tf)
{
	if (return_work_pending(tf))
		return_to_user_work(tf);
}

/* The same from a path that ran without the big kernel lock: the work
 * takes it (entry.S drops it on the way out). Interrupts off, so that a
 * signal or reschedule IPI after the check finds us back in user mode
 * and brings us in again. */
void prepare_return_to_user_unlocked(struct trapframe *tf)
{
	cli();
	if (!return_work_pending(tf))
		return;
	lock_kernel();
	return_to_user_work(tf);
}

/* ---- system calls ---- */

long sys_rt_sigaction(int sig, const struct k_sigaction __user *act,
		      struct k_sigaction __user *oact, size_t sigsetsize)
{
	struct k_sigaction new;

	if (sigsetsize != sizeof(uint64_t) || !valid_signal(sig))
		return -EINVAL;
	if (act && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (oact && copy_to_user(oact, sigaction_of(current, sig), sizeof(*oact)))
		return -EFAULT;
	if (act) {
		new.mask &= ~UNBLOCKABLE;
		*sigaction_of(current, sig) = new;
		current->sighand->installed = true;
		/* Setting SIG_IGN (or a default that ignores) drops a pending
		 * one, in every thread, as Linux. */
		if (handler_ignores(new.handler, sig)) {
			uint64_t irq = irq_save();
			flush_process_mask(current, sigmask(sig));
			irq_restore(irq);
		}
	}
	return 0;
}

/*
 * After the caller's mask changed from old: signals sent to the process
 * that it now blocks may be for another thread (Linux's
 * retarget_shared_pending).
 *
 * sigprocmask runs without the big kernel lock (kernel/syscall.c), while
 * a sender marks a signal pending and then reads the masks
 * (complete_signal). Each does its write, a full barrier, then its read,
 * so at least one sees the other's write: either the sender sees the new
 * mask, or this thread sees the signal pending, here when it blocks it
 * (and hands it on under the lock), or on its way back to user mode when
 * it unblocks it (and takes it).
 */
static void retarget_shared_pending(uint64_t old)
{
	smp_mb();
	uint64_t newly = current->blocked & ~old & current->signal->shared_pending.signal;

	if (!newly)
		return;
	lock_kernel();
	newly = current->blocked & ~old & current->signal->shared_pending.signal;
	for (int sig = 1; newly && sig <= NSIG; sig++)
		if (newly & sigmask(sig))
			complete_signal(sig, current, true);
	unlock_kernel();
}

long sys_rt_sigprocmask(int how, const uint64_t __user *set, uint64_t __user *oset, size_t sigsetsize)
{
	uint64_t new, old = current->blocked;

	if (sigsetsize != sizeof(uint64_t))
		return -EINVAL;
	if (set) {
		if (copy_from_user(&new, set, sizeof(new)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:
			new = old | new;
			break;
		case SIG_UNBLOCK:
			new = old & ~new;
			break;
		case SIG_SETMASK:
			break;
		default:
			return -EINVAL;
		}
		current->blocked = new & ~UNBLOCKABLE;
		retarget_shared_pending(old);
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_rt_sigpending(uint64_t __user *set, size_t sigsetsize)
{
	uint64_t pending = (current->pending.signal | current->signal->shared_pending.signal) &
			   current->blocked;

	if (sigsetsize > sizeof(uint64_t))
		return -EINVAL;
	return copy_to_user(set, &pending, sigsetsize);
}

/* Sleep until a signal arrives that is not blocked by the given mask. */
long sys_rt_sigsuspend(const uint64_t __user *set, size_t sigsetsize)
{
	uint64_t mask;

	if (sigsetsize != sizeof(uint64_t))
		return -EINVAL;
	if (copy_from_user(&mask, set, sizeof(mask)))
		return -EFAULT;
	current->saved_mask = current->blocked;
	current->restore_mask = true;
	current->blocked = mask & ~UNBLOCKABLE;
	uint64_t irq = irq_save();
	while (!signal_pending(current))
		sleep_on(&current->pending);
	irq_restore(irq);
	return -ERESTARTNOHAND;
}

long sys_pause(void)
{
	uint64_t irq = irq_save();
	while (!signal_pending(current))
		sleep_on(&current->pending);
	irq_restore(irq);
	return -ERESTARTNOHAND;
}

/* The user's 128-byte siginfo_t: ours, then zeros. */
int copy_siginfo_to_user(void __user *to, const struct ksiginfo *info)
{
	uint8_t buf[128];

	memset(buf, 0, sizeof(buf));
	memcpy(buf, info, sizeof(*info));
	return copy_to_user(to, buf, sizeof(buf));
}

struct timespec64 {
	int64_t tv_sec, tv_nsec;
};

/*
 * rt_sigtimedwait (sigwait, sigwaitinfo, sigtimedwait): take a signal of
 * `set` without running its handler. While waiting, the thread does not
 * block them (so that they come to it), as Linux's real_blocked.
 */
long sys_rt_sigtimedwait(const uint64_t __user *uset, void __user *uinfo,
			 const struct timespec64 __user *uts, size_t sigsetsize)
{
	uint64_t set, deadline = 0;
	struct ksiginfo info;
	int sig;

	if (sigsetsize != sizeof(uint64_t))
		return -EINVAL;
	if (copy_from_user(&set, uset, sizeof(set)))
		return -EFAULT;
	set &= ~UNBLOCKABLE;
	if (uts) {
		struct timespec64 ts;
		if (copy_from_user(&ts, uts, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
			return -EINVAL;
		uint64_t ns = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
		uint64_t ticks = (ns + 1000000000ULL / HZ - 1) / (1000000000ULL / HZ);
		deadline = jiffies + ticks + (ticks ? 1 : 0);
	}
	sig = dequeue_signal(set, &info);
	if (!sig && !(uts && deadline == jiffies)) {
		uint64_t irq = irq_save();
		current->real_blocked = current->blocked;
		current->blocked &= ~set;
		current->wake_at = deadline;
		while (!signal_pending(current) && !(deadline && jiffies >= deadline))
			sleep_on(&current->pending);
		current->wake_at = 0;
		current->blocked = current->real_blocked;
		current->real_blocked = 0;
		irq_restore(irq);
		sig = dequeue_signal(set, &info);
	}
	if (!sig)
		return uts && !signal_pending(current) ? -EAGAIN : -EINTR;
	if (uinfo && copy_siginfo_to_user(uinfo, &info))
		return -EFAULT;
	return sig;
}

long sys_kill(pid_t pid, int sig)
{
	int found = 0, err = 0, success = 0;

	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (pid > 0) {
		/* Any thread id names its process, as on Linux. */
		struct task *t = find_task(pid);
		return t ? kill_one(t, sig) : -ESRCH; /* a zombie still counts, as on Linux */
	}
	if (pid == INT32_MIN)
		return -ESRCH;
	if (pid == -1) {
		/* Every process of the caller's pid namespace but its init and
		 * the caller's; as Linux, those it may not signal do not make
		 * the call fail. */
		for (struct task *t = first_task(); t; t = t->next_task) {
			if (thread_group_leader(t) && t->state != TASK_DEAD && task_tgid_vnr(t) > 1 &&
			    !same_thread_group(t, current)) {
				int e = kill_one(t, sig);
				if (e && e != -EPERM)
					err = e;
				found = 1;
			}
		}
		return found ? err : -ESRCH;
	}
	/* A process group: 0 if any member got it, else the last error. */
	pid_t pgrp = pid == 0 ? current->pgid : pid_vnr_to_global(-pid);
	if (!pgrp && pid)
		return -ESRCH;
	for (struct task *t = first_task(); t; t = t->next_task) {
		if (thread_group_leader(t) && t->state != TASK_DEAD && t->pgid == pgrp) {
			int e = kill_one(t, sig);
			if (e)
				err = e;
			success |= !e;
			found = 1;
		}
	}
	return !found ? -ESRCH : success ? 0 : err;
}

/* One thread: tid in process tgid (tgid -1: tkill, any process). */
static long do_tkill(pid_t tgid, pid_t tid, int sig)
{
	struct task *t = find_task(tid);
	struct ksiginfo info = { .si_signo = sig, .si_code = SI_TKILL };
	int err;

	if (!t || (tgid > 0 && task_tgid_vnr(t) != tgid))
		return -ESRCH;
	err = check_kill_permission(sig, t);
	if (err || !sig)
		return err;
	info.si_pid = task_tgid_vnr(current);
	info.si_uid = current_uid();
	return send_sig_info(&info, t, false);
}

long sys_tgkill(pid_t tgid, pid_t tid, int sig)
{
	if (tgid <= 0 || tid <= 0 || sig < 0 || sig > NSIG)
		return -EINVAL;
	return do_tkill(tgid, tid, sig);
}

long sys_tkill(pid_t tid, int sig)
{
	if (tid <= 0 || sig < 0 || sig > NSIG)
		return -EINVAL;
	return do_tkill(-1, tid, sig);
}

/* rt_sigqueueinfo / rt_tgsigqueueinfo: a signal with the caller's siginfo;
 * only the kernel may claim si_code >= 0 or SI_TKILL (EPERM), except to
 * itself. */
static long do_sigqueueinfo(struct task *t, bool group, int sig, const void __user *uinfo)
{
	struct ksiginfo info;

	if (copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	if ((info.si_code >= 0 || info.si_code == SI_TKILL) && !same_thread_group(t, current))
		return -EPERM;
	if (!sig)
		return 0;
	info.si_signo = sig;
	return send_sig_info(&info, t, group);
}

long sys_rt_sigqueueinfo(pid_t tgid, int sig, const void __user *uinfo)
{
	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	struct task *t = tgid > 0 ? find_task(tgid) : NULL;
	return t ? do_sigqueueinfo(t, true, sig, uinfo) : -ESRCH;
}

long sys_rt_tgsigqueueinfo(pid_t tgid, pid_t tid, int sig, const void __user *uinfo)
{
	if (tgid <= 0 || tid <= 0 || sig < 0 || sig > NSIG)
		return -EINVAL;
	struct task *t = find_task(tid);
	if (!t || task_tgid_vnr(t) != tgid)
		return -ESRCH;
	return do_sigqueueinfo(t, false, sig, uinfo);
}

/*
 * pidfd_send_signal: kill() through a pidfd, or through an open /proc/PID
 * directory, which Linux takes as one too. With a siginfo, the rules of
 * rt_sigqueueinfo, and si_signo must be sig. A process reaped since gives
 * ESRCH, even if its pid names another one now.
 */
long sys_pidfd_send_signal(int pidfd, int sig, const void __user *uinfo, unsigned int flags)
{
	struct ksiginfo info;
	struct file *file;
	struct task *t;
	/* Copied first: a fault may sleep, and the task go meanwhile. */
	bool fault = uinfo && copy_from_user(&info, uinfo, sizeof(info));

	if (flags)
		return -EINVAL;
	file = fget(pidfd);
	if (!file)
		return -EBADF;
	t = is_pidfd(file) ? pidfd_task(file) : tgid_pidfd_to_task(file);
	fput(file);
	if (IS_ERR(t))
		return PTR_ERR(t);
	/* Only a process of the caller's pid namespace or one below. */
	if (t && !pid_ns_sees(task_active_pid_ns(current), t))
		return -EINVAL;
	if (uinfo) {
		if (fault)
			return -EFAULT;
		if (info.si_signo != sig)
			return -EINVAL;
		/* Only to itself may a process send what it likes. */
		if ((info.si_code >= 0 || info.si_code == SI_TKILL) && (!t || t != current))
			return -EPERM;
	}
	/* As Linux, the questions above come before "is it still there". */
	if (!t)
		return -ESRCH;
	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (!uinfo)
		return kill_one(t, sig);
	int err = check_kill_permission(sig, t);
	return err || !sig ? err : send_sig_info(&info, t, true);
}

/*
 * The alternate signal stack (sigaltstack(2)), as Linux keeps it: where
 * it is (altstack_sp, altstack_size; size 0: none) and the flags the
 * program gave (altstack_flags: SS_AUTODISARM, or SS_ONSTACK, kept as
 * given and reported back in a frame's uc_stack).
 */
bool __on_sig_stack(uint64_t sp)
{
	/* The stack grows down: its top belongs to it, its base does not. */
	return sp > current->altstack_sp && sp - current->altstack_sp <= current->altstack_size;
}

bool on_sig_stack(uint64_t sp)
{
	/* A stack disarmed while a handler runs on it (SS_AUTODISARM) may be
	 * entered again from the top, as if it were not in use. */
	if (current->altstack_flags & SS_AUTODISARM)
		return false;
	return __on_sig_stack(sp);
}

int sas_ss_flags(uint64_t sp)
{
	if (!current->altstack_size)
		return SS_DISABLE;
	return on_sig_stack(sp) ? SS_ONSTACK : 0;
}

void sas_ss_reset(struct task *t)
{
	t->altstack_sp = t->altstack_size = 0;
	t->altstack_flags = SS_DISABLE;
}

/*
 * Set the alternate stack from *ss, as sigaltstack(2) and rt_sigreturn do;
 * sp is the user's stack pointer. Not while running on it (EPERM); the
 * mode is 0, SS_ONSTACK (an old spelling of 0) or SS_DISABLE, with
 * SS_AUTODISARM beside it; a stack must hold min_size bytes.
 */
static int do_sigaltstack(const struct user_stack *ss, uint64_t sp, uint64_t min_size)
{
	int mode = ss->ss_flags & ~SS_FLAG_BITS;

	if (on_sig_stack(sp))
		return -EPERM;
	if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
		return -EINVAL;
	if (ss->ss_sp == current->altstack_sp && ss->ss_size == current->altstack_size &&
	    ss->ss_flags == current->altstack_flags)
		return 0; /* no change: not even the size is checked */
	if (mode == SS_DISABLE) {
		current->altstack_sp = current->altstack_size = 0;
	} else {
		if (ss->ss_size < min_size)
			return -ENOMEM;
		current->altstack_sp = ss->ss_sp;
		current->altstack_size = ss->ss_size;
	}
	current->altstack_flags = ss->ss_flags;
	return 0;
}

/* rt_sigreturn: the stack the frame's uc_stack names, errors ignored but a
 * bad pointer, as Linux's restore_altstack. */
int restore_altstack(const struct user_stack __user *uss)
{
	struct user_stack ss;

	if (copy_from_user(&ss, uss, sizeof(ss)))
		return -EFAULT;
	do_sigaltstack(&ss, current->tf->rsp, MINSIGSTKSZ);
	return 0;
}

long sys_sigaltstack(const struct user_stack __user *uss, struct user_stack __user *uoss)
{
	uint64_t sp = current->tf->rsp;
	struct user_stack old = {
		.ss_sp = current->altstack_sp,
		.ss_size = current->altstack_size,
		.ss_flags = sas_ss_flags(sp) | (current->altstack_flags & SS_FLAG_BITS),
	};

	if (uss) {
		struct user_stack ss;
		if (copy_from_user(&ss, uss, sizeof(ss)))
			return -EFAULT;
		int err = do_sigaltstack(&ss, sp, MINSIGSTKSZ);
		if (err)
			return err;
	}
	if (uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}
