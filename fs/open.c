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
#include <linux/user_namespace.h>
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
	return close_fd(fd);
}

#define CLOSE_RANGE_UNSHARE (1U << 1)
#define CLOSE_RANGE_CLOEXEC (1U << 2)

/*
 * close_range(2): close descriptors fd..max_fd (those open; the range may
 * run past the table), or with CLOSE_RANGE_CLOEXEC mark them close-on-exec.
 * CLOSE_RANGE_UNSHARE first gives the caller a table of its own if it
 * shares one (CLONE_FILES), so that the others keep theirs.
 */
long sys_close_range(unsigned int fd, unsigned int max_fd, unsigned int flags)
{
	if ((flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC)) || fd > max_fd)
		return -EINVAL;
	if ((flags & CLOSE_RANGE_UNSHARE) && current->files->count > 1) {
		struct files_struct *own = files_dup(current->files);
		if (!own)
			return -ENOMEM;
		files_put(current->files);
		current->files = own;
	}
	for (unsigned int i = fd; i <= max_fd && i < current->files->max_fds; i++) {
		if (!current->files->fd[i])
			continue;
		if (flags & CLOSE_RANGE_CLOEXEC)
			fd_set_cloexec(current->files, i, true);
		else
			filp_close(fd_remove(current->files, i));
	}
	return 0;
}

/*
 * fallocate(2): Linux's vfs_fallocate checks, in its order, then the
 * filesystem's own (only tmpfs has one here).
 */
long sys_fallocate(int fd, int mode, loff_t offset, loff_t len)
{
	struct file *file = fcheck(fd);
	struct inode *inode;

	if (!file || (file->f_mode & FMODE_PATH))
		return -EBADF;
	inode = file->f_inode;
	if (offset < 0 || len <= 0)
		return -EINVAL;
	if ((mode & ~FALLOC_FL_KNOWN) ||
	    ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE)))
		return -EOPNOTSUPP;
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (S_ISFIFO(inode->i_mode))
		return -ESPIPE;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -ENODEV;
	if ((uint64_t)offset + (uint64_t)len > (uint64_t)MAX_LFS_FILESIZE)
		return -EFBIG;
	if (!file->f_op || !file->f_op->fallocate)
		return -EOPNOTSUPP;
	return file->f_op->fallocate(file, mode, offset, len);
}

/* ---- access --------------------------------------------------------------- */

#define ACCESS_AT_FLAGS (AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)

/*
 * access(2) checks with the real uid and gid, so that a set-user-ID
 * program can ask what its caller may do: the whole call, path walk
 * included, runs with credentials whose fsuid and fsgid are the real ids,
 * and whose capabilities are root's only if the real uid is 0 (Linux's
 * access_override_creds). AT_EACCESS: the caller's own credentials.
 */
static const struct cred *access_override_creds(void)
{
	struct cred *override = prepare_creds();
	const struct cred *old;

	if (!override)
		return NULL;
	override->fsuid = override->uid;
	override->fsgid = override->gid;
	override->cap_effective = override->uid == 0 ? override->cap_permitted : CAP_EMPTY_SET;
	old = override_creds(override);
	put_cred(override); /* override_creds took its own reference */
	return old;
}

long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags)
{
	const struct cred *old = NULL;
	struct dentry *d;
	long err;

	if (mode & ~7)
		return -EINVAL;
	if (flags & ~ACCESS_AT_FLAGS)
		return -EINVAL;
	if (!(flags & AT_EACCESS)) {
		old = access_override_creds();
		if (!old)
			return -ENOMEM;
	}
	err = user_path_at(dfd, filename, at_lookup_flags(flags), &d);
	if (!err) {
		/* A regular file on a noexec mount is not executable for anyone. */
		if ((mode & MAY_EXEC) && S_ISREG(d->d_inode->i_mode) && path_noexec(d))
			err = -EACCES;
		else
			err = inode_permission(d->d_inode, mode);
		dput(d);
	}
	if (old)
		revert_creds(old);
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

/* Set the size of a regular file's inode; other kinds of files ignore it.
 * Like a write, it drops set-user-ID unless the caller has CAP_FSETID. */
static int do_truncate(struct inode *inode, loff_t length)
{
	if (length < 0)
		return -EINVAL;
	if (!S_ISREG(inode->i_mode) || !inode->i_op || !inode->i_op->truncate)
		return 0;
	int err = inode_newsize_ok(inode, length);
	if (err)
		return err;
	inode_kill_suid(inode);
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
	/* Only a member of the file's group (or CAP_FSETID) may set S_ISGID. */
	if (!S_ISDIR(inode->i_mode) && !in_group_p(inode->i_gid) && !capable(CAP_FSETID))
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

/* Linux's chown_ok: only CAP_CHOWN gives a file away; the owner may
 * "change" it to itself. */
static bool chown_ok(struct inode *inode, uid_t uid)
{
	return (current_fsuid() == inode->i_uid && uid == inode->i_uid) || capable(CAP_CHOWN);
}

/* chgrp_ok: the owner may give the file to a group it is in. */
static bool chgrp_ok(struct inode *inode, gid_t gid)
{
	if (current_fsuid() == inode->i_uid && (gid == inode->i_gid || in_group_p(gid)))
		return true;
	return capable(CAP_CHOWN);
}

/*
 * chown clears set-user-ID of anything but a directory, even when it
 * changes nothing and even for root; and set-group-ID when the group may
 * execute the file, or when the caller is neither in its group nor has
 * CAP_FSETID (Linux's setattr_should_drop_sgid). Clearing them is a mode
 * change, which only the owner (or CAP_FOWNER) may make.
 */
static long chown_common(struct inode *inode, uid_t user, gid_t group)
{
	mode_t mode = inode->i_mode, kill = 0;
	/* The ids as the kernel knows them; a name the caller's user
	 * namespace does not map is EINVAL (-1: leave it). */
	uid_t uid = make_kuid(current_user_ns(), user);
	gid_t gid = make_kgid(current_user_ns(), group);

	if (may_write_sb(inode))
		return -EROFS;
	if ((user != (uid_t)-1 && uid == INVALID_UID) || (group != (gid_t)-1 && gid == INVALID_GID))
		return -EINVAL;
	if (!S_ISDIR(mode)) {
		kill = mode & S_ISUID;
		if ((mode & S_ISGID) &&
		    ((mode & 0010) || (!in_group_p(inode->i_gid) && !capable(CAP_FSETID))))
			kill |= S_ISGID;
	}
	if (uid != (uid_t)-1 && !chown_ok(inode, uid))
		return -EPERM;
	if (gid != (gid_t)-1 && !chgrp_ok(inode, gid))
		return -EPERM;
	if (kill && !inode_owner_or_capable(inode))
		return -EPERM;
	if (uid != (uid_t)-1)
		inode->i_uid = uid;
	if (gid != (gid_t)-1)
		inode->i_gid = gid;
	inode->i_mode &= ~kill;
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
