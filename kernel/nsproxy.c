/*
 * nsproxy.c - the set of namespaces a task is in (include/nsproxy.h), and
 * the calls that change it: clone's CLONE_NEW* flags (copy_namespaces),
 * unshare(2) and setns(2).
 *
 * Making a namespace needs CAP_SYS_ADMIN (EPERM) in the user namespace
 * that will own it: the caller's, or the one CLONE_NEWUSER makes in the
 * same call (made first, so that an unprivileged user may make both at
 * once). Entering one needs CAP_SYS_ADMIN in its owner and in the
 * caller's user namespace (each kind's install). A user namespace is not
 * in the nsproxy but in the credentials (kernel/user_namespace.c).
 */
#include "../fs/vfs.h" /* files_struct, fs_struct: Linux's <linux/fs.h> */
#include <cred.h>
#include <errno.h>
#include <ipc.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <mm.h>
#include <net_namespace.h>
#include <nsproxy.h>
#include <sched.h>
#include <security.h>
#include <time_namespace.h>
#include <linux/user_namespace.h>
#include <vm.h>

/* The other clone flags unshare takes (include/uapi/linux/sched.h). */
#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_THREAD 0x00010000
#define CLONE_SYSVSEM 0x00040000

struct nsproxy init_nsproxy = {
	.count = 1,
	.uts_ns = &init_uts_ns,
	.ipc_ns = &init_ipc_ns,
	.mnt_ns = &init_mnt_ns,
	.pid_ns_for_children = &init_pid_ns,
	.net_ns = &init_net,
	.time_ns = &init_time_ns,
	.time_ns_for_children = &init_time_ns,
	.cgroup_ns = &init_cgroup_ns,
};

/* The kinds an nsproxy holds: what clone, unshare and setns ask
 * CAP_SYS_ADMIN for (CLONE_NEWUSER alone needs no privilege). */
#define CLONE_NS_PROXY (CLONE_NS_ALL & ~CLONE_NEWUSER)

/* ---- inode numbers -------------------------------------------------------- */

/* Linux hands them out with an IDA: the lowest free one. */
#define NS_INUM_MAX 8192
/* The first two are taken, as on Linux at boot (init_mnt_ns has the second). */
static uint64_t inum_used[NS_INUM_MAX / 64] = { 3 };

unsigned int ns_alloc_inum(void)
{
	for (unsigned int i = 0; i < NS_INUM_MAX; i++) {
		if (!(inum_used[i / 64] & (1ULL << (i % 64)))) {
			inum_used[i / 64] |= 1ULL << (i % 64);
			return PROC_DYNAMIC_FIRST + i;
		}
	}
	return 0;
}

void ns_free_inum(unsigned int inum)
{
	unsigned int i = inum - PROC_DYNAMIC_FIRST;

	if (i < NS_INUM_MAX)
		inum_used[i / 64] &= ~(1ULL << (i % 64));
}

int ns_common_init(struct ns_common *ns, const struct proc_ns_operations *ops)
{
	ns->inum = ns_alloc_inum();
	if (!ns->inum)
		return -ENOSPC;
	ns->count = 1;
	ns->ops = ops;
	return 0;
}

/* ---- the set -------------------------------------------------------------- */

static void free_nsproxy(struct nsproxy *ns)
{
	if (ns->uts_ns)
		put_uts_ns(ns->uts_ns);
	if (ns->mnt_ns)
		put_mnt_ns(ns->mnt_ns);
	if (ns->ipc_ns)
		put_ipc_ns(ns->ipc_ns);
	if (ns->pid_ns_for_children)
		put_pid_ns(ns->pid_ns_for_children);
	if (ns->net_ns)
		put_net(ns->net_ns);
	if (ns->time_ns)
		put_time_ns(ns->time_ns);
	if (ns->time_ns_for_children)
		put_time_ns(ns->time_ns_for_children);
	if (ns->cgroup_ns)
		put_cgroup_ns(ns->cgroup_ns);
	kfree(ns);
}

void put_nsproxy(struct nsproxy *ns)
{
	if (--ns->count == 0)
		free_nsproxy(ns);
}

/* A new set for t: for each kind, a new namespace owned by user_ns if
 * flags ask, else t's own. ERR_PTR(-errno). */
static struct nsproxy *create_new_namespaces(uint64_t flags, struct task *t, struct user_namespace *user_ns)
{
	struct nsproxy *old = t->nsproxy, *ns = kzalloc(sizeof(*ns));
	void *p;

	if (!ns)
		return ERR_PTR(-ENOMEM);
	ns->count = 1;
	p = copy_utsname(flags, user_ns, old->uts_ns);
	if (IS_ERR(p))
		goto fail;
	ns->uts_ns = p;
	p = copy_mnt_ns(flags, user_ns, old->mnt_ns);
	if (IS_ERR(p))
		goto fail;
	ns->mnt_ns = p;
	p = copy_ipcs(flags, user_ns, old->ipc_ns);
	if (IS_ERR(p))
		goto fail;
	ns->ipc_ns = p;
	p = copy_pid_ns(flags, user_ns, old->pid_ns_for_children);
	if (IS_ERR(p))
		goto fail;
	ns->pid_ns_for_children = p;
	p = copy_net_ns(flags, user_ns, old->net_ns);
	if (IS_ERR(p))
		goto fail;
	ns->net_ns = p;
	p = copy_time_ns(flags, user_ns, old->time_ns_for_children);
	if (IS_ERR(p))
		goto fail;
	ns->time_ns_for_children = p;
	ns->time_ns = get_time_ns(old->time_ns);
	p = copy_cgroup_ns(flags, user_ns, old->cgroup_ns);
	if (IS_ERR(p))
		goto fail;
	ns->cgroup_ns = p;
	return ns;
fail:
	free_nsproxy(ns);
	return p;
}

int copy_namespaces(uint64_t flags, struct task *child, struct task *parent)
{
	struct nsproxy *ns, *old = parent->nsproxy;
	/* The child's: a new one if CLONE_NEWUSER made it (copy_creds). */
	struct user_namespace *user_ns = task_cred(child)->user_ns;

	/* A thread, or a child sharing the memory, shares [vvar] too: it
	 * cannot be in another time namespace. */
	if ((flags & (CLONE_THREAD | CLONE_VM)) && old->time_ns != old->time_ns_for_children)
		return -EINVAL;
	if (!(flags & CLONE_NS_PROXY)) {
		if (old->time_ns == old->time_ns_for_children) {
			child->nsproxy = get_nsproxy(old);
			return 0;
		}
	} else if (!ns_capable(user_ns, CAP_SYS_ADMIN)) {
		return -EPERM;
	}
	if ((flags & (CLONE_NEWIPC | CLONE_SYSVSEM)) == (CLONE_NEWIPC | CLONE_SYSVSEM))
		return -EINVAL;
	ns = create_new_namespaces(flags, parent, user_ns);
	if (IS_ERR(ns))
		return PTR_ERR(ns);
	child->nsproxy = ns;
	timens_on_fork(ns, child);
	return 0;
}

/* Make ns (a reference the caller gives) t's set, dropping the old one. */
static void switch_task_namespaces(struct task *t, struct nsproxy *ns)
{
	struct nsproxy *old = t->nsproxy;

	t->nsproxy = ns;
	if (old)
		put_nsproxy(old);
}

void exit_task_namespaces(struct task *t)
{
	switch_task_namespaces(t, NULL);
}

/* ---- unshare(2) ----------------------------------------------------------- */


/* Linux's check_unshare_flags: what may be unshared, and when. */
static int check_unshare_flags(uint64_t flags)
{
	if (flags & ~(CLONE_THREAD | CLONE_FS | CLONE_SIGHAND | CLONE_VM | CLONE_FILES |
		      CLONE_SYSVSEM | CLONE_NS_ALL))
		return -EINVAL;
	/* Threads, handlers and memory: only one who does not share them. */
	if ((flags & (CLONE_THREAD | CLONE_SIGHAND | CLONE_VM)) &&
	    !thread_group_empty(current->group_leader))
		return -EINVAL;
	if ((flags & (CLONE_SIGHAND | CLONE_VM)) && current->sighand->count > 1)
		return -EINVAL;
	if ((flags & CLONE_VM) && current->mm && current->mm->users > 1)
		return -EINVAL;
	return 0;
}

long sys_unshare(unsigned long flags)
{
	struct fs_struct *new_fs = NULL;
	struct files_struct *new_files = NULL;
	struct nsproxy *new_ns = NULL;
	struct cred *new_cred = NULL;
	int err;

	/* What unsharing one thing implies (Linux's ksys_unshare). */
	if (flags & CLONE_NEWUSER)
		flags |= CLONE_THREAD | CLONE_FS;
	if (flags & CLONE_VM)
		flags |= CLONE_SIGHAND;
	if (flags & CLONE_SIGHAND)
		flags |= CLONE_THREAD;
	if (flags & CLONE_NEWNS)
		flags |= CLONE_FS;
	if ((err = check_unshare_flags(flags)))
		return err;
	if ((flags & CLONE_FS) && current->fs->count > 1 && !(new_fs = fs_dup(current->fs)))
		return -ENOMEM;
	err = -ENOMEM;
	if ((flags & CLONE_FILES) && current->files->count > 1 &&
	    !(new_files = files_dup(current->files)))
		goto fail;
	/* A new user namespace first: it owns the others made with it. */
	if (flags & CLONE_NEWUSER) {
		err = -ENOMEM;
		if (!(new_cred = prepare_creds()))
			goto fail;
		if ((err = create_user_ns(new_cred)))
			goto fail;
	}
	if (flags & CLONE_NS_PROXY) {
		struct user_namespace *user_ns = new_cred ? new_cred->user_ns : current_user_ns();

		err = -EPERM;
		if (!ns_capable(user_ns, CAP_SYS_ADMIN))
			goto fail;
		new_ns = create_new_namespaces(flags, current, user_ns);
		err = PTR_ERR(new_ns);
		if (IS_ERR(new_ns))
			goto fail;
	}
	/* Leaving an IPC namespace (or CLONE_SYSVSEM) applies the undo list
	 * as exit does; the old namespace's segments lose their creator. */
	if (flags & (CLONE_NEWIPC | CLONE_SYSVSEM))
		exit_sem(current);
	if (flags & CLONE_NEWIPC)
		exit_shm(current);
	if (new_cred)
		commit_creds(new_cred);
	if (new_ns)
		switch_task_namespaces(current, new_ns);
	if (new_fs) {
		fs_put(current->fs);
		current->fs = new_fs;
	}
	if (new_files) {
		files_put(current->files);
		current->files = new_files;
	}
	return 0;
fail:
	if (new_cred)
		abort_creds(new_cred);
	if (new_fs)
		fs_put(new_fs);
	if (new_files)
		files_put(new_files);
	return err;
}

/* ---- setns(2) ------------------------------------------------------------- */

/* The kinds setns can take from a pidfd (Linux's check_setns_flags). */
static int check_setns_flags(unsigned long flags)
{
	if (!flags || (flags & ~(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET |
				 CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWCGROUP | CLONE_NEWTIME)))
		return -EINVAL;
	return 0;
}

/* Install target's namespaces of the kinds in nsset->flags, in Linux's
 * order (validate_nsset): the user namespace first, so that the others
 * are checked against the capabilities it gives. */
static int install_from_task(struct nsset *nsset, struct task *t)
{
	static const struct proc_ns_operations *const kinds[] = {
		&userns_operations, &mntns_operations, &utsns_operations, &ipcns_operations,
		&pidns_operations, &cgroupns_operations, &netns_operations, &timens_operations,
	};
	int err = 0;

	if (!ptrace_may_access(t, PTRACE_MODE_READ_REALCREDS))
		return -EPERM;
	for (size_t i = 0; i < ARRAY_SIZE(kinds) && !err; i++) {
		struct ns_common *ns;

		if (!(nsset->flags & kinds[i]->type))
			continue;
		ns = kinds[i]->get(t);
		if (!ns)
			return -ESRCH;
		err = kinds[i]->install(nsset, ns);
		kinds[i]->put(ns);
	}
	return err;
}

/* What setns will change, aside from the caller's (Linux's prepare_nsset):
 * a copy of its nsproxy; of its credentials if a user namespace is
 * entered; of its fs_struct if a mount namespace is entered with others
 * (which may still fail). 0 or -ENOMEM. */
static int prepare_nsset(unsigned flags, struct nsset *nsset)
{
	nsset->flags = flags;
	nsset->nsproxy = create_new_namespaces(0, current, current_user_ns());
	if (IS_ERR(nsset->nsproxy)) {
		int err = PTR_ERR(nsset->nsproxy);
		nsset->nsproxy = NULL;
		return err;
	}
	nsset->cred = (flags & CLONE_NEWUSER) ? prepare_creds() : (struct cred *)get_cred(current_cred());
	/* current's own is not counted: the installs check that it is not shared. */
	nsset->fs = (flags & CLONE_NEWNS) && flags != CLONE_NEWNS ? fs_dup(current->fs) : current->fs;
	return nsset->cred && nsset->fs ? 0 : -ENOMEM;
}

static void put_nsset(struct nsset *nsset)
{
	if (nsset->nsproxy)
		put_nsproxy(nsset->nsproxy);
	if (nsset->cred)
		put_cred(nsset->cred);
	if (nsset->fs && nsset->fs != current->fs)
		fs_put(nsset->fs);
}

/* Everything was installed: make it current's (Linux's commit_nsset). */
static void commit_nsset(struct nsset *nsset)
{
	unsigned flags = nsset->flags;

	if (flags & CLONE_NEWUSER) {
		commit_creds(nsset->cred);
		nsset->cred = NULL;
	}
	/* A copy of the fs_struct: its new root and directory to the real one. */
	if ((flags & CLONE_NEWNS) && nsset->fs != current->fs) {
		struct dentry *old = current->fs->root;

		current->fs->root = dget(nsset->fs->root);
		dput(old);
		set_fs_pwd(current->fs, dget(nsset->fs->pwd));
	}
	if (flags & CLONE_NEWIPC)
		exit_sem(current); /* its sets are not reachable from the new one */
	switch_task_namespaces(current, nsset->nsproxy);
	nsset->nsproxy = NULL;
	if (flags & CLONE_NEWTIME)
		timens_commit(current, current->nsproxy->time_ns);
}

long sys_setns(int fd, int nstype)
{
	struct file *file = fget(fd);
	struct nsset nsset = { 0 };
	struct ns_common *ns;
	struct task *t = NULL;
	unsigned flags;
	int err;

	if (!file)
		return -EBADF;
	err = -EINVAL;
	if ((ns = nsfs_file_ns(file))) {
		if (nstype && ns->ops->type != nstype)
			goto out;
		flags = ns->ops->type;
	} else if (is_pidfd(file)) {
		if ((err = check_setns_flags((unsigned int)nstype)))
			goto out;
		flags = nstype;
		err = -ESRCH;
		if (!(t = pidfd_task(file)) || t->state == TASK_ZOMBIE)
			goto out;
	} else {
		goto out;
	}
	if (!(err = prepare_nsset(flags, &nsset)))
		err = t ? install_from_task(&nsset, t) : ns->ops->install(&nsset, ns);
	if (!err)
		commit_nsset(&nsset);
	put_nsset(&nsset);
out:
	fput(file);
	return err;
}

/* ---- owners ---------------------------------------------------------------- */

struct ns_common *ns_get_owner(struct ns_common *ns)
{
	struct user_namespace *owner = ns->ops->owner ? ns->ops->owner(ns) : NULL, *p;

	/* Only a namespace at or below the caller's own. */
	for (p = owner; p != current_user_ns(); p = p->parent)
		if (!p)
			return ERR_PTR(-EPERM);
	return &get_user_ns(owner)->ns;
}
