/*
 * socket_call.c - the system calls on a socket's name and connection:
 * bind, listen, accept, connect, getsockname, getpeername, shutdown,
 * setsockopt and getsockopt (Linux's net/socket.c). Each looks the socket
 * up (EBADF, ENOTSOCK), copies the address in or out, and hands over to
 * the family's proto_ops.
 */
#include "../fs/vfs.h"
#include <net.h>
#include <sched.h>
#include <uaccess.h>

struct socket *sockfd_lookup(int fd, struct file **filep, int *err);
int move_addr_to_kernel(const void __user *uaddr, int ulen, void *kaddr);
int move_addr_to_user(const void *kaddr, int klen, void __user *uaddr, int __user *ulen);

int move_addr_to_kernel(const void __user *uaddr, int ulen, void *kaddr)
{
	if (ulen < 0 || ulen > SOCKADDR_MAX)
		return -EINVAL;
	if (ulen == 0)
		return 0;
	return copy_from_user(kaddr, uaddr, ulen) ? -EFAULT : 0;
}

/* Copy as much of the address as fits; *ulen gets its whole length. */
int move_addr_to_user(const void *kaddr, int klen, void __user *uaddr, int __user *ulen)
{
	int len;

	if (copy_from_user(&len, ulen, sizeof(len)))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	if (len > klen)
		len = klen;
	if (len && copy_to_user(uaddr, kaddr, len))
		return -EFAULT;
	return copy_to_user(ulen, &klen, sizeof(klen)) ? -EFAULT : 0;
}

long sys_bind(int fd, void __user *umyaddr, int addrlen)
{
	char addr[SOCKADDR_MAX + 1] __attribute__((aligned(8))); /* + 1: the NUL after a path */
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);

	if (!sock)
		return err;
	err = move_addr_to_kernel(umyaddr, addrlen, addr);
	if (!err)
		err = sock->ops->bind(sock, addr, addrlen);
	fput(file);
	return err;
}

long sys_listen(int fd, int backlog)
{
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);

	if (!sock)
		return err;
	if ((unsigned int)backlog > SOMAXCONN)
		backlog = SOMAXCONN;
	err = sock->ops->listen ? sock->ops->listen(sock, backlog) : -EOPNOTSUPP;
	fput(file);
	return err;
}

long sys_connect(int fd, void __user *uservaddr, int addrlen)
{
	char addr[SOCKADDR_MAX + 1] __attribute__((aligned(8))); /* + 1: the NUL after a path */
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);

	if (!sock)
		return err;
	err = move_addr_to_kernel(uservaddr, addrlen, addr);
	if (!err)
		err = sock->ops->connect(sock, addr, addrlen, file->f_flags);
	fput(file);
	return err;
}

/* The new socket's descriptor, with the peer's address if asked for. */
static long do_accept(struct file *file, struct socket *sock, void __user *upeer,
		      int __user *upeer_len, int flags)
{
	char addr[SOCKADDR_MAX + 1] __attribute__((aligned(8))); /* + 1: the NUL after a path */
	struct socket *newsock = sock_alloc();
	struct file *newfile;
	int err, len, fd;

	if (!newsock)
		return -ENFILE;
	newsock->type = sock->type;
	newsock->ops = sock->ops;
	err = sock->ops->accept ? sock->ops->accept(sock, newsock, file->f_flags | flags)
				: -EOPNOTSUPP;
	if (err) {
		newsock->ops = NULL;
		sock_release(newsock);
		return err;
	}
	newfile = sock_alloc_file(newsock, flags);
	if (IS_ERR(newfile))
		return PTR_ERR(newfile);
	if (upeer) {
		len = newsock->ops->getname(newsock, addr, true);
		err = len < 0 ? -ECONNABORTED : move_addr_to_user(addr, len, upeer, upeer_len);
		if (err) {
			fput(newfile);
			return err;
		}
	}
	fd = fd_install_lowest(current->files, newfile, flags & O_CLOEXEC);
	if (fd < 0)
		fput(newfile);
	return fd;
}

long sys_accept4(int fd, void __user *upeer, int __user *upeer_len, int flags)
{
	struct file *file;
	int err;
	struct socket *sock;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	sock = sockfd_lookup(fd, &file, &err);
	if (!sock)
		return err;
	flags = (flags & SOCK_CLOEXEC ? O_CLOEXEC : 0) | (flags & SOCK_NONBLOCK ? O_NONBLOCK : 0);
	err = do_accept(file, sock, upeer, upeer_len, flags);
	fput(file);
	return err;
}

long sys_accept(int fd, void __user *upeer, int __user *upeer_len)
{
	return sys_accept4(fd, upeer, upeer_len, 0);
}

static long do_getname(int fd, void __user *usockaddr, int __user *usockaddr_len, bool peer)
{
	char addr[SOCKADDR_MAX + 1] __attribute__((aligned(8))); /* + 1: the NUL after a path */
	struct file *file;
	int err, len;
	struct socket *sock = sockfd_lookup(fd, &file, &err);

	if (!sock)
		return err;
	len = sock->ops->getname(sock, addr, peer);
	err = len < 0 ? len : move_addr_to_user(addr, len, usockaddr, usockaddr_len);
	fput(file);
	return err;
}

long sys_getsockname(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	return do_getname(fd, usockaddr, usockaddr_len, false);
}

long sys_getpeername(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	return do_getname(fd, usockaddr, usockaddr_len, true);
}

long sys_shutdown(int fd, int how)
{
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);

	if (!sock)
		return err;
	err = sock->ops->shutdown(sock, how);
	fput(file);
	return err;
}

long sys_setsockopt(int fd, int level, int optname, void __user *optval, int optlen)
{
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);

	if (!sock)
		return err;
	if (optlen < 0)
		err = -EINVAL;
	else if (level == SOL_SOCKET)
		err = sock_setsockopt(sock, optname, optval, optlen);
	else
		err = -EOPNOTSUPP; /* AF_UNIX has no options of its own */
	fput(file);
	return err;
}

long sys_getsockopt(int fd, int level, int optname, void __user *optval, int __user *optlen)
{
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);

	if (!sock)
		return err;
	if (level == SOL_SOCKET)
		err = sock_getsockopt(sock, optname, optval, optlen);
	else
		err = -EOPNOTSUPP;
	fput(file);
	return err;
}
