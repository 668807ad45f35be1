/*
 * exit.c - the end of a process: exit, exit_group, and wait4 for the
 * parent to collect the status. An exited task stays a zombie (its kernel
 * stack and struct task) until its parent reaps it; children of an exiting
 * process are handed to init.
 */
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <power.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

#define WNOHANG 0x00000001
#define WUNTRACED 0x00000002
#define WCONTINUED 0x00000008
#define __WNOTHREAD 0x20000000
#define __WALL 0x40000000
#define __WCLONE 0x80000000

static void __noreturn init_exited(int status)
{
	printk(KERN_EMERG "Attempted to kill init! exitcode=0x%08x\n", status);
	printk(KERN_EMERG "reboot: Power down\n");
	machine_power_off();
}

void do_exit(int status)
{
	struct task *t = current, *init = find_task(1);

	if (t->pid == 1)
		init_exited(status);
	if (t->clear_child_tid)
		put_user_u32(0, (void __user *)t->clear_child_tid);
	if (t->files)
		files_put(t->files);
	t->files = NULL;
	if (t->fs)
		fs_put(t->fs);
	t->fs = NULL;
	vfork_release(t);
	mm_activate(NULL);
	if (t->mm)
		mm_put(t->mm);
	t->mm = NULL;

	cli(); /* until schedule() leaves this task for good */
	for (struct task *c = first_task(); c; c = c->next_task) {
		if (c->parent == t) {
			c->parent = init;
			if (c->state == TASK_ZOMBIE)
				wakeup(init);
		}
	}
	t->exit_status = status;
	t->state = TASK_ZOMBIE;
	wakeup(t->parent);
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

long sys_wait4(pid_t pid, int __user *status, int options, void __user *rusage)
{
	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE))
		return -EINVAL;
	uint64_t irq = irq_save();
	for (;;) {
		bool have_child = false;
		struct task *zombie = NULL;

		for (struct task *c = first_task(); c; c = c->next_task) {
			if (!wait_matches(c, pid))
				continue;
			have_child = true;
			if (c->state == TASK_ZOMBIE) {
				zombie = c;
				break;
			}
		}
		if (zombie) {
			pid_t zpid = zombie->pid;
			int zstatus = zombie->exit_status;
			irq_restore(irq);
			if (status && put_user_u32(zstatus, status))
				return -EFAULT;
			if (rusage && clear_user(rusage, 144))
				return -EFAULT;
			free_task(zombie);
			return zpid;
		}
		if (!have_child) {
			irq_restore(irq);
			return -ECHILD;
		}
		if (options & WNOHANG) {
			irq_restore(irq);
			return 0;
		}
		if (current->sigpending) {
			irq_restore(irq);
			return -EINTR;
		}
		sleep_on(current);
	}
}
