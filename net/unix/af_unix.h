/*
 * af_unix.h - the inside of AF_UNIX, shared by af_unix.c (sockets, names,
 * connections), unix_stream.c, unix_dgram.c and garbage.c.
 *
 * Locks (include/net.h gives the order): unix_table_lock guards the lists
 * of sockets (all of them, for the collector, and the bound ones, for
 * lookups by name); each sock's lock guards its peer, state and address.
 */
#pragma once
#include <net.h>

struct dentry;

#define UNIX_PATH_MAX 108
#define SUN_PATH_OFFSET 2       /* offsetof(struct sockaddr_un, sun_path) */

struct sockaddr_un {
	uint16_t sun_family;
	char sun_path[UNIX_PATH_MAX];
};

/* A bound name: as given (abstract) or with its path NUL-terminated. */
struct unix_address {
	int len;                /* including sun_family */
	char name[sizeof(struct sockaddr_un) + 1];
};

struct unix_sock {
	struct sock sk;
	struct unix_address *addr;      /* NULL until bound */
	struct dentry *path;            /* bound to a filesystem name: its dentry */
	struct sock *peer;              /* with a reference */
	struct unix_sock *next_bound;   /* unix_bound, under unix_table_lock */
	struct unix_sock *prev_all, *next_all; /* unix_all, under unix_table_lock */
	unsigned long rcv_seq;          /* buffers ever queued: wakes peeking readers */
	/* garbage.c */
	unsigned int inflight;          /* times its file is in flight */
	long gc_refs;                   /* collector's count of outside references */
	bool gc_candidate, gc_reachable;
};

static inline struct unix_sock *unix_sk(struct sock *sk)
{
	return (struct unix_sock *)sk;
}
#define unix_peer(sk) (unix_sk(sk)->peer)

extern net_lock_t unix_table_lock;
extern struct unix_sock *unix_all;

/* af_unix.c */
int unix_autobind(struct sock *sk);
/* 0 or -EINVAL: a well-formed AF_UNIX address of len bytes. */
int unix_validate_addr(const struct sockaddr_un *addr, int len);
/* The socket bound to the address, with a reference; ERR_PTR(-ENOENT,
 * -ECONNREFUSED, -EPROTOTYPE, -EACCES ...). */
struct sock *unix_find_other(struct net *net, const struct sockaddr_un *addr, int len, int type);
/* Queue a buffer on other's receive queue and wake its readers. */
void unix_queue_skb(struct sock *other, struct sk_buff *skb);
/* Whether other's receive queue is over its backlog. */
bool unix_recvq_full(struct sock *other);
/* Attach scm's files to skb (they are in flight from now on). */
void unix_attach_fds(struct scm_cookie *scm, struct sk_buff *skb);
void unix_release_sock(struct sock *sk, bool embryo);

/* unix_stream.c, unix_dgram.c */
long unix_stream_sendmsg(struct socket *sock, struct msghdr *msg, size_t len);
long unix_stream_recvmsg(struct socket *sock, struct msghdr *msg, size_t size, int flags);
long unix_dgram_sendmsg(struct socket *sock, struct msghdr *msg, size_t len);
long unix_dgram_recvmsg(struct socket *sock, struct msghdr *msg, size_t size, int flags);
long unix_seqpacket_sendmsg(struct socket *sock, struct msghdr *msg, size_t len);
long unix_seqpacket_recvmsg(struct socket *sock, struct msghdr *msg, size_t size, int flags);

/* unix_addr.c */
int unix_bind(struct socket *sock, void *uaddr, int len);
int unix_getname(struct socket *sock, void *uaddr, bool peer);
int unix_copy_name(struct unix_sock *to, struct unix_sock *from);
void unix_remove_bound(struct unix_sock *u);

/* af_unix.c */
struct sock *unix_create_sk(struct net *net, struct socket *sock, int type);
void init_peercred(struct sock *sk);
bool unix_may_send(struct sock *sk, struct sock *other);
struct sk_buff *unix_build_skb(struct sock *sk, struct msghdr *msg, size_t size,
			       struct scm_cookie *scm, int *err);
