/*
 * socket_msg.c - the system calls that move data through a socket:
 * sendto, recvfrom, sendmsg, recvmsg, sendmmsg, recvmmsg (Linux's
 * net/socket.c). They build a struct msghdr (the data as an iov_iter, a
 * kernel copy of the address, the user's control buffer) and hand it to
 * the family's ->sendmsg or ->recvmsg. A socket whose file is O_NONBLOCK
 * acts as if MSG_DONTWAIT were given.
 */
#include "../fs/vfs.h"
#include <mm.h>
#include <net.h>
#include <sched.h>
#include <timekeeping.h>
#include <uaccess.h>

#define UIO_MAXIOV 1024

struct socket *sockfd_lookup(int fd, struct file **filep, int *err);
int move_addr_to_kernel(const void __user *uaddr, int ulen, void *kaddr);
int move_addr_to_user(const void *kaddr, int klen, void __user *uaddr, int __user *ulen);

static unsigned int file_flags(struct file *file, unsigned int flags)
{
	return (file->f_flags & O_NONBLOCK) ? flags | MSG_DONTWAIT : flags;
}

long sys_sendto(int fd, void __user *buff, size_t len, unsigned int flags,
		void __user *addr, int addr_len)
{
	char address[SOCKADDR_MAX + 1] __attribute__((aligned(8)));
	struct iovec iov = { buff, MIN(len, (size_t)MAX_RW_COUNT) };
	struct iov_iter it;
	struct msghdr msg = { .msg_iter = &it };
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);

	if (!sock)
		return err;
	iov_iter_init(&it, true, &iov, 1, iov.iov_len);
	if (addr) {
		err = move_addr_to_kernel(addr, addr_len, address);
		if (err)
			goto out;
		msg.msg_name = address;
		msg.msg_namelen = addr_len;
	}
	msg.msg_flags = file_flags(file, flags);
	err = sock->ops->sendmsg(sock, &msg, iov.iov_len);
out:
	fput(file);
	return err;
}

long sys_recvfrom(int fd, void __user *ubuf, size_t size, unsigned int flags,
		  void __user *addr, int __user *addr_len)
{
	char address[SOCKADDR_MAX + 1] __attribute__((aligned(8)));
	struct iovec iov = { ubuf, MIN(size, (size_t)MAX_RW_COUNT) };
	struct iov_iter it;
	struct msghdr msg = { .msg_iter = &it, .msg_name = addr ? address : NULL };
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);

	if (!sock)
		return err;
	iov_iter_init(&it, true, &iov, 1, iov.iov_len);
	err = sock->ops->recvmsg(sock, &msg, iov.iov_len, file_flags(file, flags));
	if (err >= 0 && addr) {
		int err2 = move_addr_to_user(address, msg.msg_namelen, addr, addr_len);
		if (err2)
			err = err2;
	}
	fput(file);
	return err;
}

/* A user msghdr's iovec array in kernel memory (*iovp: kfree it). */
static long import_msg_iov(const struct user_msghdr *um, struct iovec **iovp, struct iov_iter *it)
{
	size_t total = 0;
	struct iovec *iov;

	if (um->msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	iov = kmalloc(um->msg_iovlen * sizeof(*iov) + 1);
	if (!iov)
		return -ENOMEM;
	if (copy_from_user(iov, um->msg_iov, um->msg_iovlen * sizeof(*iov))) {
		kfree(iov);
		return -EFAULT;
	}
	for (size_t k = 0; k < um->msg_iovlen; k++) {
		if ((ssize_t)iov[k].iov_len < 0) {
			kfree(iov);
			return -EINVAL;
		}
		if (iov[k].iov_len > MAX_RW_COUNT - total)
			iov[k].iov_len = MAX_RW_COUNT - total;
		total += iov[k].iov_len;
	}
	iov_iter_init(it, true, iov, um->msg_iovlen, total);
	*iovp = iov;
	return 0;
}

static long do_sendmsg(struct file *file, struct socket *sock, struct user_msghdr __user *umsg,
		       unsigned int flags)
{
	char address[SOCKADDR_MAX + 1] __attribute__((aligned(8)));
	struct user_msghdr um;
	struct iovec *iov;
	struct iov_iter it;
	struct msghdr msg = { .msg_iter = &it };
	long err;

	if (copy_from_user(&um, umsg, sizeof(um)))
		return -EFAULT;
	if (um.msg_name) {
		err = move_addr_to_kernel(um.msg_name, um.msg_namelen, address);
		if (err)
			return err;
		msg.msg_name = address;
		msg.msg_namelen = um.msg_namelen;
	}
	err = import_msg_iov(&um, &iov, &it);
	if (err)
		return err;
	msg.msg_control = um.msg_control;
	msg.msg_controllen = um.msg_controllen;
	msg.msg_flags = file_flags(file, flags);
	err = sock->ops->sendmsg(sock, &msg, it.count);
	kfree(iov);
	return err;
}

static long do_recvmsg(struct file *file, struct socket *sock, struct user_msghdr __user *umsg,
		       unsigned int flags)
{
	char address[SOCKADDR_MAX + 1] __attribute__((aligned(8)));
	struct user_msghdr um;
	struct iovec *iov;
	struct iov_iter it;
	struct msghdr msg = { .msg_iter = &it };
	long err, err2 = 0;

	if (copy_from_user(&um, umsg, sizeof(um)))
		return -EFAULT;
	if (um.msg_namelen < 0)
		return -EINVAL;
	err = import_msg_iov(&um, &iov, &it);
	if (err)
		return err;
	msg.msg_name = um.msg_name ? address : NULL;
	msg.msg_control = um.msg_control;
	msg.msg_controllen = um.msg_controllen;
	msg.msg_cmsg_cloexec = flags & MSG_CMSG_CLOEXEC;
	err = sock->ops->recvmsg(sock, &msg, it.count, file_flags(file, flags & ~MSG_CMSG_CLOEXEC));
	kfree(iov);
	if (err < 0)
		return err;
	if (um.msg_name)
		err2 = move_addr_to_user(address, msg.msg_namelen, um.msg_name, user_member(umsg, struct user_msghdr, msg_namelen));
	if (!err2 && (copy_to_user(user_member(umsg, struct user_msghdr, msg_flags), &msg.msg_flags, sizeof(msg.msg_flags)) ||
		      copy_to_user(user_member(umsg, struct user_msghdr, msg_controllen), &msg.msg_control_used, sizeof(size_t))))
		err2 = -EFAULT;
	return err2 ? err2 : err;
}

long sys_sendmsg(int fd, struct user_msghdr __user *msg, unsigned int flags)
{
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);
	long ret;

	if (!sock)
		return err;
	ret = do_sendmsg(file, sock, msg, flags);
	fput(file);
	return ret;
}

long sys_recvmsg(int fd, struct user_msghdr __user *msg, unsigned int flags)
{
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);
	long ret;

	if (!sock)
		return err;
	ret = do_recvmsg(file, sock, msg, flags);
	fput(file);
	return ret;
}

/* sendmmsg and recvmmsg's array element. */
struct mmsghdr {
	struct user_msghdr msg_hdr;
	unsigned int msg_len;
};
#define UIO_MAXIOV_MMSG 1024

/* Each message in turn until one fails: the count done, or the first
 * message's error. recvmmsg's timeout (to, or NULL) is looked at after
 * each message, as Linux does: it does not cut a wait short. */
static long do_mmsg(int fd, struct mmsghdr __user *mmsg, unsigned int vlen,
		    unsigned int flags, bool send, struct poll_timeout *to)
{
	struct file *file;
	int err;
	struct socket *sock = sockfd_lookup(fd, &file, &err);
	unsigned int done = 0;
	long ret = 0;

	if (!sock)
		return err;
	if (vlen > UIO_MAXIOV_MMSG)
		vlen = UIO_MAXIOV_MMSG;
	for (; done < vlen; done++) {
		ret = send ? do_sendmsg(file, sock, &mmsg[done].msg_hdr, flags)
			   : do_recvmsg(file, sock, &mmsg[done].msg_hdr, flags);
		if (ret < 0)
			break;
		if (put_user_u32((uint32_t)ret, &mmsg[done].msg_len)) {
			ret = -EFAULT;
			break;
		}
		if (!send && (flags & MSG_WAITFORONE))
			flags |= MSG_DONTWAIT;
		if (to && ktime_get_ns() >= to->end_ns) {
			done++;
			break;
		}
	}
	fput(file);
	return done ? (long)done : ret;
}

long sys_sendmmsg(int fd, struct mmsghdr __user *mmsg, unsigned int vlen, unsigned int flags)
{
	return do_mmsg(fd, mmsg, vlen, flags, true, NULL);
}

long sys_recvmmsg(int fd, struct mmsghdr __user *mmsg, unsigned int vlen, unsigned int flags,
		  struct timespec __user *timeout)
{
	struct poll_timeout to;
	struct timespec left = { 0, 0 };
	long ret;
	int err;

	if (!timeout)
		return do_mmsg(fd, mmsg, vlen, flags, false, NULL);
	err = get_timespec_timeout(&to, timeout);
	if (err)
		return err;
	ret = do_mmsg(fd, mmsg, vlen, flags, false, &to);
	uint64_t now = ktime_get_ns();
	if (now < to.end_ns) {
		left.tv_sec = (to.end_ns - now) / 1000000000;
		left.tv_nsec = (to.end_ns - now) % 1000000000;
	}
	if (copy_to_user(timeout, &left, sizeof(left)))
		return -EFAULT;
	return ret;
}
