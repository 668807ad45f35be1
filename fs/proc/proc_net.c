/*
 * proc_net.c - /proc/PID/net/: one file for each name a protocol
 * registered with proc_create_net (include/proc_fs.h), and /proc/net, a
 * link to self/net. A file looks up its process at each read and shows
 * that process's network namespace: after setns(CLONE_NEWNET),
 * /proc/net/unix (through /proc/self) shows the new one.
 */
#include "internal.h"
#include <net_namespace.h>
#include <sched.h>

#define NET_INO_BASE 0x380
#define PROC_NET_MAX 8

struct proc_net_entry {
	const char *name;
	proc_net_show_t show;
};

/* Registered at boot (initcalls), read-only afterwards: no lock. */
static struct proc_net_entry net_entries[PROC_NET_MAX];
static size_t nr_net_entries;

int proc_create_net(const char *name, proc_net_show_t show)
{
	for (size_t i = 0; i < nr_net_entries; i++)
		if (!strcmp(net_entries[i].name, name))
			return -EEXIST;
	if (nr_net_entries == PROC_NET_MAX)
		return -ENOSPC;
	net_entries[nr_net_entries++] = (struct proc_net_entry){ name, show };
	return 0;
}

int proc_net_show(struct inode *inode, struct seq_file *m)
{
	struct task *t = inode_task(inode);
	struct net *net;
	int err;

	if (!t)
		return -ESRCH;
	net = get_task_net(t);
	if (!net)
		return -ESRCH;
	err = PROC_I(inode)->net_entry->show(m, net);
	put_net(net);
	return err;
}

static struct dentry *proc_net_lookup(struct inode *dir, struct dentry *parent, const char *name, size_t len)
{
	struct task *t = inode_task(dir);
	struct inode *inode;

	if (!t)
		return NULL;
	for (size_t i = 0; i < nr_net_entries; i++) {
		if (strlen(net_entries[i].name) != len || memcmp(net_entries[i].name, name, len))
			continue;
		inode = pid_inode(dir->i_sb, t, S_IFREG | 0444, pid_ino(t->pid, NET_INO_BASE + i));
		if (!inode)
			return ERR_PTR(-ENOMEM);
		/* Linux's net files belong to root, whoever's directory. */
		inode->i_uid = inode->i_gid = 0;
		inode->i_fop = &proc_file_fops;
		PROC_I(inode)->net_entry = &net_entries[i];
		return proc_detached_dentry(parent, name, len, inode);
	}
	return NULL;
}

static int proc_net_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file->f_inode;
	struct task *t = inode_task(inode);

	if (!t)
		return -ENOENT;
	if (!dir_emit_dots(ctx, inode->i_ino, pid_ino(t->pid, 0)))
		return 0;
	for (size_t i = ctx->pos - DIR_POS_FIRST; i < nr_net_entries; i++) {
		const char *name = net_entries[i].name;
		if (!dir_emit(ctx, name, strlen(name), pid_ino(t->pid, NET_INO_BASE + i), DT_REG))
			return 0;
		ctx->pos = DIR_POS_FIRST + i + 1;
	}
	return 0;
}

const struct inode_operations proc_net_dir_iops = {
	.lookup = proc_net_lookup,
	.evict = proc_evict,
};

const struct file_operations proc_net_dir_fops = {
	.llseek = generic_file_llseek,
	.iterate = proc_net_readdir,
};
