/*
 * unix_stream.c - the data of SOCK_STREAM sockets: a write becomes one or
 * more buffers on the peer's receive queue; a read takes bytes from the
 * front, across buffers, with no boundaries kept.
 *
 * What a read may not merge: the credentials of different senders (when
 * SO_PASSCRED asks for them), and files (SCM_RIGHTS): a read stops after
 * the buffer that carried files, so that they come with their own bytes.
 */
#include "../../fs/vfs.h"
#include "af_unix.h"
#include <fs.h>
#include <sched.h>
#include <signum.h>
#include <string.h>

size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i);
size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i);

void unix_queue_skb(struct sock *other, struct sk_buff *skb)
{
	skb_queue_tail(&other->sk_receive_queue, skb);
	unix_sk(other)->rcv_seq++;
	sk_wake(other);
}

void unix_attach_fds(struct scm_cookie *scm, struct sk_buff *skb)
{
	skb->fp = scm->fp;
	scm->fp = NULL;
	unix_inflight(skb->fp);
}

/* A buffer of size bytes from the message, with scm's credentials (and
 * files, if any are left): NULL and *err. */
struct sk_buff *unix_build_skb(struct sock *sk, struct msghdr *msg, size_t size,
			       struct scm_cookie *scm, int *err)
{
	struct sk_buff *skb = sock_alloc_send_skb(sk, size, msg->msg_flags & MSG_DONTWAIT, err);

	if (!skb)
		return NULL;
	if (copy_from_iter(skb->data, size, msg->msg_iter) < size) {
		kfree_skb(skb);
		*err = -EFAULT;
		return NULL;
	}
	skb->creds = scm->creds;
	skb->has_creds = true;
	if (scm->fp)
		unix_attach_fds(scm, skb);
	return skb;
}

static long pipe_error(struct msghdr *msg, long sent)
{
	if (sent)
		return sent;
	if (!(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current);
	return -EPIPE;
}

long unix_stream_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct sock *sk = sock->sk, *other;
	struct scm_cookie scm;
	long sent = 0;
	int err = scm_send(sock, msg, &scm);

	if (err)
		return err;
	err = -EOPNOTSUPP;
	if (msg->msg_flags & MSG_OOB)
		goto out;
	if (msg->msg_namelen) {
		err = sk->sk_state == TCP_ESTABLISHED ? -EISCONN : -EOPNOTSUPP;
		goto out;
	}
	err = -ENOTCONN;
	other = unix_peer(sk);
	if (!other)
		goto out;
	if (sk->sk_shutdown & SEND_SHUTDOWN) {
		scm_destroy(&scm);
		return pipe_error(msg, 0);
	}
	while ((size_t)sent < len) {
		/* Keep two buffers in the pipe, as Linux does. */
		size_t size = MIN(len - sent, (size_t)(sk->sk_sndbuf / 2 - 64));
		struct sk_buff *skb = unix_build_skb(sk, msg, size, &scm, &err);

		if (!skb)
			goto out;
		if (other->sk_dead || (other->sk_shutdown & RCV_SHUTDOWN)) {
			kfree_skb(skb);
			scm_destroy(&scm);
			return pipe_error(msg, sent);
		}
		unix_queue_skb(other, skb);
		sent += size;
	}
	scm_destroy(&scm);
	return sent;
out:
	scm_destroy(&scm);
	if (err == -EPIPE)
		return pipe_error(msg, sent);
	return sent ? sent : err;
}

/* ---- reading ------------------------------------------------------------------ */

struct stream_wait {
	unsigned long seq;              /* rcv_seq when the reader looked */
};

static bool more_to_read(struct sock *sk, void *arg)
{
	struct stream_wait *w = arg;

	return unix_sk(sk)->rcv_seq != w->seq || sk->sk_err ||
	       (sk->sk_shutdown & RCV_SHUTDOWN) || sk->sk_state != TCP_ESTABLISHED;
}

/* The buffer holding the stream's byte at offset skip (for MSG_PEEK); its
 * offset inside it in *off. */
static struct sk_buff *stream_skb_at(struct sock *sk, size_t skip, size_t *off)
{
	struct sk_buff *skb = skb_peek(&sk->sk_receive_queue);

	for (; skb; skb = skb_peek_next(&sk->sk_receive_queue, skb)) {
		size_t avail = skb->len - skb->consumed;
		if (skip < avail || (!avail && !skip)) {
			*off = skb->consumed + skip;
			return skb;
		}
		skip -= avail;
	}
	return NULL;
}

long unix_stream_recvmsg(struct socket *sock, struct msghdr *msg, size_t size, int flags)
{
	struct sock *sk = sock->sk;
	size_t target = (flags & MSG_WAITALL) ? size : MIN((size_t)1, size);
	long timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	struct scm_cookie scm = { 0 };
	bool peek = flags & MSG_PEEK, have_creds = false;
	long copied = 0;
	int err = 0;

	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (sk->sk_state != TCP_ESTABLISHED)
		return -EINVAL;
	msg->msg_namelen = 0;
	do {
		size_t off, chunk;
		struct sk_buff *skb = stream_skb_at(sk, peek ? copied : 0, &off);

		if (!skb) {
			struct stream_wait w = { unix_sk(sk)->rcv_seq };
			if ((size_t)copied >= target)
				break;
			if ((err = sock_error(sk)) || (sk->sk_shutdown & RCV_SHUTDOWN))
				break;
			if (!timeo) {
				err = -EAGAIN;
				break;
			}
			err = sk_wait_event(sk, sk, more_to_read, &w, &timeo);
			if (err)
				break;
			continue;
		}
		if (have_creds && sock->passcred &&
		    memcmp(&scm.creds, &skb->creds, sizeof(scm.creds)))
			break; /* another sender's bytes: the next read */
		if (!have_creds) {
			scm.creds = skb->creds;
			have_creds = true;
		}
		if (msg->msg_name && !copied && !msg->msg_namelen && skb->sk && unix_sk(skb->sk)->addr) {
			struct unix_address *a = unix_sk(skb->sk)->addr;
			memcpy(msg->msg_name, a->name, a->len);
			msg->msg_namelen = a->len;
		}
		chunk = MIN(skb->len - off, size);
		if (copy_to_iter(skb->data + off, chunk, msg->msg_iter) < chunk) {
			err = -EFAULT;
			break;
		}
		copied += chunk;
		size -= chunk;
		if (peek) {
			if (skb->fp) {
				scm.fp = scm_fp_dup(skb->fp);
				break;
			}
			continue;
		}
		skb->consumed += chunk;
		if (skb->fp) {
			scm.fp = skb->fp;
			skb->fp = NULL;
			unix_notinflight(scm.fp);
		}
		if (skb->consumed < skb->len)
			break;
		skb_unlink(&sk->sk_receive_queue, skb);
		kfree_skb(skb);
		if (scm.fp)
			break;
	} while (size);
	if (copied || !err)
		scm_recv(sock, msg, &scm, sock->passcred);
	else
		scm_destroy(&scm);
	return copied ? copied : err;
}
