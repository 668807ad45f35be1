/*
 * net_namespace.h - network namespaces (net/core/net_namespace.c): what a
 * process sees of the network. This kernel's only family is AF_UNIX, so a
 * namespace holds its AF_UNIX names: an abstract name (sun_path[0] == 0)
 * is found only by sockets of the namespace that bound it, and
 * /proc/PID/net/unix lists the namespace's sockets. A filesystem name is
 * an inode, and reaches across namespaces, as in Linux.
 *
 * References (ns.count): each nsproxy that has it, each sock made in it
 * (sk_net), each open nsfs file of it. The last put frees it. Counts
 * change under the same rule as the other namespaces (include/nsproxy.h).
 */
#pragma once
#include <nsproxy.h>

struct net {
	struct ns_common ns;
	struct user_namespace *user_ns; /* its owner (a reference) */
};

extern struct net init_net;
extern const struct proc_ns_operations netns_operations;

static inline struct net *get_net(struct net *net)
{
	net->ns.count++;
	return net;
}
void put_net(struct net *net);

/* CLONE_NEWNET: a new, empty namespace; else old with one more reference.
 * ERR_PTR(-errno). */
struct net *copy_net_ns(uint64_t flags, struct user_namespace *user_ns, struct net *old);
/* The namespace the current task makes sockets in (init_net at boot). */
struct net *current_net(void);
/* t's namespace, with a reference; NULL once t has exited. */
struct net *get_task_net(struct task *t);
