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
 * or the others' bits apply, chosen by the file system uid and groups;
 * then the capabilities: CAP_DAC_OVERRIDE bypasses read and write checks,
 * and search on directories, but executes a file only if at least one x
 * bit is set.
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
	spin_lock_init(&inode->i_pages_lock);
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

/*
 * The owner's bits for the owner; the group's for a member of the file's
 * group (its fsgid or a supplementary group), but only where they differ
 * from the others' bits; else the others' bits (Linux's
 * acl_permission_check, without ACLs).
 */
static int acl_permission_check(struct inode *inode, int mask)
{
	mode_t mode = inode->i_mode;

	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	if (current_fsuid() == inode->i_uid)
		return (mask & ~(mode >> 6)) ? -EACCES : 0;
	if ((mask & (mode ^ (mode >> 3))) && in_group_p(inode->i_gid))
		mode >>= 3;
	return (mask & ~mode) ? -EACCES : 0;
}

/*
 * Then the capabilities that override the bits (Linux's
 * generic_permission): CAP_DAC_READ_SEARCH reads any file and reads and
 * searches any directory; CAP_DAC_OVERRIDE does anything to a directory,
 * reads and writes any file, but executes only a file with an x bit.
 */
int generic_permission(struct inode *inode, int mask)
{
	int ret = acl_permission_check(inode, mask);

	if (ret != -EACCES)
		return ret;
	if (S_ISDIR(inode->i_mode)) {
		if (!(mask & MAY_WRITE) && capable(CAP_DAC_READ_SEARCH))
			return 0;
		return capable(CAP_DAC_OVERRIDE) ? 0 : -EACCES;
	}
	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	if (mask == MAY_READ && capable(CAP_DAC_READ_SEARCH))
		return 0;
	if ((!(mask & MAY_EXEC) || (inode->i_mode & 0111)) && capable(CAP_DAC_OVERRIDE))
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
	if (inode->i_op && inode->i_op->permission)
		return inode->i_op->permission(inode, mask);
	return generic_permission(inode, mask);
}

bool inode_owner_or_capable(struct inode *inode)
{
	return current_fsuid() == inode->i_uid || capable(CAP_FOWNER);
}

void inode_kill_suid(struct inode *inode)
{
	mode_t mode = inode->i_mode;

	if (!S_ISREG(mode) || capable(CAP_FSETID))
		return;
	if (mode & S_ISUID)
		inode->i_mode &= ~S_ISUID;
	if ((mode & (S_ISGID | 0010)) == (S_ISGID | 0010))
		inode->i_mode &= ~S_ISGID;
}

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
const char *file_name(const struct file *file) { return file->f_dentry ? file->f_dentry->d_name : ""; }
bool mnt_may_suid(const struct file *file)
{
	if (file->f_dentry)
		return !(mnt_flags(file->f_dentry) & SB_NOSUID);
	return !(file->f_inode->i_sb && (file->f_inode->i_sb->s_flags & SB_NOSUID));
}
mode_t inode_mode(const struct inode *inode) { return inode->i_mode; }
uid_t inode_uid(const struct inode *inode) { return inode->i_uid; }
gid_t inode_gid(const struct inode *inode) { return inode->i_gid; }
loff_t inode_size(const struct inode *inode) { return inode->i_size; }
uint64_t inode_blocks(const struct inode *inode) { return inode->i_blocks; }

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

/* Past the limit: the signal, then the error (the signal's default
 * action ends the process; a program that ignores or catches it sees
 * EFBIG). */
static int over_fsize_limit(void)
{
	send_sig(SIGXFSZ, current);
	return -EFBIG;
}

int file_write_limit(loff_t pos, size_t *count)
{
	uint64_t limit = current->rlim[RLIMIT_FSIZE].cur;

	if (limit == RLIM_INFINITY)
		return 0;
	if ((uint64_t)pos >= limit)
		return over_fsize_limit();
	*count = MIN(*count, limit - (uint64_t)pos);
	return 0;
}

int inode_newsize_ok(struct inode *inode, loff_t size)
{
	uint64_t limit = current->rlim[RLIMIT_FSIZE].cur;

	if (size > inode->i_size && limit != RLIM_INFINITY && (uint64_t)size > limit)
		return over_fsize_limit();
	return 0;
}
