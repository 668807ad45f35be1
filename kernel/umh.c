/*
 * umh.c - the usermode helper: the kernel runs a user program.
 *
 * Some work is better done in user space, and the kernel asks for it by
 * running a program: modprobe for a missing module (kernel/kmod.c), and in
 * Linux also the hotplug agent, the core-dump pipe, the poweroff command.
 * call_usermodehelper is how, in Linux's steps:
 *
 *   call_usermodehelper          copy path, argv and envp; make the process
 *     user_mode_thread           a new process (kernel/proc.c) that starts
 *                                in the kernel, in call_usermodehelper_exec_async:
 *       kernel_execve            it becomes the program (fs/exec.c)
 *       return_to_user           and runs it
 *     wait                       UMH_WAIT_PROC: until the process has ended
 *   umh_task_exited              (from do_exit) its status to the waiter
 *
 * What the program finds (what Linux gives it): uid and gid 0, no open
 * files (not even 0, 1 and 2: output must go where the program opens it),
 * init's root and working directory (the kernel threads' init_fs, which
 * pid 1 shares: kernel/proc.c), umask 022, every signal at its default action and none blocked, session and process
 * group 0, and the argv and envp given. Linux's helper is made by a kernel
 * worker thread as a child of kthreadd (pid 2); here the kernel makes it
 * directly, so it has no parent process (getppid gives 0) and the kernel
 * itself collects its status.
 *
 * The result, with UMH_WAIT_PROC, is Linux's: a failed exec gives its
 * -errno; otherwise the helper's wait status (0 for "exit 0", 256 for
 * "exit 1", 9 for a SIGKILL), which callers take as "it ran". (Linux's
 * kernel_wait leaves the exec's error in place when the status is 0: a
 * helper whose exec failed calls do_exit(0).)
 *
 * UMH_KILLABLE: a signal that kills the caller (SIGKILL, or ^C's SIGINT
 * without a handler) ends its wait (-ERESTARTSYS); the helper goes on and
 * is freed when it ends.
 */
#include <errno.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <linux/umh.h>
#include <mm.h>
#include <sched.h>
#include <string.h>
#include <trap.h>
#include <x86.h>

/* One helper, from its start until both it and its caller are done. */
struct subprocess_info {
	struct subprocess_info *next;   /* helpers still alive */
	struct task *task;
	char *path;
	char **argv, **envp;            /* copies, NULL-terminated */
	int wait;                       /* UMH_* */
	int retval;                     /* -errno of the exec, or the wait status */
	bool exec_done;                 /* kernel_execve has returned */
	bool exited;                    /* the process has ended: a zombie */
	bool waiting;                   /* the caller still waits for it */
};

static struct subprocess_info *helpers;

static void free_strv(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		kfree(*p);
	kfree(v);
}

static char **dup_strv(char *const v[])
{
	size_t n = 0;
	char **copy;

	while (v && v[n])
		n++;
	copy = kzalloc((n + 1) * sizeof(char *));
	if (!copy)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		copy[i] = strdup_k(v[i]);
		if (!copy[i]) {
			free_strv(copy);
			return NULL;
		}
	}
	return copy;
}

static void free_info(struct subprocess_info *info)
{
	for (struct subprocess_info **pp = &helpers; *pp; pp = &(*pp)->next) {
		if (*pp == info) {
			*pp = info->next;
			break;
		}
	}
	kfree(info->path);
	free_strv(info->argv);
	free_strv(info->envp);
	kfree(info);
}

/* Linux's call_usermodehelper_setup: everything the helper needs, copied. */
static struct subprocess_info *call_usermodehelper_setup(const char *path, char *const argv[],
							 char *const envp[], int wait)
{
	struct subprocess_info *info = kzalloc(sizeof(*info));

	if (!info)
		return NULL;
	info->path = strdup_k(path);
	info->argv = dup_strv(argv);
	info->envp = dup_strv(envp);
	info->wait = wait;
	if (!info->path || !info->argv || !info->envp) {
		free_info(info);
		return NULL;
	}
	return info;
}

/* The wake-ups of the caller: the exec is done, or the process ended. */
static void umh_complete(struct subprocess_info *info)
{
	wakeup(info);
}

/* The new process, in the kernel: become the program. */
static void call_usermodehelper_exec_async(void *data)
{
	struct subprocess_info *info = data;
	int retval;

	sti();
	retval = kernel_execve(info->path, info->argv, info->envp);
	info->exec_done = true;
	if (retval) {
		info->retval = retval;
		umh_complete(info);
		do_exit(0); /* Linux: the status 0 leaves retval as it is */
	}
	umh_complete(info);
	return_to_user(current->tf);
}

void umh_task_exited(struct task *t)
{
	struct subprocess_info *info;

	for (info = helpers; info && info->task != t; info = info->next)
		;
	if (!info) {
		/* Not ours: free it as a task nobody waits for. */
		release_task_later(t);
		return;
	}
	if (t->exit_status)
		info->retval = t->exit_status;
	info->exited = true;
	if (info->waiting) {
		umh_complete(info); /* the caller frees it all */
	} else {
		release_task_later(t);
		free_info(info);
	}
}

int call_usermodehelper(const char *path, char *const argv[], char *const envp[], int wait)
{
	struct subprocess_info *info;
	struct task *t;
	int retval;
	uint64_t irq;

	info = call_usermodehelper_setup(path, argv, envp, wait);
	if (!info)
		return -ENOMEM;
	t = user_mode_thread(call_usermodehelper_exec_async, info);
	if (!t) {
		free_info(info);
		return -ENOMEM;
	}
	info->task = t;
	info->waiting = (wait & ~UMH_KILLABLE) != UMH_NO_WAIT;
	info->next = helpers;
	helpers = info;
	wake_up_new_task(t);
	if (!info->waiting)
		return 0;

	irq = irq_save();
	for (;;) {
		bool done = (wait & UMH_WAIT_PROC) ? info->exited : info->exec_done;

		if (done)
			break;
		if ((wait & UMH_KILLABLE) && fatal_signal_pending(current)) {
			/* Stop waiting; the helper frees itself when it ends. */
			info->waiting = false;
			irq_restore(irq);
			return -ERESTARTSYS;
		}
		sleep_on(info);
	}
	retval = info->retval;
	if (info->exited) {
		free_task(t); /* the zombie: nobody else will reap it */
		free_info(info);
	} else {
		info->waiting = false; /* UMH_WAIT_EXEC: it runs on alone */
	}
	irq_restore(irq);
	return retval;
}
