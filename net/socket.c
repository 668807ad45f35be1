/*
 * socket.c - the socket layer: sockets as files, and the system calls
 * that make and connect them. The calls that move data are in
 * socket_msg.c; each family's work is behind its proto_ops (AF_UNIX:
 * net/unix/af_unix.c).
 *
 * A socket's inode lives on sockfs, an internal filesystem with no names
 * (fstat shows S_IFSOCK | 0777, /proc/PID/fd shows "socket:[INODE]"). The
 * socket is freed with its file: the last close calls the family's
 * ->release, which lets go of the sock.
 *
 * Families: AF_UNIX alone is built. Any other number below NPROTO is a
 * family this kernel was built without: EAFNOSUPPORT, as Linux answers
 * when no module provides it.
 */
#include "../fs/vfs.h"
#include <linux/init.h>
#include <mm.h>
#include <net.h>
#include <poll.h>
#include <sched.h>
#include <uaccess.h>

#define SOCKFS_MAGIC 0x534F434B

/* ---- sockfs ----------------------------------------------------------------- */

/* Made at boot, as Linux's sock_init mounts sockfs: the first socket
 * leaves nothing behind it. */
static struct super_block *sock_sb;

static int sockfs_init(void)
{
	sock_sb = kzalloc(sizeof(*sock_sb));
	if (!sock_sb)
		return -ENOMEM;
	sock_sb->s_dev = get_anon_dev();
	sock_sb->s_next_ino = 1;
	sock_sb->s_type = "sockfs";
	sock_sb->s_magic = SOCKFS_MAGIC;
	sock_sb->s_drop_unused = true;
	return 0;
}
fs_initcall(sockfs_init);

/* sockfs; NULL if there was no memory for it at boot. */
static struct super_block *get_sock_sb(void)
{
	return sock_sb;
}

struct socket *sock_alloc(void)
{
	struct super_block *sb = get_sock_sb();
	struct socket *sock;
	struct inode *inode;

	if (!sb || !(sock = kzalloc(sizeof(*sock))))
		return NULL;
	inode = new_inode(sb, S_IFSOCK | 0777);
	if (!inode) {
		kfree(sock);
		return NULL;
	}
	inode->i_nlink = 1;
	inode->i_private = sock;
	sock->inode = inode;
	sock->state = SS_UNCONNECTED;
	return sock;
}

void sock_release(struct socket *sock)
{
	if (sock->ops)
		sock->ops->release(sock);
	sock->inode->i_private = NULL;
	if (!sock->file)
		iput(sock->inode); /* else the file drops its own reference */
	kfree(sock);
}

/* ---- the socket file -------------------------------------------------------- */

struct socket *sock_from_file(struct file *file)
{
	return file && file->f_op == &socket_file_ops ? file->private_data : NULL;
}

bool is_socket_file(const struct file *file)
{
	return file->f_op == &socket_file_ops;
}

static ssize_t sock_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct socket *sock = file->private_data;
	struct msghdr msg = { .msg_iter = to };

	(void)pos;
	if (!to->count)
		return 0;
	return sock->ops->recvmsg(sock, &msg, to->count,
				  (file->f_flags & O_NONBLOCK) ? MSG_DONTWAIT : 0);
}

static ssize_t sock_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	struct socket *sock = file->private_data;
	struct msghdr msg = { .msg_iter = from };

	(void)pos;
	msg.msg_flags = (file->f_flags & O_NONBLOCK) ? MSG_DONTWAIT : 0;
	return sock->ops->sendmsg(sock, &msg, from->count);
}

static unsigned int sock_poll(struct file *file)
{
	struct socket *sock = file->private_data;

	return sock->ops->poll(file, sock);
}

static long sock_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct socket *sock = file->private_data;

	return sock->ops->ioctl ? sock->ops->ioctl(sock, cmd, arg) : -ENOTTY;
}

static void sock_close(struct inode *inode, struct file *file)
{
	(void)inode;
	sock_release(file->private_data);
}

const struct file_operations socket_file_ops = {
	.release = sock_close,
	.read = sock_read,
	.write = sock_write,
	.poll = sock_poll,
	.ioctl = sock_ioctl,
};

struct file *sock_alloc_file(struct socket *sock, int flags)
{
	struct file *file = alloc_file(NULL, sock->inode, O_RDWR | (flags & O_NONBLOCK),
				       FMODE_READ | FMODE_WRITE);

	if (!file) {
		sock_release(sock);
		return ERR_PTR(-ENOMEM);
	}
	iput(sock->inode); /* the file holds it now */
	nonseekable_open(file);
	file->f_op = &socket_file_ops;
	file->private_data = sock;
	sock->file = file;
	return file;
}

/* A descriptor for sock (released on failure): fd or -errno. */
static int sock_map_fd(struct socket *sock, int flags)
{
	struct file *file = sock_alloc_file(sock, flags);
	int fd;

	if (IS_ERR(file))
		return PTR_ERR(file);
	fd = fd_install_lowest(current->files, file, flags & O_CLOEXEC);
	if (fd < 0)
		fput(file);
	return fd;
}

/* current's socket at fd, with a reference on its file (*filep: fput it). */
struct socket *sockfd_lookup(int fd, struct file **filep, int *err)
{
	struct file *file = fget(fd);
	struct socket *sock;

	*filep = file;
	if (!file) {
		*err = -EBADF;
		return NULL;
	}
	sock = sock_from_file(file);
	if (!sock) {
		*err = -ENOTSOCK;
		fput(file);
	}
	return sock;
}

/* ---- making sockets ------------------------------------------------------- */

static int sock_create(int family, int type, int protocol, struct socket **res)
{
	struct socket *sock;
	int err;

	if (family < 0 || family >= NPROTO)
		return -EAFNOSUPPORT;
	if (type < 0 || type >= SOCK_MAX)
		return -EINVAL;
	if (family != AF_UNIX)
		return -EAFNOSUPPORT;
	sock = sock_alloc();
	if (!sock)
		return -ENFILE;
	sock->type = type;
	err = unix_create(sock, protocol);
	if (err) {
		sock->ops = NULL;
		sock_release(sock);
		return err;
	}
	*res = sock;
	return 0;
}

/* socket(2) and socketpair(2)'s type word: the type and its flags. */
static int split_type(int *type, int *flags)
{
	*flags = *type & ~SOCK_TYPE_MASK;
	if (*flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	*type &= SOCK_TYPE_MASK;
	*flags = (*flags & SOCK_CLOEXEC ? O_CLOEXEC : 0) | (*flags & SOCK_NONBLOCK ? O_NONBLOCK : 0);
	return 0;
}

long sys_socket(int family, int type, int protocol)
{
	struct socket *sock;
	int flags, err = split_type(&type, &flags);

	if (err)
		return err;
	err = sock_create(family, type, protocol, &sock);
	return err ? err : sock_map_fd(sock, flags);
}

long sys_socketpair(int family, int type, int protocol, int __user *usockvec)
{
	struct socket *a, *b;
	struct file *fa, *fb;
	int flags, fd[2], err = split_type(&type, &flags);

	if (err)
		return err;
	if ((err = sock_create(family, type, protocol, &a)))
		return err;
	if ((err = sock_create(family, type, protocol, &b))) {
		sock_release(a);
		return err;
	}
	err = a->ops->socketpair ? a->ops->socketpair(a, b) : -EOPNOTSUPP;
	if (err) {
		sock_release(a);
		sock_release(b);
		return err;
	}
	fa = sock_alloc_file(a, flags);
	if (IS_ERR(fa)) {
		sock_release(b);
		return PTR_ERR(fa);
	}
	fb = sock_alloc_file(b, flags);
	if (IS_ERR(fb)) {
		fput(fa);
		return PTR_ERR(fb);
	}
	fd[0] = get_unused_fd(current->files, 0);
	fd[1] = fd[0] < 0 ? fd[0] : get_unused_fd(current->files, fd[0] + 1);
	err = fd[1] < 0 ? fd[1] : copy_to_user(usockvec, fd, sizeof(fd)) ? -EFAULT : 0;
	if (err) {
		fput(fa);
		fput(fb);
		return err;
	}
	fd_install(current->files, fd[0], fa, flags & O_CLOEXEC);
	fd_install(current->files, fd[1], fb, flags & O_CLOEXEC);
	return 0;
}
