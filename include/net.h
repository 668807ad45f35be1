/*
 * net.h - sockets: the socket layer (net/socket.c), the generic socket
 * core (net/core/) and the one family this kernel has, AF_UNIX
 * (net/unix/). docs/sockets.md follows a message from send to receive.
 *
 * As in Linux, a socket is two objects:
 *   struct socket  the file side: an inode on sockfs, the file, the state
 *                  seen by the syscalls, and the family's proto_ops;
 *   struct sock    the protocol side: the receive queue, the buffer sizes,
 *                  the options, the shutdown bits, the peer. AF_UNIX
 *                  extends it (struct unix_sock, net/unix/af_unix.h).
 * Messages travel as sk_buffs (net/core/skbuff.c): one buffer per write,
 * queued on the receiver's sk_receive_queue and charged to the sender's
 * sk_wmem_alloc until the receiver frees it.
 *
 * Locks (spinlocks; one CPU here, so a lock only asserts it is free; code
 * never sleeps holding one). Order, outermost first:
 *   unix_table_lock (names)  >  unix_gc_lock  >  sock lock (lower address
 *   first when two are taken)  >  a queue's lock.
 */
#pragma once
#include <errno.h>
#include <kernel.h>

struct file;
struct inode;
struct iov_iter;
struct net;
struct sock;
struct socket;

/* ---- locks ----------------------------------------------------------------- */

/* A spinlock for one CPU with a non-preemptive kernel: taking it cannot
 * wait, so it only checks that nobody holds it (a second taker would be a
 * deadlock on several CPUs). Interrupts stay as they are: no interrupt
 * handler touches a socket. */
typedef struct {
	bool held;
	const char *name;
} net_lock_t;
#define NET_LOCK_INIT(n) { .held = false, .name = (n) }
void net_lock(net_lock_t *l);
void net_unlock(net_lock_t *l);

/* ---- user-visible constants (Linux's values) -------------------------------- */

#define AF_UNSPEC 0
#define AF_UNIX 1
#define AF_INET 2
#define AF_INET6 10
#define AF_NETLINK 16
#define AF_PACKET 17
#define NPROTO 46               /* AF_MAX: families above give EAFNOSUPPORT */

#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOCK_RAW 3
#define SOCK_RDM 4
#define SOCK_SEQPACKET 5
#define SOCK_DCCP 6
#define SOCK_PACKET 10
#define SOCK_MAX 11
#define SOCK_TYPE_MASK 0xf
#define SOCK_CLOEXEC 02000000   /* O_CLOEXEC */
#define SOCK_NONBLOCK 04000     /* O_NONBLOCK */

#define MSG_OOB 0x1
#define MSG_PEEK 0x2
#define MSG_DONTROUTE 0x4
#define MSG_CTRUNC 0x8
#define MSG_TRUNC 0x20
#define MSG_DONTWAIT 0x40
#define MSG_EOR 0x80
#define MSG_WAITALL 0x100
#define MSG_NOSIGNAL 0x4000
#define MSG_WAITFORONE 0x10000
#define MSG_CMSG_CLOEXEC 0x40000000

#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2
/* sk_shutdown bits */
#define RCV_SHUTDOWN 1
#define SEND_SHUTDOWN 2
#define SHUTDOWN_MASK 3

#define SOL_SOCKET 1
#define SO_DEBUG 1
#define SO_REUSEADDR 2
#define SO_TYPE 3
#define SO_ERROR 4
#define SO_DONTROUTE 5
#define SO_BROADCAST 6
#define SO_SNDBUF 7
#define SO_RCVBUF 8
#define SO_KEEPALIVE 9
#define SO_OOBINLINE 10
#define SO_LINGER 13
#define SO_PASSCRED 16
#define SO_PEERCRED 17
#define SO_RCVLOWAT 18
#define SO_SNDLOWAT 19
#define SO_RCVTIMEO 20          /* SO_RCVTIMEO_OLD: a struct timeval */
#define SO_SNDTIMEO 21
#define SO_ACCEPTCONN 30
#define SO_SNDBUFFORCE 32
#define SO_RCVBUFFORCE 33
#define SO_PROTOCOL 38
#define SO_DOMAIN 39

#define SCM_RIGHTS 1
#define SCM_CREDENTIALS 2
#define SCM_MAX_FD 253          /* descriptors one SCM_RIGHTS may carry */

#define SIOCINQ 0x541B          /* FIONREAD */
#define SIOCOUTQ 0x5411         /* TIOCOUTQ */

/* Linux's sysctl defaults: net.core.wmem_default/rmem_default and their
 * maxima, net.core.somaxconn, net.unix.max_dgram_qlen. */
#define SYSCTL_WMEM_MAX 212992
#define SYSCTL_RMEM_MAX 212992
#define SOCK_MIN_SNDBUF 4608
#define SOCK_MIN_RCVBUF 2304
#define SOMAXCONN 4096
#define UNIX_MAX_DGRAM_QLEN 10

/* TCP's state names, which AF_UNIX borrows for its own states. */
enum { TCP_ESTABLISHED = 1, TCP_CLOSE = 7, TCP_LISTEN = 10 };

/* ---- messages -------------------------------------------------------------- */

struct ucred {
	int32_t pid;
	uint32_t uid, gid;
};

struct user_msghdr {
	void __user *msg_name;
	int msg_namelen;
	struct iovec __user *msg_iov;
	size_t msg_iovlen;
	void __user *msg_control;
	size_t msg_controllen;
	unsigned int msg_flags;
};
struct cmsghdr {
	size_t cmsg_len;
	int cmsg_level;
	int cmsg_type;
};
#define CMSG_ALIGN(len) (((len) + sizeof(long) - 1) & ~(sizeof(long) - 1))
#define CMSG_LEN(len) (sizeof(struct cmsghdr) + (len))
#define CMSG_SPACE(len) (sizeof(struct cmsghdr) + CMSG_ALIGN(len))

#define SOCKADDR_MAX 128        /* sizeof(struct sockaddr_storage) */

/* A message as the protocols see it: the data, the address (kernel copy),
 * the user's control buffer and the flags. */
struct msghdr {
	void *msg_name;                 /* SOCKADDR_MAX bytes, or NULL */
	int msg_namelen;
	struct iov_iter *msg_iter;
	void __user *msg_control;       /* user buffer: send reads, recv writes */
	size_t msg_controllen;          /* recv: room left in it */
	size_t msg_control_used;        /* recv: bytes written */
	unsigned int msg_flags;
	bool msg_cmsg_cloexec;
};

/* Control messages (net/core/scm.c). */
struct scm_fp_list {
	int count;
	struct file *fp[SCM_MAX_FD];
};
struct scm_cookie {
	struct ucred creds;
	bool has_creds;                 /* SCM_CREDENTIALS was given */
	struct scm_fp_list *fp;         /* SCM_RIGHTS: files with references */
};
/* Parse msg's control buffer (sendmsg): 0 or -errno (EINVAL, EBADF,
 * EPERM, ETOOMANYREFS, EFAULT, ENOMEM). */
int scm_send(struct socket *sock, struct msghdr *msg, struct scm_cookie *scm);
void scm_destroy(struct scm_cookie *scm);
struct scm_fp_list *scm_fp_dup(struct scm_fp_list *fpl);
/* Write the credentials (if passcred) and files into msg's control
 * buffer; files that do not fit are closed and MSG_CTRUNC set. Takes over
 * scm's files. */
void scm_recv(struct socket *sock, struct msghdr *msg, struct scm_cookie *scm,
	      bool passcred);
int put_cmsg(struct msghdr *msg, int level, int type, size_t len, const void *data);

/* ---- buffers (net/core/skbuff.c) ------------------------------------------- */

struct sk_buff {
	struct sk_buff *next, *prev;
	struct sock *sk;                /* the sender, charged truesize */
	size_t len;                     /* bytes of data */
	size_t consumed;                /* stream: bytes already read */
	size_t truesize;                /* what it costs the sender */
	struct ucred creds;             /* AF_UNIX's UNIXCB: who sent it */
	bool has_creds;
	struct scm_fp_list *fp;         /* files in flight */
	struct sock *newsk;             /* a connection for accept (AF_UNIX) */
	char *data;
};
struct sk_buff_head {
	struct sk_buff *next, *prev;    /* a ring through the head */
	unsigned int qlen;
	net_lock_t lock;
};
void skb_queue_head_init(struct sk_buff_head *q, const char *name);
/* A buffer of len bytes charged to sk (may be NULL). NULL: no memory. */
struct sk_buff *alloc_skb(struct sock *sk, size_t len);
void kfree_skb(struct sk_buff *skb);
void skb_queue_tail(struct sk_buff_head *q, struct sk_buff *skb);
struct sk_buff *skb_peek(struct sk_buff_head *q);
struct sk_buff *skb_peek_next(struct sk_buff_head *q, struct sk_buff *skb);
struct sk_buff *skb_dequeue(struct sk_buff_head *q);
void skb_unlink(struct sk_buff_head *q, struct sk_buff *skb);
void skb_queue_purge(struct sk_buff_head *q);

/* ---- sockets ----------------------------------------------------------------- */

enum socket_state { SS_FREE, SS_UNCONNECTED, SS_CONNECTING, SS_CONNECTED, SS_DISCONNECTING };

struct proto_ops {
	int family;
	int (*release)(struct socket *sock);
	int (*bind)(struct socket *sock, void *addr, int len);
	int (*connect)(struct socket *sock, void *addr, int len, int flags);
	int (*socketpair)(struct socket *a, struct socket *b);
	int (*accept)(struct socket *sock, struct socket *newsock, int flags);
	/* The address, or the peer's: its length or -errno. */
	int (*getname)(struct socket *sock, void *addr, bool peer);
	unsigned int (*poll)(struct file *file, struct socket *sock);
	long (*ioctl)(struct socket *sock, unsigned int cmd, unsigned long arg);
	int (*listen)(struct socket *sock, int backlog);
	int (*shutdown)(struct socket *sock, int how);
	long (*sendmsg)(struct socket *sock, struct msghdr *msg, size_t len);
	long (*recvmsg)(struct socket *sock, struct msghdr *msg, size_t len, int flags);
};

struct socket {
	enum socket_state state;
	short type;                     /* SOCK_STREAM ... */
	bool passcred;                  /* SO_PASSCRED */
	struct file *file;              /* NULL until the socket has one */
	struct inode *inode;            /* on sockfs */
	struct sock *sk;
	const struct proto_ops *ops;
};

struct sock {
	net_lock_t lock;                /* the fields below but the queue's */
	int sk_family, sk_type, sk_protocol;
	int sk_state;                   /* TCP_* */
	int sk_shutdown;                /* RCV_SHUTDOWN | SEND_SHUTDOWN */
	int sk_err;                     /* SO_ERROR: reported once */
	int sk_refcnt;
	bool sk_dead;                   /* its socket is released */
	int sk_sndbuf, sk_rcvbuf;
	size_t sk_wmem_alloc;           /* bytes of its buffers not yet freed */
	long sk_rcvtimeo, sk_sndtimeo;  /* jiffies; LONG_MAX: for ever */
	unsigned int sk_max_ack_backlog;
	struct ucred sk_peer_cred;      /* SO_PEERCRED */
	struct sk_buff_head sk_receive_queue;
	struct socket *sk_socket;
	struct net *sk_net;             /* its namespace, with a reference */
	void (*sk_destruct)(struct sock *sk);
};
#define MAX_SCHEDULE_TIMEOUT 0x7fffffffffffffffL

/* net/core/sock.c */
/* A new sock of net (which it holds a reference on); NULL if out of memory. */
struct sock *sk_alloc(struct net *net, int family, int type, size_t size);
static inline struct net *sock_net(const struct sock *sk) { return sk->sk_net; }
void sock_hold(struct sock *sk);
void sock_put(struct sock *sk);
void sock_init_data(struct socket *sock, struct sock *sk);
/* SO_ERROR: the pending error (negative), cleared; 0 if none. */
int sock_error(struct sock *sk);
long sock_rcvtimeo(struct sock *sk, bool noblock);
long sock_sndtimeo(struct sock *sk, bool noblock);
/* The error for a wait that a signal ended (Linux's sock_intr_errno). */
int sock_intr_errno(long timeo);
/* Sleep on chan until cond(sk, arg) holds, *timeo runs out (-EAGAIN) or
 * a signal comes (sock_intr_errno). 0 when cond holds. */
int sk_wait_event(struct sock *sk, void *chan, bool (*cond)(struct sock *sk, void *arg),
		  void *arg, long *timeo);
/* Wake what waits on sk: readers, writers, pollers. */
void sk_wake(struct sock *sk);
bool sock_writeable(struct sock *sk);
int sock_setsockopt(struct socket *sock, int optname, const void __user *optval,
		    unsigned int optlen);
int sock_getsockopt(struct socket *sock, int optname, void __user *optval,
		    int __user *optlen);
/* A buffer charged to sk, waiting while sk's send buffer is full. NULL
 * and *err: -EPIPE after shutdown, -EAGAIN, a signal's error, -ENOMEM. */
struct sk_buff *sock_alloc_send_skb(struct sock *sk, size_t len, bool noblock, int *err);

/* net/socket.c */
struct socket *sock_alloc(void);
void sock_release(struct socket *sock);
/* The socket behind an open file, or NULL. */
struct socket *sock_from_file(struct file *file);
/* A file for sock (takes it over); ERR_PTR(-ENOMEM). */
struct file *sock_alloc_file(struct socket *sock, int flags);
extern const struct file_operations socket_file_ops;
/* "socket:[INODE]", for /proc/PID/fd. */
bool is_socket_file(const struct file *file);

/* net/unix/af_unix.c */
extern const struct proto_ops unix_stream_ops, unix_dgram_ops, unix_seqpacket_ops;
int unix_create(struct socket *sock, int protocol);
/* The AF_UNIX socket behind a file in flight, or NULL (net/unix/garbage.c). */
struct sock *unix_get_socket(struct file *filp);
/* net/unix/garbage.c: files passed in SCM_RIGHTS. */
void unix_inflight(struct scm_fp_list *fpl);
void unix_notinflight(struct scm_fp_list *fpl);
void unix_gc(void);
extern unsigned int unix_tot_inflight;
