/*
 * fs_struct.c - a process's place in the tree: its root directory, its
 * working directory and its umask. fork() copies it; a clone with CLONE_FS
 * shares it (count).
 */
#include "vfs.h"
#include <mm.h>
#include <sched.h>

struct dentry *root_dentry; /* set by vfs_init */

struct fs_struct *fs_alloc_root(void)
{
	struct fs_struct *fs = kzalloc(sizeof(*fs));
	if (!fs)
		return NULL;
	fs->count = 1;
	fs->umask = 0022;
	fs->root = dget(root_dentry);
	fs->pwd = dget(root_dentry);
	return fs;
}

struct fs_struct *fs_get(struct fs_struct *fs)
{
	fs->count++;
	return fs;
}

int fs_users(const struct fs_struct *fs)
{
	return fs->count;
}

struct fs_struct *fs_dup(struct fs_struct *old)
{
	struct fs_struct *fs = kzalloc(sizeof(*fs));
	if (!fs)
		return NULL;
	fs->count = 1;
	fs->umask = old->umask;
	fs->root = dget(old->root);
	fs->pwd = dget(old->pwd);
	return fs;
}

void fs_put(struct fs_struct *fs)
{
	if (!fs || --fs->count > 0)
		return;
	dput(fs->root);
	dput(fs->pwd);
	kfree(fs);
}

/* Before the first process exists (initramfs, open_console at boot) the
 * kernel works at the root with umask 0. */
struct dentry *current_root(void)
{
	return current && current->fs ? current->fs->root : root_dentry;
}

struct dentry *current_pwd(void)
{
	return current && current->fs ? current->fs->pwd : root_dentry;
}

mode_t current_umask(void)
{
	return current && current->fs ? current->fs->umask : 0;
}

/* Replace the working directory (takes over the reference on d). */
void set_fs_pwd(struct fs_struct *fs, struct dentry *d)
{
	struct dentry *old = fs->pwd;
	fs->pwd = d;
	dput(old);
}
