/*
 * exit.c - the end of a process: exit, exit_group, and wait4/waitid for
 * the parent to collect the status. An exited task stays a zombie (its
 * kernel stack and struct task) until its parent reaps it, or is freed at
 * once if the parent ignores SIGCHLD. Children of an exiting process are
 * handed to init.
 */
#include <cred.h>
#include <errno.h>
#include <fs.h>
#include <ipc.h>
#include <kernel.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/umh.h>
#include <mm.h>
#include <power.h>
#include <nsproxy.h>
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

/* Is t a thread of the init of pid namespace ns? */
static bool is_ns_init(struct task *t, struct pid_namespace *ns)
{
	return ns->child_reaper && same_thread_group(ns->child_reaper, t);
}

bool thread_group_empty(struct task *leader)
{
	for_each_thread(leader, t)
		if (t != leader)
			return false;
	return true;
}

/* The wait status of a process that has ended. */
static int group_exit_status(struct task *leader)
{
	struct signal_struct *s = leader->signal;
	return (s->flags & SIGNAL_GROUP_EXIT) ? s->group_exit_code : leader->exit_status;
}

/* CPU ticks and page faults of t's whole process: its threads gone and
 * those still here. */
static void thread_group_times(struct task *p, uint64_t *ut, uint64_t *st, uint64_t *flt)
{
	*ut = p->signal->utime;
	*st = p->signal->stime;
	*flt = p->signal->min_flt;
	for_each_thread(p, t) {
		if (t->state == TASK_ZOMBIE)
			continue; /* counted in signal->utime already */
		*ut += t->utime;
		*st += t->stime;
		*flt += t->min_flt;
	}
}

/*
 * Tell the parent of process leader (its last thread is gone) that it
 * ended: SIGCHLD (or the clone's exit signal) with its siginfo, and a
 * wake-up for a wait4. Returns true if the parent does not want to wait
 * for it (SIGCHLD ignored, or SA_NOCLDWAIT): then nobody reaps it and it
 * is freed at once (Linux's autoreap).
 */
static bool do_notify_parent(struct task *leader)
{
	struct task *parent = leader->parent;
	int sig = leader->exit_signal, status = group_exit_status(leader);
	struct k_sigaction *sa = &parent->sighand->action[SIGCHLD - 1];
	struct ksiginfo info = { .si_signo = sig };
	bool autoreap = false;
	uint64_t ut, st, flt;

	info.si_pid = task_tgid_nr_ns(leader, task_active_pid_ns(parent));
	info.si_uid = task_cred(leader)->uid;
	if (status & 0x80)
		info.si_code = CLD_DUMPED, info.si_status = status & 0x7f;
	else if (status & 0x7f)
		info.si_code = CLD_KILLED, info.si_status = status & 0x7f;
	else
		info.si_code = CLD_EXITED, info.si_status = (status >> 8) & 0xff;
	thread_group_times(leader, &ut, &st, &flt);
	info.si_utime = ut, info.si_stime = st;
	if (sig == SIGCHLD && (sa->handler == SIG_IGN || (sa->flags & SA_NOCLDWAIT))) {
		autoreap = true;
		if (sa->handler == SIG_IGN)
			sig = 0;
	}
	if (sig > 0 && sig <= NSIG)
		send_sig_info(&info, parent, true);
	wakeup(parent->signal); /* a wait4 may now find news, or no children left */
	return autoreap;
}

/* The thread that takes over the children of exiting thread t: another
 * live thread of its process, or the init of its pid namespace (Linux's
 * find_new_reaper). A namespace's init whose thread exits hands the job
 * to another of its threads. */
static struct task *find_new_reaper(struct task *t)
{
	struct pid_namespace *ns = task_active_pid_ns(t);

	for_each_thread(t, c) {
		if (c != t && c->state != TASK_ZOMBIE && !(c->signal->flags & SIGNAL_GROUP_EXIT)) {
			if (ns->child_reaper == t)
				ns->child_reaper = c;
			return c;
		}
	}
	return ns->child_reaper;
}

/* A thread of one of t's child processes gets reaper for parent; it may
 * need reaping or a parent-death signal. */
static void reparent_task(struct task *c, struct task *t, struct task *reaper)
{
	c->parent = reaper;
	/* Its end is told with SIGCHLD from now on, whatever clone's exit
	 * signal was: no one may slay init by exiting (Linux's
	 * reparent_leader). */
	if (thread_group_leader(c) && !same_thread_group(reaper, t))
		c->exit_signal = SIGCHLD;
	if (c->pdeath_signal && c->state != TASK_ZOMBIE)
		group_send_sig(c->pdeath_signal, c);
	/* A process that ended and waits to be reaped: the new parent
	 * (another process) is told, and may not want it. */
	if (thread_group_leader(c) && c->state == TASK_ZOMBIE && thread_group_empty(c) &&
	    !same_thread_group(reaper, t) && do_notify_parent(c))
		release_task_later(c);
}

/* Hand t's children to their new parent, at the end of its list (Linux's
 * forget_original_parent). They are taken off t's list first: the new
 * parent may be t itself (a pid namespace's init, whose death took the
 * namespace's other processes first). */
static void forget_original_parent(struct task *t)
{
	struct task *reaper = find_new_reaper(t);
	struct list_node orphans;

	list_init(&orphans);
	while (!list_empty(&t->children)) {
		struct list_node *n = t->children.next;
		list_del(n);
		list_add_tail(n, &orphans);
	}
	while (!list_empty(&orphans)) {
		struct task *leader = list_entry(orphans.next, struct task, sibling);

		list_del(&leader->sibling);
		list_add_tail(&leader->sibling, &reaper->children);
		for_each_thread(leader, c)
			if (c->parent == t)
				reparent_task(c, t, reaper);
	}
}

/* The end of a thread, told to whoever waits for it (Linux's exit_notify).
 * Interrupts are off. */
static void exit_notify(struct task *t)
{
	struct signal_struct *s = t->signal;
	struct task *leader = t->group_leader;
	bool autoreap = false;

	forget_original_parent(t);
	t->state = TASK_ZOMBIE;
	if (thread_group_leader(t) && !t->parent) {
		/* A usermode helper: the kernel collects its status. */
		umh_task_exited(t);
		return;
	}
	if (thread_group_leader(t)) {
		/* A leader waits, a zombie, until its last thread is gone:
		 * only then is the process reported to its parent. */
		if (thread_group_empty(t))
			autoreap = do_notify_parent(t);
	} else {
		/* A thread nobody waits for: freed at once. */
		autoreap = true;
	}
	if (autoreap)
		release_task_later(t);
	/* The last thread of a process whose leader ended before it. */
	if (!thread_group_leader(t) && leader->state == TASK_ZOMBIE && thread_group_empty(leader) &&
	    !s->group_exec_task && do_notify_parent(leader))
		release_task_later(leader);
	if (s->group_exec_task)
		wakeup(&s->group_exec_task); /* de_thread waits for us */
	pidfd_notify(); /* the process may have ended: its pidfds poll readable */
}

void do_exit(int status)
{
	struct task *t = current;
	struct signal_struct *s = t->signal;

	t->exit_status = status;
	uint64_t irq = irq_save();
	exit_group_stop(t);
	bool group_dead = --s->nr_threads == 0;
	irq_restore(irq);
	/* The process's status is its last thread's (Linux reports that,
	 * not the leader's, when the leader went first). */
	if (group_dead)
		t->group_leader->exit_status = status;
	if (group_dead && is_ns_init(t, &init_pid_ns))
		init_exited(group_exit_status(t));
	/* The robust futexes it held, and pthread_join's futex, while the
	 * memory is still there. */
	futex_exit_release(t);
	exit_sem(t); /* SEM_UNDO: the last user of the list applies it */
	exit_shm(t); /* its segments are orphans now (shm_rmid_forced) */
	if (group_dead) {
		disassociate_ctty(); /* a session leader lets go of its terminal */
		memset(s->it_value, 0, sizeof(s->it_value));
		exit_itimers(t); /* POSIX timers: kernel/time/posix-timers.c */
	}
	struct files_struct *files = t->files;
	t->files = NULL; /* before the put, which lets the big lock go */
	files_exit(files);
	if (t->fs)
		fs_put(t->fs);
	t->fs = NULL;
	exit_task_namespaces(t);
	set_exe_file(t, NULL);
	vfork_release(t);
	mm_activate(NULL);
	load_mm_ldt(NULL);
	struct mm *mm = t->mm;
	t->mm = NULL; /* before the put, which lets the big lock go */
	mm_put(mm);
	/* The init of a pid namespace takes the namespace with it. */
	if (group_dead && is_ns_init(t, task_active_pid_ns(t)))
		zap_pid_ns_processes(task_active_pid_ns(t));

	cli(); /* until schedule() leaves this task for good */
	s->utime += t->utime;
	s->stime += t->stime;
	s->min_flt += t->min_flt;
	exit_notify(t);
	schedule();
	panic("zombie %d ran again", t->pid);
}

void do_group_exit(int status)
{
	struct signal_struct *s = current->signal;
	uint64_t irq = irq_save();

	if (s->flags & SIGNAL_GROUP_EXIT)
		status = s->group_exit_code;
	else if (s->group_exec_task)
		status = 0; /* killed by another thread's exec */
	else if (s->nr_threads > 1) {
		s->flags = SIGNAL_GROUP_EXIT;
		s->group_exit_code = status;
		zap_other_threads(current);
	}
	irq_restore(irq);
	do_exit(status);
}

/*
 * exec in a process with several threads (Linux's de_thread): every other
 * thread is killed, and the caller waits until they are gone. If the
 * caller is not the leader, it then takes the leader's place: its pid (the
 * process id does not change across exec), its parent and its start time;
 * the old leader, a zombie by then, is freed without a word to the parent.
 * Last, handlers shared with another process (CLONE_SIGHAND without
 * CLONE_THREAD) are copied, since exec resets them.
 */
int de_thread(struct task *me)
{
	struct signal_struct *s = me->signal;
	struct task *leader = me->group_leader;
	uint64_t irq = irq_save();

	if (s->nr_threads > 1 || leader != me) {
		if ((s->flags & SIGNAL_GROUP_EXIT) || s->group_exec_task) {
			irq_restore(irq);
			return -EAGAIN; /* another thread kills the process */
		}
		s->group_exec_task = me;
		zap_other_threads(me);
		while (s->nr_threads > 1 || (leader != me && leader->state != TASK_ZOMBIE)) {
			if (fatal_signal_pending(me)) {
				s->group_exec_task = NULL;
				irq_restore(irq);
				return -EAGAIN;
			}
			sleep_on(&s->group_exec_task);
		}
		if (leader != me) {
			pid_t tid = me->pid;
			struct pid *tpid = me->thread_pid;
			uint64_t serial = me->serial;
			me->pid = leader->pid;
			leader->pid = tid;
			me->thread_pid = leader->thread_pid;
			leader->thread_pid = tpid;
			if (task_active_pid_ns(me)->child_reaper == leader)
				task_active_pid_ns(me)->child_reaper = me;
			/* The process stays the one its pidfds and /proc/PID
			 * name (Linux: the thread takes the leader's struct pid). */
			me->serial = leader->serial;
			leader->serial = serial;
			me->tgid = me->pid;
			me->start_time = leader->start_time;
			me->parent = leader->parent;
			if (!list_empty(&leader->sibling)) /* on its parent's list */
				list_replace(&leader->sibling, &me->sibling);
			me->group_leader = me;
			for_each_thread(me, t)
				t->group_leader = me;
			s->utime += leader->utime;
			s->stime += leader->stime;
			s->min_flt += leader->min_flt;
			leader->utime = leader->stime = leader->min_flt = 0;
			release_task_later(leader);
		}
		s->group_exec_task = NULL;
	}
	irq_restore(irq);
	me->exit_signal = SIGCHLD;
	if (me->sighand->count > 1) {
		struct sighand_struct *sh = kmalloc(sizeof(*sh));
		if (!sh)
			return -ENOMEM;
		memcpy(sh->action, me->sighand->action, sizeof(sh->action));
		sh->installed = me->sighand->installed;
		sh->count = 1;
		me->sighand->count--;
		me->sighand = sh;
	}
	return 0;
}

long sys_exit(int code)
{
	do_exit(W_EXITCODE(code, 0));
}

long sys_exit_group(int code)
{
	do_group_exit(W_EXITCODE(code, 0));
}

/* Which children a wait names: pid > 0 that one, 0 our process group,
 * -1 any, < -1 process group -pid. A child is a process (its leader)
 * that any thread of ours made (only the caller's own with __WNOTHREAD);
 * one whose exit signal is not SIGCHLD only with __WCLONE, and every one
 * with __WALL, as Linux. */
static bool wait_matches(struct task *c, pid_t pid, int options)
{
	if (!thread_group_leader(c) || !c->parent || c->state == TASK_DEAD)
		return false;
	if ((options & __WNOTHREAD) ? c->parent != current : !same_thread_group(c->parent, current))
		return false;
	if (((c->exit_signal != SIGCHLD) ^ !!(options & __WCLONE)) && !(options & __WALL))
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

/* Child c and what wait may report of it: 0 (in *r), -EAGAIN if it is
 * a child the wait names but with nothing to report, -ECHILD if the wait
 * does not name it. */
static int wait_report(struct task *c, pid_t pid, int options, struct wait_result *r)
{
	struct signal_struct *s = c->signal;

	if (!wait_matches(c, pid, options))
		return -ECHILD;
	if (c->state == TASK_ZOMBIE && thread_group_empty(c) && (options & WEXITED)) {
		int st = group_exit_status(c);
		*r = (struct wait_result){ c, st, (st & 0x7f) ? ((st & 0x80) ? CLD_DUMPED : CLD_KILLED) : CLD_EXITED,
					   !(options & WNOWAIT) };
		return 0;
	}
	if ((s->flags & SIGNAL_STOP_STOPPED) && s->wait_stop_report && (options & WUNTRACED)) {
		if (!(options & WNOWAIT))
			s->wait_stop_report = false;
		*r = (struct wait_result){ c, W_STOPCODE(s->stop_signal), CLD_STOPPED, false };
		return 0;
	}
	if (s->wait_cont_report && (options & WCONTINUED)) {
		if (!(options & WNOWAIT))
			s->wait_cont_report = false;
		*r = (struct wait_result){ c, W_CONTINUED, CLD_CONTINUED, false };
		return 0;
	}
	return -EAGAIN;
}

/* Look for a child with something to report. 0 found, -ECHILD if there
 * is no such child at all, -EAGAIN if there are children but no news. */
static int wait_scan(pid_t pid, int options, struct wait_result *r)
{
	bool have_child = false;
	struct task *c;

	for_each_thread(current, parent) {
		if ((options & __WNOTHREAD) && parent != current)
			continue;
		list_for_each_entry(c, &parent->children, sibling) {
			int found = wait_report(c, pid, options, r);
			if (found != -ECHILD)
				have_child = true;
			if (found == 0)
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
		sleep_on(current->signal);
	}
	irq_restore(irq);
	if (err == 0 && r->reap) {
		uint64_t ut, st, flt;
		thread_group_times(r->child, &ut, &st, &flt);
		current->signal->cutime += ut + r->child->signal->cutime;
		current->signal->cstime += st + r->child->signal->cstime;
		current->signal->cmin_flt += flt + r->child->signal->cmin_flt;
	}
	return err;
}

/* wait's pid argument, numbered in the caller's pid namespace, as the
 * kernel numbers it (the initial namespace's numbers). A number that names
 * nothing there becomes one that matches no child. */
static pid_t wait_pid_global(pid_t pid)
{
	pid_t g;

	if (pid == 0 || pid == -1)
		return pid;
	g = pid_vnr_to_global(pid > 0 ? pid : -pid);
	if (!g)
		g = PID_MAX_DEFAULT;
	return pid > 0 ? g : -g;
}

struct rusage {
	int64_t utime_sec, utime_usec, stime_sec, stime_usec;
	int64_t maxrss, ixrss, idrss, isrss, minflt, majflt;
	int64_t rest[8];
};

static void ticks_to_timeval(uint64_t ticks, int64_t *sec, int64_t *usec)
{
	*sec = ticks / HZ;
	*usec = ticks % HZ * (1000000 / HZ);
}

static int put_child_rusage(struct task *c, struct rusage __user *ru)
{
	struct rusage r;

	uint64_t ut, st, flt;

	memset(&r, 0, sizeof(r));
	thread_group_times(c, &ut, &st, &flt);
	ticks_to_timeval(ut + c->signal->cutime, &r.utime_sec, &r.utime_usec);
	ticks_to_timeval(st + c->signal->cstime, &r.stime_sec, &r.stime_usec);
	r.minflt = flt + c->signal->cmin_flt;
	return copy_to_user(ru, &r, sizeof(r));
}

long sys_wait4(pid_t pid, int __user *status, int options, struct rusage __user *ru)
{
	struct wait_result r;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE))
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;
	int err = do_wait(wait_pid_global(pid), options | WEXITED, &r);
	if (err == -EAGAIN)
		return 0; /* WNOHANG and nothing yet */
	if (err)
		return err;
	pid_t cpid = task_tgid_vnr(r.child);
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
#define P_PIDFD 3

struct waitid_info {
	int32_t si_signo, si_errno, si_code, pad;
	int32_t si_pid;
	uint32_t si_uid;
	int32_t si_status;
	int32_t pad2;
	int64_t si_utime, si_stime;
	uint8_t rest[128 - 48];
};

/*
 * waitid(P_PIDFD, fd): the pid of the child that pidfd fd names. Waiting
 * on a pidfd opened with PIDFD_NONBLOCK does not block (*nonblock): EAGAIN
 * instead, or as WNOHANG if the caller asked for that. -EBADF if fd is no
 * pidfd; -ECHILD if its process has been reaped already.
 */
static int pidfd_wait_pid(int fd, pid_t *pid, bool *nonblock)
{
	unsigned int f_flags;
	struct task *t;

	if (fd < 0)
		return -EINVAL;
	t = pidfd_get_task(fd, &f_flags);
	if (IS_ERR(t))
		return PTR_ERR(t);
	if (!t)
		return -ECHILD;
	*nonblock = f_flags & O_NONBLOCK;
	*pid = t->pid;
	return 0;
}

long sys_waitid(int which, pid_t upid, struct waitid_info __user *infop, int options,
		struct rusage __user *ru)
{
	struct wait_result r;
	bool nonblock = false;
	pid_t pid = 0;
	int err;

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
		pid = wait_pid_global(upid);
		break;
	case P_PGID:
		if (upid < 0)
			return -EINVAL;
		pid = upid ? wait_pid_global(-upid) : 0;
		break;
	case P_PIDFD:
		err = pidfd_wait_pid(upid, &pid, &nonblock);
		if (err)
			return err;
		break;
	default:
		return -EINVAL;
	}
	err = do_wait(pid, options | (nonblock ? WNOHANG : 0), &r);
	struct waitid_info info;
	memset(&info, 0, sizeof(info));
	if (err == -EAGAIN && nonblock && !(options & WNOHANG))
		return -EAGAIN; /* a PIDFD_NONBLOCK pidfd of a child still running */
	if (err == -EAGAIN) {
		/* WNOHANG with nothing to report: a zeroed siginfo, return 0. */
		return infop && copy_to_user(infop, &info, sizeof(info)) ? -EFAULT : 0;
	}
	if (err)
		return err;
	info.si_signo = SIGCHLD;
	info.si_code = r.code;
	info.si_pid = task_tgid_vnr(r.child);
	info.si_uid = task_cred(r.child)->uid;
	info.si_status = r.code == CLD_EXITED ? (r.status >> 8) & 0xff
			 : r.code == CLD_STOPPED ? r.child->signal->stop_signal
			 : r.code == CLD_CONTINUED ? SIGCONT : r.status & 0x7f;
	if ((infop && copy_to_user(infop, &info, sizeof(info))) || (ru && put_child_rusage(r.child, ru)))
		err = -EFAULT;
	if (r.reap)
		free_task(r.child);
	return err;
}
