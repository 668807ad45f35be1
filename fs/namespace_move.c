/*
 * namespace_move.c - mounts made and moved without mount(2): the super
 * block of an fsconfig(FSCONFIG_CMD_CREATE) (vfs_get_tree), fsmount's
 * mounts that are attached nowhere yet, and move_mount(2) (and mount(2)'s
 * MS_MOVE), which attaches one or moves a mount with those below it.
 * The system calls are in fs/fsopen.c; the table in fs/namespace.c.
 */
#include "fs_context.h"
#include "mount.h"
#include "proc/internal.h"
#include <mm.h>
#include <sched.h>

struct proc_fs_info *proc_sb_info(struct super_block *sb)
{
	return sb && sb->s_magic == PROC_SUPER_MAGIC ? sb->s_fs_info : NULL;
}

/* The options a context gathered, onto its new super block. */
static int fc_apply(struct fs_context *fc, struct super_block *sb)
{
	struct inode *root = sb->s_root->d_inode;

	if (sb->s_magic == PROC_SUPER_MAGIC) {
		struct proc_fs_info *info = sb->s_fs_info; /* proc_mount's: its pid namespace */

		info->hide_pid = fc->proc.hide_pid;
		info->pid_gid = fc->proc.pid_gid;
		info->pidonly = fc->proc.pidonly;
	} else if (sb->s_magic == TMPFS_MAGIC || sb->s_magic == RAMFS_MAGIC) {
		if (sb->s_magic == TMPFS_MAGIC)
			root->i_mode = S_IFDIR | 01777;
		if (fc->mode_set)
			root->i_mode = S_IFDIR | fc->mode;
		if (fc->uid_set)
			root->i_uid = fc->uid;
		if (fc->gid_set)
			root->i_gid = fc->gid;
	}
	return 0;
}

int vfs_get_tree(struct fs_context *fc)
{
	struct super_block *sb;
	int err;

	if (!strcmp(fc->fs_name, "proc"))
		sb = proc_mount();
	else if (!strcmp(fc->fs_name, "tmpfs") || !strcmp(fc->fs_name, "ramfs"))
		/* The super block keeps the name: a literal, not the context's. */
		sb = ramfs_mount(!strcmp(fc->fs_name, "ramfs") ? "ramfs" : "tmpfs");
	else {
		sb = mount_fs_type(fc->fs_type); /* it takes the module reference, whatever it gives */
		fc->fs_type = NULL;
	}
	if (!sb)
		return -ENOMEM;
	if (sb->s_active == 0 && (err = fc_apply(fc, sb))) {
		kill_super(sb);
		return err;
	}
	fc->sb = sb;
	return 0;
}

void fc_drop_sb(struct fs_context *fc)
{
	if (fc->sb && fc->sb->s_active == 0)
		kill_super(fc->sb);
	fc->sb = NULL;
}

/* The flags a reconfigure may change (Linux's MS_RMT_MASK). */
#define MS_RMT_MASK (MS_RDONLY | MS_SYNCHRONOUS | MS_MANDLOCK | (1 << 23) | (1 << 25))

int reconfigure_super(struct fs_context *fc)
{
	struct super_block *sb = fc->reconf_root->i_sb;
	struct proc_fs_info *info = proc_sb_info(sb);

	if (fc->sb_flags_mask & ~MS_RMT_MASK)
		return -EINVAL;
	if (fc->sb_flags_mask & MS_RDONLY)
		sb->s_flags = (sb->s_flags & ~MS_RDONLY) | (fc->sb_flags & MS_RDONLY);
	if (info && (fc->proc_set & PROC_SET_GID))
		info->pid_gid = fc->proc.pid_gid;
	if (info && (fc->proc_set & PROC_SET_HIDEPID))
		info->hide_pid = fc->proc.hide_pid;
	if (info && (fc->proc_set & PROC_SET_SUBSET))
		info->pidonly = fc->proc.pidonly;
	return 0;
}

/* Mounts made by fsmount and not yet attached (move_mount), in no table. */
static struct mount *detached_mounts;

/* A mount of sb, in no table and on no mount point; NULL if no memory. */
static struct mount *new_mount(struct super_block *sb, const char *devname, unsigned long flags,
			       bool sb_ro)
{
	struct mount *mnt = kzalloc(sizeof(*mnt));

	if (!mnt)
		return NULL;
	mnt->devname = strdup_k(devname ? devname : "none");
	mnt->root = sb->s_active ? d_alloc_root_alias(sb) : dget(sb->s_root);
	if (!mnt->devname || !mnt->root) {
		if (mnt->root)
			dput(mnt->root);
		kfree(mnt->devname);
		kfree(mnt);
		return NULL;
	}
	mnt->sb = sb;
	mnt->flags = flags & MNT_FLAGS;
	if (sb->s_active++ == 0)
		sb->s_flags = mnt->flags | (sb_ro ? MS_RDONLY : 0);
	return mnt;
}

struct dentry *mount_detached(struct fs_context *fc, unsigned long mnt_flags)
{
	struct mount *mnt = new_mount(fc->sb, fc->source, mnt_flags, fc->sb_flags & MS_RDONLY);

	if (!mnt)
		return ERR_PTR(-ENOMEM);
	mnt->next = detached_mounts;
	detached_mounts = mnt;
	return dget(mnt->root);
}

struct dentry *clone_mount_detached(struct dentry *root)
{
	struct mount *old = find_mount(root), *mnt;

	for (mnt = detached_mounts; !old && mnt; mnt = mnt->next)
		if (mnt->root == root)
			old = mnt;
	/* Not here: a bind mount of a directory; nor a second root of a
	 * tree kept in its dentries (ramfs, tmpfs: an alias root would show
	 * none of its names). */
	if (!old || old->sb->s_magic == RAMFS_MAGIC || old->sb->s_magic == TMPFS_MAGIC)
		return ERR_PTR(-EINVAL);
	mnt = new_mount(old->sb, old->devname, old->flags, false);
	if (!mnt)
		return ERR_PTR(-ENOMEM);
	mnt->next = detached_mounts;
	detached_mounts = mnt;
	return dget(mnt->root);
}

/* The detached mount whose root is root, taken out of the list; NULL if
 * none. */
static struct mount *take_detached(struct dentry *root)
{
	for (struct mount **pp = &detached_mounts; *pp; pp = &(*pp)->next) {
		if ((*pp)->root == root) {
			struct mount *mnt = *pp;
			*pp = mnt->next;
			mnt->next = NULL;
			return mnt;
		}
	}
	return NULL;
}

bool is_mount_root(struct dentry *d)
{
	if (find_mount(d))
		return true;
	for (struct mount *m = detached_mounts; m; m = m->next)
		if (m->root == d)
			return true;
	return false;
}

void drop_detached_mount(struct dentry *root)
{
	struct mount *mnt = take_detached(root);

	if (mnt)
		drop_mount(mnt);
}

/* Is d below (or at) the root of mount mnt, across the mounts between? */
static bool beneath(struct dentry *d, const struct mount *mnt)
{
	for (;;) {
		while (d->d_parent != d)
			d = d->d_parent;
		if (d == mnt->root)
			return true;
		if (!(d = d_covers(d)))
			return false;
	}
}

/* Put mnt at the end of the caller's table, on target. */
static void attach_at(struct mount *mnt, struct dentry *target)
{
	struct mount **pp = &mount_list;

	mnt->mountpoint = dget(target);
	attach_mount(mnt);
	while (*pp)
		pp = &(*pp)->next;
	*pp = mnt;
	mnt->next = NULL;
}

/* move_mount, MS_MOVE: from is the root of a mount, detached (fsmount's)
 * or in the caller's table; it goes onto target, with the mounts below
 * it. 0 or -errno, as Linux's do_move_mount. */
long do_move_mount(struct dentry *from, struct dentry *target)
{
	struct mount *mnt = find_mount(from), **pp, *moved = NULL, **tail = &moved;

	if (!mnt && (mnt = take_detached(from))) {
		if (S_ISDIR(target->d_inode->i_mode) != S_ISDIR(from->d_inode->i_mode) ||
		    (target->d_flags & DCACHE_DETACHED)) {
			mnt->next = detached_mounts;
			detached_mounts = mnt;
			return -EINVAL;
		}
		attach_at(mnt, target);
		return 0;
	}
	if (!mnt || !mnt->mountpoint || (target->d_flags & DCACHE_DETACHED) ||
	    S_ISDIR(target->d_inode->i_mode) != S_ISDIR(from->d_inode->i_mode))
		return -EINVAL;
	if (beneath(target, mnt))
		return -ELOOP;
	/* Off its old mount point, then it and those below it to the end. */
	mnt->mountpoint->d_mounts--;
	mnt->root->d_mount_roots--;
	dput(mnt->mountpoint);
	mnt->mountpoint = NULL;
	for (pp = &mount_list; *pp;) {
		struct mount *m = *pp;
		if (m == mnt || (m->mountpoint && beneath(m->mountpoint, mnt))) {
			*pp = m->next;
			m->next = NULL;
			*tail = m;
			tail = &m->next;
		} else {
			pp = &m->next;
		}
	}
	mnt->mountpoint = dget(target);
	attach_mount(mnt);
	*pp = moved;
	return 0;
}
