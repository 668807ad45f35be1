/*
 * pid_namespace.c - pid namespaces (include/linux/pid_namespace.h): their
 * making (CLONE_NEWPID), /proc/PID/ns/pid and pid_for_children, setns,
 * the end of a namespace when its init dies, and
 * /proc/sys/kernel/ns_last_pid.
 *
 * unshare(CLONE_NEWPID) does not move the caller: it changes only
 * pid_ns_for_children in its nsproxy, and its next child is pid 1 of the
 * new namespace. A process never changes its own pid namespace.
 */
#include <cred.h>
#include <errno.h>
#include <linux/pid_namespace.h>
#include <mm.h>
#include <x86.h>
#include <proc_fs.h>
#include <sched.h>
#include <string.h>
#include <linux/user_namespace.h>

struct pid_namespace init_pid_ns = {
	.ns = { .inum = PROC_PID_INIT_INO, .count = 1, .ops = &pidns_operations },
	.adding = true,
	.user_ns = &init_user_ns,
};

void put_pid_ns(struct pid_namespace *ns)
{
	/* A namespace holds its parent: the last put may free a chain. */
	while (ns && ns != &init_pid_ns && --ns->ns.count == 0) {
		struct pid_namespace *parent = ns->parent;

		ns_free_inum(ns->ns.inum);
		put_user_ns(ns->user_ns);
		kfree(ns);
		ns = parent;
	}
}

struct pid_namespace *copy_pid_ns(uint64_t flags, struct user_namespace *user_ns,
				  struct pid_namespace *old)
{
	struct pid_namespace *ns;

	if (!(flags & CLONE_NEWPID))
		return get_pid_ns(old);
	/* unshare(CLONE_NEWPID) twice without a child in between. */
	if (old != task_active_pid_ns(current))
		return ERR_PTR(-EINVAL);
	if (old->level + 1 > MAX_PID_NS_LEVEL)
		return ERR_PTR(-ENOSPC);
	/* Its owner must be the parent's owner or below it. */
	if (!in_userns(old->user_ns, user_ns))
		return ERR_PTR(-EPERM);
	ns = kzalloc(sizeof(*ns));
	if (!ns)
		return ERR_PTR(-ENOMEM);
	if (ns_common_init(&ns->ns, &pidns_operations)) {
		kfree(ns);
		return ERR_PTR(-ENOSPC);
	}
	ns->level = old->level + 1;
	ns->parent = get_pid_ns(old);
	ns->adding = true;
	ns->user_ns = get_user_ns(user_ns);
	return ns;
}

void pid_ns_number_freed(struct pid_namespace *ns)
{
	/* The first process never made it (a failed fork): the namespace
	 * takes nobody after that, as Linux's free_pid. */
	if (--ns->nr_pids == 0 && !ns->child_reaper)
		ns->adding = false;
	wakeup(ns); /* zap_pid_ns_processes waits for the last ones */
}

/* ---- the death of init ---------------------------------------------------- */

/* Zombie children of current's process: reaped now (they were made before
 * SIGCHLD was ignored). */
static void reap_zombie_children(void)
{
	for_each_thread(current, parent) {
		struct list_node *n = parent->children.next;

		while (n != &parent->children) {
			struct task *c = list_entry(n, struct task, sibling);

			n = n->next; /* free_task takes c off the list */
			if (c->state == TASK_ZOMBIE && thread_group_empty(c))
				free_task(c);
		}
	}
}

void zap_pid_ns_processes(struct pid_namespace *ns)
{
	/* Its own pid; the leader's too when a thread of init dies last. */
	int init_pids = thread_group_leader(current) ? 1 : 2;

	ns->adding = false;
	/* Children that die from now on are reaped at once. */
	current->sighand->action[SIGCHLD - 1].handler = SIG_IGN;
	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->state != TASK_DEAD && !same_thread_group(t, current) && pid_ns_sees(ns, t) &&
		    !fatal_signal_pending(t))
			group_send_sig(SIGKILL, t);
	/* Wait until nobody of the namespace is left, reaped by us (those
	 * that die from now on reap themselves) or, for those whose parent is
	 * outside (setns then fork), by that parent. Each freed struct pid
	 * wakes us (pid_ns_number_freed). */
	reap_zombie_children();
	uint64_t irq = irq_save();
	while (ns->nr_pids > init_pids)
		sleep_on(ns);
	irq_restore(irq);
}

/* ---- /proc/PID/ns/pid and pid_for_children, setns ------------------------ */

static struct ns_common *pidns_get(struct task *t)
{
	return &get_pid_ns(task_active_pid_ns(t))->ns;
}

/* The namespace t's next child is made in; none until it has an init. */
static struct ns_common *pidns_for_children_get(struct task *t)
{
	struct pid_namespace *ns;

	if (!t->nsproxy)
		return NULL;
	ns = t->nsproxy->pid_ns_for_children;
	if (!ns->child_reaper)
		return NULL;
	return &get_pid_ns(ns)->ns;
}

static void pidns_put(struct ns_common *ns)
{
	put_pid_ns(container_of(ns, struct pid_namespace, ns));
}

/* setns: only current's own namespace or one below it, so that the
 * caller can see its children (and they cannot leave its namespace). */
static int pidns_install(struct nsset *nsset, struct ns_common *ns)
{
	struct pid_namespace *active = task_active_pid_ns(current);
	struct pid_namespace *new = container_of(ns, struct pid_namespace, ns), *up = new;

	if (!ns_capable(new->user_ns, CAP_SYS_ADMIN) || !ns_capable(nsset->cred->user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	while (up && up->level > active->level)
		up = up->parent;
	if (up != active)
		return -EINVAL;
	put_pid_ns(nsset->nsproxy->pid_ns_for_children);
	nsset->nsproxy->pid_ns_for_children = get_pid_ns(new);
	return 0;
}

/* NS_GET_PARENT: only a namespace the caller's own one contains. */
static struct ns_common *pidns_get_parent(struct ns_common *ns)
{
	struct pid_namespace *active = task_active_pid_ns(current);
	struct pid_namespace *parent = container_of(ns, struct pid_namespace, ns)->parent, *p;

	for (p = parent; p != active; p = p->parent)
		if (!p)
			return ERR_PTR(-EPERM);
	return &get_pid_ns(parent)->ns;
}

static struct user_namespace *pidns_owner(struct ns_common *ns)
{
	return container_of(ns, struct pid_namespace, ns)->user_ns;
}

const struct proc_ns_operations pidns_operations = {
	.name = "pid",
	.type = CLONE_NEWPID,
	.get = pidns_get,
	.put = pidns_put,
	.install = pidns_install,
	.get_parent = pidns_get_parent,
	.owner = pidns_owner,
};

const struct proc_ns_operations pidns_for_children_operations = {
	.name = "pid_for_children",
	.type = CLONE_NEWPID,
	.get = pidns_for_children_get,
	.put = pidns_put,
	.install = pidns_install,
	.get_parent = pidns_get_parent,
	.owner = pidns_owner,
};

/* ---- /proc/sys/kernel/ns_last_pid ------------------------------------------ */

/* The reader's namespace's last number; root may set the next one. */
static int show_ns_last_pid(struct seq_file *m)
{
	seq_printf(m, "%d\n", task_active_pid_ns(current)->last_pid);
	return 0;
}

static int write_ns_last_pid(const char *buf, size_t count)
{
	char text[16];
	int nr;

	struct user_namespace *owner = task_active_pid_ns(current)->user_ns;

	if (!ns_capable(owner, CAP_SYS_ADMIN) && !ns_capable(owner, CAP_CHECKPOINT_RESTORE))
		return -EPERM;
	while (count && (buf[count - 1] == '\n' || buf[count - 1] == ' '))
		count--;
	if (!count || count >= sizeof(text))
		return -EINVAL;
	memcpy(text, buf, count);
	text[count] = 0;
	if (kstrtoint(text, 10, &nr) || nr < 0 || nr > PID_MAX_DEFAULT)
		return -EINVAL;
	task_active_pid_ns(current)->last_pid = nr;
	return 0;
}

void pid_namespace_init(void)
{
	proc_create("sys/kernel/ns_last_pid", 0666, show_ns_last_pid, write_ns_last_pid);
}
