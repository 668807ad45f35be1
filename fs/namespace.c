/*
 * namespace.c - mount(2) and umount2(2), and the mount table that
 * /proc/mounts shows.
 *
 * Mounting puts the root of a new filesystem over a directory: the
 * directory is d_mounted (a count on the dentry, and the mount in the
 * table), the new root d_covers it, and path
 * lookup crosses between them (fs/namei.c). The mount table is a list of
 * struct mount in the order of mounting, the root filesystem first; each
 * holds a reference on the directory it covers.
 *
 * Filesystem types: "ramfs", "tmpfs" (a ramfs that reports tmpfs's magic
 * and size, and takes mode=, uid=, gid=), "proc", and those registered
 * with register_filesystem (fs/super.c: "binfmt_misc"). Every mount makes a
 * new instance, except of a type that has only one (binfmt_misc, as
 * Linux's get_tree_single): its ->mount gives the super block it already
 * has, and each further mount shows it through a root dentry of its own
 * (d_alloc_root_alias), since a dentry covers one mount point. The super
 * block counts its mounts (s_active); the last umount takes it apart
 * (->kill_sb first). Mounting on a mount point mounts on top, as Linux does.
 *
 * The flags of a mount (nosuid, noexec, ...) are its own: mnt_flags finds
 * the mount of a dentry for exec, set-user-ID and statfs. Read-only is
 * also the super block's, as in Linux (the first mount's, or a remount's).
 *
 * Unmounting refuses (EBUSY) while anything is in use below the mount: an
 * open file, a working directory, another mount. That is seen in reference
 * counts: a linked dentry is held once by its directory and once by each
 * child, so any reference beyond that is a user. MNT_DETACH (umount -l)
 * skips the check. The names of the filesystem are then all removed; files
 * still open stay usable until closed, and the super block goes with the
 * last inode (fs/super.c).
 *
 * MS_RDONLY makes the filesystem refuse changes with EROFS (the check is in
 * inode_permission and the attribute calls); a remount can switch it. A
 * file already open for writing can still be written after a remount
 * read-only (Linux refuses such a remount with EBUSY).
 *
 * Mount namespaces: each has its own table (struct mnt_namespace). A new
 * one (CLONE_NEWNS) starts as a copy of the table: new struct mounts on
 * the very same dentries, so a process's root and working directory stay
 * valid. Mounting and unmounting change only the caller's table; path
 * lookup asks the caller's table which mount covers a dentry (d_mounted,
 * d_covers), the counts on the dentries saying quickly that none does.
 * The namespace's last put unmounts its table.
 *
 * MS_MOVE and move_mount(2) move a mount, with those below it, to the
 * end of the table (do_move_mount); the new mount API (fs/fsopen.c) makes
 * a mount attached nowhere until move_mount puts it somewhere.
 *
 * Not done: bind mounts (EINVAL); propagation (every mount is private, as
 * after "mount --make-rprivate /").
 */
#include "fs_context.h"
#include "mount.h"
#include "proc/internal.h"
#include <cred.h>
#include <mm.h>
#include <nsproxy.h>
#include <sched.h>
#include <uaccess.h>
#include <linux/user_namespace.h>

/* umount2 flags */
#define MNT_FORCE 1
#define MNT_DETACH 2
#define MNT_EXPIRE 4
#define UMOUNT_NOFOLLOW 8

/* Linux 6.1 numbers it 4026531841: the first dynamic number went to
 * another namespace made before it at boot. */
struct mnt_namespace init_mnt_ns = {
	.ns = { .inum = PROC_DYNAMIC_FIRST + 1, .count = 1, .ops = &mntns_operations },
	.user_ns = &init_user_ns,
};

/* The caller's namespace (the initial one before the first process). */
struct mnt_namespace *current_mnt_ns(void)
{
	return current && current->nsproxy ? current->nsproxy->mnt_ns : &init_mnt_ns;
}

/* Is current's root other than its namespace's "/" (what lookup reaches
 * from the first mount's root, through what is mounted on it)? Linux's
 * current_chrooted: a new user namespace must not escape a chroot. */
bool current_chrooted(void)
{
	struct dentry *root = current_mnt_ns()->mounts->root, *over;

	while ((over = d_mounted(root)))
		root = over;
	return current->fs && current->fs->root != root;
}

struct dentry *d_mounted(const struct dentry *d)
{
	if (!d->d_mounts)
		return NULL;
	for (struct mount *m = mount_list; m; m = m->next)
		if (m->mountpoint == d)
			return m->root;
	return NULL;
}

struct dentry *d_covers(const struct dentry *root)
{
	if (!root->d_mount_roots)
		return NULL;
	for (struct mount *m = mount_list; m; m = m->next)
		if (m->root == root && m->mountpoint)
			return m->mountpoint;
	return NULL;
}

/* Put mnt in the tree (its counts; the table is the caller's business). */
void attach_mount(struct mount *mnt)
{
	if (mnt->mountpoint) {
		mnt->mountpoint->d_mounts++;
		mnt->root->d_mount_roots++;
	}
}

/* Free mnt, out of every table; the last mount of its filesystem takes
 * the filesystem apart. */
void drop_mount(struct mount *mnt)
{
	struct super_block *sb = mnt->sb;

	if (mnt->mountpoint) {
		mnt->mountpoint->d_mounts--;
		mnt->root->d_mount_roots--;
		dput(mnt->mountpoint);
	}
	dput(mnt->root);
	kfree(mnt->devname);
	kfree(mnt);
	if (--sb->s_active == 0)
		kill_super(sb);
}

/* A copy of mount old for another table; NULL if out of memory. */
static struct mount *clone_mount(const struct mount *old)
{
	struct mount *mnt = kzalloc(sizeof(*mnt));

	if (!mnt)
		return NULL;
	mnt->devname = strdup_k(old->devname);
	if (!mnt->devname) {
		kfree(mnt);
		return NULL;
	}
	mnt->sb = old->sb;
	mnt->sb->s_active++;
	mnt->root = dget(old->root);
	mnt->mountpoint = dget(old->mountpoint);
	mnt->flags = old->flags;
	mnt->locked = old->locked;
	attach_mount(mnt);
	return mnt;
}

/* Unmount every mount of ns's table, the last mounted first. */
static void drop_table(struct mnt_namespace *ns)
{
	while (ns->mounts) {
		struct mount **pp = &ns->mounts;
		while ((*pp)->next)
			pp = &(*pp)->next;
		struct mount *last = *pp;
		*pp = NULL;
		drop_mount(last);
	}
}

struct mnt_namespace *copy_mnt_ns(uint64_t flags, struct user_namespace *user_ns,
				  struct mnt_namespace *old)
{
	struct mnt_namespace *ns;
	struct mount **tail;

	if (!(flags & CLONE_NEWNS)) {
		old->ns.count++;
		return old;
	}
	ns = kzalloc(sizeof(*ns));
	if (!ns)
		return ERR_PTR(-ENOMEM);
	if (ns_common_init(&ns->ns, &mntns_operations)) {
		kfree(ns);
		return ERR_PTR(-ENOSPC);
	}
	ns->user_ns = get_user_ns(user_ns);
	tail = &ns->mounts;
	for (struct mount *m = old->mounts; m; m = m->next) {
		if (!(*tail = clone_mount(m))) {
			put_mnt_ns(ns);
			return ERR_PTR(-ENOMEM);
		}
		/* Copied for a less privileged owner: what the mounts hide
		 * stays hidden (Linux's lock_mnt_tree). */
		if (user_ns != old->user_ns)
			(*tail)->locked = true;
		tail = &(*tail)->next;
	}
	return ns;
}

void put_mnt_ns(struct mnt_namespace *ns)
{
	if (--ns->ns.count > 0)
		return;
	drop_table(ns);
	ns_free_inum(ns->ns.inum);
	put_user_ns(ns->user_ns);
	kfree(ns);
}

static struct ns_common *mntns_get(struct task *t)
{
	if (!t->nsproxy)
		return NULL;
	t->nsproxy->mnt_ns->ns.count++;
	return &t->nsproxy->mnt_ns->ns;
}

static void mntns_put(struct ns_common *ns)
{
	put_mnt_ns(container_of(ns, struct mnt_namespace, ns));
}

/* setns: root and working directory become the namespace's root; only
 * for one who does not share its fs_struct, with CAP_SYS_ADMIN in the
 * namespace's owner, CAP_SYS_CHROOT and CAP_SYS_ADMIN in the caller's
 * (next) user namespace (Linux's mntns_install). */
static int mntns_install(struct nsset *nsset, struct ns_common *new)
{
	struct mnt_namespace *ns = container_of(new, struct mnt_namespace, ns);
	struct fs_struct *fs = nsset->fs;
	struct dentry *old;

	if (!ns_capable(ns->user_ns, CAP_SYS_ADMIN) || !ns_capable(nsset->cred->user_ns, CAP_SYS_CHROOT) ||
	    !ns_capable(nsset->cred->user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	if (fs_users(fs) > 1)
		return -EINVAL;
	ns->ns.count++;
	put_mnt_ns(nsset->nsproxy->mnt_ns);
	nsset->nsproxy->mnt_ns = ns;
	old = fs->root;
	fs->root = dget(ns->mounts->root);
	dput(old);
	set_fs_pwd(fs, dget(ns->mounts->root));
	return 0;
}

static struct user_namespace *mntns_owner(struct ns_common *ns)
{
	return container_of(ns, struct mnt_namespace, ns)->user_ns;
}

const struct proc_ns_operations mntns_operations = {
	.name = "mnt",
	.type = CLONE_NEWNS,
	.get = mntns_get,
	.put = mntns_put,
	.install = mntns_install,
	.owner = mntns_owner,
};

void mnt_init_root(struct super_block *sb)
{
	static struct mount root_mnt = { .devname = "rootfs" };

	root_mnt.sb = sb;
	root_mnt.root = dget(sb->s_root);
	sb->s_active = 1;
	init_mnt_ns.mounts = &root_mnt;
}

/* The mount whose root is the dentry root, or NULL. */
struct mount *find_mount(struct dentry *root)
{
	for (struct mount *m = mount_list; m; m = m->next)
		if (m->root == root)
			return m;
	return NULL;
}

unsigned long mnt_flags(const struct dentry *d)
{
	struct mount *mnt;

	while (d->d_parent != d)
		d = d->d_parent;
	mnt = find_mount((struct dentry *)d);
	/* Not mounted any more (umount -l): its super block's flags. */
	return mnt ? mnt->flags | (mnt->sb->s_flags & MS_RDONLY) : d->d_sb->s_flags;
}

/* ---- /proc/mounts ------------------------------------------------------------- */

static void show_options(struct seq_file *m, struct mount *mnt)
{
	unsigned long f = mnt->flags | (mnt->sb->s_flags & MS_RDONLY);

	seq_puts(m, f & MS_RDONLY ? "ro" : "rw");
	if (f & MS_NOSUID)
		seq_puts(m, ",nosuid");
	if (f & MS_NODEV)
		seq_puts(m, ",nodev");
	if (f & MS_NOEXEC)
		seq_puts(m, ",noexec");
	if (f & MS_NOATIME)
		seq_puts(m, ",noatime");
	if (f & MS_NODIRATIME)
		seq_puts(m, ",nodiratime");
	if (f & MS_RELATIME)
		seq_puts(m, ",relatime");
	struct proc_fs_info *proc = proc_sb_info(mnt->sb);
	static const char *const hidepid[] = { "off", "noaccess", "invisible", "?", "ptraceable" };
	if (proc && proc->pid_gid)
		seq_printf(m, ",gid=%u", proc->pid_gid);
	if (proc && proc->hide_pid)
		seq_printf(m, ",hidepid=%s", hidepid[proc->hide_pid]);
	if (proc && proc->pidonly)
		seq_puts(m, ",subset=pid");
	if (mnt->sb->s_magic == TMPFS_MAGIC && mnt->mountpoint) {
		mode_t mode = mnt->root->d_inode->i_mode & 07777;
		if (mode != 01777)
			seq_printf(m, ",mode=%03o", mode);
		seq_puts(m, ",inode64");
	}
}

int show_mounts(struct seq_file *m, struct task *t)
{
	char *buf;

	if (!t->fs)
		return -ENOENT; /* exited */
	if (!(buf = kmalloc(PATH_MAX)))
		return -ENOMEM;
	/* d_covers and d_path ask current's table: this one's for the walk. */
	struct nsproxy *mine = current->nsproxy;
	if (t->nsproxy)
		current->nsproxy = t->nsproxy;
	for (struct mount *mnt = mount_list; mnt; mnt = mnt->next) {
		char *path = d_path(mnt->root, t->fs->root, buf, PATH_MAX);
		if (IS_ERR(path))
			continue;
		/* Spaces and such in a name are escaped as octal, as Linux. */
		seq_printf(m, "%s ", mnt->devname);
		for (const char *p = path; *p; p++) {
			if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\\')
				seq_printf(m, "\\%03o", (unsigned char)*p);
			else
				seq_putc(m, *p);
		}
		seq_printf(m, " %s ", mnt->sb->s_type);
		show_options(m, mnt);
		seq_puts(m, " 0 0\n");
	}
	current->nsproxy = mine;
	kfree(buf);
	return 0;
}

/* ---- mount ------------------------------------------------------------------------ */

/* Parse tmpfs's options into its new root: mode=, uid=, gid= (octal,
 * decimal); others (size=, nr_inodes=) are accepted and ignored. */
static int tmpfs_options(struct inode *root, char *data)
{
	char *opt = data;

	while (opt && *opt) {
		char *next = strchr(opt, ',');
		unsigned long v = 0;
		char *val;
		bool octal;

		if (next)
			*next++ = '\0';
		val = strchr(opt, '=');
		if (val) {
			*val++ = '\0';
			octal = strcmp(opt, "mode") == 0;
			if (!*val)
				return -EINVAL;
			for (char *p = val; *p; p++) {
				if (*p < '0' || *p > (octal ? '7' : '9'))
					return strcmp(opt, "size") == 0 || strcmp(opt, "nr_inodes") == 0 ? 0 : -EINVAL;
				v = v * (octal ? 8 : 10) + (*p - '0');
			}
			if (octal)
				root->i_mode = (root->i_mode & S_IFMT) | (v & 07777);
			else if (strcmp(opt, "uid") == 0)
				root->i_uid = v;
			else if (strcmp(opt, "gid") == 0)
				root->i_gid = v;
		}
		opt = next;
	}
	return 0;
}

/* A user string of at most max bytes, kmalloc'd; NULL stays NULL. */
static char *copy_mount_string(const char __user *s, long max)
{
	char *k;
	long len;

	if (!s)
		return NULL;
	k = kmalloc(max);
	if (!k)
		return ERR_PTR(-ENOMEM);
	len = strncpy_from_user(k, s, max);
	if (len < 0) {
		kfree(k);
		return ERR_PTR(len == -ENAMETOOLONG ? -EINVAL : len);
	}
	return k;
}

/*
 * The options (mount(2)'s data) of a registered type, which has none of
 * its own (binfmt_misc), as Linux reads them for such a type: words
 * separated by commas, each the name of a super block flag, "ro" making a
 * new super block read-only (any "=value" is ignored), or "source=NAME"
 * when mount(2) was given no source; anything else is EINVAL.
 */
static int common_mount_options(char *data, const char **source, bool *ro)
{
	static const char *const sb_flags[] = { "dirsync", "lazytime", "mand", "ro", "sync",
						"async", "nolazytime", "nomand", "rw" };
	char *word = data;

	while (word && *word) {
		char *next = strchr(word, ',');
		char *value = strchr(word, '=');
		size_t i;

		if (next)
			*next++ = '\0';
		if (value)
			*value++ = '\0';
		for (i = 0; i < sizeof(sb_flags) / sizeof(sb_flags[0]); i++)
			if (strcmp(word, sb_flags[i]) == 0)
				break;
		if (i < sizeof(sb_flags) / sizeof(sb_flags[0])) {
			if (strcmp(word, "ro") == 0 || strcmp(word, "rw") == 0)
				*ro = word[1] == 'o';
		} else if (strcmp(word, "source") == 0 && value && !*source) {
			*source = value;
		} else if (*word) {
			return -EINVAL;
		}
		word = next;
	}
	return 0;
}

/* Remove every name below root, deepest first (an "rm -rf" that no
 * permission stops). Files still open live on until closed. */
static void kill_tree(struct dentry *root)
{
	struct dentry *d = root;

	for (;;) {
		struct dentry *parent;

		if (d->d_first_child) {
			d = d->d_first_child;
			continue;
		}
		if (d == root)
			return;
		parent = d->d_parent;
		if (d->d_inode)
			d->d_inode->i_nlink = 0;
		d_delete(d);
		d = parent;
	}
}

/*
 * Its last mount is gone: take the filesystem apart (Linux's
 * deactivate_super and kill_sb). The filesystem lets go of its own things
 * first (binfmt_misc: its entries), then the names go and the super
 * block's reference on its root; the super block itself is freed with its
 * last inode (fs/super.c), after the last open file.
 */
void kill_super(struct super_block *sb)
{
	struct dentry *root = sb->s_root;

	if (sb->s_fs_type && sb->s_fs_type->kill_sb)
		sb->s_fs_type->kill_sb(sb);
	sb->s_unmounted = true;
	kill_tree(root);
	root->d_inode->i_nlink = 0;
	dput(root);
}

/* One more root dentry for the root of sb, for one more mount of it. */
struct dentry *d_alloc_root_alias(struct super_block *sb)
{
	struct dentry *d = d_make_root(igrab(sb->s_root->d_inode));

	if (!d)
		iput(sb->s_root->d_inode);
	return d;
}

/*
 * May current make a new mount of type? Linux's mount_capable: a type a
 * user namespace may mount (FS_USERNS_MOUNT) asks for CAP_SYS_ADMIN in
 * the namespace that owns what it shows (proc: the owner of the caller's
 * pid namespace; tmpfs, ramfs: the caller's); any other, in the initial.
 */
static bool mount_capable(const char *type)
{
	if (!strcmp(type, "proc"))
		return ns_capable(task_active_pid_ns(current)->user_ns, CAP_SYS_ADMIN);
	if (!strcmp(type, "ramfs") || !strcmp(type, "tmpfs"))
		return ns_capable(current_user_ns(), CAP_SYS_ADMIN);
	return capable(CAP_SYS_ADMIN);
}

static long do_new_mount(struct dentry *target, const char *type, const char *devname,
			 unsigned long flags, char *data)
{
	struct file_system_type *fs_type = NULL;
	struct super_block *sb;
	struct dentry *root;
	struct mount *mnt;
	bool ro = false;
	long err;

	if (!type)
		return -EINVAL;
	if (strcmp(type, "proc") == 0) {
		/* Its options as fsconfig takes them (gid=, hidepid=, subset=). */
		struct fs_context *fc = fs_context_for_mount("proc");
		if (IS_ERR(fc))
			return PTR_ERR(fc);
		err = parse_monolithic_mount_data(fc, data);
		if (!err && !mount_capable(type))
			err = -EPERM;
		if (!err)
			err = vfs_get_tree(fc);
		sb = fc->sb;
		ro = fc->sb_flags & MS_RDONLY;
		fc->sb = NULL; /* ours now */
		put_fs_context(fc);
		if (err)
			return err;
	} else if (strcmp(type, "ramfs") == 0 || strcmp(type, "tmpfs") == 0) {
		if (!mount_capable(type))
			return -EPERM;
		sb = ramfs_mount(strcmp(type, "ramfs") == 0 ? "ramfs" : "tmpfs");
	} else {
		/* A registered type, maybe from a module loaded now ("fs-TYPE"). */
		fs_type = get_fs_type(type);
		if (!fs_type)
			return -ENODEV;
		if (!mount_capable(type)) {
			put_filesystem(fs_type);
			return -EPERM;
		}
		err = common_mount_options(data, &devname, &ro);
		if (err) {
			put_filesystem(fs_type);
			return err;
		}
		sb = mount_fs_type(fs_type); /* the module reference goes with sb */
	}
	if (!sb)
		return -ENOMEM;
	root = NULL;
	/* Not on the root of a mount of the very same filesystem (Linux). */
	err = -EBUSY;
	if (target->d_sb == sb && find_mount(target))
		goto fail;
	/* The only instance of its type, already mounted: a root of its own. */
	root = sb->s_root->d_mount_roots ? d_alloc_root_alias(sb) : dget(sb->s_root);
	err = -ENOMEM;
	if (!root)
		goto fail;
	if (sb->s_magic == TMPFS_MAGIC) {
		root->d_inode->i_mode = S_IFDIR | 01777; /* tmpfs's default, unlike ramfs's 0755 */
		err = tmpfs_options(root->d_inode, data);
		if (err)
			goto fail;
	}
	err = -ENOMEM;
	mnt = kzalloc(sizeof(*mnt));
	if (!mnt)
		goto fail;
	mnt->devname = strdup_k(devname ? devname : "none");
	if (!mnt->devname) {
		kfree(mnt);
		goto fail;
	}
	mnt->sb = sb;
	mnt->root = root;
	mnt->flags = flags & MNT_FLAGS;
	if (!(flags & (MS_NOATIME | MS_STRICTATIME)))
		mnt->flags |= MS_RELATIME;
	if (sb->s_active++ == 0)
		sb->s_flags = mnt->flags | (ro ? MS_RDONLY : 0);
	mnt->mountpoint = dget(target);
	attach_mount(mnt);
	/* At the end of the list: /proc/mounts shows the order of mounting. */
	struct mount **pp = &mount_list;
	while (*pp)
		pp = &(*pp)->next;
	*pp = mnt;
	return 0;
fail:
	dput(root);
	if (sb->s_active == 0)
		kill_super(sb);
	return err;
}

/* mount and umount: CAP_SYS_ADMIN in the owner of the caller's mount
 * namespace (Linux's may_mount). */
static bool may_mount(void)
{
	return ns_capable(current_mnt_ns()->user_ns, CAP_SYS_ADMIN);
}

long sys_mount(const char __user *dev_name, const char __user *dir_name, const char __user *type,
	       unsigned long flags, void __user *data)
{
	char *dir = NULL, *ktype = NULL, *dev = NULL, *kdata = NULL;
	struct dentry *target;
	long err;

	if (!may_mount())
		return -EPERM;
	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~MS_MGC_MSK;
	dir = getname(dir_name, false);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	ktype = copy_mount_string(type, PAGE_SIZE);
	err = PTR_ERR(ktype);
	if (IS_ERR(ktype))
		goto out;
	dev = copy_mount_string(dev_name, PAGE_SIZE);
	err = PTR_ERR(dev);
	if (IS_ERR(dev))
		goto out;
	kdata = copy_mount_string(data, PAGE_SIZE);
	err = PTR_ERR(kdata);
	if (IS_ERR(kdata))
		goto out;
	err = kern_path_at(AT_FDCWD, dir, LOOKUP_FOLLOW, &target);
	if (err)
		goto out;
	/* Not for a user namespace's root: a remount here changes the super
	 * block, shared with other namespaces, and there are no locked flags
	 * to keep a move from revealing what is below. (A change of
	 * propagation changes nothing: every mount is private.) */
	if ((flags & (MS_REMOUNT | MS_MOVE)) && !capable(CAP_SYS_ADMIN)) {
		err = -EPERM;
	} else if (flags & (MS_REMOUNT | MS_PROPAGATION)) {
		/* Both only for the root of a mount. There is no propagation
		 * (every mount is private), and remount changes the flags. */
		struct mount *mnt = find_mount(target);
		err = -EINVAL;
		if (mnt) {
			err = 0;
			if (flags & MS_REMOUNT) {
				mnt->flags = (mnt->flags & ~MNT_FLAGS) | (flags & MNT_FLAGS);
				if (!(flags & (MS_NOATIME | MS_STRICTATIME)))
					mnt->flags |= MS_RELATIME;
				mnt->sb->s_flags = mnt->flags;
			}
		}
	} else if (flags & MS_MOVE) {
		struct dentry *from;
		err = -EINVAL;
		if (dev && *dev && !(err = kern_path_at(AT_FDCWD, dev, LOOKUP_FOLLOW, &from))) {
			err = do_move_mount(from, target);
			dput(from);
		}
	} else if (flags & MS_BIND) {
		err = -EINVAL;
	} else if (!S_ISDIR(target->d_inode->i_mode)) {
		err = -ENOTDIR;
	} else if (target->d_flags & DCACHE_DETACHED) {
		/* /proc/PID/...: the next lookup makes a new dentry, so the mount
		 * could never be seen, nor unmounted. */
		err = -EINVAL;
	} else {
		err = do_new_mount(target, ktype, dev, flags, kdata);
	}
	dput(target);
out:
	putname(dir);
	if (!IS_ERR(ktype))
		kfree(ktype);
	if (!IS_ERR(dev))
		kfree(dev);
	if (!IS_ERR(kdata))
		kfree(kdata);
	return err;
}

/* ---- umount ------------------------------------------------------------------------ */

/* The next dentry of a walk over the tree below root, in depth-first order. */
static struct dentry *next_dentry(struct dentry *d, struct dentry *root)
{
	if (d->d_first_child)
		return d->d_first_child;
	while (d != root) {
		if (d->d_next)
			return d->d_next;
		d = d->d_parent;
	}
	return NULL;
}

/* Is anything below root in use? extra: references the caller holds on root. */
static bool tree_busy(struct dentry *root, int extra)
{
	for (struct dentry *d = root; d; d = next_dentry(d, root)) {
		/* Other namespaces' mounts hold their mount points and roots. */
		int expected = 1 + (int)d->d_nr_children + (d == root ? extra + (int)d->d_mount_roots - 1 : 0) +
			       (int)d->d_mounts;
		if (d_mounted(d) || d->d_count > expected)
			return true;
	}
	return false;
}

long sys_umount2(const char __user *name, int flags)
{
	struct mount *mnt, **pp;
	struct dentry *d, *root;
	char *path;
	long err;

	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	if ((flags & MNT_EXPIRE) && (flags & (MNT_FORCE | MNT_DETACH)))
		return -EINVAL;
	path = getname(name, false);
	if (IS_ERR(path))
		return PTR_ERR(path);
	err = kern_path_at(AT_FDCWD, path, (flags & UMOUNT_NOFOLLOW) ? 0 : LOOKUP_FOLLOW, &d);
	putname(path);
	if (err)
		return err;
	/* As Linux: the name is looked up first, then the privilege asked. */
	if (!may_mount()) {
		dput(d);
		return -EPERM;
	}
	mnt = find_mount(d);
	if (!mnt || !mnt->mountpoint || mnt->locked) {
		dput(d);
		return -EINVAL; /* not a mount point, the root filesystem, or locked */
	}
	if (flags & MNT_EXPIRE) {
		dput(d);
		return -EAGAIN; /* Linux: marked for expiry, not yet unmounted */
	}
	/* Beyond the mount's reference: ours, and the super block's on its root. */
	if (tree_busy(d, 1 + (d == d->d_sb->s_root)) && !(flags & MNT_DETACH)) {
		dput(d);
		return -EBUSY;
	}
	dput(d);
	root = mnt->root;
	for (struct dentry *e = root; e; e = next_dentry(e, root))
		if (d_mounted(e))
			return -EBUSY; /* even lazily: mounts below go first */
	/* Detach it from the tree and the table. */
	for (pp = &mount_list; *pp != mnt; pp = &(*pp)->next)
		;
	*pp = mnt->next;
	drop_mount(mnt); /* the last mount of the filesystem takes it apart */
	return 0;
}

/* ---- chroot --------------------------------------------------------------------------- */

long sys_chroot(const char __user *filename)
{
	char *path = getname(filename, false);
	struct dentry *d, *old;
	long err;

	if (IS_ERR(path))
		return PTR_ERR(path);
	err = kern_path_at(AT_FDCWD, path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &d);
	putname(path);
	if (err)
		return err;
	err = inode_permission(d->d_inode, MAY_EXEC);
	if (!err && !ns_capable(current_user_ns(), CAP_SYS_CHROOT))
		err = -EPERM;
	if (err) {
		dput(d);
		return err;
	}
	old = current->fs->root;
	current->fs->root = d;
	dput(old);
	return 0;
}
