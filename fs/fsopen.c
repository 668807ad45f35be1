/*
 * fsopen.c - the new mount API (Linux: fs/fsopen.c and the fsmount and
 * move_mount of fs/namespace.c): a mount made in steps, each a call.
 *
 *   fd = fsopen("tmpfs", FSOPEN_CLOEXEC);             a context (fs_context.h)
 *   fsconfig(fd, FSCONFIG_SET_STRING, "mode", "700", 0);  parameters, checked
 *   fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0);     the super block
 *   mfd = fsmount(fd, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV); a mount, attached nowhere
 *   move_mount(mfd, "", AT_FDCWD, "/mnt", MOVE_MOUNT_F_EMPTY_PATH); attached
 *
 * A refused parameter is EINVAL and leaves a line for read(2) on the
 * context's descriptor ("e tmpfs: Bad value for 'mode'\n"; ENODATA when
 * there is none). fsmount's descriptor is an O_PATH one on the new root;
 * closed before move_mount, the mount goes. move_mount also moves a
 * mount already attached, as mount(2)'s MS_MOVE.
 *
 * fspick(AT_FDCWD, "/proc", 0) opens a context on a mounted filesystem:
 * its parameters, then FSCONFIG_CMD_RECONFIGURE, change it (ro or rw,
 * proc's options) as a remount does.
 *
 * open_tree(AT_FDCWD, "/mnt", OPEN_TREE_CLONE) copies the mount at /mnt
 * (detached, as fsmount's) for move_mount to put elsewhere.
 *
 * Not here: open_tree's copy of a directory that is not the root of a
 * mount (a bind mount: EINVAL), of a ramfs or tmpfs mount (EINVAL), or
 * of the mounts below (AT_RECURSIVE);
 * FSCONFIG_SET_PATH and SET_FD parameters (no filesystem here takes one:
 * each is refused as its type refuses an unknown parameter).
 */
#include "fs_context.h"
#include <cred.h>
#include <linux/anon_inodes.h>
#include <mm.h>
#include <uaccess.h>

#define FSOPEN_CLOEXEC 1
#define FSMOUNT_CLOEXEC 1

enum {
	FSCONFIG_SET_FLAG, FSCONFIG_SET_STRING, FSCONFIG_SET_BINARY, FSCONFIG_SET_PATH,
	FSCONFIG_SET_PATH_EMPTY, FSCONFIG_SET_FD, FSCONFIG_CMD_CREATE, FSCONFIG_CMD_RECONFIGURE,
};

#define MOUNT_ATTR_RDONLY 0x1
#define MOUNT_ATTR_NOSUID 0x2
#define MOUNT_ATTR_NODEV 0x4
#define MOUNT_ATTR_NOEXEC 0x8
#define MOUNT_ATTR__ATIME 0x70
#define MOUNT_ATTR_RELATIME 0x0
#define MOUNT_ATTR_NOATIME 0x10
#define MOUNT_ATTR_STRICTATIME 0x20
#define MOUNT_ATTR_NODIRATIME 0x80
#define MOUNT_ATTR_NOSYMFOLLOW 0x200000
#define FSMOUNT_VALID_FLAGS (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | \
			     MOUNT_ATTR_NOEXEC | MOUNT_ATTR__ATIME | MOUNT_ATTR_NODIRATIME | \
			     MOUNT_ATTR_NOSYMFOLLOW)

#define MOVE_MOUNT_F_SYMLINKS 0x1
#define MOVE_MOUNT_F_AUTOMOUNTS 0x2
#define MOVE_MOUNT_F_EMPTY_PATH 0x4
#define MOVE_MOUNT_T_SYMLINKS 0x10
#define MOVE_MOUNT_T_AUTOMOUNTS 0x20
#define MOVE_MOUNT_T_EMPTY_PATH 0x40
#define MOVE_MOUNT_SET_GROUP 0x100
#define MOVE_MOUNT__MASK 0x177

/* mount(2)'s MS_* values, which struct mount keeps. */
#define MS_RDONLY 1
#define MS_NOSUID 2
#define MS_NODEV 4
#define MS_NOEXEC 8
#define MS_NOATIME 1024
#define MS_NODIRATIME 2048
#define MS_RELATIME (1 << 21)

/* ---- the context's descriptor ---------------------------------------------- */

/* One message a read, the oldest first; EMSGSIZE if it does not fit. */
static ssize_t fscontext_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct fs_context *fc = file->private_data;
	char *msg;
	size_t n;

	(void)pos;
	if (fc->head == fc->tail)
		return -ENODATA;
	msg = fc->log[fc->tail % FC_LOG_SIZE];
	n = strlen(msg);
	if (n > to->count)
		return -EMSGSIZE;
	fc->log[fc->tail++ % FC_LOG_SIZE] = NULL; /* taken, even if the copy faults */
	if (copy_to_iter(msg, n, to) != n)
		n = 0;
	kfree(msg);
	return n ? (ssize_t)n : -EFAULT;
}

static void fscontext_release(struct inode *inode, struct file *file)
{
	(void)inode;
	put_fs_context(file->private_data);
}

static const struct file_operations fscontext_fops = {
	.read = fscontext_read,
	.release = fscontext_release,
};

/* The context of descriptor fd: held file in *filep; ERR_PTR(-EBADF) or
 * -EINVAL for another kind of file. */
static struct fs_context *fscontext_get(int fd, struct file **filep)
{
	struct file *file = fget(fd);

	if (!file)
		return ERR_PTR(-EBADF);
	if (file->f_op != &fscontext_fops) {
		fput(file);
		return ERR_PTR(-EINVAL);
	}
	*filep = file;
	return file->private_data;
}

#define FSPICK_CLOEXEC 1
#define FSPICK_SYMLINK_NOFOLLOW 2
#define FSPICK_NO_AUTOMOUNT 4
#define FSPICK_EMPTY_PATH 8

/* A context on the filesystem mounted at path (its root: EINVAL else). */
long sys_fspick(int dfd, const char __user *path, unsigned int flags)
{
	struct fs_context *fc;
	struct dentry *d;
	long err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (flags & ~(FSPICK_CLOEXEC | FSPICK_SYMLINK_NOFOLLOW | FSPICK_NO_AUTOMOUNT | FSPICK_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(dfd, path, ((flags & FSPICK_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW) |
			   ((flags & FSPICK_EMPTY_PATH) ? LOOKUP_EMPTY : 0), &d);
	if (err)
		return err;
	fc = is_mount_root(d) ? fs_context_for_reconfigure(d) : ERR_PTR(-EINVAL);
	dput(d);
	if (IS_ERR(fc))
		return PTR_ERR(fc);
	err = anon_inode_getfd("[fscontext]", &fscontext_fops, fc,
			       O_RDWR | ((flags & FSPICK_CLOEXEC) ? O_CLOEXEC : 0));
	if (err < 0)
		put_fs_context(fc);
	return err;
}

long sys_fsopen(const char __user *_fs_name, unsigned int flags)
{
	char name[64];
	struct fs_context *fc;
	long len;
	int fd;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (flags & ~FSOPEN_CLOEXEC)
		return -EINVAL;
	len = strncpy_from_user(name, _fs_name, sizeof(name));
	if (len < 0)
		return len == -ENAMETOOLONG ? -ENODEV : len;
	fc = fs_context_for_mount(name);
	if (IS_ERR(fc))
		return PTR_ERR(fc);
	fd = anon_inode_getfd("[fscontext]", &fscontext_fops, fc,
			      O_RDWR | ((flags & FSOPEN_CLOEXEC) ? O_CLOEXEC : 0));
	if (fd < 0)
		put_fs_context(fc);
	return fd;
}

/* ---- fsconfig ----------------------------------------------------------------- */

/* Linux's checks of the arguments of each command, before the descriptor. */
static int fsconfig_check_args(unsigned int cmd, const void __user *key, const void __user *value,
			       int aux)
{
	switch (cmd) {
	case FSCONFIG_SET_FLAG:
		return !key || value || aux ? -EINVAL : 0;
	case FSCONFIG_SET_STRING:
		return !key || !value || aux ? -EINVAL : 0;
	case FSCONFIG_SET_BINARY:
		return !key || !value || aux <= 0 || aux > 1024 * 1024 ? -EINVAL : 0;
	case FSCONFIG_SET_PATH:
	case FSCONFIG_SET_PATH_EMPTY:
		return !key || !value || (aux != AT_FDCWD && aux < 0) ? -EINVAL : 0;
	case FSCONFIG_SET_FD:
		return !key || value || aux < 0 ? -EINVAL : 0;
	case FSCONFIG_CMD_CREATE:
	case FSCONFIG_CMD_RECONFIGURE:
		return key || value || aux ? -EINVAL : 0;
	}
	return -EOPNOTSUPP;
}

/* A user string of at most max bytes (EINVAL past it), kmalloc'd. */
static char *strndup_user(const char __user *s, long max)
{
	char *k = kmalloc(max + 1);
	long len;

	if (!k)
		return ERR_PTR(-ENOMEM);
	len = strncpy_from_user(k, s, max + 1);
	if (len < 0 || len > max) {
		kfree(k);
		return ERR_PTR(len < 0 && len != -ENAMETOOLONG ? len : -EINVAL);
	}
	return k;
}

/* The parameter's value, as Linux copies it for each command. */
static int fsconfig_value(unsigned int cmd, const void __user *value, int aux, struct fs_parameter *p)
{
	switch (cmd) {
	case FSCONFIG_SET_FLAG:
		p->type = FS_VALUE_FLAG;
		return 0;
	case FSCONFIG_SET_STRING:
	case FSCONFIG_SET_PATH:
	case FSCONFIG_SET_PATH_EMPTY:
		p->type = cmd == FSCONFIG_SET_STRING ? FS_VALUE_STRING : FS_VALUE_PATH;
		p->string = strndup_user(value, cmd == FSCONFIG_SET_STRING ? 256 : PATH_MAX - 1);
		if (IS_ERR(p->string))
			return PTR_ERR(p->string);
		p->size = strlen(p->string);
		return 0;
	case FSCONFIG_SET_BINARY:
		p->type = FS_VALUE_BLOB;
		p->size = aux;
		if (!(p->string = kmalloc(aux + 1)))
			return -ENOMEM;
		p->string[aux] = '\0';
		return copy_from_user(p->string, value, aux) ? -EFAULT : 0;
	case FSCONFIG_SET_FD: {
		struct file *f = fget(aux);
		if (!f)
			return -EBADF;
		fput(f);
		p->type = FS_VALUE_FD;
		return 0;
	}
	}
	return 0;
}

/* The command itself, once its arguments are in (Linux's
 * vfs_fsconfig_locked). */
static int fsconfig_locked(struct fs_context *fc, unsigned int cmd, struct fs_parameter *param)
{
	int err;

	switch (cmd) {
	case FSCONFIG_CMD_CREATE:
		if (fc->phase != FS_CONTEXT_CREATE_PARAMS)
			return -EBUSY;
		err = vfs_get_tree(fc);
		fc->phase = err ? FS_CONTEXT_FAILED : FS_CONTEXT_AWAITING_MOUNT;
		return err;
	case FSCONFIG_CMD_RECONFIGURE:
		if (fc->phase != FS_CONTEXT_RECONF_PARAMS)
			return -EBUSY;
		if (!capable(CAP_SYS_ADMIN))
			err = -EPERM;
		else if (!(err = reconfigure_super(fc)))
			vfs_clean_context(fc);
		if (err)
			fc->phase = FS_CONTEXT_FAILED;
		return err;
	}
	if (fc->phase != FS_CONTEXT_CREATE_PARAMS && fc->phase != FS_CONTEXT_RECONF_PARAMS)
		return -EBUSY;
	return vfs_parse_fs_param(fc, param);
}

long sys_fsconfig(int fd, unsigned int cmd, const char __user *_key, const void __user *_value, int aux)
{
	struct fs_parameter param = { 0 };
	struct fs_context *fc;
	struct file *file;
	char *key = NULL;
	int err;

	if (fd < 0)
		return -EINVAL;
	if ((err = fsconfig_check_args(cmd, _key, _value, aux)))
		return err;
	fc = fscontext_get(fd, &file);
	if (IS_ERR(fc))
		return PTR_ERR(fc);
	if (_key) {
		key = strndup_user(_key, 256);
		err = PTR_ERR(key);
		if (IS_ERR(key))
			goto out;
		param.key = key;
	}
	err = fsconfig_value(cmd, _value, aux, &param);
	if (!err)
		err = fsconfig_locked(fc, cmd, &param);
out:
	if (!IS_ERR_OR_NULL(param.string))
		kfree(param.string);
	if (!IS_ERR_OR_NULL(key))
		kfree(key);
	fput(file);
	return err;
}

/* ---- fsmount and move_mount ------------------------------------------------- */

/* fsmount's descriptor: its last close drops a mount never attached. */
static void detached_mount_release(struct inode *inode, struct file *file)
{
	(void)inode;
	drop_detached_mount(file->f_dentry);
}

static const struct file_operations detached_mount_fops = {
	.release = detached_mount_release,
};

/* An O_PATH descriptor on root, a detached mount's (given reference):
 * the mount goes with its last close. The descriptor or -errno. */
static long detached_mount_fd(struct dentry *root, bool cloexec)
{
	struct file *file = alloc_file(root, root->d_inode, O_PATH, FMODE_PATH);
	long fd;

	dput(root);
	if (!file) {
		drop_detached_mount(root);
		return -ENOMEM;
	}
	file->f_op = &detached_mount_fops;
	fd = fd_install_lowest(current->files, file, cloexec);
	if (fd < 0)
		fput(file);
	return fd;
}

/* MOUNT_ATTR_* to the MS_* a mount keeps; -EINVAL for a bad atime mode. */
static long attr_to_mnt_flags(unsigned int attr)
{
	long f = 0;

	if (attr & MOUNT_ATTR_RDONLY)
		f |= MS_RDONLY;
	if (attr & MOUNT_ATTR_NOSUID)
		f |= MS_NOSUID;
	if (attr & MOUNT_ATTR_NODEV)
		f |= MS_NODEV;
	if (attr & MOUNT_ATTR_NOEXEC)
		f |= MS_NOEXEC;
	if (attr & MOUNT_ATTR_NODIRATIME)
		f |= MS_NODIRATIME;
	switch (attr & MOUNT_ATTR__ATIME) {
	case MOUNT_ATTR_STRICTATIME:
		return f;
	case MOUNT_ATTR_NOATIME:
		return f | MS_NOATIME;
	case MOUNT_ATTR_RELATIME:
		return f | MS_RELATIME;
	}
	return -EINVAL;
}

long sys_fsmount(int fs_fd, unsigned int flags, unsigned int attr_flags)
{
	struct fs_context *fc;
	struct file *file;
	struct dentry *root;
	long mnt_flags, fd;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if ((flags & ~FSMOUNT_CLOEXEC) || (attr_flags & ~FSMOUNT_VALID_FLAGS))
		return -EINVAL;
	if ((mnt_flags = attr_to_mnt_flags(attr_flags)) < 0)
		return mnt_flags;
	fc = fscontext_get(fs_fd, &file);
	if (IS_ERR(fc))
		return PTR_ERR(fc);
	fd = -EINVAL; /* no super block yet (after fsmount: none of ours any more) */
	if (!fc->sb && !fc->reconf_root)
		goto out;
	fd = -EBUSY;
	if (fc->phase != FS_CONTEXT_AWAITING_MOUNT)
		goto out;
	root = mount_detached(fc, mnt_flags);
	fd = PTR_ERR(root);
	if (IS_ERR(root))
		goto out;
	/* The mount has the super block now; the context is as after fspick. */
	fc->reconf_root = igrab(fc->sb->s_root->d_inode);
	fc->sb = NULL;
	vfs_clean_context(fc);
	fd = detached_mount_fd(root, flags & FSMOUNT_CLOEXEC);
out:
	fput(file);
	return fd;
}

#define OPEN_TREE_CLONE 1
#define AT_NO_AUTOMOUNT 0x800
#define AT_RECURSIVE 0x8000

/* An O_PATH descriptor on path; with OPEN_TREE_CLONE on a detached copy
 * of the mount whose root it is, for move_mount (the mounts below it are
 * not copied: AT_RECURSIVE copies only the top one here). */
long sys_open_tree(int dfd, const char __user *path, unsigned int flags)
{
	struct dentry *d, *root;
	struct file *file;
	long err, fd;

	if (flags & ~(AT_EMPTY_PATH | AT_NO_AUTOMOUNT | AT_RECURSIVE | AT_SYMLINK_NOFOLLOW |
		      OPEN_TREE_CLONE | O_CLOEXEC))
		return -EINVAL;
	if ((flags & (AT_RECURSIVE | OPEN_TREE_CLONE)) == AT_RECURSIVE)
		return -EINVAL;
	if ((flags & OPEN_TREE_CLONE) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	err = user_path_at(dfd, path, ((flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW) |
			   ((flags & AT_EMPTY_PATH) ? LOOKUP_EMPTY : 0), &d);
	if (err)
		return err;
	if (flags & OPEN_TREE_CLONE) {
		root = clone_mount_detached(d);
		dput(d);
		return IS_ERR(root) ? PTR_ERR(root) : detached_mount_fd(root, flags & O_CLOEXEC);
	}
	file = alloc_file(d, d->d_inode, O_PATH, FMODE_PATH);
	dput(d);
	if (!file)
		return -ENOMEM;
	file->f_op = NULL; /* a handle on the name, as open's O_PATH */
	fd = fd_install_lowest(current->files, file, flags & O_CLOEXEC);
	if (fd < 0)
		fput(file);
	return fd;
}

long sys_move_mount(int from_dfd, const char __user *from_path, int to_dfd, const char __user *to_path,
		    unsigned int flags)
{
	struct dentry *from, *to;
	long err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (flags & ~MOVE_MOUNT__MASK)
		return -EINVAL;
	err = user_path_at(from_dfd, from_path,
			   ((flags & MOVE_MOUNT_F_SYMLINKS) ? LOOKUP_FOLLOW : 0) |
			   ((flags & MOVE_MOUNT_F_EMPTY_PATH) ? LOOKUP_EMPTY : 0), &from);
	if (err)
		return err;
	err = user_path_at(to_dfd, to_path,
			   ((flags & MOVE_MOUNT_T_SYMLINKS) ? LOOKUP_FOLLOW : 0) |
			   ((flags & MOVE_MOUNT_T_EMPTY_PATH) ? LOOKUP_EMPTY : 0), &to);
	if (!err) {
		/* Peer groups: there is no propagation here, no group to set. */
		err = (flags & MOVE_MOUNT_SET_GROUP) ? -EINVAL : do_move_mount(from, to);
		dput(to);
	}
	dput(from);
	return err;
}
