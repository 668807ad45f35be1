/*
 * nsfs.c - the files that stand for namespaces: what opening
 * /proc/PID/ns/uts gives, what setns(2) takes, and what keeps a namespace
 * alive while open (or while a bind mount would, in Linux).
 *
 * Each follow of a /proc/PID/ns/X link makes a fresh inode on the one nsfs
 * super block, numbered with the namespace's inode number (so stat's
 * st_ino is the number in "uts:[4026531838]" and two files of one
 * namespace compare equal), holding a reference on the namespace that the
 * inode's last iput drops. Linux keeps one dentry a namespace instead;
 * what user space sees is the same: device, inode number, mode 0444.
 *
 * ioctl: NS_GET_USERNS (a descriptor of the owning user namespace),
 * NS_GET_PARENT (of a pid or user namespace), NS_GET_NSTYPE (the
 * CLONE_NEW* flag), NS_GET_OWNER_UID (a user namespace's creator, as the
 * caller's namespace names it); others ENOTTY.
 */
#include "vfs.h"
#include <mm.h>
#include <nsproxy.h>
#include <cred.h>
#include <uaccess.h>
#include <linux/user_namespace.h>

#define NSFS_MAGIC 0x6e736673
#define NS_GET_USERNS 0xb701
#define NS_GET_PARENT 0xb702
#define NS_GET_NSTYPE 0xb703
#define NS_GET_OWNER_UID 0xb704

static struct super_block *nsfs_sb;

/* A new descriptor (close-on-exec) on the nsfs file of relative, a
 * reference the caller gives (Linux's open_related_ns). */
static int open_related_ns(struct ns_common *relative)
{
	struct dentry *d;
	struct file *f;
	int fd;

	if (IS_ERR(relative))
		return PTR_ERR(relative);
	d = ns_get_dentry(relative);
	relative->ops->put(relative);
	if (IS_ERR(d))
		return PTR_ERR(d);
	f = vfs_open(d, O_RDONLY, FMODE_READ);
	dput(d);
	if (IS_ERR(f))
		return PTR_ERR(f);
	fd = fd_install_lowest(current->files, f, true);
	if (fd < 0)
		fput(f);
	return fd;
}

static long ns_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ns_common *ns = nsfs_file_ns(file);

	switch (cmd) {
	case NS_GET_USERNS:
		return open_related_ns(ns_get_owner(ns));
	case NS_GET_PARENT:
		if (!ns->ops->get_parent)
			return -EINVAL;
		return open_related_ns(ns->ops->get_parent(ns));
	case NS_GET_NSTYPE:
		return ns->ops->type;
	case NS_GET_OWNER_UID:
		if (ns->ops->type != CLONE_NEWUSER)
			return -EINVAL;
		return put_user_u32(from_kuid_munged(current_user_ns(), container_of(ns, struct user_namespace, ns)->owner),
				    (uint32_t __user *)arg) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations ns_file_operations = {
	.ioctl = ns_ioctl,
};

static void nsfs_evict(struct inode *inode)
{
	struct ns_common *ns = inode->i_private;

	ns->ops->put(ns);
}

static const struct inode_operations nsfs_inode_operations = {
	.evict = nsfs_evict,
};

/* The super block, made at the first use; NULL if out of memory. */
static struct super_block *get_nsfs_sb(void)
{
	struct super_block *sb;

	if (nsfs_sb)
		return nsfs_sb;
	sb = kzalloc(sizeof(*sb));
	if (!sb)
		return NULL;
	sb->s_dev = get_anon_dev();
	sb->s_next_ino = 1;
	sb->s_type = "nsfs";
	sb->s_magic = NSFS_MAGIC;
	sb->s_drop_unused = true; /* an inode lives while used */
	nsfs_sb = sb;
	return sb;
}

struct dentry *ns_get_dentry(struct ns_common *ns)
{
	struct super_block *sb = get_nsfs_sb();
	struct inode *inode;
	struct dentry *d;

	if (!sb || !(inode = new_inode(sb, S_IFREG | 0444)))
		return ERR_PTR(-ENOMEM);
	inode->i_ino = ns->inum;
	inode->i_uid = inode->i_gid = 0;
	inode->i_op = &nsfs_inode_operations;
	inode->i_fop = &ns_file_operations;
	inode->i_private = ns;
	ns->count++; /* the inode's: nsfs_evict drops it */
	d = d_make_root(inode);
	if (!d) {
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	return d;
}

struct ns_common *nsfs_file_ns(struct file *file)
{
	struct inode *inode = file->f_inode;

	if (!nsfs_sb || !inode || inode->i_sb != nsfs_sb)
		return NULL;
	return inode->i_private;
}

void ns_link_text(const struct ns_common *ns, char *buf, size_t size)
{
	snprintf(buf, size, "%s:[%u]", ns->ops->name, ns->inum);
}
