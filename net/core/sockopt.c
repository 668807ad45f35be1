/*
 * sockopt.c - setsockopt and getsockopt at level SOL_SOCKET, as Linux's
 * sock_setsockopt and sock_getsockopt answer them for AF_UNIX sockets.
 *
 * Buffer sizes are doubled on the way in (the kernel's bookkeeping
 * overhead, Linux says), capped by net.core.wmem_max/rmem_max first and
 * floored by SOCK_MIN_*BUF after; time-outs are struct timeval (the "old"
 * SO_RCVTIMEO/SO_SNDTIMEO) kept in jiffies.
 */
#include <cred.h>
#include <linux/pid_namespace.h>
#include <errno.h>
#include <net.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>

struct old_timeval {
	long tv_sec, tv_usec;
};

#define USEC_PER_SEC 1000000L

static int set_timeout(long *timeo, const void __user *optval, unsigned int optlen)
{
	struct old_timeval tv;

	if (optlen < sizeof(tv))
		return -EINVAL;
	if (copy_from_user(&tv, optval, sizeof(tv)))
		return -EFAULT;
	if (tv.tv_usec < 0 || tv.tv_usec >= USEC_PER_SEC)
		return -EDOM;
	if (tv.tv_sec < 0) {
		*timeo = 0; /* Linux warns once and takes it as "no wait" */
		return 0;
	}
	*timeo = MAX_SCHEDULE_TIMEOUT;
	if (tv.tv_sec == 0 && tv.tv_usec == 0)
		return 0;
	if (tv.tv_sec < MAX_SCHEDULE_TIMEOUT / HZ - 1)
		*timeo = tv.tv_sec * HZ + (tv.tv_usec + USEC_PER_SEC / HZ - 1) / (USEC_PER_SEC / HZ);
	return 0;
}

int sock_setsockopt(struct socket *sock, int optname, const void __user *optval,
		    unsigned int optlen)
{
	struct sock *sk = sock->sk;
	int val;

	if (optname == SO_RCVTIMEO)
		return set_timeout(&sk->sk_rcvtimeo, optval, optlen);
	if (optname == SO_SNDTIMEO)
		return set_timeout(&sk->sk_sndtimeo, optval, optlen);
	if (optlen < sizeof(int))
		return -EINVAL;
	if (copy_from_user(&val, optval, sizeof(val)))
		return -EFAULT;
	switch (optname) {
	case SO_SNDBUF:
	case SO_SNDBUFFORCE:
		if (optname == SO_SNDBUFFORCE && !capable(CAP_NET_ADMIN))
			return -EPERM;
		if (optname == SO_SNDBUF && (uint32_t)val > SYSCTL_WMEM_MAX)
			val = SYSCTL_WMEM_MAX;
		val = MIN(val, 0x3fffffff);
		sk->sk_sndbuf = MAX(val * 2, SOCK_MIN_SNDBUF);
		sk_wake(sk);
		return 0;
	case SO_RCVBUF:
	case SO_RCVBUFFORCE:
		if (optname == SO_RCVBUFFORCE && !capable(CAP_NET_ADMIN))
			return -EPERM;
		if (optname == SO_RCVBUF && (uint32_t)val > SYSCTL_RMEM_MAX)
			val = SYSCTL_RMEM_MAX;
		val = MIN(val, 0x3fffffff);
		sk->sk_rcvbuf = MAX(val * 2, SOCK_MIN_RCVBUF);
		return 0;
	case SO_PASSCRED:
		sock->passcred = val != 0;
		return 0;
	case SO_DEBUG: case SO_REUSEADDR: case SO_KEEPALIVE: case SO_DONTROUTE:
	case SO_BROADCAST: case SO_OOBINLINE: case SO_RCVLOWAT:
		return 0; /* accepted; nothing of AF_UNIX's depends on them */
	case SO_TYPE: case SO_ERROR: case SO_PEERCRED: case SO_ACCEPTCONN:
	case SO_PROTOCOL: case SO_DOMAIN:
	default:
		return -ENOPROTOOPT;
	}
}

/* The value of an option; its length in *len. -ENOPROTOOPT if unknown. */
static int get_value(struct socket *sock, int optname, void *v, int *len)
{
	struct sock *sk = sock->sk;
	int *ival = v;

	*len = sizeof(int);
	switch (optname) {
	case SO_TYPE: *ival = sock->type; return 0;
	case SO_DOMAIN: *ival = sk->sk_family; return 0;
	case SO_PROTOCOL: *ival = sk->sk_protocol; return 0;
	case SO_ERROR: *ival = -sock_error(sk); return 0;
	case SO_SNDBUF: *ival = sk->sk_sndbuf; return 0;
	case SO_RCVBUF: *ival = sk->sk_rcvbuf; return 0;
	case SO_PASSCRED: *ival = sock->passcred; return 0;
	case SO_ACCEPTCONN: *ival = sk->sk_state == TCP_LISTEN; return 0;
	case SO_RCVLOWAT: *ival = 1; return 0;
	case SO_DEBUG: case SO_REUSEADDR: case SO_KEEPALIVE: case SO_DONTROUTE:
	case SO_BROADCAST: case SO_OOBINLINE:
		*ival = 0;
		return 0;
	case SO_PEERCRED:
		*len = sizeof(struct ucred);
		memcpy(v, &sk->sk_peer_cred, sizeof(struct ucred));
		/* The peer's pid as the caller's pid namespace numbers it. */
		((struct ucred *)v)->pid = pid_global_to_vnr(sk->sk_peer_cred.pid);
		return 0;
	case SO_RCVTIMEO:
	case SO_SNDTIMEO: {
		long t = optname == SO_RCVTIMEO ? sk->sk_rcvtimeo : sk->sk_sndtimeo;
		struct old_timeval tv = { 0, 0 };
		if (t != MAX_SCHEDULE_TIMEOUT) {
			tv.tv_sec = t / HZ;
			tv.tv_usec = (t % HZ) * USEC_PER_SEC / HZ;
		}
		*len = sizeof(tv);
		memcpy(v, &tv, sizeof(tv));
		return 0;
	}
	default:
		return -ENOPROTOOPT;
	}
}

int sock_getsockopt(struct socket *sock, int optname, void __user *optval,
		    int __user *optlen)
{
	char v[32] = { 0 };
	int len, lv, err;

	if (copy_from_user(&len, optlen, sizeof(len)))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	err = get_value(sock, optname, v, &lv);
	if (err)
		return err;
	if (len > lv)
		len = lv;
	if (copy_to_user(optval, v, len))
		return -EFAULT;
	return copy_to_user(optlen, &len, sizeof(len)) ? -EFAULT : 0;
}
