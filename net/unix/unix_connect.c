/*
 * unix_connect.c - AF_UNIX connections: connect and accept for
 * SOCK_STREAM and SOCK_SEQPACKET, connect for SOCK_DGRAM.
 *
 * A stream connect makes the server's end at once (the "embryo", a new
 * sock connected to the client) and queues it on the listener's receive
 * queue in a buffer of no data; connect returns as soon as it is queued,
 * and the client may write before the server accepts. accept takes the
 * first one and gives it a socket. A listener whose queue holds more than
 * its backlog makes connect wait (EAGAIN without blocking).
 *
 * A datagram connect only sets the default destination (and the only
 * source a socket will take datagrams from: unix_may_send).
 */
#include "../../fs/vfs.h"
#include "af_unix.h"
#include <fs.h>
#include <sched.h>

bool unix_recvq_full(struct sock *other)
{
	return other->sk_receive_queue.qlen > other->sk_max_ack_backlog;
}

static bool room_or_gone(struct sock *other, void *arg)
{
	(void)arg;
	return !unix_recvq_full(other) || other->sk_dead || other->sk_state != TCP_LISTEN;
}

/* The client side's checks (Linux's order): 0 or -errno. */
static int connect_state_ok(struct sock *sk)
{
	if (sk->sk_state == TCP_ESTABLISHED)
		return -EISCONN;
	return sk->sk_state == TCP_CLOSE ? 0 : -EINVAL;
}

/* Connect sk to the listener other through the new sock newsk. */
static void unix_link(struct socket *sock, struct sock *other, struct sock *newsk,
		      struct sk_buff *skb)
{
	struct sock *sk = sock->sk;

	newsk->sk_state = TCP_ESTABLISHED;
	newsk->sk_type = sk->sk_type;
	init_peercred(newsk);
	sock_hold(sk);
	unix_peer(newsk) = sk;
	unix_copy_name(unix_sk(newsk), unix_sk(other));
	sk->sk_peer_cred = other->sk_peer_cred;
	sock->state = SS_CONNECTED;
	sk->sk_state = TCP_ESTABLISHED;
	sock_hold(newsk);
	unix_peer(sk) = newsk;
	skb->newsk = newsk;
	unix_queue_skb(other, skb);
}

int unix_stream_connect(struct socket *sock, void *uaddr, int len, int flags)
{
	struct sock *sk = sock->sk, *other, *newsk;
	long timeo = sock_sndtimeo(sk, flags & O_NONBLOCK);
	struct sk_buff *skb;
	int err = unix_validate_addr(uaddr, len);

	if (err)
		return err;
	if (sock->passcred && !unix_sk(sk)->addr && (err = unix_autobind(sk)))
		return err;
	newsk = unix_create_sk(sock_net(sk), NULL, sk->sk_type);
	skb = newsk ? alloc_skb(NULL, 0) : NULL;
	if (!skb) {
		if (newsk)
			sock_put(newsk);
		return -ENOMEM;
	}
	for (;;) {
		other = unix_find_other(sock_net(sk), uaddr, len, sk->sk_type);
		if (IS_ERR(other)) {
			err = PTR_ERR(other);
			goto out;
		}
		err = -ECONNREFUSED;
		if (other->sk_dead || other->sk_state != TCP_LISTEN ||
		    (other->sk_shutdown & RCV_SHUTDOWN))
			goto out_put;
		if (!unix_recvq_full(other))
			break;
		err = sk_wait_event(other, other, room_or_gone, NULL, &timeo);
		sock_put(other);
		if (err)
			goto out;
	}
	err = connect_state_ok(sk);
	if (err)
		goto out_put;
	unix_link(sock, other, newsk, skb);
	sock_put(other);
	return 0;
out_put:
	sock_put(other);
out:
	kfree_skb(skb);
	sock_put(newsk);
	return err;
}

static bool connection_waiting(struct sock *sk, void *arg)
{
	(void)arg;
	return skb_peek(&sk->sk_receive_queue) || sk->sk_state != TCP_LISTEN;
}

int unix_accept(struct socket *sock, struct socket *newsock, int flags)
{
	struct sock *sk = sock->sk, *tsk;
	long timeo = sock_rcvtimeo(sk, flags & O_NONBLOCK);
	struct sk_buff *skb;
	int err;

	if (sock->type != SOCK_STREAM && sock->type != SOCK_SEQPACKET)
		return -EOPNOTSUPP;
	if (sk->sk_state != TCP_LISTEN)
		return -EINVAL;
	err = sk_wait_event(sk, sk, connection_waiting, NULL, &timeo);
	if (err)
		return err;
	if (sk->sk_state != TCP_LISTEN)
		return -EINVAL;
	skb = skb_dequeue(&sk->sk_receive_queue);
	sk_wake(sk); /* room in the backlog */
	tsk = skb->newsk;
	skb->newsk = NULL;
	kfree_skb(skb);
	/* The new socket takes over the queue's reference on tsk. */
	sock_init_data(newsock, tsk);
	newsock->state = SS_CONNECTED;
	newsock->passcred = sock->passcred;
	return 0;
}

/* Linux's unix_may_send: other takes datagrams from anybody unless it is
 * connected, and then only from its peer. */
bool unix_may_send(struct sock *sk, struct sock *other)
{
	return !unix_peer(other) || unix_peer(other) == sk;
}

int unix_dgram_connect(struct socket *sock, void *uaddr, int len, int flags)
{
	struct sock *sk = sock->sk, *other, *old;
	const struct sockaddr_un *addr = uaddr;
	int err;

	(void)flags;
	if (len < (int)sizeof(addr->sun_family))
		return -EINVAL;
	if (addr->sun_family == AF_UNSPEC) {
		other = NULL; /* disconnect */
	} else {
		err = unix_validate_addr(addr, len);
		if (err)
			return err;
		if (sock->passcred && !unix_sk(sk)->addr && (err = unix_autobind(sk)))
			return err;
		other = unix_find_other(sock_net(sk), addr, len, sk->sk_type);
		if (IS_ERR(other))
			return PTR_ERR(other);
		if (!unix_may_send(sk, other)) {
			sock_put(other);
			return -EPERM;
		}
	}
	old = unix_peer(sk);
	unix_peer(sk) = other; /* takes over the lookup's reference */
	sk->sk_state = other ? TCP_ESTABLISHED : TCP_CLOSE;
	if (other)
		other->sk_state = TCP_ESTABLISHED;
	if (old) {
		sk_wake(old);
		sock_put(old);
	}
	return 0;
}
