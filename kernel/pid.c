/*
 * pid.c - struct pid: a task's numbers, one in each pid namespace from
 * its own up to the initial one (include/linux/pid_namespace.h), and the
 * questions "what number does this caller see" and "which task has this
 * number here".
 *
 * Every struct pid is on one list; a lookup walks it (or the task list),
 * as the rest of this kernel finds tasks. Linux keeps an IDR a namespace.
 */
#include <cred.h>
#include <errno.h>
#include <linux/pid_namespace.h>
#include <mm.h>
#include <sched.h>

static struct pid *pid_list;

struct pid *find_pid_ns(int nr, struct pid_namespace *ns)
{
	for (struct pid *p = pid_list; p; p = p->next)
		if (p->level >= ns->level && p->numbers[ns->level].ns == ns &&
		    p->numbers[ns->level].nr == nr)
			return p;
	return NULL;
}

/* A free number in ns, counting up from the last one given and wrapping
 * to RESERVED_PIDS (Linux's idr_alloc_cyclic); -EAGAIN if none is left. */
static int alloc_pidnr(struct pid_namespace *ns)
{
	int min = ns->last_pid + 1 > RESERVED_PIDS ? RESERVED_PIDS : 1;
	int nr = ns->last_pid + 1;

	for (int tries = 0; tries < PID_MAX_DEFAULT; tries++, nr++) {
		if (nr >= PID_MAX_DEFAULT)
			nr = min;
		if (!find_pid_ns(nr, ns)) {
			ns->last_pid = nr;
			return nr;
		}
	}
	return -EAGAIN;
}

/* The number clone3's set_tid asks for in ns: 0 if free, else -errno
 * (Linux's checks, in its order). */
static int check_set_tid(struct pid_namespace *ns, pid_t tid)
{
	if (tid < 1 || tid >= PID_MAX_DEFAULT)
		return -EINVAL;
	/* Only init may be first. */
	if (tid != 1 && !ns->child_reaper)
		return -EINVAL;
	if (!capable(CAP_SYS_ADMIN) && !capable(CAP_CHECKPOINT_RESTORE))
		return -EPERM;
	return find_pid_ns(tid, ns) ? -EEXIST : 0;
}

struct pid *alloc_pid(struct pid_namespace *ns, const pid_t *set_tid, size_t n)
{
	struct pid_namespace *tmp = ns;
	struct pid *pid;
	int nr;

	if (n > ns->level + 1)
		return ERR_PTR(-EINVAL);
	pid = kzalloc(sizeof(*pid) + (ns->level + 1) * sizeof(struct upid));
	if (!pid)
		return ERR_PTR(-ENOMEM);
	pid->level = ns->level;
	/* From ns up; set_tid[0] is ns's number, set_tid[1] its parent's... */
	for (int i = ns->level; i >= 0; i--, tmp = tmp->parent) {
		if (n) {
			nr = set_tid[ns->level - i];
			int err = check_set_tid(tmp, nr);
			n--;
			if (err) {
				kfree(pid);
				return ERR_PTR(err);
			}
		} else if ((nr = alloc_pidnr(tmp)) < 0) {
			kfree(pid);
			return ERR_PTR(nr);
		}
		pid->numbers[i] = (struct upid){ nr, tmp };
	}
	/* Its init died: nobody may enter (ENOMEM, as Linux documents). */
	if (!ns->adding) {
		kfree(pid);
		return ERR_PTR(-ENOMEM);
	}
	for (unsigned int i = 0; i <= pid->level; i++)
		pid->numbers[i].ns->nr_pids++;
	get_pid_ns(ns);
	pid->count = 1;
	pid->next = pid_list;
	pid_list = pid;
	return pid;
}

void put_pid(struct pid *pid)
{
	struct pid_namespace *ns;

	if (!pid || --pid->count > 0)
		return;
	for (struct pid **pp = &pid_list; *pp; pp = &(*pp)->next) {
		if (*pp == pid) {
			*pp = pid->next;
			break;
		}
	}
	ns = ns_of_pid(pid);
	for (unsigned int i = 0; i <= pid->level; i++)
		pid_ns_number_freed(pid->numbers[i].ns);
	kfree(pid);
	put_pid_ns(ns);
}

/* ---- numbers as someone sees them ---------------------------------------- */

pid_t pid_nr_ns(const struct pid *pid, const struct pid_namespace *ns)
{
	if (pid && ns->level <= pid->level && pid->numbers[ns->level].ns == ns)
		return pid->numbers[ns->level].nr;
	return 0;
}

struct pid_namespace *task_active_pid_ns(const struct task *t)
{
	return ns_of_pid(t ? t->thread_pid : NULL);
}

pid_t task_pid_nr_ns(const struct task *t, const struct pid_namespace *ns)
{
	return pid_nr_ns(t->thread_pid, ns);
}

pid_t task_tgid_nr_ns(const struct task *t, const struct pid_namespace *ns)
{
	return task_pid_nr_ns(t->group_leader ? t->group_leader : t, ns);
}

pid_t task_ppid_nr_ns(const struct task *t, const struct pid_namespace *ns)
{
	return t->parent ? task_tgid_nr_ns(t->parent, ns) : 0;
}

bool pid_ns_sees(const struct pid_namespace *ns, const struct task *t)
{
	return task_pid_nr_ns(t, ns) != 0;
}

/* A process group or session outlives its leader; in the initial
 * namespace its number stays what it is even then. */
pid_t pid_global_to_ns(pid_t global, const struct pid_namespace *ns)
{
	if (global <= 0 || ns == &init_pid_ns)
		return global;
	return pid_nr_ns(find_pid_ns(global, &init_pid_ns), ns);
}

pid_t task_pid_vnr(const struct task *t)
{
	return task_pid_nr_ns(t, task_active_pid_ns(current));
}

pid_t task_tgid_vnr(const struct task *t)
{
	return task_tgid_nr_ns(t, task_active_pid_ns(current));
}

pid_t pid_global_to_vnr(pid_t global)
{
	return pid_global_to_ns(global, task_active_pid_ns(current));
}

pid_t pid_vnr_to_global(pid_t nr)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct pid *p;

	if (ns == &init_pid_ns)
		return nr;
	p = find_pid_ns(nr, ns);
	return p ? p->numbers[0].nr : 0;
}

void set_pgrp_session(struct task *t, pid_t pgid, pid_t sid)
{
	/* The new ones first: they may be the old ones. */
	struct pid *pg = pgid > 0 ? get_pid(find_pid_ns(pgid, &init_pid_ns)) : NULL;
	struct pid *se = sid > 0 ? get_pid(find_pid_ns(sid, &init_pid_ns)) : NULL;

	put_pid(t->pgrp_pid);
	put_pid(t->session_pid);
	t->pgrp_pid = pg;
	t->session_pid = se;
	t->pgid = pgid;
	t->sid = sid;
}

struct task *find_task_by_pid_ns(pid_t nr, const struct pid_namespace *ns)
{
	if (nr <= 0)
		return NULL;
	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->state != TASK_DEAD && task_pid_nr_ns(t, ns) == nr)
			return t;
	return NULL;
}
