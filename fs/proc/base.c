/*
 * base.c - the per-process part of /proc: /proc/self and /proc/PID/.
 *
 *   /proc/self       symlink to the reader's pid (made at each lookup)
 *   /proc/PID/       owned by the process's effective uid and gid:
 *       fd/N         symlinks to what each descriptor has open
 *       environ      the environment strings, NUL-separated (mode 0400)
 *       status       Linux's human-readable summary (the same fields, in
 *                    the same layout, for what this kernel knows)
 *       comm         the command name (writable, as in Linux)
 *       cmdline      the argument strings, NUL-separated
 *       stat, statm  the one-line summaries that ps and top read
 *       maps, smaps, smaps_rollup   the memory areas (task_mmu.c)
 *       cwd, root, exe   symlinks to the working directory, the root and
 *                    the program file
 *       mounts       the mount table (/proc/mounts points here)
 *
 * A process's files are read from the task while it exists: every lookup
 * and every read finds the task again by pid, so a directory of a process
 * that has been reaped is gone (ENOENT) and an open file of it reads ESRCH.
 * Zombies keep their directory until they are reaped, as in Linux. There
 * /proc/PID/task/ lists the threads of the process: /proc/PID/task/TID/
 * holds the same files, for that one thread (no task/ in it). A thread
 * that is not the leader is also found as /proc/TID, but not listed in
 * /proc, as in Linux. The symlinks are plain
 * ones: their text is the path (or "pipe:[N]"), which lookup then follows
 * like any other symlink; Linux's "magic" links that reopen the very file
 * even when it has no name are not done.
 */
#include "internal.h"
#include <cred.h>
#include <ksyms.h>
#include <security.h>
#include <mm.h>
#include <nsproxy.h>
#include <sched.h>
#include <time_namespace.h>
#include <trap.h>
#include <uaccess.h>
#include <linux/user_namespace.h>
#include <vm.h>

struct pid_entry {
	const char *name;
	mode_t mode;
	int (*show)(struct seq_file *m, struct task *t);
	/* 0 (every byte taken), how many bytes were taken, or -errno. */
	int (*write)(struct task *t, const char *buf, size_t count);
	/* Symlinks: the target, written into buf[0..size); ERR_PTR if none. */
	char *(*link)(struct task *t, char *buf, size_t size);
	/* Only for a reader that may look into the process (ptrace_may_access):
	 * opening the file, or reading or following the link, gives EACCES. */
	bool restricted;
	/* A file that is not text made whole at read (mem): its own
	 * operations, which make their own checks. */
	const struct file_operations *fops;
};

/* Inode numbers (pid_ino, internal.h): PID directories and their files (1 + index), fds at
 * 0x100 + fd, fdinfo files at 0x200 + fd, ns/ links at 0x300 + kind, task/ and the TID directories in it from 0x4000. */
#define FD_INO_BASE 0x100
#define FDINFO_INO_BASE 0x200
#define TASK_INO 0x4000
#define TID_INO_BASE 0x4001
#define SELF_INO 0xEFFFFFFFUL
#define THREAD_SELF_INO 0xEFFFFFFEUL

/* The task behind a per-process inode, or NULL once it is reaped (even if
 * its pid now names another task). */
struct task *inode_task(struct inode *inode)
{
	struct task *t = find_task_by_pid_ns(PROC_I(inode)->pid, &init_pid_ns);

	return t && t->serial == PROC_I(inode)->serial ? t : NULL;
}

/* ---- paths of files, for the symlinks -------------------------------------- */

/* Like d_path, but a removed file shows as "/path (deleted)", as Linux. */
char *proc_dentry_path(struct dentry *d, char *buf, size_t size)
{
	static const char deleted[] = " (deleted)";
	char *p;

	if (size < sizeof(deleted) + 2)
		return ERR_PTR(-ENAMETOOLONG);
	p = d_path(d, current_root(), buf, size - sizeof(deleted) + 1);
	if (p != ERR_PTR(-ENOENT))
		return p;
	/* Removed: its name is still known (d_name, parents, mount points). */
	p = buf + size - sizeof(deleted);
	memcpy(p, deleted, sizeof(deleted));
	for (struct dentry *e = d;; e = e->d_parent) {
		while (e != current_root() && e->d_parent == e && d_covers(e))
			e = d_covers(e); /* a mount's root: on from its mount point */
		if (e == current_root() || e->d_parent == e)
			break;
		if ((size_t)(p - buf) < e->d_namelen + 1)
			return ERR_PTR(-ENAMETOOLONG);
		p -= e->d_namelen;
		memcpy(p, e->d_name, e->d_namelen);
		*--p = '/';
	}
	return p;
}

char *proc_file_path(struct file *file, char *buf, size_t size)
{
	struct ns_common *ns = nsfs_file_ns(file);

	if (ns) { /* Linux's ns_dname */
		ns_link_text(ns, buf, size);
		return buf;
	}
	if (file->f_dentry)
		return proc_dentry_path(file->f_dentry, buf, size);
	if (S_ISFIFO(file->f_inode->i_mode)) {
		snprintf(buf, size, "pipe:[%lu]", (unsigned long)file->f_inode->i_ino);
		return buf;
	}
	if (S_ISSOCK(file->f_inode->i_mode)) {
		snprintf(buf, size, "socket:[%lu]", (unsigned long)file->f_inode->i_ino);
		return buf;
	}
	if (file->f_anon_name)
		snprintf(buf, size, "anon_inode:%s", file->f_anon_name);
	else
		snprintf(buf, size, "anon_inode:[%lu]", (unsigned long)file->f_inode->i_ino);
	return buf;
}

/* ---- the files --------------------------------------------------------------- */

/* Copy [start, end) of t's memory into the text (cmdline, environ). */
static int show_mm_range(struct seq_file *m, struct task *t, uint64_t start, uint64_t end)
{
	char chunk[256];

	if (!t->mm || end <= start)
		return 0;
	while (start < end) {
		size_t n = MIN(sizeof(chunk), end - start);
		if (mm_read(t->mm, start, chunk, n))
			break;
		seq_write(m, chunk, n);
		start += n;
	}
	return 0;
}

static int show_cmdline(struct seq_file *m, struct task *t)
{
	return t->mm ? show_mm_range(m, t, t->mm->arg_start, t->mm->arg_end) : 0;
}

static int show_environ(struct seq_file *m, struct task *t)
{
	return t->mm ? show_mm_range(m, t, t->mm->env_start, t->mm->env_end) : 0;
}

/* The auxiliary vector exec gave the program, with its AT_NULL, as bytes. */
static int show_auxv(struct seq_file *m, struct task *t)
{
	size_t n = 0;

	if (!t->mm)
		return 0;
	do
		n += 2;
	while (n < AT_VECTOR_SIZE && t->mm->saved_auxv[n - 2] != 0);
	seq_write(m, t->mm->saved_auxv, n * sizeof(uint64_t));
	return 0;
}

static int show_personality(struct seq_file *m, struct task *t)
{
	seq_printf(m, "%08x\n", t->personality);
	return 0;
}

static int show_comm(struct seq_file *m, struct task *t)
{
	seq_printf(m, "%s\n", t->comm);
	return 0;
}

/* Only a process itself may rename its threads (Linux: EINVAL for others). */
static int write_comm(struct task *t, const char *buf, size_t count)
{
	size_t n = MIN(count, (size_t)TASK_COMM_LEN - 1);

	if (!same_thread_group(t, current))
		return -EINVAL;
	if (n && buf[n - 1] == '\n')
		n--;
	memcpy(t->comm, buf, n);
	t->comm[n] = '\0';
	return 0;
}

static char task_state_char(struct task *t)
{
	switch (t->state) {
	case TASK_RUNNABLE:
		return 'R';
	case TASK_SLEEPING:
		return 'S';
	case TASK_STOPPED:
		return 'T';
	default:
		return 'Z';
	}
}

static const char *task_state_name(struct task *t)
{
	switch (t->state) {
	case TASK_RUNNABLE:
		return "R (running)";
	case TASK_SLEEPING:
		return "S (sleeping)";
	case TASK_STOPPED:
		return "T (stopped)";
	default:
		return "Z (zombie)";
	}
}

static void render_sigset(struct seq_file *m, const char *name, uint64_t set)
{
	seq_printf(m, "%s:\t%016lx\n", name, (unsigned long)set);
}

static void task_sigsets(struct task *t, uint64_t *ign, uint64_t *cgt)
{
	*ign = *cgt = 0;
	for (int sig = 1; sig <= NSIG; sig++) {
		uint64_t h = t->sighand ? t->sighand->action[sig - 1].handler : SIG_DFL;
		if (h == SIG_IGN)
			*ign |= sigmask(sig);
		else if (h != SIG_DFL)
			*cgt |= sigmask(sig);
	}
}

/* NStgid, NSpid, NSpgid, NSsid: t's numbers in the reader's namespace
 * and in each one below it down to t's own. */
static void show_ns_numbers(struct seq_file *m, struct task *t)
{
	static const char *const names[] = { "NStgid", "NSpid", "NSpgid", "NSsid" };
	const struct pid *pid = t->thread_pid;

	for (int k = 0; k < 4; k++) {
		seq_printf(m, "%s:", names[k]);
		for (unsigned int g = m->pid_ns->level; pid && g <= pid->level; g++) {
			const struct pid_namespace *ns = pid->numbers[g].ns;
			pid_t nr = k == 0 ? task_tgid_nr_ns(t, ns) : k == 1 ? task_pid_nr_ns(t, ns)
				 : pid_global_to_ns(k == 2 ? t->pgid : t->sid, ns);
			seq_printf(m, "\t%d", nr);
		}
		seq_putc(m, '\n');
	}
}

static int show_status(struct seq_file *m, struct task *t)
{
	const struct cred *cred = task_cred(t);
	const struct group_info *gi = cred->group_info;
	struct user_namespace *ns = current_user_ns(); /* Linux: the opener's */
	uint64_t ign, cgt;

	seq_printf(m, "Name:\t%s\n", t->comm);
	if (t->fs)
		seq_printf(m, "Umask:\t%04o\n", t->fs->umask);
	seq_printf(m, "State:\t%s\n", task_state_name(t));
	seq_printf(m, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n",
		   task_tgid_nr_ns(t, m->pid_ns), task_pid_nr_ns(t, m->pid_ns),
		   task_ppid_nr_ns(t, m->pid_ns));
	/* real, effective, saved, file system ids, as the reader's user
	 * namespace names them */
	seq_printf(m, "Uid:\t%u\t%u\t%u\t%u\n", from_kuid_munged(ns, cred->uid), from_kuid_munged(ns, cred->euid),
		   from_kuid_munged(ns, cred->suid), from_kuid_munged(ns, cred->fsuid));
	seq_printf(m, "Gid:\t%u\t%u\t%u\t%u\n", from_kgid_munged(ns, cred->gid), from_kgid_munged(ns, cred->egid),
		   from_kgid_munged(ns, cred->sgid), from_kgid_munged(ns, cred->fsgid));
	seq_printf(m, "FDSize:\t%u\n", t->files ? t->files->max_fds : 0);
	/* Linux's "Groups:\t10 20 \n": a space after the list, even an empty one. */
	seq_puts(m, "Groups:\t");
	for (int g = 0; g < gi->ngroups; g++)
		seq_printf(m, g ? " %u" : "%u", from_kgid_munged(ns, gi->gid[g]));
	seq_puts(m, " \n");
	show_ns_numbers(m, t);
	if (t->mm) {
		struct mm_counts c;
		uint64_t text = ALIGN_UP(t->mm->end_code, PAGE_SIZE) - ALIGN_DOWN(t->mm->start_code, PAGE_SIZE);

		mm_count(t->mm, &c);
		mmap_read_lock(t->mm);
		uint64_t locked = mm_locked_pages(t->mm, 0, TASK_SIZE);
		mmap_read_unlock(t->mm);
		seq_printf(m, "VmPeak:\t%8lu kB\nVmSize:\t%8lu kB\nVmLck:\t%8lu kB\nVmPin:\t%8d kB\n",
			   (unsigned long)c.total * 4, (unsigned long)c.total * 4,
			   (unsigned long)locked * 4, 0);
		seq_printf(m, "VmHWM:\t%8lu kB\nVmRSS:\t%8lu kB\nRssAnon:\t%8lu kB\n"
			   "RssFile:\t%8d kB\nRssShmem:\t%8d kB\n",
			   (unsigned long)c.rss * 4, (unsigned long)c.rss * 4, (unsigned long)c.rss * 4, 0, 0);
		seq_printf(m, "VmData:\t%8lu kB\nVmStk:\t%8lu kB\nVmExe:\t%8lu kB\nVmLib:\t%8d kB\n",
			   (unsigned long)c.data * 4, (unsigned long)c.stack * 4,
			   (unsigned long)(text >> 10), 0);
		seq_printf(m, "VmPTE:\t%8lu kB\nVmSwap:\t%8d kB\nHugetlbPages:\t%8d kB\n",
			   (unsigned long)c.pt_pages * 4, 0, 0);
		seq_printf(m, "CoreDumping:\t0\nTHP_enabled:\t1\n");
	}
	task_sigsets(t, &ign, &cgt);
	seq_printf(m, "Threads:\t%d\nSigQ:\t0/%lu\n", t->signal ? t->signal->nr_threads : 0,
		   (unsigned long)t->rlim[RLIMIT_SIGPENDING].cur);
	/* The thread's own pending signals, then the process's. */
	render_sigset(m, "SigPnd", t->pending.signal);
	render_sigset(m, "ShdPnd", t->signal ? t->signal->shared_pending.signal : 0);
	render_sigset(m, "SigBlk", t->blocked);
	render_sigset(m, "SigIgn", ign);
	render_sigset(m, "SigCgt", cgt);
	render_sigset(m, "CapInh", cred->cap_inheritable);
	render_sigset(m, "CapPrm", cred->cap_permitted);
	render_sigset(m, "CapEff", cred->cap_effective);
	render_sigset(m, "CapBnd", cred->cap_bset);
	render_sigset(m, "CapAmb", cred->cap_ambient);
	seq_printf(m, "NoNewPrivs:\t%d\nSeccomp:\t0\nSeccomp_filters:\t0\n", t->no_new_privs);
	seq_printf(m, "Speculation_Store_Bypass:\tnot vulnerable\n"
		   "SpeculationIndirectBranch:\talways enabled\n");
	seq_printf(m, "Cpus_allowed:\t1\nCpus_allowed_list:\t0\n");
	seq_printf(m, "Mems_allowed:\t");
	for (int i = 0; i < 31; i++)
		seq_printf(m, "00000000,");
	seq_printf(m, "00000001\nMems_allowed_list:\t0\n");
	seq_printf(m, "voluntary_ctxt_switches:\t0\nnonvoluntary_ctxt_switches:\t0\n");
	return 0;
}

/* The flags field: a kernel thread's own; for a user process PF_RANDOMIZE,
 * what Linux shows for one that forked and exec'd and did nothing else
 * its flags record. */
static unsigned int stat_flags(struct task *t)
{
	return (t->flags & PF_KTHREAD) ? t->flags : PF_RANDOMIZE;
}

static int show_stat(struct seq_file *m, struct task *t)
{
	struct mm *mm = t->mm;
	struct mm_counts c = { 0 };
	uint64_t ign, cgt;
	pid_t tty_pgrp = -1;
	int tty_nr = 0;
	/* Who may not look into t sees no addresses (Linux's do_task_stat). */
	bool permitted = ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS | PTRACE_MODE_NOAUDIT);

	if (mm)
		mm_count(mm, &c);
	if (console_ctty(t->sid, &tty_pgrp))
		tty_nr = (4 << 8) | 64; /* ttyS0, the console's tty */
	else
		tty_pgrp = -1;
	task_sigsets(t, &ign, &cgt);
	seq_printf(m, "%d (%s) %c %d %d %d %d %d %u %lu %lu %lu %lu ", task_pid_nr_ns(t, m->pid_ns),
		   t->comm, task_state_char(t), task_ppid_nr_ns(t, m->pid_ns),
		   pid_global_to_ns(t->pgid, m->pid_ns), pid_global_to_ns(t->sid, m->pid_ns),
		   tty_nr, tty_pgrp > 0 ? pid_global_to_ns(tty_pgrp, m->pid_ns) : tty_pgrp, stat_flags(t),
		   (unsigned long)t->min_flt, (unsigned long)(t->signal ? t->signal->cmin_flt : 0),
		   0UL, 0UL);
	seq_printf(m, "%lu %lu %lu %lu %d %d %d %d %lu %lu %lu %lu ",
		   (unsigned long)t->utime, (unsigned long)t->stime,
		   (unsigned long)(t->signal ? t->signal->cutime : 0),
		   (unsigned long)(t->signal ? t->signal->cstime : 0),
		   /* Linux's task_prio: prio - MAX_RT_PRIO, 20 for nice 0 */
		   task_has_rt_policy(t) ? -1 - (int)t->rt_priority : 20, 0,
		   t->signal ? t->signal->nr_threads : 0, 0, (unsigned long)t->start_time,
		   (unsigned long)(c.total << PAGE_SHIFT), (unsigned long)c.rss,
		   (unsigned long)t->rlim[RLIMIT_RSS].cur);
	seq_printf(m, "%lu %lu %lu 0 0 %lu %lu %lu %lu %d 0 0 17 0 %u %d 0 0 0 ",
		   mm ? (permitted ? (unsigned long)mm->start_code : 1) : 0,
		   mm ? (permitted ? (unsigned long)mm->end_code : 1) : 0,
		   mm && permitted ? (unsigned long)mm->start_stack : 0,
		   (unsigned long)(t->pending.signal & 0x7fffffff), (unsigned long)(t->blocked & 0x7fffffff),
		   (unsigned long)(ign & 0x7fffffff), (unsigned long)(cgt & 0x7fffffff),
		   permitted && t->state != TASK_RUNNABLE, t->rt_priority, t->policy);
	if (mm && permitted)
		seq_printf(m, "%lu %lu %lu %lu %lu %lu %lu", (unsigned long)mm->start_data,
			   (unsigned long)mm->end_data, (unsigned long)mm->start_brk,
			   (unsigned long)mm->arg_start, (unsigned long)mm->arg_end,
			   (unsigned long)mm->env_start, (unsigned long)mm->env_end);
	else
		seq_printf(m, "0 0 0 0 0 0 0");
	seq_printf(m, " %d\n", permitted && t->state == TASK_ZOMBIE ? t->exit_status : 0);
	return 0;
}

static int show_statm(struct seq_file *m, struct task *t)
{
	struct mm_counts c = { 0 };
	uint64_t text = 0;

	if (t->mm) {
		mm_count(t->mm, &c);
		text = (ALIGN_UP(t->mm->end_code, PAGE_SIZE) - ALIGN_DOWN(t->mm->start_code, PAGE_SIZE)) >> PAGE_SHIFT;
	}
	seq_printf(m, "%lu %lu 0 %lu 0 %lu 0\n", (unsigned long)c.total, (unsigned long)c.rss,
		   (unsigned long)text, (unsigned long)(c.data + c.stack));
	return 0;
}

static int show_task_mounts(struct seq_file *m, struct task *t)
{
	return show_mounts(m, t);
}

static char *link_cwd(struct task *t, char *buf, size_t size)
{
	return t->fs ? proc_dentry_path(t->fs->pwd, buf, size) : ERR_PTR(-ENOENT);
}

static char *link_root(struct task *t, char *buf, size_t size)
{
	return t->fs ? proc_dentry_path(t->fs->root, buf, size) : ERR_PTR(-ENOENT);
}

static char *link_exe(struct task *t, char *buf, size_t size)
{
	return t->exe_file ? proc_file_path(t->exe_file, buf, size) : ERR_PTR(-ENOENT);
}

/*
 * /proc/PID/syscall: the system call the thread is in, as Linux prints it:
 * its number, its six arguments, then the user stack pointer and
 * instruction pointer; "-1 SP PC" when it is in user mode (it was
 * interrupted there). The reader itself is in its read.
 */
static int show_syscall(struct seq_file *m, struct task *t)
{
	const struct trapframe *tf = t->tf;

	if (!tf || !t->mm)
		return 0;
	if (tf->vector != TRAP_SYSCALL) {
		seq_printf(m, "-1 0x%lx 0x%lx\n", tf->rsp, tf->rip);
		return 0;
	}
	seq_printf(m, "%ld 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx\n", (long)(int)tf->error,
		   tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9, tf->rsp, tf->rip);
	return 0;
}

/* The functions that only put a task to sleep: wchan names their caller. */
static bool sleep_function(const char *name)
{
	static const char *const names[] = { "schedule", "sleep_on", "sleep_until", "switch_context" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * /proc/PID/wchan: where a sleeping thread waits, the kernel function that
 * put it to sleep ("do_wait", "pipe_read"...), found by following the
 * frame pointers from where switch_context left its stack; "0" for a
 * thread that runs or is runnable, and for readers that may not look into
 * the process (as Linux).
 */
static int show_wchan(struct seq_file *m, struct task *t)
{
	uint64_t lo = (uint64_t)t->kstack, hi = lo + KSTACK_SIZE, off;
	const char *name = NULL;

	if (t != current && t->state == TASK_SLEEPING &&
	    ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS) && t->ksp >= lo && t->ksp + 56 <= hi) {
		/* switch_context pushed rbp, rbx, r12-r15 below its return address */
		uint64_t *saved = (uint64_t *)t->ksp, rbp = saved[5], ret = saved[6];
		for (int depth = 0; depth < 16; depth++) {
			name = ksym_lookup(ret, &off);
			if (!name || !sleep_function(name) || rbp < lo || rbp + 16 > hi || (rbp & 7))
				break;
			ret = ((uint64_t *)rbp)[1];
			rbp = ((uint64_t *)rbp)[0];
		}
	}
	seq_puts(m, name && !sleep_function(name) ? name : "0");
	return 0;
}

/* What the magic links lead to (a reference), NULL if nothing. */
static struct dentry *dentry_cwd(struct task *t) { return t->fs ? dget(t->fs->pwd) : NULL; }
static struct dentry *dentry_root(struct task *t) { return t->fs ? dget(t->fs->root) : NULL; }
static struct dentry *dentry_exe(struct task *t)
{
	return t->exe_file && t->exe_file->f_dentry ? dget(t->exe_file->f_dentry) : NULL;
}

#define DIR_FD_MODE (S_IFDIR | 0500)
#define DIR_TASK_MODE (S_IFDIR | 0555)
#define DIR_FDINFO_MODE (S_IFDIR | 0555)
#define DIR_NS_MODE (S_IFDIR | 0511)
/* The directories among pid_entries, by their index. */
#define PE_TASK 0
#define PE_FD 1
#define PE_MAP_FILES 2
#define PE_FDINFO 3
#define PE_NS 4
#define PE_NET 5

/* /proc/PID/cgroup: one line a mounted hierarchy. Every process is in
 * the root of cgroup2's (kernel/cgroup/namespace.c), which Linux lists
 * ("0::/") only once cgroup2 has been mounted somewhere; it cannot be
 * mounted here, so the file is empty, as on Linux before that. */
static int show_cgroup(struct seq_file *m, struct task *t)
{
	(void)m;
	(void)t;
	return 0;
}

/* The bytes taken (kernel/time/timens_offsets.c), or -errno. */
static int write_timens_offsets(struct task *t, const char *buf, size_t count)
{
	return (int)timens_write_offsets(t, buf, count);
}

/* In Linux's order (tgid_base_stuff), for what exists here. A thread's
 * directory (/proc/PID/task/TID) has the same but "task" (entry 0). */
static const struct pid_entry pid_entries[] = {
	{ "task", DIR_TASK_MODE, NULL, NULL, NULL, false, NULL },
	{ "fd", DIR_FD_MODE, NULL, NULL, NULL, false, NULL },
	{ "map_files", DIR_FD_MODE, NULL, NULL, NULL, false, NULL },
	{ "fdinfo", DIR_FDINFO_MODE, NULL, NULL, NULL, false, NULL },
	{ "ns", DIR_NS_MODE, NULL, NULL, NULL, false, NULL },
	{ "net", S_IFDIR | 0555, NULL, NULL, NULL, false, NULL },
	{ "environ", S_IFREG | 0400, show_environ, NULL, NULL, true, NULL },
	{ "auxv", S_IFREG | 0400, show_auxv, NULL, NULL, true, NULL },
	{ "status", S_IFREG | 0444, show_status, NULL, NULL, false, NULL },
	{ "personality", S_IFREG | 0400, show_personality, NULL, NULL, true, NULL },
	{ "timens_offsets", S_IFREG | 0644, timens_show_offsets, write_timens_offsets, NULL, false, NULL },
	{ "comm", S_IFREG | 0644, show_comm, write_comm, NULL, false, NULL },
	{ "syscall", S_IFREG | 0400, show_syscall, NULL, NULL, true, NULL },
	{ "cmdline", S_IFREG | 0444, show_cmdline, NULL, NULL, false, NULL },
	{ "stat", S_IFREG | 0444, show_stat, NULL, NULL, false, NULL },
	{ "statm", S_IFREG | 0444, show_statm, NULL, NULL, false, NULL },
	{ "maps", S_IFREG | 0444, show_maps, NULL, NULL, true, NULL },
	{ "mem", S_IFREG | 0600, NULL, NULL, NULL, false, &proc_mem_fops },
	{ "cwd", S_IFLNK | 0777, NULL, NULL, link_cwd, true, NULL },
	{ "root", S_IFLNK | 0777, NULL, NULL, link_root, true, NULL },
	{ "exe", S_IFLNK | 0777, NULL, NULL, link_exe, true, NULL },
	{ "mounts", S_IFREG | 0444, show_task_mounts, NULL, NULL, false, NULL },
	{ "smaps", S_IFREG | 0444, show_smaps, NULL, NULL, true, NULL },
	{ "smaps_rollup", S_IFREG | 0444, show_smaps_rollup, NULL, NULL, true, NULL },
	{ "wchan", S_IFREG | 0444, show_wchan, NULL, NULL, false, NULL },
	{ "cgroup", S_IFREG | 0444, show_cgroup, NULL, NULL, false, NULL },
	{ "uid_map", S_IFREG | 0644, NULL, NULL, NULL, false, &proc_uid_map_fops },
	{ "gid_map", S_IFREG | 0644, NULL, NULL, NULL, false, &proc_gid_map_fops },
	{ "setgroups", S_IFREG | 0644, NULL, NULL, NULL, false, &proc_setgroups_fops },
	/* The last: a thread's directory has no timers (a process's own). */
	{ "timers", S_IFREG | 0444, proc_timers_show, NULL, NULL, false, NULL },
};
/* How many of pid_entries a process's or a thread's directory shows. */
#define NR_PID_ENTRIES(thread) (ARRAY_SIZE(pid_entries) - ((thread) ? 1 : 0))

/* Opening a per-process file: the restricted ones only for those who may
 * look into the process (Linux's proc_mem_open: EACCES). */
int proc_pid_open(struct inode *inode)
{
	struct task *t = inode_task(inode);
	const struct pid_entry *p = PROC_I(inode)->pent;

	if (!t)
		return -ESRCH;
	if (p->restricted && !ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS))
		return -EACCES;
	return 0;
}

static int show_fdinfo(struct seq_file *m, struct task *t, int fd);

int proc_pid_show(struct inode *inode, struct seq_file *m)
{
	struct task *t = inode_task(inode);
	const struct pid_entry *p = PROC_I(inode)->pent;

	if (!t)
		return -ESRCH;
	if (PROC_I(inode)->fd >= 0)
		return show_fdinfo(m, t, PROC_I(inode)->fd);
	return p->show ? p->show(m, t) : -EIO;
}

int proc_pid_write(struct inode *inode, const char *buf, size_t count)
{
	struct task *t = inode_task(inode);
	const struct pid_entry *p = PROC_I(inode)->pent;

	if (!t)
		return -ESRCH;
	return p->write ? p->write(t, buf, count) : -EIO;
}

/* A decimal number without sign or leading zeros, or -1. */
static long parse_number(const char *name, size_t len)
{
	long v = 0;

	if (len == 0 || len > 9 || (name[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		v = v * 10 + (name[i] - '0');
	}
	return v;
}

/* ---- directories: /proc/PID and /proc/PID/fd ------------------------------------- */

static const struct inode_operations proc_pid_dir_iops;
static const struct file_operations proc_pid_dir_fops;
static const struct inode_operations proc_task_dir_iops;
static const struct file_operations proc_task_dir_fops;
static const struct inode_operations proc_fd_dir_iops;
static const struct file_operations proc_fd_dir_fops;
static const struct inode_operations proc_fdinfo_dir_iops;
static const struct file_operations proc_fdinfo_dir_fops;
static const struct inode_operations proc_map_files_dir_iops;
static const struct file_operations proc_map_files_dir_fops;

/*
 * An inode for something of task t, owned by its effective ids (Linux's
 * task_dump_owner). Except /proc/PID itself, everything of a process
 * that is not dumpable (it gained privileges, or said
 * PR_SET_DUMPABLE 0), or that has no memory any more (a zombie), belongs
 * to root: its user may not look into it.
 */
struct inode *pid_inode(struct super_block *sb, struct task *t, mode_t mode, ino_t ino)
{
	struct inode *inode = proc_new_inode(sb, mode, ino);

	if (!inode)
		return NULL;
	inode->i_uid = task_cred(t)->euid;
	inode->i_gid = task_cred(t)->egid;
	if (mode != (S_IFDIR | 0555) && (!t->mm || t->mm->dumpable != SUID_DUMP_USER))
		inode->i_uid = inode->i_gid = 0;
	PROC_I(inode)->pid = t->pid;
	PROC_I(inode)->serial = t->serial;
	return inode;
}

static struct dentry *map_files_dentry(struct task *t, uint64_t start, uint64_t end);

/*
 * The magic links (exe, cwd, root, fd/N): their text for readlink, and the
 * very dentry for a path walk, both only for a reader that may look into
 * the process (Linux's proc_fd_access_allowed).
 */
static const char *proc_pid_get_link(struct inode *inode)
{
	struct task *t = inode_task(inode);

	if (!t)
		return ERR_PTR(-ENOENT);
	if (!ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS))
		return ERR_PTR(-EACCES);
	return PROC_I(inode)->link;
}

static struct dentry *proc_pid_get_link_dentry(struct inode *inode)
{
	struct proc_inode *pi = PROC_I(inode);
	struct task *t = inode_task(inode);
	struct file *file;

	if (!t)
		return ERR_PTR(-ENOENT);
	if (!ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS))
		return ERR_PTR(-EACCES);
	if (pi->vm_end)
		return map_files_dentry(t, pi->vm_start, pi->vm_end);
	if (pi->fd >= 0) {
		if (!(file = files_lookup(t->files, pi->fd)))
			return ERR_PTR(-ENOENT);
		/* A pipe has no dentry here: its "pipe:[N]" text leads nowhere. */
		return file->f_dentry ? dget(file->f_dentry) : NULL;
	}
	if (pi->pent->link == link_cwd)
		return dentry_cwd(t);
	if (pi->pent->link == link_root)
		return dentry_root(t);
	return dentry_exe(t);
}

static const struct inode_operations proc_pid_link_iops = {
	.get_link = proc_pid_get_link,
	.get_link_dentry = proc_pid_get_link_dentry,
	.evict = proc_evict,
};

/* A symlink inode whose target is made now. NULL for ENOENT, or ERR_PTR. */
static struct inode *link_inode(struct inode *inode, char *(*make)(struct task *, char *, size_t), struct task *t,
				struct file *file)
{
	char *buf = kmalloc(PATH_MAX), *p;
	size_t len;

	if (!buf) {
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	p = file ? proc_file_path(file, buf, PATH_MAX) : make(t, buf, PATH_MAX);
	if (IS_ERR(p)) {
		kfree(buf);
		iput(inode);
		return p == ERR_PTR(-ENOENT) ? NULL : (struct inode *)p;
	}
	len = strlen(p);
	memmove(buf, p, len + 1);
	PROC_I(inode)->link = buf;
	inode->i_size = file ? 64 : 0; /* what Linux's lstat says */
	inode->i_op = &proc_pid_link_iops;
	return inode;
}

/* Common end of the lookups below: NULL, ERR_PTR, or a detached dentry. */
static struct dentry *finish_lookup(struct dentry *parent, const char *name, size_t len, struct inode *inode)
{
	if (IS_ERR_OR_NULL(inode))
		return (struct dentry *)inode;
	return proc_detached_dentry(parent, name, len, inode);
}

static struct dentry *proc_pid_base_lookup(struct inode *dir, struct dentry *parent, const char *name, size_t len)
{
	struct task *t = inode_task(dir);
	struct inode *inode;

	if (!t)
		return NULL;
	for (size_t i = PROC_I(dir)->thread ? 1 : 0; i < NR_PID_ENTRIES(PROC_I(dir)->thread); i++) {
		const struct pid_entry *p = &pid_entries[i];

		if (strlen(p->name) != len || memcmp(p->name, name, len) != 0)
			continue;
		inode = pid_inode(dir->i_sb, t, p->mode, pid_ino(t->pid, 1 + i));
		if (!inode)
			return ERR_PTR(-ENOMEM);
		PROC_I(inode)->pent = p;
		if (i == PE_TASK) {
			inode->i_ino = pid_ino(t->pid, TASK_INO);
			inode->i_op = &proc_task_dir_iops;
			inode->i_fop = &proc_task_dir_fops;
		} else if (i == PE_FD) {
			inode->i_op = &proc_fd_dir_iops;
			inode->i_fop = &proc_fd_dir_fops;
		} else if (i == PE_MAP_FILES) {
			inode->i_op = &proc_map_files_dir_iops;
			inode->i_fop = &proc_map_files_dir_fops;
		} else if (i == PE_FDINFO) {
			inode->i_op = &proc_fdinfo_dir_iops;
			inode->i_fop = &proc_fdinfo_dir_fops;
		} else if (i == PE_NS) {
			inode->i_op = &proc_ns_dir_iops;
			inode->i_fop = &proc_ns_dir_fops;
		} else if (i == PE_NET) {
			inode->i_op = &proc_net_dir_iops;
			inode->i_fop = &proc_net_dir_fops;
		} else if (S_ISLNK(p->mode)) {
			inode = link_inode(inode, p->link, t, NULL);
		} else if (p->fops) {
			inode->i_fop = p->fops;
		}
		return finish_lookup(parent, name, len, inode);
	}
	return NULL;
}

static int proc_pid_base_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file->f_inode;
	struct task *t = inode_task(inode);

	if (!t)
		return -ENOENT;
	bool thread = PROC_I(inode)->thread;
	if (!dir_emit_dots(ctx, inode->i_ino, thread ? pid_ino(t->tgid, TASK_INO) : PROC_ROOT_INO))
		return 0;
	size_t first = thread ? 1 : 0;
	for (size_t i = first + ctx->pos - DIR_POS_FIRST; i < NR_PID_ENTRIES(thread); i++) {
		const struct pid_entry *p = &pid_entries[i];
		ino_t ino = i == PE_TASK ? pid_ino(t->pid, TASK_INO) : pid_ino(t->pid, 1 + i);
		if (!dir_emit(ctx, p->name, strlen(p->name), ino, mode_to_dt(p->mode)))
			return 0;
		ctx->pos = DIR_POS_FIRST + i + 1 - first;
	}
	return 0;
}

/* ---- /proc/PID/task: one directory per thread ---------------------------------- */

static struct dentry *proc_task_lookup(struct inode *dir, struct dentry *parent, const char *name, size_t len)
{
	struct task *p = inode_task(dir), *t;
	long tid = parse_number(name, len);
	struct inode *inode;

	if (!p || tid <= 0 || !(t = find_task_by_pid_ns(tid, proc_pid_ns(dir->i_sb))) ||
	    !same_thread_group(t, p))
		return NULL;
	inode = pid_inode(dir->i_sb, t, S_IFDIR | 0555, pid_ino(t->pid, TID_INO_BASE));
	if (!inode)
		return ERR_PTR(-ENOMEM);
	inode->i_nlink = 3;
	inode->i_op = &proc_pid_dir_iops;
	inode->i_fop = &proc_pid_dir_fops;
	PROC_I(inode)->thread = true;
	return proc_detached_dentry(parent, name, len, inode);
}

/* The threads by increasing tid, each time the smallest not yet shown. */
static int proc_task_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file->f_inode;
	struct pid_namespace *ns = proc_pid_ns(inode->i_sb);
	struct task *p = inode_task(inode);

	if (!p)
		return -ENOENT;
	if (!dir_emit_dots(ctx, inode->i_ino, pid_ino(p->pid, 0)))
		return 0;
	for (;;) {
		pid_t from = ctx->pos - DIR_POS_FIRST, best = 0, nr;
		struct task *bt = NULL;
		char name[12];

		for_each_thread(p, t)
			if (t->state != TASK_ZOMBIE || thread_group_leader(t))
				if ((nr = task_pid_nr_ns(t, ns)) >= from && nr && (!best || nr < best))
					best = nr, bt = t;
		if (!best)
			return 0;
		snprintf(name, sizeof(name), "%d", best);
		if (!dir_emit(ctx, name, strlen(name), pid_ino(bt->pid, TID_INO_BASE), DT_DIR))
			return 0;
		ctx->pos = DIR_POS_FIRST + best + 1;
	}
}

static const struct inode_operations proc_task_dir_iops = {
	.lookup = proc_task_lookup,
	.evict = proc_evict,
};

static const struct file_operations proc_task_dir_fops = {
	.llseek = generic_file_llseek,
	.iterate = proc_task_readdir,
};

/* hidepid= of this proc (Linux's has_pid_permissions): may the caller see
 * into t's directory, under a hidepid of at least min? Only t's ptracers
 * under hidepid=ptraceable; the members of gid= too under the others. */
static bool has_pid_permissions(struct super_block *sb, struct task *t, int min)
{
	struct proc_fs_info *info = proc_sb_info(sb);

	if (info && info->hide_pid == HIDEPID_NOT_PTRACEABLE)
		return ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS);
	if (!info || info->hide_pid < min || in_group_p(info->pid_gid))
		return true;
	return ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS);
}

static bool proc_pid_visible(struct super_block *sb, struct task *t)
{
	return has_pid_permissions(sb, t, HIDEPID_INVISIBLE);
}

/* /proc/PID itself: hidepid=noaccess refuses a look inside (EPERM). */
static int proc_pid_permission(struct inode *inode, int mask)
{
	struct task *t = inode_task(inode);

	if (!t)
		return -ESRCH;
	if (!has_pid_permissions(inode->i_sb, t, HIDEPID_NO_ACCESS))
		return proc_sb_info(inode->i_sb)->hide_pid == HIDEPID_INVISIBLE ? -ENOENT : -EPERM;
	return generic_permission(inode, mask);
}

static const struct inode_operations proc_pid_dir_iops = {
	.lookup = proc_pid_base_lookup,
	.permission = proc_pid_permission,
	.evict = proc_evict,
};

static const struct file_operations proc_pid_dir_fops = {
	.llseek = generic_file_llseek,
	.iterate = proc_pid_base_readdir,
};

static struct dentry *proc_fd_lookup(struct inode *dir, struct dentry *parent, const char *name, size_t len)
{
	struct task *t = inode_task(dir);
	long fd = parse_number(name, len);
	struct inode *inode;
	struct file *file;

	if (!t || !(file = files_lookup(t->files, fd)))
		return NULL;
	/* Linux: the link's mode tells how the file was opened. */
	inode = pid_inode(dir->i_sb, t, S_IFLNK | ((file->f_mode & FMODE_READ) ? 0500 : 0) |
			  ((file->f_mode & FMODE_WRITE) ? 0200 : 0), pid_ino(t->pid, FD_INO_BASE + fd));
	if (!inode)
		return ERR_PTR(-ENOMEM);
	PROC_I(inode)->fd = fd;
	return finish_lookup(parent, name, len, link_inode(inode, NULL, t, file));
}

/* One entry per open descriptor: fd/ (links) and fdinfo/ (files). */
static int fd_dir_readdir(struct file *file, struct dir_context *ctx, ino_t base, unsigned int type)
{
	struct inode *inode = file->f_inode;
	struct task *t = inode_task(inode);

	if (!t)
		return -ENOENT;
	if (!dir_emit_dots(ctx, inode->i_ino, pid_ino(t->pid, 0)))
		return 0;
	for (int fd = ctx->pos - DIR_POS_FIRST; t->files && (unsigned int)fd < t->files->max_fds; fd++) {
		char name[12];
		if (!t->files->fd[fd])
			continue;
		snprintf(name, sizeof(name), "%d", fd);
		if (!dir_emit(ctx, name, strlen(name), pid_ino(t->pid, base + fd), type))
			return 0;
		ctx->pos = DIR_POS_FIRST + fd + 1;
	}
	return 0;
}

static int proc_fd_readdir(struct file *file, struct dir_context *ctx)
{
	return fd_dir_readdir(file, ctx, FD_INO_BASE, DT_LNK);
}

/* The process itself may always read its fd directory, whoever owns it
 * (Linux's proc_fd_permission: a thread of the process whose pid it is). */
static int proc_fd_permission(struct inode *inode, int mask)
{
	int err = generic_permission(inode, mask);

	if (err && PROC_I(inode)->pid == current->tgid)
		err = 0;
	return err;
}

static const struct inode_operations proc_fd_dir_iops = {
	.lookup = proc_fd_lookup,
	.permission = proc_fd_permission,
	.evict = proc_evict,
};

static const struct file_operations proc_fd_dir_fops = {
	.llseek = generic_file_llseek,
	.iterate = proc_fd_readdir,
};

/* ---- /proc/PID/map_files: a link per file-backed area -------------------------- */

#define MAP_FILES_INO_BASE 0x1000 /* + the area's index, below TASK_INO */

/* "START-END" as Linux writes and reads it (dname_to_vma_addr): lowercase
 * hex, no leading zero, nothing more. false if name is not one. */
static bool parse_area_name(const char *name, size_t len, uint64_t *start, uint64_t *end)
{
	uint64_t *out[2] = { start, end };
	size_t i = 0;

	for (int part = 0; part < 2; part++) {
		size_t first = i;
		*out[part] = 0;
		for (; i < len && name[i] != '-'; i++) {
			int d = hex_to_bin(name[i]);
			if (d < 0 || *out[part] >> 60)
				return false;
			*out[part] = *out[part] << 4 | d;
		}
		if (i == first || (name[first] == '0' && i - first > 1))
			return false;
		if (part == 0 && (i == len || name[i++] != '-'))
			return false;
	}
	return i == len;
}

/* The area of t's memory that is exactly [start, end) and maps a file,
 * and its index; NULL if none. The caller read-holds t->mm's mmap_lock
 * while it uses the area (t may be building its memory in execve). */
static struct vma *exact_file_area(struct task *t, uint64_t start, uint64_t end, int *index)
{
	int i = 0;

	for (struct vma *v = t->mm ? t->mm->vmas : NULL; v && v->start <= start; v = v->next, i++)
		if (v->start == start && v->end == end && v->vm_file) {
			*index = i;
			return v;
		}
	return NULL;
}

static void task_mmap_read_lock(struct task *t)
{
	if (t->mm)
		mmap_read_lock(t->mm);
}

static void task_mmap_read_unlock(struct task *t)
{
	if (t->mm)
		mmap_read_unlock(t->mm);
}

static char *shmem_link(struct task *t, char *buf, size_t size)
{
	(void)t;
	snprintf(buf, size, "/dev/zero (deleted)");
	return buf;
}

static struct dentry *proc_map_files_lookup(struct inode *dir, struct dentry *parent, const char *name,
					    size_t len)
{
	struct task *t = inode_task(dir);
	uint64_t start, end;
	struct vma *v;
	int index;

	if (!t || !parse_area_name(name, len, &start, &end))
		return NULL;
	if (t->mm && !ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS))
		return ERR_PTR(-EACCES);
	task_mmap_read_lock(t);
	if (!(v = exact_file_area(t, start, end, &index))) {
		task_mmap_read_unlock(t);
		return NULL;
	}
	/* As fd/N, the link's mode tells how the file was opened. */
	unsigned int fmode = v->vm_file->f_mode;
	struct inode *inode = pid_inode(dir->i_sb, t, S_IFLNK | ((fmode & FMODE_READ) ? 0400 : 0) |
				       ((fmode & FMODE_WRITE) ? 0200 : 0),
				       pid_ino(t->pid, MAP_FILES_INO_BASE + (index & 0xfff)));
	if (!inode) {
		task_mmap_read_unlock(t);
		return ERR_PTR(-ENOMEM);
	}
	PROC_I(inode)->vm_start = start;
	PROC_I(inode)->vm_end = end;
	/* Shared anonymous memory is shown as Linux names its file. */
	inode = v->flags & VM_SHMEM ? link_inode(inode, shmem_link, t, NULL) :
				       link_inode(inode, NULL, t, v->vm_file);
	task_mmap_read_unlock(t);
	if (!IS_ERR_OR_NULL(inode))
		inode->i_size = 64; /* what Linux's lstat says of every one */
	return finish_lookup(parent, name, len, inode);
}

/* Following one (not reading it) is for CAP_SYS_ADMIN or
 * CAP_CHECKPOINT_RESTORE only: a link could lead past the permissions of
 * the directories above the file (Linux's proc_map_files_get_link). */
static struct dentry *map_files_dentry(struct task *t, uint64_t start, uint64_t end)
{
	int index;
	struct vma *v;
	struct dentry *d;

	if (!capable(CAP_SYS_ADMIN) && !capable(CAP_CHECKPOINT_RESTORE))
		return ERR_PTR(-EPERM);
	task_mmap_read_lock(t);
	v = exact_file_area(t, start, end, &index);
	d = !v ? ERR_PTR(-ENOENT) : v->vm_file->f_dentry ? dget(v->vm_file->f_dentry) : NULL;
	task_mmap_read_unlock(t);
	return d;
}

static int proc_map_files_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file->f_inode;
	struct task *t = inode_task(inode);
	loff_t pos = DIR_POS_FIRST;
	int index = 0;

	if (!t)
		return -ENOENT;
	if (!dir_emit_dots(ctx, inode->i_ino, pid_ino(t->pid, 0)))
		return 0;
	if (t->mm && !ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS))
		return -EACCES;
	/* dir_emit fills a kernel buffer (fs/readdir.c): no fault under the lock. */
	task_mmap_read_lock(t);
	for (struct vma *v = t->mm ? t->mm->vmas : NULL; v; v = v->next, index++) {
		char name[40];
		if (!v->vm_file || pos++ < ctx->pos)
			continue;
		snprintf(name, sizeof(name), "%lx-%lx", (unsigned long)v->start, (unsigned long)v->end);
		if (!dir_emit(ctx, name, strlen(name), pid_ino(t->pid, MAP_FILES_INO_BASE + (index & 0xfff)),
			      DT_LNK))
			break;
		ctx->pos = pos;
	}
	task_mmap_read_unlock(t);
	return 0;
}

static const struct inode_operations proc_map_files_dir_iops = {
	.lookup = proc_map_files_lookup,
	.permission = proc_fd_permission,
	.evict = proc_evict,
};

static const struct file_operations proc_map_files_dir_fops = {
	.llseek = generic_file_llseek,
	.iterate = proc_map_files_readdir,
};

/* ---- /proc/PID/fdinfo: what each descriptor's file is ------------------------- */

/* Linux's common lines (fs/proc/fd.c: seq_show), then the file's own.
 * mnt_id: no mount ids here, 0 for every file. */
static int show_fdinfo(struct seq_file *m, struct task *t, int fd)
{
	struct file *file = files_lookup(t->files, fd);
	unsigned int flags;

	if (!file)
		return -ENOENT;
	flags = file->f_flags | (fd_get_cloexec(t->files, fd) ? O_CLOEXEC : 0);
	seq_printf(m, "pos:\t%lld\nflags:\t0%o\nmnt_id:\t%d\nino:\t%lu\n", (long long)file->f_pos,
		   flags, 0, (unsigned long)file->f_inode->i_ino);
	if (file->f_op && file->f_op->show_fdinfo)
		file->f_op->show_fdinfo(m, file);
	return 0;
}

/* fdinfo/ and the files in it: only for one who may look into the
 * process, then the mode bits (Linux's proc_fdinfo_permission). */
static int proc_fdinfo_permission(struct inode *inode, int mask)
{
	struct task *t = inode_task(inode);

	if (!t)
		return -ESRCH;
	if (!ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS))
		return -EACCES;
	return generic_permission(inode, mask);
}

static const struct pid_entry fdinfo_file_entry = { "fdinfo", S_IFREG | 0444, NULL, NULL, NULL, false, NULL };

static const struct inode_operations proc_fdinfo_file_iops = {
	.permission = proc_fdinfo_permission,
	.evict = proc_evict,
};

static struct dentry *proc_fdinfo_lookup(struct inode *dir, struct dentry *parent, const char *name, size_t len)
{
	struct task *t = inode_task(dir);
	long fd = parse_number(name, len);
	struct inode *inode;

	if (!t || !files_lookup(t->files, fd))
		return NULL;
	inode = pid_inode(dir->i_sb, t, S_IFREG | 0444, pid_ino(t->pid, FDINFO_INO_BASE + fd));
	if (!inode)
		return ERR_PTR(-ENOMEM);
	PROC_I(inode)->fd = fd;
	PROC_I(inode)->pent = &fdinfo_file_entry;
	inode->i_op = &proc_fdinfo_file_iops;
	return finish_lookup(parent, name, len, inode);
}

static int proc_fdinfo_readdir(struct file *file, struct dir_context *ctx)
{
	return fd_dir_readdir(file, ctx, FDINFO_INO_BASE, DT_REG);
}

static const struct inode_operations proc_fdinfo_dir_iops = {
	.lookup = proc_fdinfo_lookup,
	.permission = proc_fdinfo_permission,
	.evict = proc_evict,
};

static const struct file_operations proc_fdinfo_dir_fops = {
	.llseek = generic_file_llseek,
	.iterate = proc_fdinfo_readdir,
};

struct task *tgid_pidfd_to_task(const struct file *file)
{
	if (file->f_op != &proc_pid_dir_fops || PROC_I(file->f_inode)->thread)
		return ERR_PTR(-EBADF);
	return inode_task(file->f_inode);
}

/* ---- the root's part: /proc/self and /proc/PID --------------------------------------- */

/* A symlink of /proc to target, with inode number ino. */
static struct dentry *proc_link_dentry(struct dentry *parent, const char *name, size_t len,
				       ino_t ino, const char *target)
{
	struct inode *inode = proc_new_inode(parent->d_sb, S_IFLNK | 0777, ino);

	if (!inode)
		return ERR_PTR(-ENOMEM);
	PROC_I(inode)->link = kmalloc(strlen(target) + 1);
	if (!PROC_I(inode)->link) {
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	memcpy(PROC_I(inode)->link, target, strlen(target) + 1);
	inode->i_size = strlen(target);
	return proc_detached_dentry(parent, name, len, inode);
}

/* /proc/self names the caller's process, /proc/thread-self its thread
 * (PID/task/TID); the kernel's own threads have neither. */
struct dentry *proc_pid_lookup(struct dentry *parent, const char *name, size_t len)
{
	struct pid_namespace *ns = proc_pid_ns(parent->d_sb);
	/* The caller as this mount numbers it: 0 if it is not in its namespace. */
	pid_t tgid = current ? task_tgid_nr_ns(current, ns) : 0;
	struct inode *inode;
	struct task *t;
	char buf[32];
	long pid;

	if (len == 4 && memcmp(name, "self", 4) == 0) {
		if (!tgid)
			return NULL;
		snprintf(buf, sizeof(buf), "%d", tgid);
		return proc_link_dentry(parent, name, len, SELF_INO, buf);
	}
	if (len == 11 && memcmp(name, "thread-self", 11) == 0) {
		if (!tgid)
			return NULL;
		snprintf(buf, sizeof(buf), "%d/task/%d", tgid, task_pid_nr_ns(current, ns));
		return proc_link_dentry(parent, name, len, THREAD_SELF_INO, buf);
	}
	pid = parse_number(name, len);
	if (pid <= 0 || !(t = find_task_by_pid_ns(pid, ns)) || !proc_pid_visible(parent->d_sb, t))
		return NULL;
	inode = pid_inode(parent->d_sb, t, S_IFDIR | 0555, pid_ino(t->pid, 0));
	if (!inode)
		return ERR_PTR(-ENOMEM);
	inode->i_nlink = 3; /* ".", its name, fd/".." */
	inode->i_op = &proc_pid_dir_iops;
	inode->i_fop = &proc_pid_dir_fops;
	return proc_detached_dentry(parent, name, len, inode);
}

void proc_pid_readdir(struct super_block *sb, struct dir_context *ctx)
{
	struct pid_namespace *ns = proc_pid_ns(sb);
	bool in_ns = current && task_tgid_nr_ns(current, ns);

	if (ctx->pos == PROC_SELF_POS) {
		if (in_ns && !dir_emit(ctx, "self", 4, SELF_INO, DT_LNK))
			return;
		ctx->pos = PROC_THREAD_SELF_POS;
	}
	if (ctx->pos == PROC_THREAD_SELF_POS) {
		if (in_ns && !dir_emit(ctx, "thread-self", 11, THREAD_SELF_INO, DT_LNK))
			return;
		ctx->pos = PROC_PID_POS;
	}
	/* The processes of ns by increasing pid there: each time the
	 * smallest not yet shown. */
	for (;;) {
		pid_t from = ctx->pos - PROC_PID_POS, best = 0, nr;
		struct task *bt = NULL;
		char name[12];

		for (struct task *t = first_task(); t; t = t->next_task)
			if (thread_group_leader(t) && t->state != TASK_DEAD &&
			    (nr = task_pid_nr_ns(t, ns)) > 0 && nr >= from && (!best || nr < best) &&
			    proc_pid_visible(sb, t))
				best = nr, bt = t;
		if (!best)
			return;
		snprintf(name, sizeof(name), "%d", best);
		if (!dir_emit(ctx, name, strlen(name), pid_ino(bt->pid, 0), DT_DIR))
			return;
		ctx->pos = PROC_PID_POS + best + 1;
	}
}
