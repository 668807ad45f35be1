/*
 * pid_namespace.h - process ids and the namespaces that number them
 * (kernel/pid.c: struct pid; kernel/pid_namespace.c: the namespaces).
 *
 * A pid namespace numbers the processes (and threads) created in it and in
 * the namespaces below it. Namespaces form a tree: the initial one is level
 * 0, a namespace made by clone(CLONE_NEWPID) or unshare(CLONE_NEWPID) is
 * one level below the maker's. A task created at level L gets L + 1
 * numbers, one in its own namespace and one in each ancestor, kept in its
 * struct pid:
 *
 *     numbers[0]  { 1234, &init_pid_ns }   what the initial namespace sees
 *     numbers[1]  {    7, ns1 }
 *     numbers[2]  {    1, ns2 }            its own: getpid() in it says 1
 *
 * A caller sees another task by the number of the caller's own namespace
 * (task_active_pid_ns(current)), and a task that has no number there (it
 * is in an ancestor namespace, or in a sibling one) as 0: getppid() of a
 * namespace's init is 0. t->pid and t->tgid (include/sched.h) are the
 * numbers of level 0, the kernel's own name for a task, as in Linux.
 *
 * The task numbered 1 in a namespace is its init (child_reaper): orphans
 * of the namespace are given to it, signals from inside the namespace
 * that it has no handler for do nothing to it, and when it dies every
 * other process of the namespace is killed and no process can enter the
 * namespace any more (fork there: ENOMEM).
 *
 * Counts: a struct pid is held by its task (thread_pid) until the task
 * is freed, and by the tasks whose process group or session it is; a
 * namespace is held by its struct pids (the deepest level's),
 * by its children namespaces, by the nsproxies whose pid_ns_for_children
 * it is, by nsfs files and by the mounts of /proc made in it. The last
 * put frees it and its inode number.
 *
 * Locking: one CPU and a kernel that is not preempted; struct pids and
 * namespaces change only in system calls (fork, exit, wait, unshare,
 * setns), never from interrupts, so no lock is taken.
 */
#pragma once
#include <kernel.h>
#include <nsproxy.h>

struct task;

#define MAX_PID_NS_LEVEL 32   /* the deepest namespace: ENOSPC below it */
#define PID_MAX_DEFAULT 32768 /* /proc/sys/kernel/pid_max: numbers are below it */
#define RESERVED_PIDS 300     /* after a wrap, numbering starts again here */

struct pid_namespace {
	struct ns_common ns;
	struct pid_namespace *parent;   /* NULL for the initial one; holds a reference */
	unsigned int level;
	int last_pid;                   /* the last number given: /proc/sys/kernel/ns_last_pid */
	int nr_pids;                    /* struct pids with a number here */
	bool adding;                    /* new numbers may be given (false once init died) */
	struct task *child_reaper;      /* its init; NULL before the first process */
	struct user_namespace *user_ns; /* its owner (a reference) */
};

/* One number of a task, in one namespace. */
struct upid {
	int nr;
	struct pid_namespace *ns;
};

struct pid {
	int count;
	unsigned int level;             /* of the namespace it was made in */
	struct pid *next;               /* on the list of all struct pids */
	struct upid numbers[];          /* level + 1 of them, numbers[0] the initial ns's */
};

extern struct pid_namespace init_pid_ns;
extern const struct proc_ns_operations pidns_operations;
extern const struct proc_ns_operations pidns_for_children_operations;

/* ---- kernel/pid.c: struct pid ---- */

/* A struct pid for a task made in ns: numbers in ns and every ancestor.
 * set_tid (clone3) chooses up to n of them, from ns upwards. ERR_PTR:
 * EINVAL (a bad choice), EEXIST (taken), EPERM (choosing needs
 * CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE), EAGAIN (none left), ENOMEM
 * (no memory, or ns's init died). */
struct pid *alloc_pid(struct pid_namespace *ns, const pid_t *set_tid, size_t n);
static inline struct pid *get_pid(struct pid *pid)
{
	if (pid)
		pid->count++;
	return pid;
}
void put_pid(struct pid *pid);
/* The struct pid numbered nr in ns, or NULL. */
struct pid *find_pid_ns(int nr, struct pid_namespace *ns);
/* pid's number in ns, 0 if it has none there (or pid is NULL). */
pid_t pid_nr_ns(const struct pid *pid, const struct pid_namespace *ns);
static inline struct pid_namespace *ns_of_pid(const struct pid *pid)
{
	return pid ? pid->numbers[pid->level].ns : &init_pid_ns;
}
/* The namespace t was made in (the kernel's tasks: the initial one). */
struct pid_namespace *task_active_pid_ns(const struct task *t);
/* Numbers of t as ns sees them (0: none there). */
pid_t task_pid_nr_ns(const struct task *t, const struct pid_namespace *ns);
pid_t task_tgid_nr_ns(const struct task *t, const struct pid_namespace *ns);
pid_t task_ppid_nr_ns(const struct task *t, const struct pid_namespace *ns);
/* A global number (a pgid or sid, t->pid) as ns sees it. */
pid_t pid_global_to_ns(pid_t global, const struct pid_namespace *ns);
/* The same as the current task sees them. */
pid_t task_pid_vnr(const struct task *t);
pid_t task_tgid_vnr(const struct task *t);
pid_t pid_global_to_vnr(pid_t global);
/* The global number of the task or group numbered nr in current's
 * namespace; 0 if nr names nothing there. */
pid_t pid_vnr_to_global(pid_t nr);
/* t's process group and session become pgid and sid (initial-namespace
 * numbers). t holds their struct pids, so that a group or session keeps
 * its number, in every namespace, after its leader is reaped (and the
 * number is not given to another process meanwhile), as in Linux. */
void set_pgrp_session(struct task *t, pid_t pgid, pid_t sid);
/* The task numbered nr in ns; NULL if none (or released). */
struct task *find_task_by_pid_ns(pid_t nr, const struct pid_namespace *ns);
/* Can a task of namespace ns see t (has t a number in ns)? */
bool pid_ns_sees(const struct pid_namespace *ns, const struct task *t);

/* ---- kernel/pid_namespace.c ---- */

static inline struct pid_namespace *get_pid_ns(struct pid_namespace *ns)
{
	ns->ns.count++;
	return ns;
}
void put_pid_ns(struct pid_namespace *ns);
/* CLONE_NEWPID: a new namespace below old (which must be current's own:
 * EINVAL); else old, with one more reference. ERR_PTR(-errno). */
struct pid_namespace *copy_pid_ns(uint64_t flags, struct user_namespace *user_ns,
				  struct pid_namespace *old);
/* The init of ns is dying (its last thread exits): kill every other
 * process of ns and wait until all are gone. */
void zap_pid_ns_processes(struct pid_namespace *ns);
/* A struct pid with a number in ns was freed. */
void pid_ns_number_freed(struct pid_namespace *ns);
void pid_namespace_init(void); /* /proc/sys/kernel/ns_last_pid */
