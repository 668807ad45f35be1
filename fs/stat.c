/*
 * stat.c - stat, fstat, lstat, newfstatat and readlink.
 *
 * generic_fillattr (fs/inode.c) gathers an inode's attributes in a
 * struct kstat; cp_new_stat lays them out as x86-64 Linux's struct stat.
 */
#include "vfs.h"
#include <cred.h>
#include <linux/user_namespace.h>
#include <mm.h>
#include <sched.h>
#include <uaccess.h>

#define AT_NO_AUTOMOUNT 0x800

/* Linux's struct stat on x86-64 (arch/x86/include/uapi/asm/stat.h): 144 bytes. */
struct linux_stat {
	uint64_t st_dev;
	uint64_t st_ino;
	uint64_t st_nlink;
	uint32_t st_mode;
	uint32_t st_uid;
	uint32_t st_gid;
	int32_t __pad0;
	uint64_t st_rdev;
	int64_t st_size;
	int64_t st_blksize;
	int64_t st_blocks;
	uint64_t st_atime;
	uint64_t st_atime_nsec;
	uint64_t st_mtime;
	uint64_t st_mtime_nsec;
	uint64_t st_ctime;
	uint64_t st_ctime_nsec;
	int64_t __reserved[3];
};
_Static_assert(sizeof(struct linux_stat) == 144, "struct stat must match Linux");

static long cp_new_stat(const struct kstat *k, void __user *ubuf)
{
	struct linux_stat st;

	memset(&st, 0, sizeof(st));
	st.st_dev = k->dev;
	st.st_ino = k->ino;
	st.st_nlink = k->nlink;
	st.st_mode = k->mode;
	/* The owner as the caller's user namespace names it (65534: none). */
	st.st_uid = from_kuid_munged(current_user_ns(), k->uid);
	st.st_gid = from_kgid_munged(current_user_ns(), k->gid);
	st.st_rdev = k->rdev;
	st.st_size = k->size;
	st.st_blksize = PAGE_SIZE;
	st.st_blocks = k->blocks;
	st.st_atime = k->atime.tv_sec;
	st.st_atime_nsec = k->atime.tv_nsec;
	st.st_mtime = k->mtime.tv_sec;
	st.st_mtime_nsec = k->mtime.tv_nsec;
	st.st_ctime = k->ctime.tv_sec;
	st.st_ctime_nsec = k->ctime.tv_nsec;
	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

static long stat_inode(struct inode *inode, void __user *ubuf)
{
	struct kstat k;
	generic_fillattr(inode, &k);
	return cp_new_stat(&k, ubuf);
}

long sys_fstat(int fd, void __user *statbuf)
{
	struct file *file = fcheck(fd);
	return file ? stat_inode(file->f_inode, statbuf) : -EBADF;
}

long sys_newfstatat(int dfd, const char __user *filename, void __user *statbuf, int flags)
{
	struct dentry *d;
	char *path;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
		return -EINVAL;
	path = getname(filename, flags & AT_EMPTY_PATH);
	if (IS_ERR(path))
		return PTR_ERR(path);
	if (!path[0] && dfd != AT_FDCWD) { /* AT_EMPTY_PATH: the descriptor itself */
		putname(path);
		return sys_fstat(dfd, statbuf);
	}
	err = kern_path_at(dfd, path, ((flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW) |
			   LOOKUP_EMPTY, &d);
	putname(path);
	if (err)
		return err;
	err = stat_inode(d->d_inode, statbuf);
	dput(d);
	return err;
}

long sys_stat(const char __user *filename, void __user *statbuf)
{
	return sys_newfstatat(AT_FDCWD, filename, statbuf, 0);
}

long sys_lstat(const char __user *filename, void __user *statbuf)
{
	return sys_newfstatat(AT_FDCWD, filename, statbuf, AT_SYMLINK_NOFOLLOW);
}

/* readlink: the target without a NUL, cut to bufsiz; EINVAL if not a symlink. */
long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf, int bufsiz)
{
	struct dentry *d;
	struct inode *inode;
	char *path;
	long err;

	if (bufsiz <= 0)
		return -EINVAL;
	path = getname(pathname, false);
	if (IS_ERR(path))
		return PTR_ERR(path);
	err = kern_path_at(dfd, path, 0, &d);
	putname(path);
	if (err)
		return err;
	inode = d->d_inode;
	if (!S_ISLNK(inode->i_mode) || !inode->i_op || !inode->i_op->get_link) {
		err = -EINVAL;
	} else {
		const char *target = inode->i_op->get_link(inode);
		size_t len = IS_ERR(target) ? 0 : MIN(strlen(target), (size_t)bufsiz);
		if (IS_ERR(target))
			err = PTR_ERR(target);
		else
			err = copy_to_user(buf, target, len) ? -EFAULT : (long)len;
	}
	dput(d);
	return err;
}

long sys_readlink(const char __user *pathname, char __user *buf, int bufsiz)
{
	return sys_readlinkat(AT_FDCWD, pathname, buf, bufsiz);
}

/* ---- statx --------------------------------------------------------------- */

struct statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t __reserved;
};

/* Linux's struct statx (include/uapi/linux/stat.h): 256 bytes. */
struct statx {
	uint32_t stx_mask;
	uint32_t stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink;
	uint32_t stx_uid;
	uint32_t stx_gid;
	uint16_t stx_mode;
	uint16_t __spare0;
	uint64_t stx_ino;
	uint64_t stx_size;
	uint64_t stx_blocks;
	uint64_t stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	uint32_t stx_rdev_major, stx_rdev_minor;
	uint32_t stx_dev_major, stx_dev_minor;
	uint64_t __spare2[14];
};
_Static_assert(sizeof(struct statx) == 256, "struct statx must match Linux");

#define STATX_BASIC_STATS 0x7ffU
#define AT_STATX_SYNC_TYPE 0x6000

static void statx_time(struct statx_timestamp *t, const struct timespec *ts)
{
	t->tv_sec = ts->tv_sec;
	t->tv_nsec = ts->tv_nsec;
}

long sys_statx(int dfd, const char __user *filename, int flags, unsigned int mask,
	       void __user *buffer)
{
	struct dentry *d = NULL;
	struct inode *inode;
	struct statx sx;
	struct kstat k;
	char *path;
	long err;

	(void)mask;
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	path = getname(filename, flags & AT_EMPTY_PATH);
	if (IS_ERR(path))
		return PTR_ERR(path);
	if (!path[0] && dfd != AT_FDCWD) {
		struct file *file = fcheck(dfd);
		err = file ? 0 : -EBADF;
		inode = file ? file->f_inode : NULL;
	} else {
		err = kern_path_at(dfd, path, ((flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW) |
				   LOOKUP_EMPTY, &d);
		inode = d ? d->d_inode : NULL;
	}
	putname(path);
	if (err)
		return err;
	generic_fillattr(inode, &k);
	dput(d);
	memset(&sx, 0, sizeof(sx));
	sx.stx_mask = STATX_BASIC_STATS;
	sx.stx_blksize = PAGE_SIZE;
	sx.stx_nlink = k.nlink;
	sx.stx_uid = from_kuid_munged(current_user_ns(), k.uid);
	sx.stx_gid = from_kgid_munged(current_user_ns(), k.gid);
	sx.stx_mode = k.mode;
	sx.stx_ino = k.ino;
	sx.stx_size = k.size;
	sx.stx_blocks = k.blocks;
	statx_time(&sx.stx_atime, &k.atime);
	statx_time(&sx.stx_ctime, &k.ctime);
	statx_time(&sx.stx_mtime, &k.mtime);
	sx.stx_rdev_major = MAJOR(k.rdev);
	sx.stx_rdev_minor = MINOR(k.rdev);
	sx.stx_dev_major = MAJOR(k.dev);
	sx.stx_dev_minor = MINOR(k.dev);
	return copy_to_user(buffer, &sx, sizeof(sx)) ? -EFAULT : 0;
}
