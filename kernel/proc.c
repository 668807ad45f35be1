/*
 * proc.c - process bookkeeping: the task list, pids, kernel stacks, and
 * the birth of init (pid 1).
 */
#include <cmdline.h>
#include <cred.h>
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <kernel_stat.h>
#include <linux/binfmts.h>
#include <linux/pid_namespace.h>
#include <mm.h>
#include <power.h>
#include <nsproxy.h>
#include <sched.h>
#include <smp_lock.h>
#include <string.h>
#include <trap.h>
#include <vm.h>
#include <x86.h>

struct task *task_list, *task_list_tail;
static uint64_t next_serial = 1;
int nr_tasks, max_tasks;
static struct task *dead_tasks; /* self-reaped, waiting to be freed */

extern char ret_from_fork[], kernel_thread_start[];
void __noreturn cpu_idle(void);

struct task *first_task(void) { return task_list; }

struct task *find_task(pid_t pid)
{
	return find_task_by_pid_ns(pid, task_active_pid_ns(current));
}

struct task *find_task_by_serial(uint64_t serial)
{
	for (struct task *t = task_list; t; t = t->next_task)
		if (t->serial == serial && t->state != TASK_DEAD)
			return t;
	return NULL;
}

int attach_task_pid(struct task *t, struct pid_namespace *ns, const pid_t *set_tid, size_t n)
{
	struct pid *pid = alloc_pid(ns, set_tid, n);

	if (IS_ERR(pid))
		return PTR_ERR(pid);
	t->thread_pid = pid;
	t->pid = pid->numbers[0].nr;
	return 0;
}

/*
 * A new task's memory: its structure and its kernel stack (with a guard
 * page below: mm/kstack.c), both zeroed. Neither needs the big kernel
 * lock (kmalloc and the stacks have locks of their own), and clearing
 * them is a fifth of what a fork does under it: other CPUs enter the
 * kernel meanwhile.
 */
static struct task *task_memory_alloc(void)
{
	bool locked = release_kernel_lock();
	struct task *t = kzalloc(sizeof(*t));

	if (t && !(t->kstack = kstack_alloc())) {
		kfree(t);
		t = NULL;
	}
	reacquire_kernel_lock(locked);
	return t;
}

struct task *alloc_task(void)
{
	struct task *t = task_memory_alloc();

	if (!t)
		return NULL;
	/* Kernel tasks are root, with every capability (fork copies the
	 * parent's credentials over these: copy_creds). */
	t->real_cred = get_cred(&init_cred);
	t->cred = get_cred(&init_cred);
	t->nsproxy = get_nsproxy(&init_nsproxy); /* fork replaces it: copy_namespaces */
	t->serial = next_serial++;
	nr_tasks++;
	kstat.total_forks++;
	t->tf = (struct trapframe *)((char *)t->kstack + KSTACK_SIZE) - 1;
	fpu_clear(&t->fpu);
	t->state = TASK_SLEEPING; /* not runnable until its creator says so */
	t->cpus_allowed = ~0UL;   /* fork copies the parent's (sched_fork) */
	list_init(&t->thread_node);
	list_init(&t->children);
	list_init(&t->sibling);
	/* Append, so that the scheduler's round robin follows creation order.
	 * Interrupts off: the tty's ^C walks this list from its interrupt. */
	uint64_t irq = irq_save();
	t->prev_task = task_list_tail;
	if (task_list_tail)
		task_list_tail->next_task = t;
	else
		task_list = t;
	task_list_tail = t;
	irq_restore(irq);
	return t;
}

void free_task(struct task *t)
{
	uint64_t irq = irq_save();
	*(t->prev_task ? &t->prev_task->next_task : &task_list) = t->next_task;
	*(t->next_task ? &t->next_task->prev_task : &task_list_tail) = t->prev_task;
	irq_restore(irq);
	list_del(&t->sibling);
	exit_signal_state(t);
	io_bitmap_exit(t);
	put_cred(t->real_cred);
	put_cred(t->cred);
	exit_task_namespaces(t); /* a task that never ran (a failed fork) */
	put_pid(t->thread_pid);
	put_pid(t->pgrp_pid);
	put_pid(t->session_pid);
	wait_until_off_cpu(t); /* a zombie's CPU may still be switching away */
	kstack_free(t->kstack);
	kfree(t);
	nr_tasks--;
}

void release_task_later(struct task *t)
{
	t->parent = NULL; /* no wait4 will see it */
	list_del(&t->sibling);
	t->state = TASK_DEAD;
	t->next_dead = dead_tasks;
	dead_tasks = t;
}

bool dead_tasks_waiting(void)
{
	return __atomic_load_n(&dead_tasks, __ATOMIC_RELAXED) != NULL;
}

void release_dead_tasks(void)
{
	struct task **pp = &dead_tasks;
	while (*pp) {
		struct task *t = *pp;
		if (t->on_cpu) { /* still on its stack */
			pp = &t->next_dead;
			continue;
		}
		*pp = t->next_dead;
		free_task(t);
	}
}

int count_user_tasks(uid_t uid)
{
	int n = 0;

	for (struct task *t = task_list; t; t = t->next_task)
		if (task_cred(t)->uid == uid && t->state != TASK_ZOMBIE && t->state != TASK_DEAD)
			n++;
	return n;
}

/* Linux's defaults for init; every process inherits them through fork. */
static void set_default_rlimits(struct task *t)
{
	for (int i = 0; i < RLIM_NLIMITS; i++)
		t->rlim[i] = (struct rlimit){ RLIM_INFINITY, RLIM_INFINITY };
	t->rlim[RLIMIT_STACK].cur = 8UL << 20;
	t->rlim[RLIMIT_CORE].cur = 0;
	t->rlim[RLIMIT_NPROC].cur = t->rlim[RLIMIT_NPROC].max = max_tasks / 2;
	t->rlim[RLIMIT_SIGPENDING] = t->rlim[RLIMIT_NPROC];
	t->rlim[RLIMIT_NOFILE] = (struct rlimit){ 1024, 4096 };
	t->rlim[RLIMIT_MEMLOCK] = (struct rlimit){ 8UL << 20, 8UL << 20 };
	t->rlim[RLIMIT_MSGQUEUE] = (struct rlimit){ 819200, 819200 };
	t->rlim[RLIMIT_NICE] = t->rlim[RLIMIT_RTPRIO] = (struct rlimit){ 0, 0 };
}

void task_set_comm(struct task *t, const char *path)
{
	const char *base = strrchr(path, '/');

	strlcpy(t->comm, base ? base + 1 : path, sizeof(t->comm));
}

void set_exe_file(struct task *t, struct file *file)
{
	struct file *old = t->exe_file;

	if (file) {
		get_file(file);
		/* Cannot fail: exec or fork already keeps the file from writers. */
		deny_write_access(file);
	}
	t->exe_file = file;
	if (old) {
		allow_write_access(old);
		fput(old);
	}
}

/*
 * Linux's fork_init: the most tasks there may be (as many as 1/8 of memory
 * holds kernel stacks), and the boot task's limits, Linux's defaults (its
 * init_task's), which every process inherits: the boot task already opens
 * files and writes the initramfs out (RLIMIT_NOFILE, RLIMIT_FSIZE).
 */
void fork_init(void)
{
	max_tasks = nr_total_pages() / (8 * KSTACK_PAGES);
	set_default_rlimits(current);
}

/* The callee-saved registers switch_context pops, then its return address. */
struct switch_frame {
	uint64_t r15, r14, r13, r12, rbx, rbp, ret;
};

void task_setup_user_return(struct task *t)
{
	struct switch_frame *sf = (struct switch_frame *)t->tf - 1;

	memset(sf, 0, sizeof(*sf));
	sf->ret = (uint64_t)ret_from_fork;
	t->ksp = (uint64_t)sf;
}

/* Run fn(arg) in kernel mode the first time t is scheduled. */
static void task_setup_kernel_start(struct task *t, void (*fn)(void *), void *arg)
{
	struct switch_frame *sf = (struct switch_frame *)t->tf - 1;

	memset(sf, 0, sizeof(*sf));
	sf->rbx = (uint64_t)fn;
	sf->r12 = (uint64_t)arg;
	sf->ret = (uint64_t)kernel_thread_start;
	t->ksp = (uint64_t)sf;
}

/* Make t a process of its own: one thread, its signal state, default
 * handlers. 0 or -ENOMEM. */
static int init_process(struct task *t)
{
	t->signal = kzalloc(sizeof(*t->signal));
	t->sighand = kzalloc(sizeof(*t->sighand));
	if (!t->signal || !t->sighand)
		return -ENOMEM; /* free_task frees what there is */
	t->signal->count = t->signal->nr_threads = 1;
	list_init(&t->signal->threads);
	list_add_tail(&t->thread_node, &t->signal->threads);
	t->sighand->count = 1;
	t->tgid = t->pid;
	t->group_leader = t;
	t->exit_signal = SIGCHLD;
	return 0;
}

/*
 * The root and working directory of the kernel's own threads. Linux's
 * pid 1 starts sharing it (kernel_init is created with CLONE_FS), so an
 * init that changes directory or root changes it for every thread of the
 * kernel, and a usermode helper (a copy of it) starts where init is.
 * start_init sets it, before any helper can run.
 */
static struct fs_struct *init_fs;

/*
 * A new process that starts in the kernel, running fn(arg) on its own
 * stack: root, in session 0 and process group 0, with no open files, a
 * copy of init_fs (root, working directory, umask 022), Linux's default
 * limits, and no parent process. Not yet runnable; NULL if out of memory
 * or tasks. The two kinds below finish it.
 */
static struct task *kernel_process(void (*fn)(void *), void *arg, const char *comm)
{
	struct task *t;

	if (nr_tasks >= max_tasks)
		return NULL;
	t = alloc_task();
	if (!t)
		return NULL;
	t->files = files_alloc();
	t->fs = fs_dup(init_fs);
	if (!t->files || !t->fs || attach_task_pid(t, &init_pid_ns, NULL, 0) || init_process(t)) {
		if (t->files)
			files_put(t->files);
		if (t->fs)
			fs_put(t->fs);
		free_task(t);
		return NULL;
	}
	t->pgid = t->sid = 0;
	set_default_rlimits(t);
	strlcpy(t->comm, comm, sizeof(t->comm));
	t->start_time = jiffies;
	task_setup_kernel_start(t, fn, arg);
	return t;
}

/*
 * A process meant to become a user program with kernel_execve (Linux:
 * user_mode_thread, used by the usermode helper, kernel/umh.c): what a
 * child of Linux's kernel threads gets. The kernel waits for it.
 */
struct task *user_mode_thread(void (*fn)(void *), void *arg)
{
	struct task *t = kernel_process(fn, arg, "kworker");

	if (t) {
		t->tf->cs = USER_CS;
		t->tf->ss = USER_DS;
		t->tf->rflags = 0x202;
	}
	return t;
}

/*
 * A kernel thread (Linux's kernel_thread with PF_KTHREAD): it never leaves
 * the kernel, has no memory of its own, and ignores every signal, SIGKILL
 * and SIGSTOP included (Linux's ignore_signals). It is runnable at once.
 */
struct task *kernel_thread(void (*fn)(void *), void *arg, const char *comm)
{
	struct task *t = kernel_process(fn, arg, comm);

	if (!t)
		return NULL;
	t->flags |= PF_KTHREAD | PF_NOFREEZE | PF_FORKNOEXEC;
	for (int sig = 1; sig <= NSIG; sig++)
		t->sighand->action[sig - 1].handler = SIG_IGN;
	wake_up_new_task(t);
	return t;
}

struct init_request {
	const char *path;
	char *const *argv, *const *envp;
};

/* pid 1's first steps, in its own context: exec init, enter user mode. */
static void init_task_start(void *arg)
{
	struct init_request *req = arg;
	int err;

	sti();
	err = kernel_execve(req->path, req->argv, req->envp);
	if (err) {
		pr_err("Failed to execute %s (error %d)\n", req->path, err);
		panic("No working init found.  Try passing init= option to kernel.");
	}
	return_to_user(current->tf);
}

void start_init(const char *path, char *const argv[], char *const envp[])
{
	static struct init_request req;
	struct task *t = alloc_task();

	if (!t)
		panic("out of memory creating init");
	t->files = files_alloc();
	t->fs = fs_alloc_root();
	if (!t->files || !t->fs || attach_task_pid(t, &init_pid_ns, NULL, 0) || init_process(t))
		panic("out of memory creating init");
	init_pid_ns.child_reaper = t;
	init_fs = fs_get(t->fs);
	/* Signals init has no handler for do nothing to it, SIGKILL
	 * included: only its own fault can kill it. */
	t->signal->flags |= SIGNAL_UNKILLABLE;
	/* fds 0, 1 and 2 on /dev/console, as Linux's console_on_rootfs(). */
	struct file *console = open_console();
	if (IS_ERR(console)) {
		pr_warn("Warning: unable to open an initial console.\n");
	} else {
		fd_install_lowest(t->files, console, false);
		fd_install_lowest(t->files, get_file(console), false);
		fd_install_lowest(t->files, get_file(console), false);
	}
	/* As Linux's init: in session 0 and process group 0, so that its
	 * setsid() succeeds and makes it a session leader. */
	t->pgid = t->sid = 0;
	set_default_rlimits(t);
	task_set_comm(t, path);
	t->tf->cs = USER_CS;
	t->tf->ss = USER_DS;
	t->tf->rflags = 0x202;
	req = (struct init_request){ path, argv, envp };
	task_setup_kernel_start(t, init_task_start, &req);
	wake_up_new_task(t);
	/* As Linux's rest_init: init is pid 1, kthreadd pid 2. */
	kthreadd_start();
	cpu_idle();
}
