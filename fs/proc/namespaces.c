/*
 * namespaces.c - /proc/PID/ns/: one link a namespace kind, its text
 * "uts:[4026531838]" (the kind and the namespace's inode number). Opening
 * it, or walking through it, reaches the namespace's nsfs file
 * (fs/nsfs.c), which setns(2) takes. Both only for one who may look into
 * the process (ptrace_may_access, as Linux's proc_ns_get_link).
 */
#include "internal.h"
#include <mm.h>
#include <net_namespace.h>
#include <nsproxy.h>
#include <sched.h>
#include <time_namespace.h>
#include <security.h>
#include <linux/user_namespace.h>

#define NS_INO_BASE 0x300

/* In Linux's order (ns_entries), for the kinds that exist here. */
static const struct proc_ns_operations *const ns_entries[] = {
	&netns_operations,
	&utsns_operations,
	&ipcns_operations,
	&pidns_operations,
	&pidns_for_children_operations,
	&userns_operations,
	&mntns_operations,
	&cgroupns_operations,
	&timens_operations,
	&timens_for_children_operations,
};

/* The task of a link, if the reader may look into it. */
static struct task *ns_link_task(struct inode *inode)
{
	struct task *t = inode_task(inode);

	if (!t)
		return ERR_PTR(-ENOENT);
	if (!ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS))
		return ERR_PTR(-EACCES);
	return t;
}

static const char *proc_ns_get_link(struct inode *inode)
{
	struct task *t = ns_link_task(inode);

	return IS_ERR(t) ? (const char *)t : PROC_I(inode)->link;
}

static struct dentry *proc_ns_get_link_dentry(struct inode *inode)
{
	const struct proc_ns_operations *ops = PROC_I(inode)->ns_ops;
	struct task *t = ns_link_task(inode);
	struct ns_common *ns;
	struct dentry *d;

	if (IS_ERR(t))
		return (struct dentry *)t;
	if (!(ns = ops->get(t)))
		return ERR_PTR(-ENOENT);
	d = ns_get_dentry(ns);
	ops->put(ns);
	return d;
}

static const struct inode_operations proc_ns_link_iops = {
	.get_link = proc_ns_get_link,
	.get_link_dentry = proc_ns_get_link_dentry,
	.evict = proc_evict,
};

/* The link for kind i of t; NULL if t has no namespaces (exited). */
static struct inode *ns_link_inode(struct super_block *sb, struct task *t, size_t i)
{
	struct ns_common *ns = ns_entries[i]->get(t);
	struct inode *inode;
	char *text;

	if (!ns)
		return NULL;
	text = kmalloc(32);
	inode = text ? pid_inode(sb, t, S_IFLNK | 0777, pid_ino(t->pid, NS_INO_BASE + i)) : NULL;
	if (!inode) {
		kfree(text);
		ns_entries[i]->put(ns);
		return ERR_PTR(-ENOMEM);
	}
	ns_link_text(ns, text, 32);
	ns_entries[i]->put(ns);
	PROC_I(inode)->link = text;
	PROC_I(inode)->ns_ops = ns_entries[i];
	inode->i_op = &proc_ns_link_iops;
	return inode;
}

static struct dentry *proc_ns_lookup(struct inode *dir, struct dentry *parent, const char *name, size_t len)
{
	struct task *t = inode_task(dir);
	struct inode *inode;

	if (!t)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(ns_entries); i++) {
		if (strlen(ns_entries[i]->name) != len || memcmp(ns_entries[i]->name, name, len))
			continue;
		inode = ns_link_inode(dir->i_sb, t, i);
		if (IS_ERR_OR_NULL(inode))
			return (struct dentry *)inode;
		return proc_detached_dentry(parent, name, len, inode);
	}
	return NULL;
}

static int proc_ns_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file->f_inode;
	struct task *t = inode_task(inode);

	if (!t)
		return -ENOENT;
	if (!dir_emit_dots(ctx, inode->i_ino, pid_ino(t->pid, 0)))
		return 0;
	for (size_t i = ctx->pos - DIR_POS_FIRST; i < ARRAY_SIZE(ns_entries); i++) {
		const char *name = ns_entries[i]->name;
		if (!dir_emit(ctx, name, strlen(name), pid_ino(t->pid, NS_INO_BASE + i), DT_LNK))
			return 0;
		ctx->pos = DIR_POS_FIRST + i + 1;
	}
	return 0;
}

const struct inode_operations proc_ns_dir_iops = {
	.lookup = proc_ns_lookup,
	.evict = proc_evict,
};

const struct file_operations proc_ns_dir_fops = {
	.llseek = generic_file_llseek,
	.iterate = proc_ns_readdir,
};
