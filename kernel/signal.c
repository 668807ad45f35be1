/*
 * signal.c - sending signals, acting on them, and the system calls that
 * set them up (rt_sigaction, rt_sigprocmask, kill, ...).
 *
 * A signal is a bit in the target's `sigpending` mask. The target acts on
 * it on its way back to user mode (prepare_return_to_user): ignore it, stop,
 * terminate, or run the user's handler on a frame that kernel/signal_frame.c
 * builds. A blocking system call that sees signal_pending() returns
 * -ERESTARTSYS (or a cousin, see errno.h); here that becomes EINTR, or the
 * call is restarted by moving rip back over the syscall instruction.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <signum.h>
#include <string.h>
#include <uaccess.h>
#include <x86.h>

int setup_rt_frame(int sig, struct k_sigaction *ka, struct trapframe *tf, uint64_t saved_mask);

#define UNBLOCKABLE (sigmask(SIGKILL) | sigmask(SIGSTOP))
#define STOP_SIGNALS (sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))
#define IGNORED_BY_DEFAULT (sigmask(SIGCHLD) | sigmask(SIGURG) | sigmask(SIGWINCH) | sigmask(SIGCONT))

static bool valid_signal(int sig) { return sig >= 1 && sig <= NSIG; }

/* Would delivering sig to t do nothing at all? */
static bool sig_ignored(struct task *t, int sig)
{
	uint64_t handler = t->sigaction[sig - 1].handler;

	if (t->blocked & sigmask(sig))
		return false; /* it may be unblocked, or the handler changed, later */
	return handler == SIG_IGN || (handler == SIG_DFL && (IGNORED_BY_DEFAULT & sigmask(sig)));
}

/* Tell t's parent that t stopped or continued (SIGCHLD unless SA_NOCLDSTOP). */
static void notify_parent_stop(struct task *t)
{
	struct task *parent = t->parent;

	if (!parent)
		return;
	if (!(parent->sigaction[SIGCHLD - 1].flags & SA_NOCLDSTOP))
		send_sig(SIGCHLD, parent);
	wakeup(parent);
}

void send_sig(int sig, struct task *t)
{
	if (!valid_signal(sig) || t->state == TASK_ZOMBIE)
		return;
	uint64_t irq = irq_save();
	if (sig == SIGCONT || sig == SIGKILL) {
		t->sigpending &= ~STOP_SIGNALS;
		if (t->state == TASK_STOPPED) {
			t->state = TASK_RUNNABLE;
			if (sig == SIGCONT) {
				t->wait_cont_report = true;
				t->wait_stop_report = false;
				notify_parent_stop(t);
			}
		}
	}
	if (STOP_SIGNALS & sigmask(sig))
		t->sigpending &= ~sigmask(SIGCONT);
	if (!sig_ignored(t, sig)) {
		t->sigpending |= sigmask(sig);
		if (!(t->blocked & sigmask(sig)))
			make_runnable(t); /* cut a sleep short */
	}
	irq_restore(irq);
}

bool signal_pending(struct task *t)
{
	return (t->sigpending & ~t->blocked) != 0;
}

int kill_pgrp(pid_t pgrp, int sig)
{
	int found = 0;

	for (struct task *t = first_task(); t; t = t->next_task) {
		if (t->pgid == pgrp && t->state != TASK_ZOMBIE) {
			send_sig(sig, t);
			found = 1;
		}
	}
	return found ? 0 : -ESRCH;
}

/* At exec: handlers reset to the default, ignored signals stay ignored,
 * and the alternate stack is forgotten. The mask and pending set stay. */
void flush_signal_handlers(struct task *t)
{
	for (int i = 0; i < NSIG; i++) {
		struct k_sigaction *ka = &t->sigaction[i];
		if (ka->handler != SIG_IGN)
			ka->handler = SIG_DFL;
		ka->flags = ka->restorer = ka->mask = 0;
	}
	t->altstack_sp = t->altstack_size = 0;
	t->altstack_flags = 0;
}

/* Stop current until SIGCONT or SIGKILL. */
static void do_signal_stop(int sig)
{
	uint64_t irq = irq_save();

	current->state = TASK_STOPPED;
	current->stop_signal = sig;
	current->wait_stop_report = true;
	current->wait_cont_report = false;
	notify_parent_stop(current);
	schedule();
	irq_restore(irq);
}

static bool is_restart(int64_t ret)
{
	return ret == -ERESTARTSYS || ret == -ERESTARTNOINTR || ret == -ERESTARTNOHAND ||
	       ret == -ERESTART_RESTARTBLOCK;
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

/* Take the lowest deliverable signal off the pending set; 0 if none. */
static int dequeue_signal(void)
{
	uint64_t deliverable = current->sigpending & ~current->blocked;

	if (!deliverable)
		return 0;
	int sig = deliverable & sigmask(SIGKILL) ? SIGKILL : __builtin_ctzl(deliverable) + 1;
	current->sigpending &= ~sigmask(sig);
	return sig;
}

void prepare_return_to_user(struct trapframe *tf)
{
	for (;;) {
		if (need_resched)
			schedule();
		int sig = dequeue_signal();
		if (!sig)
			break;
		struct k_sigaction *ka = &current->sigaction[sig - 1];
		if (ka->handler == SIG_IGN)
			continue;
		if (ka->handler == SIG_DFL) {
			if (IGNORED_BY_DEFAULT & sigmask(sig))
				continue;
			if (STOP_SIGNALS & sigmask(sig)) {
				do_signal_stop(sig);
				continue;
			}
			/* Terminate. Core-dump signals would set 0x80 when a core
			 * file is written; we write none (as RLIMIT_CORE = 0). */
			do_exit(sig);
		}
		handle_interrupted_syscall(tf, ka);
		uint64_t old_mask = current->restore_mask ? current->saved_mask : current->blocked;
		current->restore_mask = false;
		if (setup_rt_frame(sig, ka, tf, old_mask)) {
			/* No room for the frame: the program cannot go on. */
			current->sigaction[SIGSEGV - 1].handler = SIG_DFL;
			do_exit(SIGSEGV);
		}
		current->blocked |= ka->mask | (ka->flags & SA_NODEFER ? 0 : sigmask(sig));
		current->blocked &= ~UNBLOCKABLE;
		if (ka->flags & SA_RESETHAND)
			ka->handler = SIG_DFL;
		return; /* one handler at a time, as Linux */
	}
	handle_interrupted_syscall(tf, NULL);
	if (current->restore_mask) {
		current->blocked = current->saved_mask;
		current->restore_mask = false;
	}
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
	if (oact && copy_to_user(oact, &current->sigaction[sig - 1], sizeof(*oact)))
		return -EFAULT;
	if (act) {
		new.mask &= ~UNBLOCKABLE;
		current->sigaction[sig - 1] = new;
		/* Setting SIG_IGN (or a default that ignores) drops a pending one. */
		if (sig_ignored(current, sig))
			current->sigpending &= ~sigmask(sig);
	}
	return 0;
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
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_rt_sigpending(uint64_t __user *set, size_t sigsetsize)
{
	uint64_t pending = current->sigpending & current->blocked;

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
		sleep_on(&current->sigpending);
	irq_restore(irq);
	return -ERESTARTNOHAND;
}

long sys_pause(void)
{
	uint64_t irq = irq_save();
	while (!signal_pending(current))
		sleep_on(&current->sigpending);
	irq_restore(irq);
	return -ERESTARTNOHAND;
}

static int kill_one(struct task *t, int sig)
{
	if (sig)
		send_sig(sig, t);
	return 0;
}

long sys_kill(pid_t pid, int sig)
{
	int found = 0;

	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (pid > 0) {
		struct task *t = find_task(pid);
		return t ? kill_one(t, sig) : -ESRCH; /* a zombie still counts, as on Linux */
	}
	if (pid == -1) { /* everyone but init and the caller */
		for (struct task *t = first_task(); t; t = t->next_task) {
			if (t->pid > 1 && t != current) {
				kill_one(t, sig);
				found = 1;
			}
		}
		return found ? 0 : -ESRCH;
	}
	pid_t pgrp = pid == 0 ? current->pgid : -pid;
	for (struct task *t = first_task(); t; t = t->next_task) {
		if (t->pgid == pgrp) {
			kill_one(t, sig);
			found = 1;
		}
	}
	return found ? 0 : -ESRCH;
}

/* One thread per process here: a thread id is a pid. */
long sys_tgkill(pid_t tgid, pid_t tid, int sig)
{
	if (tgid <= 0 || tid <= 0 || sig < 0 || sig > NSIG)
		return -EINVAL;
	struct task *t = find_task(tid);
	if (!t || t->pid != tgid)
		return -ESRCH;
	return kill_one(t, sig);
}

long sys_tkill(pid_t tid, int sig)
{
	return sys_tgkill(tid, tid, sig);
}

struct user_stack {
	uint64_t ss_sp;
	int32_t ss_flags;
	int32_t pad;
	uint64_t ss_size;
};
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define MINSIGSTKSZ 2048

bool on_altstack(uint64_t sp)
{
	return current->altstack_size && sp - current->altstack_sp < current->altstack_size;
}

long sys_sigaltstack(const struct user_stack __user *ss, struct user_stack __user *old)
{
	struct user_stack cur = {
		.ss_sp = current->altstack_sp,
		.ss_size = current->altstack_size,
		.ss_flags = current->altstack_size ? (on_altstack(current->tf->rsp) ? SS_ONSTACK : 0) : SS_DISABLE,
	};

	if (ss) {
		struct user_stack new;
		if (copy_from_user(&new, ss, sizeof(new)))
			return -EFAULT;
		if (on_altstack(current->tf->rsp))
			return -EPERM;
		if (new.ss_flags & ~(SS_DISABLE | SS_ONSTACK | (int32_t)0x80000000 /* SS_AUTODISARM */))
			return -EINVAL;
		if (new.ss_flags & SS_DISABLE) {
			current->altstack_sp = current->altstack_size = 0;
		} else {
			if (new.ss_size < MINSIGSTKSZ)
				return -ENOMEM;
			current->altstack_sp = new.ss_sp;
			current->altstack_size = new.ss_size;
		}
	}
	if (old && copy_to_user(old, &cur, sizeof(cur)))
		return -EFAULT;
	return 0;
}
