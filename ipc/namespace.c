/*
 * namespace.c - IPC namespaces (Linux: ipc/namespace.c): each has its
 * own System V semaphore sets, message queues and shared memory segments,
 * and its own limits (/proc/sys/kernel/{sem,msg*,shm*}, include/ipc.h).
 *
 * clone or unshare with CLONE_NEWIPC gives a new, empty one with Linux's
 * default limits (not the parent's); setns enters another. The count
 * (ns.count) is held by each nsproxy in it, each open nsfs file of it, and
 * each segment that is attached somewhere (ipc/shm.c): a process that left
 * the namespace still sees the memory it attached, and the namespace
 * lives on until that is detached, as in Linux. The last put frees every
 * set, queue and segment, then the namespace.
 *
 * Locking: as for the nsproxy (include/nsproxy.h): one CPU, no
 * preemption; the count changes in system calls and exit only.
 */
#include <cred.h>
#include <errno.h>
#include <ipc.h>
#include <mm.h>
#include <nsproxy.h>
#include <sched.h>
#include <linux/user_namespace.h>
#include "util.h"

/* Linux's defaults (include/uapi/linux/{sem,msg,shm}.h). */
#define SHMMAX_DEFAULT (UINT64_MAX - (1UL << 24))
#define IPC_NS_DEFAULTS                                                                  \
	.ids = { { .max_idx = -1, .last_idx = -1, .next_id = -1 },                       \
		 { .max_idx = -1, .last_idx = -1, .next_id = -1 },                       \
		 { .max_idx = -1, .last_idx = -1, .next_id = -1 } },                     \
	.sem_ctls = { 32000, 32000 * 32000, 500, 32000 },                                \
	.msg_ctlmax = 8192, .msg_ctlmnb = 16384, .msg_ctlmni = 32000,                    \
	.shm_ctlmax = SHMMAX_DEFAULT, .shm_ctlall = SHMMAX_DEFAULT, .shm_ctlmni = 4096,     \
	/* include/linux/ipc_namespace.h's DFLT_QUEUESMAX, DFLT_MSGMAX, ... */            \
	.mq_queues_max = 256, .mq_msg_max = 10, .mq_msgsize_max = 8192,                  \
	.mq_msg_default = 10, .mq_msgsize_default = 8192

struct ipc_namespace init_ipc_ns = {
	.ns = { .inum = PROC_IPC_INIT_INO, .count = 1, .ops = &ipcns_operations },
	IPC_NS_DEFAULTS,
	.user_ns = &init_user_ns,
};

struct ipc_namespace *current_ipc_ns(void)
{
	if (!current || !current->nsproxy || !current->nsproxy->ipc_ns)
		return &init_ipc_ns; /* boot, or an exiting task's last steps */
	return current->nsproxy->ipc_ns;
}

struct ipc_namespace *copy_ipcs(uint64_t flags, struct user_namespace *user_ns,
			       struct ipc_namespace *old)
{
	static const struct ipc_namespace defaults = { IPC_NS_DEFAULTS };
	struct ipc_namespace *ns;

	if (!(flags & CLONE_NEWIPC))
		return get_ipc_ns(old);
	ns = kmalloc(sizeof(*ns));
	if (!ns)
		return ERR_PTR(-ENOMEM);
	*ns = defaults;
	if (mq_init_ns(ns)) {
		kfree(ns);
		return ERR_PTR(-ENOMEM);
	}
	if (ns_common_init(&ns->ns, &ipcns_operations)) {
		mq_exit_ns(ns);
		kfree(ns);
		return ERR_PTR(-ENOSPC);
	}
	ns->user_ns = get_user_ns(user_ns);
	return ns;
}

/* Nobody uses it any more: no task, no file, no attached segment. */
static void free_ipc_ns(struct ipc_namespace *ns)
{
	sem_exit_ns(ns);
	msg_exit_ns(ns);
	shm_exit_ns(ns);
	mq_exit_ns(ns);
	ns_free_inum(ns->ns.inum);
	put_user_ns(ns->user_ns);
	kfree(ns);
}

void put_ipc_ns(struct ipc_namespace *ns)
{
	if (--ns->ns.count == 0 && ns != &init_ipc_ns)
		free_ipc_ns(ns);
}

static struct ns_common *ipcns_get(struct task *t)
{
	if (!t->nsproxy)
		return NULL;
	return &get_ipc_ns(t->nsproxy->ipc_ns)->ns;
}

static void ipcns_put(struct ns_common *ns)
{
	put_ipc_ns(container_of(ns, struct ipc_namespace, ns));
}

/* setns: CAP_SYS_ADMIN in its owner and in the caller's (next) user
 * namespace. The caller's undo list
 * is applied when the switch is made (kernel/nsproxy.c), as Linux's
 * commit_nsset does. */
static int ipcns_install(struct nsset *nsset, struct ns_common *new)
{
	struct ipc_namespace *ns = container_of(new, struct ipc_namespace, ns);

	if (!ns_capable(ns->user_ns, CAP_SYS_ADMIN) || !ns_capable(nsset->cred->user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	get_ipc_ns(ns);
	put_ipc_ns(nsset->nsproxy->ipc_ns);
	nsset->nsproxy->ipc_ns = ns;
	return 0;
}

static struct user_namespace *ipcns_owner(struct ns_common *ns)
{
	return container_of(ns, struct ipc_namespace, ns)->user_ns;
}

const struct proc_ns_operations ipcns_operations = {
	.name = "ipc",
	.type = CLONE_NEWIPC,
	.get = ipcns_get,
	.put = ipcns_put,
	.install = ipcns_install,
	.owner = ipcns_owner,
};
