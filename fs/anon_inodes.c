/*
 * anon_inodes.c - anon_inodefs, the internal filesystem of files that have
 * no name: pidfds (kernel/pidfd.c) and the like.
 *
 * As in Linux, every such file is a file on one shared inode, made at the
 * first use and kept for good: mode 0600 with no file type (fstat shows
 * st_mode 0600), owned by whoever made it first (at boot, root). What a
 * file is and does comes from the operations and private data it is given,
 * not from the inode. Its name, "[pidfd]", is kept in the file itself
 * (f_anon_name), since it has no dentry: /proc/PID/fd/N shows
 * "anon_inode:[pidfd]" (fs/proc/base.c).
 */
#include "vfs.h"
#include <linux/anon_inodes.h>
#include <mm.h>
#include <sched.h>

static struct inode *anon_inode;

/* The shared inode, made at the first call. NULL if out of memory. */
static struct inode *get_anon_inode(void)
{
	struct super_block *sb;

	if (anon_inode)
		return anon_inode;
	sb = kzalloc(sizeof(*sb));
	if (!sb)
		return NULL;
	sb->s_dev = get_anon_dev();
	sb->s_next_ino = 1;
	sb->s_type = "anon_inodefs";
	sb->s_magic = ANON_INODE_FS_MAGIC;
	anon_inode = new_inode(sb, 0600);
	if (!anon_inode) {
		kfree(sb);
		return NULL;
	}
	anon_inode->i_nlink = 1; /* named nowhere, but never freed either */
	return anon_inode;
}

struct file *anon_inode_getfile(const char *name, const struct file_operations *fops,
				void *priv, int flags)
{
	struct inode *inode = get_anon_inode();
	unsigned int acc = flags & O_ACCMODE, mode = 0;
	struct file *file;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (acc == O_RDONLY || acc == O_RDWR)
		mode |= FMODE_READ;
	if (acc == O_WRONLY || acc == O_RDWR)
		mode |= FMODE_WRITE;
	file = alloc_file(NULL, inode, flags & (O_ACCMODE | O_NONBLOCK), mode);
	if (!file)
		return ERR_PTR(-ENOMEM);
	/* No pread or pwrite; lseek only if the file has an llseek
	 * (eventfd's noop_llseek), else ESPIPE: Linux's alloc_file. */
	nonseekable_open(file);
	if (fops->llseek)
		file->f_mode |= FMODE_LSEEK;
	file->f_op = fops;
	file->private_data = priv;
	file->f_anon_name = name;
	return file;
}

int anon_inode_getfd(const char *name, const struct file_operations *fops, void *priv, int flags)
{
	struct file *file = anon_inode_getfile(name, fops, priv, flags);
	int fd;

	if (IS_ERR(file))
		return PTR_ERR(file);
	fd = fd_install_lowest(current->files, file, flags & O_CLOEXEC);
	if (fd < 0) {
		file->f_op = NULL; /* priv stays the caller's: no ->release */
		fput(file);
	}
	return fd;
}
