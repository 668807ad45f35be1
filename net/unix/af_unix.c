/*
 * af_unix.c - AF_UNIX sockets (Linux's net/unix/af_unix.c): their life,
 * socketpair, listen, shutdown, readiness and the operation tables.
 * Names are in unix_addr.c, connections in unix_connect.c, the data's
 * travel in unix_stream.c and unix_dgram.c, and the collector of files
 * in flight in garbage.c.
 *
 * References on a sock: its socket's; its peer's (unix_peer); each buffer
 * it sent that is not yet freed; a connection waiting in a listener's
 * queue holds its new sock. The sock is freed with the last.
 */
#include "../../fs/vfs.h"
#include "af_unix.h"
#include <cred.h>
#include <fs.h>
#include <mm.h>
#include <net_namespace.h>
#include <poll.h>
#include <sched.h>
#include <uaccess.h>

struct unix_sock *unix_all;     /* every AF_UNIX sock, under unix_table_lock */

static void unix_sock_destruct(struct sock *sk)
{
	struct unix_sock *u = unix_sk(sk);

	skb_queue_purge(&sk->sk_receive_queue);
	net_lock(&unix_table_lock);
	if (u->prev_all)
		u->prev_all->next_all = u->next_all;
	else
		unix_all = u->next_all;
	if (u->next_all)
		u->next_all->prev_all = u->prev_all;
	net_unlock(&unix_table_lock);
	kfree(u->addr);
}

struct sock *unix_create_sk(struct net *net, struct socket *sock, int type)
{
	struct sock *sk = sk_alloc(net, AF_UNIX, type, sizeof(struct unix_sock));
	struct unix_sock *u = unix_sk(sk);

	if (!sk)
		return NULL;
	sock_init_data(sock, sk);
	sk->sk_max_ack_backlog = UNIX_MAX_DGRAM_QLEN;
	sk->sk_destruct = unix_sock_destruct;
	net_lock(&unix_table_lock);
	u->next_all = unix_all;
	if (unix_all)
		unix_all->prev_all = u;
	unix_all = u;
	net_unlock(&unix_table_lock);
	return sk;
}

int unix_create(struct socket *sock, int protocol)
{
	if (protocol && protocol != AF_UNIX)
		return -EPROTONOSUPPORT;
	switch (sock->type) {
	case SOCK_STREAM:
		sock->ops = &unix_stream_ops;
		break;
	case SOCK_RAW: /* taken as SOCK_DGRAM, as Linux does */
		sock->type = SOCK_DGRAM;
		/* fall through */
	case SOCK_DGRAM:
		sock->ops = &unix_dgram_ops;
		break;
	case SOCK_SEQPACKET:
		sock->ops = &unix_seqpacket_ops;
		break;
	default:
		return -ESOCKTNOSUPPORT;
	}
	return unix_create_sk(current_net(), sock, sock->type) ? 0 : -ENOMEM;
}

/* SO_PEERCRED's answer about current: its process and effective ids. */
void init_peercred(struct sock *sk)
{
	const struct cred *cred = current_cred();

	sk->sk_peer_cred = (struct ucred){ .pid = current->tgid, .uid = cred->euid, .gid = cred->egid };
}

/* The socket is closed, or a connection never accepted is dropped. */
void unix_release_sock(struct sock *sk, bool embryo)
{
	struct unix_sock *u = unix_sk(sk);
	struct sock *skpair;
	struct sk_buff *skb;
	int state = sk->sk_state;

	unix_remove_bound(u);
	net_lock(&sk->lock);
	sk->sk_dead = true;
	sk->sk_socket = NULL;
	sk->sk_shutdown = SHUTDOWN_MASK;
	sk->sk_state = TCP_CLOSE;
	skpair = unix_peer(sk);
	unix_peer(sk) = NULL;
	net_unlock(&sk->lock);
	if (u->path) {
		dput(u->path);
		u->path = NULL;
	}
	sk_wake(sk);
	if (skpair) {
		if (sk->sk_type != SOCK_DGRAM) {
			/* The other end can write no more; unread data here
			 * or a connection never accepted is a reset to it. */
			skpair->sk_shutdown = SHUTDOWN_MASK;
			if (skb_peek(&sk->sk_receive_queue) || embryo)
				skpair->sk_err = ECONNRESET;
		}
		sk_wake(skpair);
		sock_put(skpair);
	}
	while ((skb = skb_dequeue(&sk->sk_receive_queue))) {
		if (state == TCP_LISTEN && skb->newsk) {
			unix_release_sock(skb->newsk, true);
			skb->newsk = NULL;
		}
		kfree_skb(skb);
	}
	sock_put(sk);
	if (unix_tot_inflight)
		unix_gc();
}

static int unix_release(struct socket *sock)
{
	struct sock *sk = sock->sk;

	if (sk) {
		sock->sk = NULL;
		unix_release_sock(sk, false);
	}
	return 0;
}

static int unix_socketpair(struct socket *a, struct socket *b)
{
	struct sock *ska = a->sk, *skb = b->sk;

	sock_hold(ska);
	sock_hold(skb);
	unix_peer(ska) = skb;
	unix_peer(skb) = ska;
	init_peercred(ska);
	init_peercred(skb);
	ska->sk_state = skb->sk_state = TCP_ESTABLISHED;
	a->state = b->state = SS_CONNECTED;
	return 0;
}

static int unix_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;

	if (sock->type != SOCK_STREAM && sock->type != SOCK_SEQPACKET)
		return -EOPNOTSUPP;
	if (!unix_sk(sk)->addr)
		return -EINVAL; /* no listening on an unbound socket */
	if (sk->sk_state != TCP_CLOSE && sk->sk_state != TCP_LISTEN)
		return -EINVAL;
	if ((unsigned int)backlog > sk->sk_max_ack_backlog)
		sk_wake(sk); /* connects waiting for room may go on */
	sk->sk_max_ack_backlog = backlog;
	sk->sk_state = TCP_LISTEN;
	init_peercred(sk);
	return 0;
}

static int unix_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk, *other;
	int mode, peer_mode = 0;

	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	mode = how + 1; /* SHUT_* to RCV_SHUTDOWN / SEND_SHUTDOWN bits */
	sk->sk_shutdown |= mode;
	other = unix_peer(sk);
	sk_wake(sk);
	if (other && sk->sk_type != SOCK_DGRAM) {
		if (mode & RCV_SHUTDOWN)
			peer_mode |= SEND_SHUTDOWN;
		if (mode & SEND_SHUTDOWN)
			peer_mode |= RCV_SHUTDOWN;
		other->sk_shutdown |= peer_mode;
		sk_wake(other);
	}
	return 0;
}

/* ---- readiness and ioctl ----------------------------------------------------- */

static unsigned int unix_poll_common(struct sock *sk)
{
	unsigned int mask = 0;

	if (sk->sk_shutdown == SHUTDOWN_MASK)
		mask |= POLLHUP;
	if (sk->sk_shutdown & RCV_SHUTDOWN)
		mask |= POLLRDHUP | POLLIN | POLLRDNORM;
	if (skb_peek(&sk->sk_receive_queue))
		mask |= POLLIN | POLLRDNORM;
	return mask;
}

static unsigned int unix_poll(struct file *file, struct socket *sock)
{
	struct sock *sk = sock->sk;
	unsigned int mask = unix_poll_common(sk);

	(void)file;
	if (sk->sk_err)
		mask |= POLLERR;
	if (sk->sk_state == TCP_CLOSE)
		mask |= POLLHUP;
	if (sk->sk_state != TCP_LISTEN && sock_writeable(sk))
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	return mask;
}

static unsigned int unix_dgram_poll(struct file *file, struct socket *sock)
{
	struct sock *sk = sock->sk, *other;
	unsigned int mask = unix_poll_common(sk);
	bool writable = sk->sk_state != TCP_LISTEN && sock_writeable(sk);

	(void)file;
	if (sk->sk_err)
		mask |= POLLERR;
	if (sk->sk_type == SOCK_SEQPACKET && sk->sk_state == TCP_CLOSE)
		mask |= POLLHUP;
	other = unix_peer(sk);
	if (writable && other && unix_peer(other) != sk && unix_recvq_full(other))
		writable = false;
	if (writable)
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	return mask;
}

/* FIONREAD: a stream's unread bytes, or the next datagram's size. */
static long unix_inq_len(struct sock *sk)
{
	struct sk_buff *skb = skb_peek(&sk->sk_receive_queue);
	long amount = 0;

	if (sk->sk_state == TCP_LISTEN)
		return -EINVAL;
	if (sk->sk_type == SOCK_DGRAM)
		return skb ? (long)skb->len : 0;
	for (; skb; skb = skb_peek_next(&sk->sk_receive_queue, skb))
		amount += skb->len - skb->consumed;
	return amount;
}

static long unix_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct sock *sk = sock->sk;
	long amount;
	int val;

	switch (cmd) {
	case SIOCOUTQ:
		amount = sk->sk_wmem_alloc;
		break;
	case SIOCINQ:
		amount = unix_inq_len(sk);
		if (amount < 0)
			return amount;
		break;
	default:
		return -ENOTTY;
	}
	val = amount;
	return copy_to_user((void __user *)arg, &val, sizeof(val)) ? -EFAULT : 0;
}

/* ---- the operations -------------------------------------------------------------- */

int unix_stream_connect(struct socket *sock, void *uaddr, int len, int flags);
int unix_dgram_connect(struct socket *sock, void *uaddr, int len, int flags);
int unix_accept(struct socket *sock, struct socket *newsock, int flags);

const struct proto_ops unix_stream_ops = {
	.family = AF_UNIX,
	.release = unix_release,
	.bind = unix_bind,
	.connect = unix_stream_connect,
	.socketpair = unix_socketpair,
	.accept = unix_accept,
	.getname = unix_getname,
	.poll = unix_poll,
	.ioctl = unix_ioctl,
	.listen = unix_listen,
	.shutdown = unix_shutdown,
	.sendmsg = unix_stream_sendmsg,
	.recvmsg = unix_stream_recvmsg,
};

const struct proto_ops unix_dgram_ops = {
	.family = AF_UNIX,
	.release = unix_release,
	.bind = unix_bind,
	.connect = unix_dgram_connect,
	.socketpair = unix_socketpair,
	.getname = unix_getname,
	.poll = unix_dgram_poll,
	.ioctl = unix_ioctl,
	.listen = unix_listen,
	.shutdown = unix_shutdown,
	.sendmsg = unix_dgram_sendmsg,
	.recvmsg = unix_dgram_recvmsg,
};

const struct proto_ops unix_seqpacket_ops = {
	.family = AF_UNIX,
	.release = unix_release,
	.bind = unix_bind,
	.connect = unix_stream_connect,
	.socketpair = unix_socketpair,
	.accept = unix_accept,
	.getname = unix_getname,
	.poll = unix_dgram_poll,
	.ioctl = unix_ioctl,
	.listen = unix_listen,
	.shutdown = unix_shutdown,
	.sendmsg = unix_seqpacket_sendmsg,
	.recvmsg = unix_seqpacket_recvmsg,
};
