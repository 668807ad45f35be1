/*
 * open.c - opening and closing files, and the calls that change a file's
 * attributes or a process's place in the tree: access, chdir, truncate,
 * chmod, chown, umask.
 *
 * open itself is a path walk (fs/namei.c, do_filp_open) followed by
 * installing the new struct file at the lowest free descriptor.
 */
#include "vfs.h"
#include <cred.h>
#include <sched.h>
#include <uaccess.h>

#define O_LARGEFILE 00100000 /* always set by open(2) on 64-bit Linux (F_GETFL shows it) */

/* ---- open and close ------------------------------------------------------- */

long sys_openat(int dfd, const char __user *filename, int flags, mode_t mode)
{
	struct files_struct *files = current->files;
	struct file *file;
	char *path;
	int fd;

	if (get_unused_fd(files, 0) < 0)
		return -EMFILE;
	path = getname(filename, false);
	if (IS_ERR(path))
		return PTR_ERR(path);
	file = do_filp_open(dfd, path, (flags & ~__FMODE_EXEC) | O_LARGEFILE, mode);
	putname(path);
	if (IS_ERR(file))
		return PTR_ERR(file);
	fd = get_unused_fd(files, 0);
	if (fd < 0) {
		fput(file);
		return fd;
	}
	fd_install(files, fd, file, flags & O_CLOEXEC);
	return fd;
}

long sys_open(const char __user *filename, int flags, mode_t mode)
{
	return sys_openat(AT_FDCWD, filename, flags, mode);
}

long sys_creat(const char __user *filename, mode_t mode)
{
	return sys_openat(AT_FDCWD, filename, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

long sys_close(int fd)
{
	struct file *file = fd_remove(current->files, fd);

	if (!file)
		return -EBADF;
	fput(file);
	return 0;
}

/* ---- access --------------------------------------------------------------- */

#define ACCESS_AT_FLAGS (AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)

/*
 * access(2) checks with the real uid and gid (AT_EACCESS: the effective
 * ones), so that a set-user-ID program can ask what its caller may do.
 */
long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags)
{
	struct dentry *d;
	long err;

	if (mode & ~7)
		return -EINVAL;
	if (flags & ~ACCESS_AT_FLAGS)
		return -EINVAL;
	err = user_path_at(dfd, filename, at_lookup_flags(flags), &d);
	if (err)
		return err;
	if ((mode & MAY_WRITE) && may_write_sb(d->d_inode))
		err = -EROFS;
	else if (flags & AT_EACCESS)
		err = generic_permission(d->d_inode, mode, current_euid(), current_egid());
	else
		err = generic_permission(d->d_inode, mode, current_uid(), current_gid());
	dput(d);
	return err;
}

long sys_faccessat(int dfd, const char __user *filename, int mode)
{
	return sys_faccessat2(dfd, filename, mode, 0);
}

long sys_access(const char __user *filename, int mode)
{
	return sys_faccessat2(AT_FDCWD, filename, mode, 0);
}

/* ---- the working directory -------------------------------------------------- */

static long change_dir(struct dentry *d)
{
	int err = inode_permission(d->d_inode, MAY_EXEC);
	if (err) {
		dput(d);
		return err;
	}
	set_fs_pwd(current->fs, d);
	return 0;
}

long sys_chdir(const char __user *filename)
{
	char *path = getname(filename, false);
	struct dentry *d;
	long err;

	if (IS_ERR(path))
		return PTR_ERR(path);
	err = kern_path_at(AT_FDCWD, path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &d);
	putname(path);
	return err ? err : change_dir(d);
}

long sys_fchdir(int fd)
{
	struct file *file = fcheck(fd);

	if (!file)
		return -EBADF;
	if (!file->f_dentry || !S_ISDIR(file->f_inode->i_mode))
		return -ENOTDIR;
	return change_dir(dget(file->f_dentry));
}

/* ---- truncate ----------------------------------------------------------------- */

/* Set the size of a regular file's inode; other kinds of files ignore it. */
static int do_truncate(struct inode *inode, loff_t length)
{
	if (length < 0)
		return -EINVAL;
	if (!S_ISREG(inode->i_mode) || !inode->i_op || !inode->i_op->truncate)
		return 0;
	return inode->i_op->truncate(inode, length);
}

/* truncate(2) and open's O_TRUNC: excluded while the file is being executed. */
int vfs_truncate(struct dentry *dentry, loff_t length)
{
	if (dentry->d_inode->i_writecount < 0)
		return -ETXTBSY;
	return do_truncate(dentry->d_inode, length);
}

long sys_truncate(const char __user *filename, loff_t length)
{
	char *path;
	struct dentry *d;
	long err;

	if (length < 0)
		return -EINVAL;
	path = getname(filename, false);
	if (IS_ERR(path))
		return PTR_ERR(path);
	err = kern_path_at(AT_FDCWD, path, LOOKUP_FOLLOW, &d);
	putname(path);
	if (err)
		return err;
	if (S_ISDIR(d->d_inode->i_mode))
		err = -EISDIR;
	else if (!S_ISREG(d->d_inode->i_mode))
		err = -EINVAL;
	else
		err = inode_permission(d->d_inode, MAY_WRITE);
	if (!err)
		err = vfs_truncate(d, length);
	dput(d);
	return err;
}

long sys_ftruncate(int fd, loff_t length)
{
	struct file *file = fcheck(fd);

	if (!file || (file->f_mode & FMODE_PATH))
		return -EBADF;
	if (length < 0)
		return -EINVAL;
	if (!S_ISREG(file->f_inode->i_mode) || !(file->f_mode & FMODE_WRITE))
		return -EINVAL;
	return do_truncate(file->f_inode, length);
}

/* ---- chmod and chown ------------------------------------------------------------ */

static long chmod_common(struct inode *inode, mode_t mode)
{
	if (may_write_sb(inode))
		return -EROFS;
	if (!inode_owner_or_capable(inode))
		return -EPERM;
	mode &= 07777;
	/* Only a member of the file's group (or root) may set S_ISGID. */
	if (!S_ISDIR(inode->i_mode) && inode->i_gid != current_fsgid() && !capable_fsetid())
		mode &= ~S_ISGID;
	inode->i_mode = (inode->i_mode & S_IFMT) | mode;
	inode_touch_ctime(inode);
	return 0;
}

long sys_fchmodat(int dfd, const char __user *filename, mode_t mode)
{
	struct dentry *d;
	long err = user_path_at(dfd, filename, LOOKUP_FOLLOW, &d);

	if (err)
		return err;
	err = chmod_common(d->d_inode, mode);
	dput(d);
	return err;
}

long sys_chmod(const char __user *filename, mode_t mode)
{
	return sys_fchmodat(AT_FDCWD, filename, mode);
}

long sys_fchmod(int fd, mode_t mode)
{
	struct file *file = fcheck(fd);

	if (!file || (file->f_mode & FMODE_PATH))
		return -EBADF;
	return chmod_common(file->f_inode, mode);
}

/*
 * Only root gives a file away; the owner may change its group to its own
 * (effective) group. A change clears set-user-ID, and set-group-ID when the
 * group may execute, as Linux does for everyone.
 */
static long chown_common(struct inode *inode, uid_t uid, gid_t gid)
{
	bool root = current_fsuid() == 0;

	if (may_write_sb(inode))
		return -EROFS;
	if (uid != (uid_t)-1 && uid != inode->i_uid && !root)
		return -EPERM;
	if (gid != (gid_t)-1 && gid != inode->i_gid && !root &&
	    (current_fsuid() != inode->i_uid || gid != current_fsgid()))
		return -EPERM;
	if (uid != (uid_t)-1)
		inode->i_uid = uid;
	if (gid != (gid_t)-1)
		inode->i_gid = gid;
	if (!S_ISDIR(inode->i_mode) && (uid != (uid_t)-1 || gid != (gid_t)-1)) {
		inode->i_mode &= ~S_ISUID;
		if (inode->i_mode & 0010)
			inode->i_mode &= ~S_ISGID;
	}
	inode_touch_ctime(inode);
	return 0;
}

long sys_fchownat(int dfd, const char __user *filename, uid_t uid, gid_t gid, int flags)
{
	struct dentry *d;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(dfd, filename, at_lookup_flags(flags), &d);
	if (err)
		return err;
	err = chown_common(d->d_inode, uid, gid);
	dput(d);
	return err;
}

long sys_chown(const char __user *filename, uid_t uid, gid_t gid)
{
	return sys_fchownat(AT_FDCWD, filename, uid, gid, 0);
}

long sys_lchown(const char __user *filename, uid_t uid, gid_t gid)
{
	return sys_fchownat(AT_FDCWD, filename, uid, gid, AT_SYMLINK_NOFOLLOW);
}

long sys_fchown(int fd, uid_t uid, gid_t gid)
{
	struct file *file = fcheck(fd);

	if (!file || (file->f_mode & FMODE_PATH))
		return -EBADF;
	return chown_common(file->f_inode, uid, gid);
}

long sys_umask(int mask)
{
	mode_t old = current->fs->umask;
	current->fs->umask = mask & 0777;
	return old;
}
