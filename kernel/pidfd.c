/*
 * pidfd.c - pidfds: pidfd_open(2), pidfd_getfd(2), and the pidfd file itself
 * (Linux 6.1 keeps these in kernel/pid.c, beside its struct pid).
 *
 * A pidfd is a file of anon_inodefs (fs/anon_inodes.c), "[pidfd]", that
 * refers to one process, by the serial its leader got at fork (see
 * include/linux/pid.h; the serial moves with the process id when a thread
 * execs, fs/exec.c's de_thread). What can be done with it:
 *   - poll: readable (POLLIN) once the whole process has ended, its leader
 *     a zombie with no threads left, or reaped (Linux 6.1's pidfd_poll
 *     reports no POLLHUP: later kernels added it);
 *   - pidfd_send_signal (kernel/signal.c), waitid(P_PIDFD) (kernel/exit.c);
 *   - pidfd_getfd: a copy of one of the process's descriptors;
 *   - /proc/PID/fdinfo/N shows whose it is ("Pid:", -1 once reaped).
 * The file's private_data is the serial itself, not a pointer: the task may
 * be freed long before the file is closed, and nothing needs freeing.
 */
#include "../fs/vfs.h" /* struct file and its operations, as Linux's <linux/fs.h> */
#include <errno.h>
#include <linux/anon_inodes.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <poll.h>
#include <proc_fs.h>
#include <sched.h>
#include <security.h>

static const struct file_operations pidfd_fops;

/* Every pidfd poller waits on this one channel, woken by pidfd_notify. */
static char pidfd_wait;

bool is_pidfd(const struct file *file)
{
	return file->f_op == &pidfd_fops;
}

struct task *pidfd_task(const struct file *file)
{
	return find_task_by_serial((uint64_t)(uintptr_t)file->private_data);
}

struct task *pidfd_get_task(int fd, unsigned int *f_flags)
{
	struct file *file = fcheck(fd);

	if (!file || !is_pidfd(file))
		return ERR_PTR(-EBADF);
	*f_flags = file->f_flags;
	return pidfd_task(file);
}

void pidfd_notify(void)
{
	poll_wakeup(&pidfd_wait);
}

/* Ended: reaped, or the leader is a zombie and no thread is left. A
 * leader that exited first waits for its threads, as wait does (Linux's
 * thread_group_exited). */
static unsigned int pidfd_poll(struct file *file)
{
	struct task *t = pidfd_task(file);

	if (!t || (t->state == TASK_ZOMBIE && thread_group_empty(t)))
		return POLLIN | POLLRDNORM;
	return 0;
}

/* "Pid:" as the reader's /proc numbers the process (0: not in its pid
 * namespace), -1 once reaped; "NSpid:" that and its numbers in the
 * namespaces below, down to its own. */
static void pidfd_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct pid_namespace *ns = m->pid_ns ? m->pid_ns : task_active_pid_ns(current);
	struct task *t = pidfd_task(file);
	pid_t nr = t ? task_pid_nr_ns(t, ns) : -1;

	seq_printf(m, "Pid:\t%d\nNSpid:\t%d", nr, nr);
	for (unsigned int i = ns->level + 1; nr > 0 && i <= t->thread_pid->level; i++)
		seq_printf(m, "\t%d", t->thread_pid->numbers[i].nr);
	seq_putc(m, '\n');
}

static const struct file_operations pidfd_fops = {
	.poll = pidfd_poll,
	.show_fdinfo = pidfd_show_fdinfo,
};

int pidfd_create(struct task *t, unsigned int flags)
{
	return anon_inode_getfd("[pidfd]", &pidfd_fops, (void *)(uintptr_t)t->serial,
				O_RDWR | O_CLOEXEC | (flags & PIDFD_NONBLOCK));
}

long sys_pidfd_open(pid_t pid, unsigned int flags)
{
	struct task *t;

	if (flags & ~PIDFD_NONBLOCK)
		return -EINVAL;
	if (pid <= 0)
		return -EINVAL;
	t = find_task(pid);
	if (!t)
		return -ESRCH;
	/* Only a process: a thread's id is no process id. */
	if (!thread_group_leader(t))
		return -EINVAL;
	return pidfd_create(t, flags);
}

/* A copy of descriptor fd of t, for one who may ptrace t (Linux's
 * __pidfd_fget: PTRACE_MODE_ATTACH_REALCREDS). */
static struct file *pidfd_fget(struct task *t, int fd)
{
	struct file *file;

	if (!ptrace_may_access(t, PTRACE_MODE_ATTACH_REALCREDS))
		return ERR_PTR(-EPERM);
	if (!(file = files_lookup(t->files, fd)))
		return ERR_PTR(-EBADF);
	return get_file(file);
}

long sys_pidfd_getfd(int pidfd, int fd, unsigned int flags)
{
	unsigned int f_flags;
	struct file *file;
	struct task *t;
	int newfd;

	if (flags)
		return -EINVAL;
	t = pidfd_get_task(pidfd, &f_flags);
	if (IS_ERR(t))
		return PTR_ERR(t);
	if (!t)
		return -ESRCH;
	file = pidfd_fget(t, fd);
	if (IS_ERR(file))
		return PTR_ERR(file);
	/* The new descriptor is always close-on-exec. */
	newfd = fd_install_lowest(current->files, file, true);
	if (newfd < 0)
		fput(file);
	return newfd;
}
