/*
 * file_table.c - struct file: one open file, shared by the descriptors that
 * dup() and fork() make from it, freed when the last of them closes.
 *
 * A file holds a reference on its dentry (or, for a file with no name such
 * as a pipe, on its inode), so a file removed while open stays readable.
 */
#include "vfs.h"
#include <mm.h>

#define FMODE_WRITER 0x100 /* holds write access on the inode (i_writecount) */

struct file *alloc_file(struct dentry *dentry, struct inode *inode,
			unsigned int flags, unsigned int mode)
{
	struct file *file = kzalloc(sizeof(*file));
	if (!file)
		return NULL;
	file->f_count = 1;
	file->f_flags = flags;
	file->f_mode = mode | FMODE_LSEEK | FMODE_PREAD | FMODE_PWRITE;
	file->f_inode = inode;
	file->f_op = inode->i_fop;
	if (dentry)
		file->f_dentry = dget(dentry);
	else
		igrab(inode);
	return file;
}

/*
 * Open a file on dentry: allocate it, take write access for a writer and
 * call the file's ->open. Returns the file or ERR_PTR; on error nothing is
 * left allocated.
 */
struct file *vfs_open(struct dentry *dentry, unsigned int flags, unsigned int mode)
{
	struct inode *inode = dentry->d_inode;
	struct file *file;
	int err;

	if ((mode & FMODE_WRITE) && (err = get_write_access(inode)) < 0)
		return ERR_PTR(err);
	file = alloc_file(dentry, inode, flags, mode);
	if (!file) {
		if (mode & FMODE_WRITE)
			put_write_access(inode);
		return ERR_PTR(-ENOMEM);
	}
	if (mode & FMODE_WRITE)
		file->f_mode |= FMODE_WRITER;
	if (!file->f_op) {
		fput(file);
		return ERR_PTR(-ENXIO);
	}
	if (file->f_op->open && (err = file->f_op->open(inode, file)) < 0) {
		file->f_op = NULL; /* no ->release for a file that did not open */
		fput(file);
		return ERR_PTR(err);
	}
	/* ->open saw O_NOCTTY (the tty); F_GETFL does not show it. */
	file->f_flags &= ~O_NOCTTY;
	return file;
}

/* Atomic: a fork copies its areas' references without the big kernel
 * lock (mm_fork), while fput may run on another CPU under it. */
struct file *get_file(struct file *file)
{
	__atomic_fetch_add(&file->f_count, 1, __ATOMIC_RELAXED);
	return file;
}

int file_count(const struct file *file)
{
	return __atomic_load_n(&file->f_count, __ATOMIC_RELAXED);
}

void fput(struct file *file)
{
	if (!file)
		return;
	BUG_ON(file_count(file) <= 0);
	/* The last put (under the big kernel lock) releases the file. */
	if (__atomic_sub_fetch(&file->f_count, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	if (file->f_ep_count)
		eventpoll_release(file);
	if (file->f_op && file->f_op->release)
		file->f_op->release(file->f_inode, file);
	if (file->f_mode & FMODE_WRITER)
		put_write_access(file->f_inode);
	if (file->f_dentry)
		dput(file->f_dentry);
	else
		iput(file->f_inode);
	kfree(file);
}

bool fput_if_not_last(struct file *file)
{
	int count = file_count(file);

	while (count > 1)
		if (__atomic_compare_exchange_n(&file->f_count, &count, count - 1, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

bool file_mmap_anonymous(const struct file *file)
{
	return file->f_op && file->f_op->mmap_anonymous;
}

int file_mmap_check(struct file *file, bool shared_write)
{
	struct inode *inode = file->f_inode;
	unsigned long magic = inode->i_sb ? inode->i_sb->s_magic : 0;

	if (file->f_mode & FMODE_PATH)
		return -EBADF;
	if (shared_write && !(file->f_mode & FMODE_WRITE))
		return -EACCES;
	if (!(file->f_mode & FMODE_READ))
		return -EACCES;
	if (file_mmap_anonymous(file))
		return 0;
	if (!S_ISREG(inode->i_mode) || (magic != RAMFS_MAGIC && magic != TMPFS_MAGIC))
		return -ENODEV;
	return 0;
}

void nonseekable_open(struct file *file)
{
	file->f_mode &= ~(FMODE_LSEEK | FMODE_PREAD | FMODE_PWRITE);
}

/* lseek for files with a size: SEEK_SET, SEEK_CUR, SEEK_END; EINVAL below 0. */
loff_t generic_file_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t base;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = file->f_pos;
		break;
	case SEEK_END:
		base = file->f_inode->i_size;
		break;
	case SEEK_DATA:
	case SEEK_HOLE:
		/* As Linux's generic_file_llseek: the whole file is data, with
		 * one hole at its end (directories: EINVAL, as dcache_dir_lseek). */
		if (S_ISDIR(file->f_inode->i_mode) || offset < 0)
			return -EINVAL;
		if (offset >= file->f_inode->i_size)
			return -ENXIO;
		file->f_pos = whence == SEEK_DATA ? offset : file->f_inode->i_size;
		return file->f_pos;
	default:
		return -EINVAL;
	}
	if ((offset > 0 && base > MAX_LFS_FILESIZE - offset) || base + offset < 0)
		return -EINVAL;
	file->f_pos = base + offset;
	return file->f_pos;
}

/* lseek on /dev/null and /dev/zero: always succeeds, position stays 0. */
loff_t noop_llseek(struct file *file, loff_t offset, int whence)
{
	(void)offset;
	(void)whence;
	file->f_pos = 0;
	return 0;
}
