/*
 * namespace.c - cgroup namespaces: what part of the cgroup tree a process
 * sees as its root (cgroup_namespaces(7)).
 *
 * There are no control groups here: every process is in the root of the
 * one cgroup2 hierarchy, as on a Linux whose init made none and never
 * mounted cgroup2, where /proc/PID/cgroup is empty (fs/proc/base.c). A
 * cgroup namespace made
 * there has that root for its root, so what a process sees is the same in
 * every namespace; what the namespaces keep is their identity (the
 * /proc/PID/ns/cgroup link, "cgroup:[4026531835]" for the initial one)
 * and their owner, for the rules of clone, unshare and setns.
 */
#include <cred.h>
#include <errno.h>
#include <mm.h>
#include <nsproxy.h>
#include <sched.h>
#include <linux/user_namespace.h>

struct cgroup_namespace {
	struct ns_common ns;
	struct user_namespace *user_ns; /* its owner (a reference) */
};

struct cgroup_namespace init_cgroup_ns = {
	.ns = { .inum = PROC_CGROUP_INIT_INO, .count = 1, .ops = &cgroupns_operations },
	.user_ns = &init_user_ns,
};

static struct cgroup_namespace *to_cg_ns(struct ns_common *ns)
{
	return container_of(ns, struct cgroup_namespace, ns);
}

/* CLONE_NEWCGROUP: a new namespace owned by user_ns (its root is the
 * caller's cgroup: here always the root); else old with one more
 * reference. ERR_PTR(-errno). */
struct cgroup_namespace *copy_cgroup_ns(uint64_t flags, struct user_namespace *user_ns,
					struct cgroup_namespace *old)
{
	struct cgroup_namespace *ns;

	if (!(flags & CLONE_NEWCGROUP)) {
		old->ns.count++;
		return old;
	}
	if (!ns_capable(user_ns, CAP_SYS_ADMIN))
		return ERR_PTR(-EPERM);
	ns = kzalloc(sizeof(*ns));
	if (!ns)
		return ERR_PTR(-ENOMEM);
	if (ns_common_init(&ns->ns, &cgroupns_operations)) {
		kfree(ns);
		return ERR_PTR(-ENOSPC);
	}
	ns->user_ns = get_user_ns(user_ns);
	return ns;
}

void put_cgroup_ns(struct cgroup_namespace *ns)
{
	if (--ns->ns.count > 0)
		return;
	BUG_ON(ns == &init_cgroup_ns);
	ns_free_inum(ns->ns.inum);
	put_user_ns(ns->user_ns);
	kfree(ns);
}

static struct ns_common *cgroupns_get(struct task *t)
{
	if (!t->nsproxy)
		return NULL;
	t->nsproxy->cgroup_ns->ns.count++;
	return &t->nsproxy->cgroup_ns->ns;
}

static void cgroupns_put(struct ns_common *ns)
{
	put_cgroup_ns(to_cg_ns(ns));
}

/* setns: CAP_SYS_ADMIN in the caller's (next) user namespace and in the
 * namespace's owner. */
static int cgroupns_install(struct nsset *nsset, struct ns_common *new)
{
	struct cgroup_namespace *ns = to_cg_ns(new);

	if (!ns_capable(nsset->cred->user_ns, CAP_SYS_ADMIN) || !ns_capable(ns->user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	ns->ns.count++;
	put_cgroup_ns(nsset->nsproxy->cgroup_ns);
	nsset->nsproxy->cgroup_ns = ns;
	return 0;
}

static struct user_namespace *cgroupns_owner(struct ns_common *ns)
{
	return to_cg_ns(ns)->user_ns;
}

const struct proc_ns_operations cgroupns_operations = {
	.name = "cgroup",
	.type = CLONE_NEWCGROUP,
	.get = cgroupns_get,
	.put = cgroupns_put,
	.install = cgroupns_install,
	.owner = cgroupns_owner,
};
