/*
 * skbuff.c - socket buffers: one message (or one piece of a stream) on its
 * way from a sender to a receiver, and the queues that hold them.
 *
 * Much simpler than Linux's sk_buff: the data is one kmalloc'd block, and
 * a buffer knows only what AF_UNIX needs (its length, how much a stream
 * reader has taken, the sender's credentials and the files it carries).
 * A buffer with a sender is charged to it: truesize bytes of the sender's
 * sk_wmem_alloc, and a reference on the sender's sock, until it is freed
 * (Linux's sock_wfree); the free wakes writers waiting for room.
 */
#include <errno.h>
#include <mm.h>
#include <net.h>

/* What a buffer of len bytes costs its sender: the data and the header, as
 * Linux counts an sk_buff and its head (SKB_TRUESIZE). */
static size_t skb_truesize(size_t len)
{
	return len + 576;
}

struct sk_buff *alloc_skb(struct sock *sk, size_t len)
{
	struct sk_buff *skb = kzalloc(sizeof(*skb));

	if (!skb)
		return NULL;
	skb->data = len ? kmalloc(len) : NULL;
	if (len && !skb->data) {
		kfree(skb);
		return NULL;
	}
	skb->len = len;
	skb->truesize = skb_truesize(len);
	if (sk) {
		sock_hold(sk);
		skb->sk = sk;
		sk->sk_wmem_alloc += skb->truesize;
	}
	return skb;
}

void kfree_skb(struct sk_buff *skb)
{
	struct sock *sk = skb->sk;

	if (skb->fp) {
		/* Files still in flight: closed with the buffer (Linux's
		 * unix_destruct_scm). */
		unix_notinflight(skb->fp);
		scm_destroy(&(struct scm_cookie){ .fp = skb->fp });
	}
	if (sk) {
		sk->sk_wmem_alloc -= skb->truesize;
		sk_wake(sk); /* room for the sender */
		sock_put(sk);
	}
	kfree(skb->data);
	kfree(skb);
}

/* ---- queues: a ring through the head, each with its lock ------------------ */

void skb_queue_head_init(struct sk_buff_head *q, const char *name)
{
	q->next = q->prev = (struct sk_buff *)q;
	q->qlen = 0;
	q->lock = (net_lock_t)NET_LOCK_INIT(name);
}

void skb_queue_tail(struct sk_buff_head *q, struct sk_buff *skb)
{
	struct sk_buff *head = (struct sk_buff *)q;

	net_lock(&q->lock);
	skb->next = head;
	skb->prev = q->prev;
	q->prev->next = skb;
	q->prev = skb;
	q->qlen++;
	net_unlock(&q->lock);
}

struct sk_buff *skb_peek(struct sk_buff_head *q)
{
	return q->qlen ? q->next : NULL;
}

struct sk_buff *skb_peek_next(struct sk_buff_head *q, struct sk_buff *skb)
{
	return skb->next == (struct sk_buff *)q ? NULL : skb->next;
}

void skb_unlink(struct sk_buff_head *q, struct sk_buff *skb)
{
	net_lock(&q->lock);
	skb->prev->next = skb->next;
	skb->next->prev = skb->prev;
	skb->next = skb->prev = NULL;
	q->qlen--;
	net_unlock(&q->lock);
}

struct sk_buff *skb_dequeue(struct sk_buff_head *q)
{
	struct sk_buff *skb = skb_peek(q);

	if (skb)
		skb_unlink(q, skb);
	return skb;
}

void skb_queue_purge(struct sk_buff_head *q)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(q)))
		kfree_skb(skb);
}
