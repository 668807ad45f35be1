/*
 * statfs.c - statfs and fstatfs (what df shows), and the sync family.
 *
 * Every filesystem here lives in memory, so there is nothing to write
 * back: sync, syncfs, fsync and fdatasync only check their argument, as on
 * Linux's ramfs (fsync of a pipe, a tty or another device without an fsync
 * method is EINVAL there too).
 *
 * statfs answers as each filesystem does in Linux: ramfs and proc report
 * no sizes, tmpfs reports its default limits (half of memory, as many
 * inodes as half the pages) and what is used. The limits are not
 * enforced: a full tmpfs runs out of memory, not of space.
 */
#include "vfs.h"
#include <mm.h>
#include <sched.h>
#include <uaccess.h>

/* Linux's struct statfs on x86-64: 120 bytes. */
struct linux_statfs {
	uint64_t f_type, f_bsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	uint64_t f_namelen, f_frsize, f_flags, f_spare[4];
};
_Static_assert(sizeof(struct linux_statfs) == 120, "struct statfs must match Linux");

/* f_flags: ST_VALID, and the mount's flags as ST_* (statfs(2)). */
#define ST_VALID 0x0020

/* sb, and mf the flags of the mount it is seen through. */
static long do_statfs(struct super_block *sb, unsigned long mf, void __user *ubuf)
{
	struct linux_statfs st;

	memset(&st, 0, sizeof(st));
	st.f_type = sb->s_magic;
	st.f_bsize = PAGE_SIZE;
	st.f_frsize = PAGE_SIZE;
	st.f_namelen = NAME_MAX;
	/* MS_RDONLY.. MS_NOEXEC are ST_RDONLY.. ST_NOEXEC; NOATIME, NODIRATIME
	 * and RELATIME move from bits 10, 11, 21 to 10, 11, 12. */
	st.f_flags = ST_VALID | (mf & 0xf) | (mf & 0xc00) | ((mf >> 21) & 1) << 12;
	if (sb->s_magic == TMPFS_MAGIC) {
		uint64_t blocks = nr_total_pages() / 2;
		st.f_blocks = blocks;
		st.f_bfree = st.f_bavail = blocks > sb->s_pages ? blocks - sb->s_pages : 0;
		st.f_files = nr_total_pages() / 2;
		st.f_ffree = st.f_files > (uint64_t)sb->s_inodes ? st.f_files - sb->s_inodes : 0;
	}
	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

long sys_statfs(const char __user *pathname, void __user *buf)
{
	struct dentry *d;
	long err = user_path_at(AT_FDCWD, pathname, LOOKUP_FOLLOW, &d);

	if (err)
		return err;
	err = do_statfs(d->d_sb, mnt_flags(d), buf);
	dput(d);
	return err;
}

long sys_fstatfs(int fd, void __user *buf)
{
	struct file *file = fcheck(fd);

	if (!file)
		return -EBADF;
	if (file->f_dentry)
		return do_statfs(file->f_dentry->d_sb, mnt_flags(file->f_dentry), buf);
	return do_statfs(file->f_inode->i_sb, file->f_inode->i_sb->s_flags, buf);
}

long sys_sync(void)
{
	return 0;
}

long sys_syncfs(int fd)
{
	return fcheck(fd) ? 0 : -EBADF;
}

long sys_fsync(int fd)
{
	struct file *file = fcheck(fd);
	mode_t mode;

	if (!file || (file->f_mode & FMODE_PATH))
		return -EBADF;
	mode = file->f_inode->i_mode;
	/* Files of a filesystem have an fsync method (a no-op in memory);
	 * devices, pipes, /proc files and binfmt_misc's files (not its
	 * directory) have none. */
	if (S_ISREG(mode) && file->f_inode->i_sb->s_magic == BINFMTFS_MAGIC)
		return -EINVAL;
	if ((S_ISREG(mode) || S_ISDIR(mode)) && file->f_inode->i_sb->s_magic != PROC_SUPER_MAGIC)
		return 0;
	return -EINVAL;
}

long sys_fdatasync(int fd)
{
	return sys_fsync(fd);
}
