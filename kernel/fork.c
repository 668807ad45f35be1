/*
 * fork.c - fork, vfork, clone and clone3: a new task that is a copy of the
 * caller (Linux's copy_process).
 *
 * Without flags the child is a new process with a copy of everything: the
 * address space (copy-on-write), the descriptor table, the working
 * directory, the signal handlers. Each CLONE_* flag makes the child share
 * one of these instead: CLONE_VM the address space, CLONE_FILES the
 * descriptor table, CLONE_FS the working directory and umask,
 * CLONE_SIGHAND the handlers. CLONE_THREAD makes it a thread of the
 * caller's process rather than a new process: same process id (tgid),
 * same parent, the process's signals and exit shared; a thread needs the
 * handlers shared, and shared handlers need the memory shared (EINVAL
 * otherwise, as Linux). pthread_create passes all of them, with
 * CLONE_SETTLS (the thread's TLS block), CLONE_PARENT_SETTID and
 * CLONE_CHILD_CLEARTID (where the library learns the thread id, and where
 * the kernel writes 0 and wakes a futex when the thread ends: that is
 * pthread_join).
 *
 * CLONE_PIDFD gives the parent a pidfd for the child (kernel/pidfd.c), at
 * clone's parent_tid pointer or clone3's pidfd field.
 *
 * The child returns to user mode from the same system call with rax = 0,
 * on its own stack if one was given.
 */
#include <cred.h>
#include <errno.h>
#include <fs.h>
#include <ipc.h>
#include <cpu.h>
#include <kernel.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <mm.h>
#include <nsproxy.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

#define CSIGNAL 0x000000ff
#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_PIDFD 0x00001000
#define CLONE_PTRACE 0x00002000
#define CLONE_VFORK 0x00004000
#define CLONE_PARENT 0x00008000
#define CLONE_THREAD 0x00010000
#define CLONE_SYSVSEM 0x00040000
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_DETACHED 0x00400000
#define CLONE_UNTRACED 0x00800000
#define CLONE_CHILD_SETTID 0x01000000
#define CLONE_IO 0x80000000UL
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#define CLONE_INTO_CGROUP 0x200000000ULL

/* What we do: everything but cgroups (CLONE_INTO_CGROUP). CLONE_PTRACE,
 * CLONE_UNTRACED (no ptrace here), CLONE_SYSVSEM (no System V semaphores)
 * and CLONE_IO are accepted and change nothing. */
#define CLONE_SUPPORTED (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			 CLONE_PTRACE | CLONE_VFORK | CLONE_PARENT | CLONE_THREAD | \
			 CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | \
			 CLONE_CHILD_CLEARTID | CLONE_DETACHED | CLONE_UNTRACED | \
			 CLONE_CHILD_SETTID | CLONE_IO | CLONE_CLEAR_SIGHAND | CLONE_PIDFD | \
			 CLONE_NS_ALL)

/* Linux's struct kernel_clone_args: what clone and clone3 ask for. */
struct kernel_clone_args {
	uint64_t flags;
	int exit_signal;
	uint64_t stack;          /* the child's stack pointer, 0: the caller's */
	int __user *pidfd;       /* CLONE_PIDFD: where the parent gets the pidfd */
	int __user *parent_tid;
	int __user *child_tid;
	uint64_t tls;
	const pid_t *set_tid;    /* clone3: the child's numbers, its namespace's first */
	size_t set_tid_size;
};

/* The flag combinations Linux refuses (copy_process), EINVAL. */
static int check_clone_flags(uint64_t flags)
{
	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS))
		return -EINVAL;
	/* A thread shares the handlers; shared handlers need shared memory. */
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	/* An init (of any pid namespace) has no parent to share. */
	if ((flags & CLONE_PARENT) && (current->signal->flags & SIGNAL_UNKILLABLE))
		return -EINVAL;
	/* A pidfd names a process: none for a thread (CLONE_DETACHED is kept
	 * back by Linux for a later meaning of CLONE_PIDFD). */
	if ((flags & CLONE_PIDFD) && (flags & (CLONE_THREAD | CLONE_DETACHED)))
		return -EINVAL;
	if ((flags & (CLONE_NEWUSER | CLONE_FS)) == (CLONE_NEWUSER | CLONE_FS))
		return -EINVAL;
	/* A thread is in its process's pid and user namespaces: not after
	 * unshare(CLONE_NEWPID) either. */
	if ((flags & CLONE_THREAD) && ((flags & (CLONE_NEWUSER | CLONE_NEWPID)) ||
				       current->nsproxy->pid_ns_for_children !=
					       task_active_pid_ns(current)))
		return -EINVAL;
	if (flags & ~CLONE_SUPPORTED)
		return -EINVAL; /* cgroups: not here */
	return 0;
}

static struct sighand_struct *copy_sighand(uint64_t flags)
{
	struct sighand_struct *sh;

	if (flags & CLONE_SIGHAND) {
		current->sighand->count++;
		return current->sighand;
	}
	sh = kmalloc(sizeof(*sh));
	if (!sh)
		return NULL;
	memcpy(sh->action, current->sighand->action, sizeof(sh->action));
	sh->installed = current->sighand->installed;
	sh->count = 1;
	if (flags & CLONE_CLEAR_SIGHAND) {
		/* clone3: caught signals back to the default, as exec does. */
		for (int i = 0; i < NSIG; i++)
			if (sh->action[i].handler != SIG_IGN)
				sh->action[i] = (struct k_sigaction){ 0 };
	}
	return sh;
}

static struct signal_struct *copy_signal(uint64_t flags)
{
	struct signal_struct *sig;

	if (flags & CLONE_THREAD) {
		current->signal->count++;
		current->signal->nr_threads++;
		return current->signal;
	}
	/* A new process: no pending signals, no timers (they are not
	 * inherited), not stopped. */
	sig = kzalloc(sizeof(*sig));
	if (sig) {
		sig->count = sig->nr_threads = 1;
		list_init(&sig->threads);
	}
	return sig;
}

/* Whether parent may make a task now: 0, or the errno. */
static int clone_allowed(struct task *parent)
{
	/* Being killed, or another thread execs: make no new task now (the
	 * call is restarted if the process lives on). */
	if ((parent->signal->flags & SIGNAL_GROUP_EXIT) || parent->signal->group_exec_task)
		return -ERESTARTNOINTR;
	/* Linux's limits: RLIMIT_NPROC (threads count) binds everyone but
	 * root's uid and CAP_SYS_RESOURCE or CAP_SYS_ADMIN; the count of tasks
	 * the memory can hold binds everyone. */
	if (task_cred(parent)->uid != 0 &&
	    (uint64_t)count_user_tasks(task_cred(parent)->uid) >= parent->rlim[RLIMIT_NPROC].cur &&
	    !capable(CAP_SYS_RESOURCE) && !capable(CAP_SYS_ADMIN))
		return -EAGAIN;
	if (nr_tasks >= max_tasks)
		return -EAGAIN;
	return 0;
}

/* What the child inherits by value, and who its parent and leader are. */
static void copy_task_state(struct task *child, struct task *parent, struct kernel_clone_args *args)
{
	uint64_t flags = args->flags;

	memcpy(child->comm, parent->comm, sizeof(child->comm));
	set_pgrp_session(child, parent->pgid, parent->sid);
	save_fsgs(parent);
	child->fs_base = flags & CLONE_SETTLS ? args->tls : parent->fs_base;
	child->gs_base = parent->gs_base;
	child->fsindex = parent->fsindex;
	child->gsindex = parent->gsindex;
	child->blocked = parent->blocked;
	/* A thread on the same memory must not share the alternate signal
	 * stack; a vfork child or a new process keeps it. */
	if ((flags & (CLONE_VM | CLONE_VFORK)) != CLONE_VM) {
		child->altstack_sp = parent->altstack_sp;
		child->altstack_size = parent->altstack_size;
		child->altstack_flags = parent->altstack_flags;
	} else {
		sas_ss_reset(child);
	}
	memcpy(child->rlim, parent->rlim, sizeof(child->rlim));
	child->start_time = jiffies;
	child->no_new_privs = parent->no_new_privs;
	child->personality = parent->personality;
	sched_fork(child, parent);
	rseq_fork(child, parent, flags & CLONE_VM);
	fpu_save(&parent->fpu); /* the live registers, not the last switch's */
	fpu_copy(&child->fpu, &parent->fpu);

	if (flags & CLONE_THREAD) {
		child->group_leader = parent->group_leader;
	} else {
		child->group_leader = child;
	}
	if (flags & (CLONE_PARENT | CLONE_THREAD)) {
		child->parent = parent->group_leader->parent;
		child->exit_signal = flags & CLONE_THREAD ? -1 : parent->group_leader->exit_signal;
	} else {
		child->parent = parent;
		child->exit_signal = args->exit_signal;
	}
}

/*
 * The child's numbers, in the namespace its parent makes children in;
 * tgid, and the namespace's init if it is number 1 there. 0 or -errno.
 */
static int clone_pid(struct task *child, struct kernel_clone_args *args)
{
	struct pid_namespace *ns = child->nsproxy->pid_ns_for_children;
	int err = attach_task_pid(child, ns, args->set_tid, args->set_tid_size);

	if (err)
		return err;
	child->tgid = (args->flags & CLONE_THREAD) ? current->tgid : child->pid;
	if (!(args->flags & CLONE_THREAD) && pid_nr_ns(child->thread_pid, ns) == 1) {
		ns->child_reaper = child;
		child->signal->flags |= SIGNAL_UNKILLABLE;
	}
	return 0;
}

/*
 * CLONE_PIDFD: a pidfd for the child in the parent's table, its number
 * written to args->pidfd. Made after the child's own table was copied, so
 * the child does not get it (unless it shares the table: CLONE_FILES).
 * 0 or -errno, with nothing left behind.
 */
static int clone_pidfd(struct task *child, struct kernel_clone_args *args)
{
	int fd = pidfd_create(child, 0);

	if (fd < 0)
		return fd;
	if (put_user_u32(fd, args->pidfd)) {
		close_fd(fd);
		return -EFAULT;
	}
	return 0;
}

static long kernel_clone(struct kernel_clone_args *args)
{
	struct task *parent = current, *child;
	uint64_t flags = args->flags;
	int err = check_clone_flags(flags);

	/* clone() returns the pidfd where CLONE_PARENT_SETTID writes the
	 * tid: both at once cannot be (clone3 has two fields). */
	if (!err && (flags & CLONE_PIDFD) && (flags & CLONE_PARENT_SETTID) &&
	    args->pidfd == args->parent_tid)
		err = -EINVAL;
	if (!err)
		err = clone_allowed(parent);
	if (err)
		return err;
	child = alloc_task();
	if (!child)
		return -EAGAIN;
	copy_task_state(child, parent, args);
	child->signal = copy_signal(flags);
	if (child->signal)
		list_add_tail(&child->thread_node, &child->signal->threads);
	if (thread_group_leader(child) && child->parent)
		list_add_tail(&child->sibling, &child->parent->children);
	child->sighand = copy_sighand(flags);
	child->mm = flags & CLONE_VM ? mm_get(parent->mm) : mm_fork(parent->mm);
	child->files = flags & CLONE_FILES ? files_get(parent->files) : files_dup(parent->files);
	child->fs = flags & CLONE_FS ? fs_get(parent->fs) : fs_dup(parent->fs);
	err = -ENOMEM;
	if (!child->signal || !child->sighand || !child->mm || !child->files || !child->fs ||
	    io_bitmap_fork(child, parent))
		goto fail;
	if (copy_semundo(flags, child))
		goto fail;
	exit_task_namespaces(child); /* alloc_task's initial ones */
	/* The credentials first: with CLONE_NEWUSER they bring the user
	 * namespace that owns the child's other new namespaces. */
	if ((err = copy_creds(child, parent, flags)))
		goto fail;
	if ((err = copy_namespaces(flags, child, parent)))
		goto fail;
	if ((err = clone_pid(child, args)))
		goto fail;
	if ((flags & CLONE_PIDFD) && (err = clone_pidfd(child, args)) < 0)
		goto fail;

	if (parent->exe_file)
		set_exe_file(child, parent->exe_file);
	*child->tf = *parent->tf;
	child->tf->rax = 0;
	if (args->stack)
		child->tf->rsp = args->stack;
	task_setup_user_return(child);

	/* The child's id as each one sees it: the child in its namespace,
	 * the parent in its own. */
	if (flags & CLONE_CHILD_SETTID) {
		uint32_t tid = pid_nr_ns(child->thread_pid, ns_of_pid(child->thread_pid));
		mm_write(child->mm, (uint64_t)args->child_tid, &tid, sizeof(tid));
	}
	if (flags & CLONE_CHILD_CLEARTID)
		child->clear_child_tid = (uint64_t)args->child_tid;
	pid_t pid = task_pid_vnr(child);
	if (flags & CLONE_PARENT_SETTID)
		put_user_u32(pid, args->parent_tid);

	wake_up_new_task(child);
	if (flags & CLONE_VFORK) {
		/* The child borrows our memory: wait until it execs or exits. */
		uint64_t irq = irq_save();
		while (!child->vfork_done)
			sleep_on(&child->vfork_done);
		irq_restore(irq);
	}
	return pid;

fail:
	/* A namespace's first process that did not make it leaves it with
	 * no init (and closed: pid_ns_number_freed). */
	if (child->thread_pid && ns_of_pid(child->thread_pid)->child_reaper == child)
		ns_of_pid(child->thread_pid)->child_reaper = NULL;
	exit_sem(child);
	if (child->signal && (flags & CLONE_THREAD))
		child->signal->nr_threads--; /* free_task drops the count */
	set_exe_file(child, NULL);
	if (child->mm)
		mm_put(child->mm);
	if (child->files)
		files_put(child->files);
	if (child->fs)
		fs_put(child->fs);
	free_task(child);
	return err;
}

void vfork_release(struct task *child)
{
	if (!child->vfork_done) {
		child->vfork_done = true;
		wakeup(&child->vfork_done);
	}
}

long sys_fork(void)
{
	struct kernel_clone_args args = { .exit_signal = SIGCHLD };
	return kernel_clone(&args);
}

long sys_vfork(void)
{
	struct kernel_clone_args args = { .flags = CLONE_VM | CLONE_VFORK, .exit_signal = SIGCHLD };
	return kernel_clone(&args);
}

/* x86-64 argument order: flags, newsp, parent_tid, child_tid, tls. The
 * low byte of flags is the signal the parent gets at the child's end. */
long sys_clone(unsigned long flags, unsigned long newsp, int __user *parent_tid,
	       int __user *child_tid, unsigned long tls)
{
	struct kernel_clone_args args = {
		.flags = flags & 0xffffffffUL & ~(uint64_t)CSIGNAL, /* the low 32 bits */
		.exit_signal = flags & CSIGNAL,
		.stack = newsp,
		.pidfd = parent_tid, /* CLONE_PIDFD */
		.parent_tid = parent_tid,
		.child_tid = child_tid,
		.tls = tls,
	};
	return kernel_clone(&args);
}

/* clone3's argument, as Linux's uapi struct clone_args (three sizes). */
struct clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size; /* size 80 */
	uint64_t cgroup;                /* size 88 */
};
#define CLONE_ARGS_SIZE_VER0 64

long sys_clone3(const struct clone_args __user *uargs, size_t size)
{
	struct clone_args a;
	pid_t set_tid[MAX_PID_NS_LEVEL];
	uint8_t extra;

	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < CLONE_ARGS_SIZE_VER0)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	if (copy_from_user(&a, uargs, MIN(size, sizeof(a))))
		return -EFAULT;
	/* A newer program's larger struct: the fields we do not know must be
	 * zero (Linux's copy_struct_from_user). */
	for (size_t off = sizeof(a); off < size; off++) {
		if (copy_from_user(&extra, (const uint8_t __user *)uargs + off, 1))
			return -EFAULT;
		if (extra)
			return -E2BIG;
	}
	if (a.set_tid_size > MAX_PID_NS_LEVEL || (!a.set_tid && a.set_tid_size) || (a.set_tid && !a.set_tid_size))
		return -EINVAL;
	if ((a.exit_signal & ~(uint64_t)CSIGNAL) || a.exit_signal > NSIG)
		return -EINVAL;
	if ((a.flags & CLONE_INTO_CGROUP) && (a.cgroup > INT32_MAX || size < 88))
		return -EINVAL;
	/* The pids to give the child, from its own namespace's up. */
	if (a.set_tid && copy_from_user(set_tid, (const void __user *)a.set_tid,
					a.set_tid_size * sizeof(pid_t)))
		return -EFAULT;
	/* clone3_args_valid */
	if (a.flags & ~(0xffffffffULL | CLONE_CLEAR_SIGHAND | CLONE_INTO_CGROUP))
		return -EINVAL;
	if (a.flags & (CLONE_DETACHED | (CSIGNAL & ~CLONE_NEWTIME)))
		return -EINVAL;
	if ((a.flags & CLONE_SIGHAND) && (a.flags & CLONE_CLEAR_SIGHAND))
		return -EINVAL;
	if ((a.flags & (CLONE_THREAD | CLONE_PARENT)) && a.exit_signal)
		return -EINVAL;
	if (a.stack ? !a.stack_size || a.stack > TASK_SIZE || a.stack_size > TASK_SIZE - a.stack
		    : a.stack_size != 0)
		return -EINVAL;
	if (a.flags & CLONE_INTO_CGROUP)
		return -EINVAL; /* cgroups: not here */
	struct kernel_clone_args args = {
		.flags = a.flags,
		.exit_signal = (int)a.exit_signal,
		.stack = a.stack ? a.stack + a.stack_size : 0, /* it grows down */
		.pidfd = (int __user *)a.pidfd,
		.parent_tid = (int __user *)a.parent_tid,
		.child_tid = (int __user *)a.child_tid,
		.tls = a.tls,
		.set_tid = set_tid,
		.set_tid_size = a.set_tid_size,
	};
	return kernel_clone(&args);
}
