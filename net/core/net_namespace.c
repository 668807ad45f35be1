/*
 * net_namespace.c - network namespaces (include/net_namespace.h): making
 * one (clone or unshare with CLONE_NEWNET), entering one (setns), and the
 * /proc/PID/ns/net link. A new namespace starts empty: no socket, no
 * abstract name.
 */
#include <cred.h>
#include <errno.h>
#include <mm.h>
#include <net_namespace.h>
#include <sched.h>
#include <linux/user_namespace.h>

/* Linux makes init_net first of all namespaces that take a dynamic inode
 * number, so it has the first one: "net:[4026531840]". */
struct net init_net = {
	.ns = { .inum = PROC_DYNAMIC_FIRST, .count = 1, .ops = &netns_operations },
	.user_ns = &init_user_ns,
};

struct net *copy_net_ns(uint64_t flags, struct user_namespace *user_ns, struct net *old)
{
	struct net *net;

	if (!(flags & CLONE_NEWNET))
		return get_net(old);
	net = kzalloc(sizeof(*net));
	if (!net)
		return ERR_PTR(-ENOMEM);
	if (ns_common_init(&net->ns, &netns_operations)) {
		kfree(net);
		return ERR_PTR(-ENOSPC);
	}
	net->user_ns = get_user_ns(user_ns);
	return net;
}

void put_net(struct net *net)
{
	if (--net->ns.count > 0)
		return;
	BUG_ON(net == &init_net);
	ns_free_inum(net->ns.inum);
	put_user_ns(net->user_ns);
	kfree(net);
}

struct net *current_net(void)
{
	if (!current || !current->nsproxy)
		return &init_net;
	return current->nsproxy->net_ns;
}

struct net *get_task_net(struct task *t)
{
	return t->nsproxy ? get_net(t->nsproxy->net_ns) : NULL;
}

static struct ns_common *netns_get(struct task *t)
{
	struct net *net = get_task_net(t);

	return net ? &net->ns : NULL;
}

static void netns_put(struct ns_common *ns)
{
	put_net(container_of(ns, struct net, ns));
}

/* setns: CAP_SYS_ADMIN in its owner and in the caller's (next) user
 * namespace. */
static int netns_install(struct nsset *nsset, struct ns_common *ns)
{
	struct net *net = container_of(ns, struct net, ns);

	if (!ns_capable(net->user_ns, CAP_SYS_ADMIN) || !ns_capable(nsset->cred->user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	put_net(nsset->nsproxy->net_ns);
	nsset->nsproxy->net_ns = get_net(net);
	return 0;
}

static struct user_namespace *netns_owner(struct ns_common *ns)
{
	return container_of(ns, struct net, ns)->user_ns;
}

const struct proc_ns_operations netns_operations = {
	.name = "net",
	.type = CLONE_NEWNET,
	.get = netns_get,
	.put = netns_put,
	.install = netns_install,
	.owner = netns_owner,
};
