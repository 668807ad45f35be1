/*
 * inode.c - inodes: allocation, reference counts, permissions, time stamps.
 *
 * An inode lives while something refers to it (i_count: its dentries, or a
 * pipe) or a directory still names it (i_nlink). When both reach zero the
 * filesystem's evict() frees its data and the inode goes. On pipefs and
 * proc, whose inodes are made on demand, the last reference is enough.
 * Each inode holds its super block (s_inodes), so a filesystem that was
 * unmounted while a file on it stayed open goes away with that file.
 *
 * Permissions follow Linux's generic_permission: the owner's, the group's
 * or the others' bits apply, chosen by the file system uid and gid (here the
 * effective ones). Root bypasses read and write checks, and search on
 * directories, but executes a file only if at least one x bit is set.
 */
#include "vfs.h"
#include <cred.h>
#include <mm.h>
#include <sched.h>

/* A new inode with one reference, numbered on sb, owned by current. */
struct inode *new_inode(struct super_block *sb, mode_t mode)
{
	struct inode *inode = kzalloc(sizeof(*inode));
	if (!inode)
		return NULL;
	inode->i_sb = sb;
	sb->s_inodes++;
	inode->i_ino = sb->s_next_ino++;
	inode->i_mode = mode;
	inode->i_uid = current_fsuid();
	inode->i_gid = current_fsgid();
	inode->i_count = 1;
	inode_now(&inode->i_mtime);
	inode->i_atime = inode->i_ctime = inode->i_mtime;
	return inode;
}

struct inode *igrab(struct inode *inode)
{
	inode->i_count++;
	return inode;
}

/* Drop a reference; free the inode when it is neither used nor named
 * (pipes and proc files: when it is not used). */
void iput(struct inode *inode)
{
	struct super_block *sb;

	if (!inode)
		return;
	BUG_ON(inode->i_count <= 0);
	sb = inode->i_sb;
	if (--inode->i_count > 0 || (inode->i_nlink > 0 && !(sb && sb->s_drop_unused)))
		return;
	if (inode->i_op && inode->i_op->evict)
		inode->i_op->evict(inode);
	kfree(inode);
	if (sb)
		put_super(sb);
}

uid_t current_fsuid(void) { return current ? current_cred()->fsuid : 0; }
gid_t current_fsgid(void) { return current ? current_cred()->fsgid : 0; }

int generic_permission(struct inode *inode, int mask, uid_t uid, gid_t gid)
{
	mode_t mode = inode->i_mode;
	unsigned int bits;

	if (uid == inode->i_uid)
		bits = (mode >> 6) & 7;
	else if (gid == inode->i_gid)
		bits = (mode >> 3) & 7;
	else
		bits = mode & 7;
	if ((mask & ~bits & 7) == 0)
		return 0;
	if (uid != 0)
		return -EACCES;
	/* Root (CAP_DAC_OVERRIDE): anything but executing a file no x bit allows. */
	if (!(mask & MAY_EXEC) || S_ISDIR(mode) || (mode & 0111))
		return 0;
	return -EACCES;
}

int may_write_sb(struct inode *inode)
{
	mode_t m = inode->i_mode;

	if (inode->i_sb && (inode->i_sb->s_flags & SB_RDONLY) && (S_ISREG(m) || S_ISDIR(m) || S_ISLNK(m)))
		return -EROFS;
	return 0;
}

/* A read-only filesystem refuses writing before any permission is looked at. */
int inode_permission(struct inode *inode, int mask)
{
	if ((mask & MAY_WRITE) && may_write_sb(inode))
		return -EROFS;
	return generic_permission(inode, mask, current_fsuid(), current_fsgid());
}

bool inode_owner_or_capable(struct inode *inode)
{
	uid_t uid = current_fsuid();
	return uid == 0 || uid == inode->i_uid;
}

/* Whether chmod by current keeps S_ISGID on a file of another group. */
bool capable_fsetid(void) { return current_fsuid() == 0; }

void inode_now(struct timespec *ts)
{
	ktime_get_real(ts);
}

void inode_touch_ctime(struct inode *inode)
{
	inode_now(&inode->i_ctime);
}

void inode_touch_mtime(struct inode *inode)
{
	inode_now(&inode->i_mtime);
	inode->i_ctime = inode->i_mtime;
}

void inode_inc_link_count(struct inode *inode)
{
	inode->i_nlink++;
	inode_touch_ctime(inode);
}

void inode_dec_link_count(struct inode *inode)
{
	if (inode->i_nlink > 0)
		inode->i_nlink--;
	inode_touch_ctime(inode);
}

void generic_fillattr(struct inode *inode, struct kstat *stat)
{
	stat->dev = inode->i_sb ? inode->i_sb->s_dev : 0;
	stat->ino = inode->i_ino;
	stat->mode = inode->i_mode;
	stat->nlink = inode->i_nlink;
	stat->uid = inode->i_uid;
	stat->gid = inode->i_gid;
	stat->rdev = inode->i_rdev;
	stat->size = inode->i_size;
	stat->blocks = inode->i_blocks;
	stat->atime = inode->i_atime;
	stat->mtime = inode->i_mtime;
	stat->ctime = inode->i_ctime;
}

/* The accessors of include/fs.h, for code outside fs/. */
struct inode *file_inode(const struct file *file) { return file->f_inode; }
mode_t inode_mode(const struct inode *inode) { return inode->i_mode; }
uid_t inode_uid(const struct inode *inode) { return inode->i_uid; }
gid_t inode_gid(const struct inode *inode) { return inode->i_gid; }
loff_t inode_size(const struct inode *inode) { return inode->i_size; }

/*
 * i_writecount, as Linux: positive while the file is open for writing,
 * negative while it is being executed. The two exclude each other.
 */
int get_write_access(struct inode *inode)
{
	if (inode->i_writecount < 0)
		return -ETXTBSY;
	inode->i_writecount++;
	return 0;
}

void put_write_access(struct inode *inode)
{
	inode->i_writecount--;
}

int deny_write_access(struct file *file)
{
	struct inode *inode = file->f_inode;
	if (inode->i_writecount > 0)
		return -ETXTBSY;
	inode->i_writecount--;
	return 0;
}

void allow_write_access(struct file *file)
{
	if (file)
		file->f_inode->i_writecount++;
}
