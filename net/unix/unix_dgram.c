/*
 * unix_dgram.c - the data of SOCK_DGRAM and SOCK_SEQPACKET sockets: one
 * write is one buffer, and one read takes one buffer whole (what does not
 * fit is lost: MSG_TRUNC).
 *
 * A datagram goes to the address given, or to the peer connect chose. A
 * receiver takes at most net.unix.max_dgram_qlen (10) datagrams from
 * senders it is not connected to before they wait (or get EAGAIN); its
 * own peer is limited only by its send buffer. SOCK_SEQPACKET is a
 * connection, as a stream, whose messages keep their boundaries.
 */
#include "../../fs/vfs.h"
#include "af_unix.h"
#include <fs.h>
#include <sched.h>
#include <signum.h>
#include <string.h>

size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i);

static bool recvq_room(struct sock *other, void *arg)
{
	(void)arg;
	return !unix_recvq_full(other) || other->sk_dead || (other->sk_shutdown & RCV_SHUTDOWN);
}

/* Whether skb may go to other now: 0, or -errno; *retry when other was
 * found dead or the wait for room ended, so the caller looks again. */
static int dgram_deliver(struct socket *sock, struct sock *other, struct sk_buff *skb,
			 long *timeo, bool *retry)
{
	struct sock *sk = sock->sk;
	int err;

	*retry = false;
	if (!unix_may_send(sk, other))
		return -EPERM;
	if (other->sk_dead) {
		if (sk->sk_type == SOCK_SEQPACKET)
			return -EPIPE;
		if (unix_peer(sk) == other) {
			unix_peer(sk) = NULL;
			sk->sk_state = TCP_CLOSE;
			sock_put(other);
			return -ECONNREFUSED;
		}
		*retry = true;
		return 0;
	}
	if (other->sk_shutdown & RCV_SHUTDOWN)
		return -EPIPE;
	if (other != sk && unix_peer(other) != sk && unix_recvq_full(other)) {
		err = sk_wait_event(other, other, recvq_room, NULL, timeo);
		if (err)
			return err;
		*retry = true;
		return 0;
	}
	unix_queue_skb(other, skb);
	return 0;
}

long unix_dgram_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct sock *sk = sock->sk, *other = NULL;
	const struct sockaddr_un *addr = msg->msg_namelen ? msg->msg_name : NULL;
	struct scm_cookie scm;
	struct sk_buff *skb = NULL;
	long timeo;
	bool retry;
	int err = scm_send(sock, msg, &scm);

	if (err)
		return err;
	err = -EOPNOTSUPP;
	if (msg->msg_flags & MSG_OOB)
		goto out;
	if (addr) {
		if ((err = unix_validate_addr(addr, msg->msg_namelen)))
			goto out;
	} else {
		err = -ENOTCONN;
		if (!(other = unix_peer(sk)))
			goto out;
		sock_hold(other);
	}
	if (sock->passcred && !unix_sk(sk)->addr && (err = unix_autobind(sk)))
		goto out;
	err = -EMSGSIZE;
	if (len > (size_t)sk->sk_sndbuf - 32)
		goto out;
	skb = unix_build_skb(sk, msg, len, &scm, &err);
	if (!skb)
		goto out;
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	for (;;) {
		if (!other) {
			err = -ECONNRESET;
			if (!addr)
				goto out;
			other = unix_find_other(sock_net(sk), addr, msg->msg_namelen, sk->sk_type);
			if (IS_ERR(other)) {
				err = PTR_ERR(other);
				other = NULL;
				goto out;
			}
		}
		err = dgram_deliver(sock, other, skb, &timeo, &retry);
		if (err == -ECONNREFUSED)
			goto out;
		if (err || !retry)
			break;
		if (other->sk_dead) {
			sock_put(other);
			other = NULL;
		}
	}
	if (!err) {
		skb = NULL; /* the receiver's now */
		err = len;
	}
out:
	if (skb)
		kfree_skb(skb);
	if (other)
		sock_put(other);
	scm_destroy(&scm);
	return err;
}

long unix_seqpacket_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct sock *sk = sock->sk;
	int err = sock_error(sk);

	if (err)
		return err;
	if (sk->sk_state != TCP_ESTABLISHED)
		return -ENOTCONN;
	msg->msg_namelen = 0;
	return unix_dgram_sendmsg(sock, msg, len);
}

/* ---- reading ------------------------------------------------------------------ */

static bool dgram_ready(struct sock *sk, void *arg)
{
	(void)arg;
	return skb_peek(&sk->sk_receive_queue) || sk->sk_err || (sk->sk_shutdown & RCV_SHUTDOWN);
}

/* The next datagram, dequeued unless peek: NULL with *err (0 at the end). */
static struct sk_buff *dgram_next(struct sock *sk, int flags, int *err)
{
	long timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	struct sk_buff *skb;

	for (;;) {
		skb = skb_peek(&sk->sk_receive_queue);
		if (skb) {
			if (!(flags & MSG_PEEK))
				skb_unlink(&sk->sk_receive_queue, skb);
			*err = 0;
			return skb;
		}
		if ((*err = sock_error(sk)))
			return NULL;
		if (sk->sk_shutdown & RCV_SHUTDOWN)
			return NULL;
		if ((*err = sk_wait_event(sk, sk, dgram_ready, NULL, &timeo)))
			return NULL;
	}
}

long unix_dgram_recvmsg(struct socket *sock, struct msghdr *msg, size_t size, int flags)
{
	struct sock *sk = sock->sk;
	struct scm_cookie scm = { 0 };
	struct sk_buff *skb;
	long ret;
	int err;

	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	msg->msg_namelen = 0;
	skb = dgram_next(sk, flags, &err);
	if (!skb)
		return err;
	sk_wake(sk); /* senders waiting for room in the queue */
	if (msg->msg_name && skb->sk && unix_sk(skb->sk)->addr) {
		struct unix_address *a = unix_sk(skb->sk)->addr;
		memcpy(msg->msg_name, a->name, a->len);
		msg->msg_namelen = a->len;
	}
	if (size > skb->len)
		size = skb->len;
	else if (size < skb->len)
		msg->msg_flags |= MSG_TRUNC;
	if (copy_to_iter(skb->data, size, msg->msg_iter) < size) {
		ret = -EFAULT;
		goto out;
	}
	scm.creds = skb->creds;
	if (skb->fp && !(flags & MSG_PEEK)) {
		scm.fp = skb->fp;
		skb->fp = NULL;
		unix_notinflight(scm.fp);
	} else if (skb->fp) {
		scm.fp = scm_fp_dup(skb->fp);
	}
	ret = (flags & MSG_TRUNC) ? (long)skb->len : (long)size;
	scm_recv(sock, msg, &scm, sock->passcred);
out:
	if (!(flags & MSG_PEEK))
		kfree_skb(skb);
	return ret;
}

long unix_seqpacket_recvmsg(struct socket *sock, struct msghdr *msg, size_t size, int flags)
{
	if (sock->sk->sk_state != TCP_ESTABLISHED)
		return -ENOTCONN;
	return unix_dgram_recvmsg(sock, msg, size, flags);
}
