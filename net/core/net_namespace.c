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

/* Linux makes init_net first of all namespaces that take a dynamic inode
 * number, so it has the first one: "net:[4026531840]". */
struct net init_net = {
	.ns = { .inum = PROC_DYNAMIC_FIRST, .count = 1, .ops = &netns_operations },
};

struct net *copy_net_ns(uint64_t flags, struct net *old)
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
	return net;
}

void put_net(struct net *net)
{
	if (--net->ns.count > 0)
		return;
	BUG_ON(net == &init_net);
	ns_free_inum(net->ns.inum);
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

/* setns: root may enter any (one user namespace here). */
static int netns_install(struct nsset *nsset, struct ns_common *ns)
{
	struct net *net = container_of(ns, struct net, ns);

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	put_net(nsset->nsproxy->net_ns);
	nsset->nsproxy->net_ns = get_net(net);
	return 0;
}

const struct proc_ns_operations netns_operations = {
	.name = "net",
	.type = CLONE_NEWNET,
	.get = netns_get,
	.put = netns_put,
	.install = netns_install,
};
