/*
 * exit.c - the end of a process: exit, exit_group, and wait4/waitid for
 * the parent to collect the status. An exited task stays a zombie (its
 * kernel stack and struct task) until its parent reaps it, or is freed at
 * once if the parent ignores SIGCHLD. Children of an exiting process are
 * handed to init.
 */
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <linux/umh.h>
#include <power.h>
#include <sched.h>
#include <signum.h>
#include <string.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

#define WNOHANG 0x00000001
#define WUNTRACED 0x00000002 /* wait4; waitid calls it WSTOPPED */
#define WEXITED 0x00000004
#define WCONTINUED 0x00000008
#define WNOWAIT 0x01000000
#define __WNOTHREAD 0x20000000
#define __WALL 0x40000000
#define __WCLONE 0x80000000

static void __noreturn init_exited(int status)
{
	printk(KERN_EMERG "Attempted to kill init! exitcode=0x%08x\n", status);
	printk(KERN_EMERG "reboot: Power down\n");
	machine_power_off();
}

/* Hand t's children to init; they may need reaping or a parent-death signal. */
static void reparent_children(struct task *t)
{
	struct task *init = find_task(1);

	for (struct task *c = first_task(); c; c = c->next_task) {
		if (c->parent != t)
			continue;
		c->parent = init;
		if (c->pdeath_signal)
			send_sig(c->pdeath_signal, c);
		if (c->state == TASK_ZOMBIE)
			wakeup(init);
	}
}

void do_exit(int status)
{
	struct task *t = current;

	if (t->pid == 1)
		init_exited(status);
	if (t->clear_child_tid)
		put_user_u32(0, (void __user *)t->clear_child_tid);
	disassociate_ctty(); /* a session leader lets go of its terminal */
	if (t->files)
		files_put(t->files);
	t->files = NULL;
	if (t->fs)
		fs_put(t->fs);
	t->fs = NULL;
	set_exe_file(t, NULL);
	vfork_release(t);
	mm_activate(NULL);
	if (t->mm)
		mm_put(t->mm);
	t->mm = NULL;

	cli(); /* until schedule() leaves this task for good */
	reparent_children(t);
	t->exit_status = status;
	t->state = TASK_ZOMBIE;
	struct task *parent = t->parent;
	if (!parent) {
		/* A usermode helper: the kernel collects its status. */
		umh_task_exited(t);
		schedule();
		panic("zombie %d ran again", t->pid);
	}
	struct k_sigaction *sa = &parent->sigaction[SIGCHLD - 1];
	if (sa->handler == SIG_IGN || (sa->flags & SA_NOCLDWAIT)) {
		/* Nobody will wait for us: free ourselves once off this stack. */
		release_task_later(t);
	} else {
		send_sig(SIGCHLD, parent);
	}
	wakeup(parent); /* a wait4 may now find news, or no children left */
	schedule();
	panic("zombie %d ran again", t->pid);
}

long sys_exit(int code)
{
	do_exit(W_EXITCODE(code, 0));
}

long sys_exit_group(int code)
{
	do_exit(W_EXITCODE(code, 0));
}

/* Which children a wait names: pid > 0 that one, 0 our process group,
 * -1 any, < -1 process group -pid. */
static bool wait_matches(struct task *c, pid_t pid)
{
	if (c->parent != current)
		return false;
	if (pid > 0)
		return c->pid == pid;
	if (pid == 0)
		return c->pgid == current->pgid;
	if (pid < -1)
		return c->pgid == -pid;
	return true;
}

/* What a wait found: the child, its status word, and the siginfo code. */
struct wait_result {
	struct task *child;
	int status;
	int code; /* CLD_* */
	bool reap;
};

#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3
#define CLD_STOPPED 5
#define CLD_CONTINUED 6

/* Look for a child with something to report. 0 found, -ECHILD if there
 * is no such child at all, -EAGAIN if there are children but no news. */
static int wait_scan(pid_t pid, int options, struct wait_result *r)
{
	bool have_child = false;

	for (struct task *c = first_task(); c; c = c->next_task) {
		if (!wait_matches(c, pid))
			continue;
		have_child = true;
		if (c->state == TASK_ZOMBIE && (options & WEXITED)) {
			int st = c->exit_status;
			*r = (struct wait_result){ c, st, (st & 0x7f) ? ((st & 0x80) ? CLD_DUMPED : CLD_KILLED) : CLD_EXITED,
						   !(options & WNOWAIT) };
			return 0;
		}
		if (c->state == TASK_STOPPED && c->wait_stop_report && (options & WUNTRACED)) {
			if (!(options & WNOWAIT))
				c->wait_stop_report = false;
			*r = (struct wait_result){ c, W_STOPCODE(c->stop_signal), CLD_STOPPED, false };
			return 0;
		}
		if (c->wait_cont_report && (options & WCONTINUED)) {
			if (!(options & WNOWAIT))
				c->wait_cont_report = false;
			*r = (struct wait_result){ c, W_CONTINUED, CLD_CONTINUED, false };
			return 0;
		}
	}
	return have_child ? -EAGAIN : -ECHILD;
}

/* Wait as wait4/waitid do; on success the child is reaped if r->reap. */
static int do_wait(pid_t pid, int options, struct wait_result *r)
{
	uint64_t irq = irq_save();
	int err;

	for (;;) {
		err = wait_scan(pid, options, r);
		if (err != -EAGAIN)
			break;
		if (options & WNOHANG)
			break;
		if (signal_pending(current)) {
			err = -ERESTARTSYS;
			break;
		}
		sleep_on(current);
	}
	irq_restore(irq);
	if (err == 0 && r->reap) {
		current->cutime += r->child->utime + r->child->cutime;
		current->cstime += r->child->stime + r->child->cstime;
	}
	return err;
}

struct rusage {
	int64_t utime_sec, utime_usec, stime_sec, stime_usec;
	int64_t rest[14];
};

static void ticks_to_timeval(uint64_t ticks, int64_t *sec, int64_t *usec)
{
	*sec = ticks / HZ;
	*usec = ticks % HZ * (1000000 / HZ);
}

static int put_child_rusage(struct task *c, struct rusage __user *ru)
{
	struct rusage r;

	memset(&r, 0, sizeof(r));
	ticks_to_timeval(c->utime + c->cutime, &r.utime_sec, &r.utime_usec);
	ticks_to_timeval(c->stime + c->cstime, &r.stime_sec, &r.stime_usec);
	return copy_to_user(ru, &r, sizeof(r));
}

long sys_wait4(pid_t pid, int __user *status, int options, struct rusage __user *ru)
{
	struct wait_result r;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE))
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;
	int err = do_wait(pid, options | WEXITED, &r);
	if (err == -EAGAIN)
		return 0; /* WNOHANG and nothing yet */
	if (err)
		return err;
	pid_t cpid = r.child->pid;
	if ((status && put_user_u32(r.status, status)) || (ru && put_child_rusage(r.child, ru))) {
		err = -EFAULT;
	}
	if (r.reap)
		free_task(r.child);
	return err ? err : cpid;
}

#define P_ALL 0
#define P_PID 1
#define P_PGID 2

struct waitid_info {
	int32_t si_signo, si_errno, si_code, pad;
	int32_t si_pid;
	uint32_t si_uid;
	int32_t si_status;
	int32_t pad2;
	int64_t si_utime, si_stime;
	uint8_t rest[128 - 48];
};

long sys_waitid(int which, pid_t upid, struct waitid_info __user *infop, int options,
		struct rusage __user *ru)
{
	struct wait_result r;
	pid_t pid;

	if (options & ~(WNOHANG | WNOWAIT | WEXITED | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE))
		return -EINVAL;
	if (!(options & (WEXITED | WUNTRACED | WCONTINUED)))
		return -EINVAL;
	switch (which) {
	case P_ALL:
		pid = -1;
		break;
	case P_PID:
		if (upid <= 0)
			return -EINVAL;
		pid = upid;
		break;
	case P_PGID:
		if (upid < 0)
			return -EINVAL;
		pid = upid ? -upid : 0;
		break;
	default:
		return -EINVAL;
	}
	int err = do_wait(pid, options, &r);
	struct waitid_info info;
	memset(&info, 0, sizeof(info));
	if (err == -EAGAIN) {
		/* WNOHANG with nothing to report: a zeroed siginfo, return 0. */
		return infop && copy_to_user(infop, &info, sizeof(info)) ? -EFAULT : 0;
	}
	if (err)
		return err;
	info.si_signo = SIGCHLD;
	info.si_code = r.code;
	info.si_pid = r.child->pid;
	info.si_uid = r.child->uid;
	info.si_status = r.code == CLD_EXITED ? (r.status >> 8) & 0xff
			 : r.code == CLD_STOPPED ? r.child->stop_signal
			 : r.code == CLD_CONTINUED ? SIGCONT : r.status & 0x7f;
	if ((infop && copy_to_user(infop, &info, sizeof(info))) || (ru && put_child_rusage(r.child, ru)))
		err = -EFAULT;
	if (r.reap)
		free_task(r.child);
	return err;
}
