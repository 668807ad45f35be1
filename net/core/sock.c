/*
 * sock.c - what every socket has, whatever its family: the struct sock's
 * life (references), its buffer sizes and time-outs, waiting for it to
 * change, and the SOL_SOCKET options (sockopt.c).
 *
 * Waiting: a task that waits for a sock (to read, for room to write, for
 * a connection) sleeps on a channel (the sock itself, or the peer it
 * sends to) with interrupts off between its test and its sleep; whatever
 * changes a sock wakes that channel with poll_wakeup (sk_wake), so poll,
 * select and epoll look again too (include/poll.h).
 */
#include <errno.h>
#include <mm.h>
#include <net.h>
#include <net_namespace.h>
#include <poll.h>
#include <sched.h>
#include <x86.h>

void net_lock(net_lock_t *l)
{
	BUG_ON(l->held); /* would spin for ever: a lock taken twice */
	l->held = true;
}

void net_unlock(net_lock_t *l)
{
	BUG_ON(!l->held);
	l->held = false;
}

struct sock *sk_alloc(struct net *net, int family, int type, size_t size)
{
	struct sock *sk = kzalloc(size);

	if (!sk)
		return NULL;
	sk->lock = (net_lock_t)NET_LOCK_INIT("sk_lock");
	sk->sk_net = get_net(net);
	sk->sk_family = family;
	sk->sk_type = type;
	sk->sk_refcnt = 1;
	sk->sk_state = TCP_CLOSE;
	sk->sk_sndbuf = SYSCTL_WMEM_MAX;
	sk->sk_rcvbuf = SYSCTL_RMEM_MAX;
	sk->sk_rcvtimeo = sk->sk_sndtimeo = MAX_SCHEDULE_TIMEOUT;
	/* No peer yet: SO_PEERCRED answers pid 0 and ids of -1. */
	sk->sk_peer_cred = (struct ucred){ .pid = 0, .uid = (uint32_t)-1, .gid = (uint32_t)-1 };
	skb_queue_head_init(&sk->sk_receive_queue, "sk_receive_queue");
	return sk;
}

void sock_hold(struct sock *sk)
{
	sk->sk_refcnt++;
}

void sock_put(struct sock *sk)
{
	if (--sk->sk_refcnt)
		return;
	if (sk->sk_destruct)
		sk->sk_destruct(sk);
	put_net(sk->sk_net);
	kfree(sk);
}

/* Tie sk to its socket (Linux's sock_init_data). */
void sock_init_data(struct socket *sock, struct sock *sk)
{
	sk->sk_socket = sock;
	if (sock) {
		sock->sk = sk;
		sk->sk_type = sock->type;
	}
}

int sock_error(struct sock *sk)
{
	int err = sk->sk_err;

	sk->sk_err = 0;
	return -err;
}

long sock_rcvtimeo(struct sock *sk, bool noblock)
{
	return noblock ? 0 : sk->sk_rcvtimeo;
}

long sock_sndtimeo(struct sock *sk, bool noblock)
{
	return noblock ? 0 : sk->sk_sndtimeo;
}

int sock_intr_errno(long timeo)
{
	return timeo == MAX_SCHEDULE_TIMEOUT ? -ERESTARTSYS : -EINTR;
}

int sk_wait_event(struct sock *sk, void *chan, bool (*cond)(struct sock *sk, void *arg),
		  void *arg, long *timeo)
{
	uint64_t flags = irq_save();
	int ret = 0;

	while (!cond(sk, arg)) {
		if (!*timeo) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			ret = sock_intr_errno(*timeo);
			break;
		}
		uint64_t start = jiffies;
		if (*timeo != MAX_SCHEDULE_TIMEOUT)
			current->wake_at = start + *timeo;
		sleep_on(chan);
		current->wake_at = 0;
		if (*timeo != MAX_SCHEDULE_TIMEOUT) {
			long spent = (long)(jiffies - start);
			*timeo = spent >= *timeo ? 0 : *timeo - spent;
		}
	}
	irq_restore(flags);
	return ret;
}

void sk_wake(struct sock *sk)
{
	poll_wakeup(sk);
}

/* Room to write: a quarter of the send buffer in use at most, as Linux's
 * unix_writable. */
bool sock_writeable(struct sock *sk)
{
	return sk->sk_wmem_alloc * 4 <= (size_t)sk->sk_sndbuf;
}

static bool send_room(struct sock *sk, void *arg)
{
	(void)arg;
	return sk->sk_err || (sk->sk_shutdown & SEND_SHUTDOWN) ||
	       sk->sk_wmem_alloc < (size_t)sk->sk_sndbuf;
}

struct sk_buff *sock_alloc_send_skb(struct sock *sk, size_t len, bool noblock, int *err)
{
	long timeo = sock_sndtimeo(sk, noblock);
	struct sk_buff *skb;

	for (;;) {
		*err = sock_error(sk);
		if (*err)
			return NULL;
		if (sk->sk_shutdown & SEND_SHUTDOWN) {
			*err = -EPIPE;
			return NULL;
		}
		if (sk->sk_wmem_alloc < (size_t)sk->sk_sndbuf)
			break;
		*err = sk_wait_event(sk, sk, send_room, NULL, &timeo);
		if (*err)
			return NULL;
	}
	skb = alloc_skb(sk, len);
	if (!skb)
		*err = -ENOMEM;
	return skb;
}
