/*
 * mqueue.c - POSIX message queues: the "mqueue" filesystem that holds
 * them, mq_open, mq_unlink and /proc/sys/fs/mqueue (Linux 6.1's
 * ipc/mqueue.c and ipc/mq_sysctl.c). Sending, receiving and notifying:
 * ipc/mqueue_msg.c. What they share, and the lock rules: ipc/mqueue.h.
 *
 * The filesystem is one flat directory (mode 1777) of queues. A queue is a
 * regular file: reading it gives one line, Linux's
 *
 *      QSIZE:129        NOTIFY:0     SIGNO:0     NOTIFY_PID:0
 *
 * (the bytes queued; the notification asked for, its signal and the
 * process registered). open(2) and mknod(2) in a mounted mqueue make a
 * queue with the default sizes; mq_open makes one with the sizes asked.
 *
 * LIMITS, as Linux. Without CAP_SYS_RESOURCE a queue holds at most msg_max
 * messages of msgsize_max bytes, and there are at most queues_max queues;
 * with it, HARD_MSGMAX and HARD_MSGSIZEMAX (and no count). Every queue
 * charges its owner's RLIMIT_MSGQUEUE with all it may ever hold, text and
 * bookkeeping, while it exists: EMFILE past it, even for root.
 */
#include <cred.h>
#include <errno.h>
#include <linux/init.h>
#include <linux/user_namespace.h>
#include <mm.h>
#include <poll.h>
#include <proc_fs.h>
#include <sched.h>
#include <x86.h>
#include "../fs/mount.h" /* kill_super: Linux's kern_unmount */
#include "mqueue.h"
#include "util.h"

#define DIRENT_SIZE 20          /* the directory grows by this a queue */
#define FILENT_SIZE 80          /* a queue file's size */

static const struct inode_operations mqueue_dir_iops;
static const struct inode_operations mqueue_file_iops;
static const struct file_operations mqueue_dir_fops;

/* ---- queue inodes ---- */

/* What a queue of these sizes charges to RLIMIT_MSGQUEUE; 0: overflow. */
static uint64_t mq_charge(const struct mq_attr *a)
{
	uint64_t tree = (uint64_t)a->mq_maxmsg * MSG_MSG_SIZE +
			(uint64_t)MIN(a->mq_maxmsg, MQ_PRIO_MAX) * MSG_TREE_NODE_SIZE;
	uint64_t bytes = (uint64_t)a->mq_maxmsg * (uint64_t)a->mq_msgsize;

	return bytes + tree < bytes ? 0 : bytes + tree;
}

/* Are the sizes asked for allowed (Linux's checks in mqueue_get_inode)? */
static int mq_attr_ok(struct ipc_namespace *ns, const struct mq_attr *a)
{
	if (a->mq_maxmsg <= 0 || a->mq_msgsize <= 0)
		return -EINVAL;
	if (capable(CAP_SYS_RESOURCE)) {
		if (a->mq_maxmsg > HARD_MSGMAX || a->mq_msgsize > HARD_MSGSIZEMAX)
			return -EINVAL;
	} else if (a->mq_maxmsg > ns->mq_msg_max || a->mq_msgsize > ns->mq_msgsize_max) {
		return -EINVAL;
	}
	return mq_charge(a) ? 0 : -EOVERFLOW;
}

/* A new queue inode of the given mode (S_IFREG included), with attr's
 * sizes or the defaults; ERR_PTR(-EINVAL, -EOVERFLOW, -EMFILE, -ENOMEM). */
static struct inode *mqueue_get_inode(struct super_block *sb, struct ipc_namespace *ns, mode_t mode,
				      const struct mq_attr *attr)
{
	struct mqueue_inode_info *info = kzalloc(sizeof(*info));
	struct inode *inode = info ? new_inode(sb, mode) : NULL;
	int err;

	if (!inode) {
		kfree(info);
		return ERR_PTR(-ENOMEM);
	}
	inode->i_nlink = 1;
	inode->i_size = FILENT_SIZE;
	inode->i_op = &mqueue_file_iops;
	inode->i_fop = &mqueue_file_operations;
	inode->i_private = info;
	info->attr.mq_maxmsg = MIN(ns->mq_msg_max, ns->mq_msg_default);
	info->attr.mq_msgsize = MIN(ns->mq_msgsize_max, ns->mq_msgsize_default);
	if (attr) {
		info->attr.mq_maxmsg = attr->mq_maxmsg;
		info->attr.mq_msgsize = attr->mq_msgsize;
	}
	err = mq_attr_ok(ns, &info->attr);
	if (!err) {
		uint64_t charge = mq_charge(&info->attr);
		err = -EMFILE;
		if (inc_rlimit_ucounts_max(current_uid(), UCOUNT_RLIMIT_MSGQUEUE, charge,
					   current->rlim[RLIMIT_MSGQUEUE].cur)) {
			info->uid = current_uid();
			info->mq_bytes = charge;
			return inode;
		}
	}
	inode->i_nlink = 0;
	iput(inode); /* mqueue_evict frees info */
	return ERR_PTR(err);
}

/* The queue inode is freed (no name, no open file): its messages go,
 * and what it charged. */
static void mqueue_evict(struct inode *inode)
{
	struct mqueue_inode_info *info = MQUEUE_I(inode);

	while (info->msgs) {
		struct mq_msg *m = info->msgs;
		info->msgs = m->next;
		kfree(m);
	}
	if (info->mq_bytes) {
		dec_rlimit_ucounts(info->uid, UCOUNT_RLIMIT_MSGQUEUE, info->mq_bytes);
		mq_sb_info(inode->i_sb)->queues--;
	}
	kfree(info);
}

/* Make the queue `dentry` names in dir (Linux's mqueue_create_attr). */
static int mqueue_create_attr(struct inode *dir, struct dentry *dentry, mode_t mode,
			      const struct mq_attr *attr)
{
	struct ipc_namespace *ns = dir->i_private;
	struct inode *inode;

	struct mq_sb_info *sbi = mq_sb_info(dir->i_sb);

	if (!ns)
		return -EACCES; /* a mount of a namespace that is gone, as Linux */
	if (sbi->queues >= (unsigned int)ns->mq_queues_max && !capable(CAP_SYS_RESOURCE))
		return -ENOSPC;
	sbi->queues++;
	inode = mqueue_get_inode(dir->i_sb, ns, mode, attr);
	if (IS_ERR(inode)) {
		sbi->queues--;
		return PTR_ERR(inode);
	}
	d_add(dentry, inode);
	dir->i_size += DIRENT_SIZE;
	inode_touch_mtime(dir);
	dir->i_atime = dir->i_mtime;
	return 0;
}

/* open(O_CREAT) and mknod of a regular file make a queue; nothing else
 * can be made here (Linux: no mknod, mkdir, symlink). */
static int mqueue_create(struct inode *dir, struct dentry *dentry, mode_t mode, dev_t rdev)
{
	(void)rdev;
	if (!S_ISREG(mode))
		return -EPERM;
	return mqueue_create_attr(dir, dentry, mode, NULL);
}

static int mqueue_unlink_inode(struct inode *dir, struct dentry *dentry)
{
	dir->i_size -= DIRENT_SIZE;
	inode_touch_mtime(dir);
	dir->i_atime = dir->i_mtime;
	inode_dec_link_count(dentry->d_inode);
	d_delete(dentry);
	return 0;
}

static const struct inode_operations mqueue_dir_iops = {
	.create = mqueue_create,
	.unlink = mqueue_unlink_inode,
};

static const struct inode_operations mqueue_file_iops = {
	.evict = mqueue_evict,
};

static const struct file_operations mqueue_dir_fops = {
	.llseek = generic_file_llseek,
	.iterate = dcache_readdir,
};

/* ---- the queue file ---- */

static ssize_t mqueue_read_file(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct inode *inode = file->f_inode;
	struct mqueue_inode_info *info = MQUEUE_I(inode);
	char buf[FILENT_SIZE];
	size_t len;

	snprintf(buf, sizeof(buf), "QSIZE:%-10lu NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d\n",
		 (unsigned long)info->qsize, info->notify_owner ? info->notify : 0,
		 info->notify_owner && info->notify == SIGEV_SIGNAL ? info->notify_signo : 0,
		 info->notify_owner ? info->notify_pid : 0);
	len = strlen(buf);
	if (*pos < 0 || (size_t)*pos >= len)
		return 0;
	size_t n = copy_to_iter(buf + *pos, MIN(len - *pos, to->count), to);
	if (!n && to->count)
		return -EFAULT;
	*pos += n;
	inode_now(&inode->i_atime);
	inode->i_ctime = inode->i_atime;
	return n;
}

/* Readable while a message is queued, writable while there is room. */
static unsigned int mqueue_poll_file(struct file *file)
{
	struct mqueue_inode_info *info = MQUEUE_I(file->f_inode);
	unsigned int mask = 0;

	if (info->attr.mq_curmsgs)
		mask |= POLLIN | POLLRDNORM;
	if (info->attr.mq_curmsgs < info->attr.mq_maxmsg)
		mask |= POLLOUT | POLLWRNORM;
	return mask;
}

void remove_notification(struct mqueue_inode_info *info)
{
	info->notify_owner = 0;
	info->notify_pid = 0;
}

/* The process registered for notification closes a descriptor of the
 * queue: its registration goes (Linux's mqueue_flush_file). */
static void mqueue_flush_file(struct file *file)
{
	struct mqueue_inode_info *info = MQUEUE_I(file->f_inode);

	if (info->notify_owner && info->notify_owner == current->group_leader->serial)
		remove_notification(info);
}

const struct file_operations mqueue_file_operations = {
	.read = mqueue_read_file,
	.poll = mqueue_poll_file,
	.flush = mqueue_flush_file,
	.llseek = generic_file_llseek,
};

/* ---- mq_open and mq_unlink ---- */

/* A name as Linux's lookup_one_len takes it: not empty, ".", "..", nor
 * holding a '/' (EACCES); at most NAME_MAX bytes (ENAMETOOLONG). */
static int check_name(const char *name)
{
	size_t len = strlen(name);

	if (!len || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return -EACCES;
	return len > NAME_MAX ? -ENAMETOOLONG : 0;
}

/* Open an existing queue as asked (Linux's prepare_open, its second half). */
static int may_open_queue(struct dentry *d, int oflag)
{
	static const int acc[3] = { MAY_READ, MAY_WRITE, MAY_READ | MAY_WRITE };

	if ((oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if ((oflag & O_ACCMODE) == O_ACCMODE)
		return -EINVAL;
	return inode_permission(d->d_inode, acc[oflag & O_ACCMODE]);
}

/* The child of the root called name, a new one made if asked; with a
 * reference, or ERR_PTR. */
static struct dentry *lookup_or_create(struct dentry *root, const char *name, int oflag, mode_t mode,
				       const struct mq_attr *attr)
{
	size_t len = strlen(name);
	struct dentry *d = d_lookup(root, name, len);
	int err;

	if (d) {
		err = may_open_queue(d, oflag);
		if (err) {
			dput(d);
			return ERR_PTR(err);
		}
		return d;
	}
	if (!(oflag & O_CREAT))
		return ERR_PTR(-ENOENT);
	err = inode_permission(root->d_inode, MAY_WRITE | MAY_EXEC);
	if (err)
		return ERR_PTR(err);
	d = d_alloc(root, name, len);
	if (!d)
		return ERR_PTR(-ENOMEM);
	err = mqueue_create_attr(root->d_inode, d, S_IFREG | (mode & ~current_umask() & 07777), attr);
	if (err) {
		dput(d);
		return ERR_PTR(err);
	}
	return d;
}

long mqueue_open(const char *name, int oflag, mode_t mode, const struct mq_attr *attr)
{
	struct dentry *root = current_ipc_ns()->mq_sb->s_root, *d;
	struct file *file;
	int fd = get_unused_fd(current->files, 0), err;

	if (fd < 0)
		return fd;
	err = check_name(name);
	if (err)
		return err;
	d = lookup_or_create(root, name, oflag, mode, attr);
	if (IS_ERR(d))
		return PTR_ERR(d);
	/* Linux's dentry_open on its internal mount: the access mode as
	 * f_mode, no O_TRUNC. Here the file holds the inode, not the name: a
	 * queue open through mq_open does not keep a mount of the mqueue
	 * (/dev/mqueue) busy, as on Linux. */
	file = alloc_file(NULL, d->d_inode, oflag & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC),
			  (oflag + 1) & O_ACCMODE);
	dput(d);
	if (!file)
		return -ENOMEM;
	fd_install(current->files, fd, file, true); /* always close-on-exec */
	return fd;
}

long mqueue_unlink(const char *name)
{
	struct dentry *root = current_ipc_ns()->mq_sb->s_root, *d;
	struct inode *dir = root->d_inode;
	uid_t uid = current_fsuid();
	int err = check_name(name);

	if (err)
		return err;
	d = d_lookup(root, name, strlen(name));
	if (!d)
		return -ENOENT;
	/* Linux's may_delete: the directory is sticky. */
	err = inode_permission(dir, MAY_WRITE | MAY_EXEC);
	if (!err && uid != d->d_inode->i_uid && uid != dir->i_uid && !capable(CAP_FOWNER))
		err = -EPERM;
	if (!err)
		err = mqueue_unlink_inode(dir, d);
	dput(d);
	return err;
}

/* ---- the filesystem ---- */

/* The namespace's super block: its root (mode 1777, Linux's S_ISVTX |
 * S_IRWXUGO), held by the namespace as an internal mount, so that the
 * last umount of /dev/mqueue takes nothing apart. */
static struct super_block *mqueue_fill_super(struct ipc_namespace *ns)
{
	struct super_block *sb = kzalloc(sizeof(*sb));
	struct mq_sb_info *sbi = kzalloc(sizeof(*sbi));
	struct inode *root = sb && sbi ? new_inode(sb, S_IFDIR | 01777) : NULL;

	if (!root) {
		kfree(sb);
		kfree(sbi);
		return NULL;
	}
	sb->s_fs_info = sbi; /* freed with sb, after its last queue */
	sb->s_next_ino = 1;
	sb->s_type = "mqueue";
	sb->s_magic = MQUEUE_MAGIC;
	sb->s_active = 1;
	root->i_nlink = 2;
	root->i_size = 2 * DIRENT_SIZE;
	root->i_uid = root->i_gid = 0;
	root->i_op = &mqueue_dir_iops;
	root->i_fop = &mqueue_dir_fops;
	root->i_private = ns;
	sb->s_root = d_make_root(root);
	if (!sb->s_root) {
		sb->s_unmounted = true; /* freed with the root inode */
		iput(root);
		return NULL;
	}
	sb->s_dev = get_anon_dev();
	return sb;
}

int mq_init_ns(struct ipc_namespace *ns)
{
	ns->mq_sb = mqueue_fill_super(ns);
	return ns->mq_sb ? 0 : -ENOMEM;
}

/* The namespace is gone: its filesystem goes with its last mount (of
 * /dev/mqueue) and, after that, its last open queue. Its root no longer
 * names the namespace, which nothing may reach now. */
void mq_exit_ns(struct ipc_namespace *ns)
{
	struct super_block *sb = ns->mq_sb;

	sb->s_root->d_inode->i_private = NULL;
	if (--sb->s_active == 0)
		kill_super(sb);
}

static struct super_block *mqueue_mount(void)
{
	return current_ipc_ns()->mq_sb;
}

static struct file_system_type mqueue_fs_type = {
	.name = "mqueue",
	.mount = mqueue_mount,
};

/* /proc/sys/fs/mqueue: proc_dointvec for queues_max, the others within
 * Linux's bounds. */
#define MQ_SYSCTL(name, field, min, max)                                               \
	static int mq_##name##_show(struct seq_file *m)                                \
	{                                                                              \
		seq_printf(m, "%d\n", current_ipc_ns()->field);                        \
		return 0;                                                              \
	}                                                                              \
	static int mq_##name##_write(const char *buf, size_t count)                    \
	{                                                                              \
		int v, n = ipc_parse_ints(buf, count, &v, 1, (min), (max));            \
		if (n > 0)                                                             \
			current_ipc_ns()->field = v;                                   \
		return n < 0 ? n : 0;                                                  \
	}
MQ_SYSCTL(queues_max, mq_queues_max, INT32_MIN, INT32_MAX)
MQ_SYSCTL(msg_max, mq_msg_max, 1, HARD_MSGMAX)
MQ_SYSCTL(msgsize_max, mq_msgsize_max, 128, HARD_MSGSIZEMAX)
MQ_SYSCTL(msg_default, mq_msg_default, 1, HARD_MSGMAX)
MQ_SYSCTL(msgsize_default, mq_msgsize_default, 128, HARD_MSGSIZEMAX)

static int init_mqueue_fs(void)
{
	if (mq_init_ns(&init_ipc_ns))
		panic("mqueue: no memory for its filesystem");
	proc_create("sys/fs/mqueue/queues_max", 0644, mq_queues_max_show, mq_queues_max_write);
	proc_create("sys/fs/mqueue/msg_max", 0644, mq_msg_max_show, mq_msg_max_write);
	proc_create("sys/fs/mqueue/msgsize_max", 0644, mq_msgsize_max_show, mq_msgsize_max_write);
	proc_create("sys/fs/mqueue/msg_default", 0644, mq_msg_default_show, mq_msg_default_write);
	proc_create("sys/fs/mqueue/msgsize_default", 0644, mq_msgsize_default_show,
		    mq_msgsize_default_write);
	return register_filesystem(&mqueue_fs_type);
}
fs_initcall(init_mqueue_fs);
