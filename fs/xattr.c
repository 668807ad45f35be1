/*
 * xattr.c - extended attributes: getxattr, listxattr, setxattr and
 * removexattr, with their l- (no symlink following) and f- (a descriptor)
 * forms.
 *
 * No file here has extended attributes, and none can be given one: every
 * file reads as tmpfs shows a file without any (Linux 6.1's tmpfs, which
 * the initramfs is on there). A name in a namespace tmpfs keeps (security.,
 * trusted., the POSIX ACLs) is ENODATA to read or remove; any other name,
 * and any file of another filesystem (/proc), is EOPNOTSUPP; the list is
 * empty. Setting one is EOPNOTSUPP (Linux's tmpfs would keep a trusted. or
 * security. attribute for root). Programs such as ls -l ask for the
 * SELinux label and the ACL of each file and treat ENODATA and EOPNOTSUPP
 * as "none".
 */
#include "vfs.h"
#include <uaccess.h>

#define XATTR_NAME_MAX 255
#define XATTR_SIZE_MAX 65536
#define XATTR_CREATE 0x1
#define XATTR_REPLACE 0x2

/* The attribute's name, from user memory: ERANGE if empty or too long. */
static int xattr_name(const char __user *uname, char *name)
{
	long len = strncpy_from_user(name, uname, XATTR_NAME_MAX + 1);

	if (len == -ENAMETOOLONG || len == 0 || len > XATTR_NAME_MAX)
		return -ERANGE;
	return len < 0 ? (int)len : 0;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* What reading (or removing) attribute name of inode says. */
static long no_such_xattr(struct inode *inode, const char *name)
{
	unsigned long magic = inode->i_sb ? inode->i_sb->s_magic : 0;

	if (magic != RAMFS_MAGIC && magic != TMPFS_MAGIC)
		return -EOPNOTSUPP;
	if (starts_with(name, "security.") || starts_with(name, "trusted.") ||
	    !strcmp(name, "system.posix_acl_access") || !strcmp(name, "system.posix_acl_default"))
		return -ENODATA;
	return -EOPNOTSUPP;
}

/* The inode a path names (lookup_flags: LOOKUP_FOLLOW or 0), held in *d. */
static long xattr_path(const char __user *pathname, unsigned lookup_flags, struct dentry **d)
{
	return user_path_at(AT_FDCWD, pathname, lookup_flags, d);
}

static long path_getxattr(const char __user *pathname, const char __user *uname,
			  unsigned lookup_flags)
{
	char name[XATTR_NAME_MAX + 1];
	struct dentry *d;
	long err = xattr_name(uname, name);

	if (err)
		return err;
	err = xattr_path(pathname, lookup_flags, &d);
	if (err)
		return err;
	err = no_such_xattr(d->d_inode, name);
	dput(d);
	return err;
}

long sys_getxattr(const char __user *pathname, const char __user *name, void __user *value,
		  size_t size)
{
	(void)value, (void)size;
	return path_getxattr(pathname, name, LOOKUP_FOLLOW);
}

long sys_lgetxattr(const char __user *pathname, const char __user *name, void __user *value,
		   size_t size)
{
	(void)value, (void)size;
	return path_getxattr(pathname, name, 0);
}

long sys_fgetxattr(int fd, const char __user *uname, void __user *value, size_t size)
{
	char name[XATTR_NAME_MAX + 1];
	struct file *file = fcheck(fd);
	long err;

	(void)value, (void)size;
	if (!file)
		return -EBADF;
	err = xattr_name(uname, name);
	return err ? err : no_such_xattr(file->f_inode, name);
}

static long path_listxattr(const char __user *pathname, unsigned lookup_flags)
{
	struct dentry *d;
	long err = xattr_path(pathname, lookup_flags, &d);

	if (err)
		return err;
	dput(d);
	return 0; /* no attributes: an empty list */
}

long sys_listxattr(const char __user *pathname, char __user *list, size_t size)
{
	(void)list, (void)size;
	return path_listxattr(pathname, LOOKUP_FOLLOW);
}

long sys_llistxattr(const char __user *pathname, char __user *list, size_t size)
{
	(void)list, (void)size;
	return path_listxattr(pathname, 0);
}

long sys_flistxattr(int fd, char __user *list, size_t size)
{
	(void)list, (void)size;
	return fcheck(fd) ? 0 : -EBADF;
}

static long check_set(const char __user *uname, size_t size, int flags)
{
	char name[XATTR_NAME_MAX + 1];
	long err;

	if (flags & ~(XATTR_CREATE | XATTR_REPLACE))
		return -EINVAL;
	err = xattr_name(uname, name);
	if (err)
		return err;
	if (size > XATTR_SIZE_MAX)
		return -E2BIG;
	return 0;
}

static long path_setxattr(const char __user *pathname, const char __user *name, size_t size,
			  int flags, unsigned lookup_flags)
{
	struct dentry *d;
	long err = check_set(name, size, flags);

	if (err)
		return err;
	err = xattr_path(pathname, lookup_flags, &d);
	if (err)
		return err;
	dput(d);
	return -EOPNOTSUPP;
}

long sys_setxattr(const char __user *pathname, const char __user *name, const void __user *value,
		  size_t size, int flags)
{
	(void)value;
	return path_setxattr(pathname, name, size, flags, LOOKUP_FOLLOW);
}

long sys_lsetxattr(const char __user *pathname, const char __user *name, const void __user *value,
		   size_t size, int flags)
{
	(void)value;
	return path_setxattr(pathname, name, size, flags, 0);
}

long sys_fsetxattr(int fd, const char __user *name, const void __user *value, size_t size,
		   int flags)
{
	long err;

	(void)value;
	if (!fcheck(fd))
		return -EBADF;
	err = check_set(name, size, flags);
	return err ? err : -EOPNOTSUPP;
}

long sys_removexattr(const char __user *pathname, const char __user *name)
{
	return path_getxattr(pathname, name, LOOKUP_FOLLOW);
}

long sys_lremovexattr(const char __user *pathname, const char __user *name)
{
	return path_getxattr(pathname, name, 0);
}

long sys_fremovexattr(int fd, const char __user *name)
{
	return sys_fgetxattr(fd, name, NULL, 0);
}
