/*
 * fork.c - fork, vfork and clone: a new process that is a copy of the
 * caller. The child gets a copy of the address space (or shares it, with
 * CLONE_VM), of the descriptor table and of the working directory, and
 * returns to user mode from the same system call with rax = 0.
 */
#include <errno.h>
#include <fs.h>
#include <kernel.h>
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
#define CLONE_CHILD_SETTID 0x01000000

/* What we can do; threads and namespaces are not supported yet. */
#define CLONE_SUPPORTED (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_VFORK | \
			 CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | \
			 CLONE_CHILD_SETTID | CLONE_SYSVSEM | CLONE_DETACHED)

static long do_fork(uint64_t flags, uint64_t newsp, int __user *parent_tid,
		    int __user *child_tid, uint64_t tls)
{
	struct task *parent = current, *child;

	if (flags & ~CLONE_SUPPORTED)
		return -EINVAL;
	/* Linux's limits: RLIMIT_NPROC binds everyone but root; the count of
	 * tasks the memory can hold binds everyone. */
	if (parent->uid != 0 && (uint64_t)count_user_tasks(parent->uid) >= parent->rlim[RLIMIT_NPROC].cur)
		return -EAGAIN;
	if (nr_tasks >= max_tasks)
		return -EAGAIN;
	child = alloc_task();
	if (!child)
		return -EAGAIN;
	memcpy(child->comm, parent->comm, sizeof(child->comm));
	child->parent = parent;
	child->pgid = parent->pgid;
	child->sid = parent->sid;
	child->uid = parent->uid, child->euid = parent->euid, child->suid = parent->suid;
	child->gid = parent->gid, child->egid = parent->egid, child->sgid = parent->sgid;
	child->ngroups = parent->ngroups;
	memcpy(child->groups, parent->groups, sizeof(child->groups));
	child->fs_base = flags & CLONE_SETTLS ? tls : parent->fs_base;
	child->gs_base = parent->gs_base;
	memcpy(child->sigaction, parent->sigaction, sizeof(child->sigaction));
	child->blocked = parent->blocked;
	child->altstack_sp = parent->altstack_sp;
	child->altstack_size = parent->altstack_size;
	memcpy(child->rlim, parent->rlim, sizeof(child->rlim));
	child->start_time = jiffies;
	child->no_new_privs = parent->no_new_privs;
	fpu_save(&parent->fpu); /* the live registers, not the last switch's */
	fpu_copy(&child->fpu, &parent->fpu);

	child->mm = flags & CLONE_VM ? mm_get(parent->mm) : mm_fork(parent->mm);
	child->files = files_dup(parent->files);
	child->fs = fs_dup(parent->fs);
	if (!child->mm || !child->files || !child->fs)
		goto nomem;

	if (parent->exe_file)
		set_exe_file(child, parent->exe_file);
	*child->tf = *parent->tf;
	child->tf->rax = 0;
	if (newsp)
		child->tf->rsp = newsp;
	task_setup_user_return(child);

	if (flags & CLONE_CHILD_SETTID) {
		uint32_t pid = child->pid;
		mm_write(child->mm, (uint64_t)child_tid, &pid, sizeof(pid));
	}
	if (flags & CLONE_CHILD_CLEARTID)
		child->clear_child_tid = (uint64_t)child_tid;
	if (flags & CLONE_PARENT_SETTID)
		put_user_u32(child->pid, parent_tid);

	pid_t pid = child->pid;
	child->state = TASK_RUNNABLE;
	if (flags & CLONE_VFORK) {
		/* The child borrows our memory: wait until it execs or exits. */
		uint64_t irq = irq_save();
		while (!child->vfork_done)
			sleep_on(&child->vfork_done);
		irq_restore(irq);
	}
	return pid;

nomem:
	set_exe_file(child, NULL);
	if (child->mm)
		mm_put(child->mm);
	if (child->files)
		files_put(child->files);
	if (child->fs)
		fs_put(child->fs);
	free_task(child);
	return -ENOMEM;
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
	return do_fork(SIGCHLD, 0, NULL, NULL, 0);
}

long sys_vfork(void)
{
	return do_fork(CLONE_VM | CLONE_VFORK | SIGCHLD, 0, NULL, NULL, 0);
}

/* x86-64 argument order: flags, newsp, parent_tid, child_tid, tls. */
long sys_clone(unsigned long flags, unsigned long newsp, int __user *parent_tid,
	       int __user *child_tid, unsigned long tls)
{
	return do_fork(flags, newsp, parent_tid, child_tid, tls);
}
