/*
 * unix_addr.c - AF_UNIX names: bind, autobind, finding the socket an
 * address names, and getsockname/getpeername.
 *
 * Two namespaces, as in Linux:
 *   - filesystem names (sun_path[0] != 0): bind makes a socket inode at
 *     the path (EADDRINUSE if the name exists); connect and sendto look the
 *     path up, need write permission on it, and find the socket bound to
 *     that inode. The name stays in the filesystem after close.
 *   - abstract names (sun_path[0] == 0): the bytes of the address, all of
 *     them, in a list of the kernel's own; gone with the socket. Each
 *     network namespace has its own (include/net_namespace.h): a name is
 *     found only by sockets of the namespace whose socket bound it.
 * Autobind (bind with only sun_family, or sending with SO_PASSCRED while
 * unbound) picks the abstract name "\0" + five hex digits.
 */
#include "../../fs/vfs.h"
#include "af_unix.h"
#include <mm.h>
#include <sched.h>
#include <string.h>

net_lock_t unix_table_lock = NET_LOCK_INIT("unix_table_lock");
static struct unix_sock *unix_bound;    /* under unix_table_lock */
static unsigned int unix_ordernum;      /* autobind's next name */

int unix_validate_addr(const struct sockaddr_un *addr, int len)
{
	if (len <= SUN_PATH_OFFSET || len > (int)sizeof(*addr))
		return -EINVAL;
	return addr->sun_family == AF_UNIX ? 0 : -EINVAL;
}

/* A filesystem name's length as kept: up to its first NUL, plus one. The
 * caller's buffer has room for the NUL written after len bytes. */
static int unix_mkname_bsd(struct sockaddr_un *addr, int len)
{
	((char *)addr)[len] = 0;
	return strnlen(addr->sun_path, UNIX_PATH_MAX) + SUN_PATH_OFFSET + 1;
}

static struct unix_address *unix_make_addr(const void *name, int len)
{
	struct unix_address *a = kzalloc(sizeof(*a));

	if (a) {
		a->len = len;
		memcpy(a->name, name, len);
	}
	return a;
}

/* The socket of net bound to this abstract name, of any type if type is
 * 0; NULL if none. */
static struct unix_sock *find_abstract(struct net *net, const void *name, int len, int type)
{
	for (struct unix_sock *u = unix_bound; u; u = u->next_bound)
		if (!u->path && sock_net(&u->sk) == net && u->addr->len == len &&
		    !memcmp(u->addr->name, name, len) && (!type || u->sk.sk_type == type))
			return u;
	return NULL;
}

/* Enter a bound socket in the list (the caller holds unix_table_lock). */
static void unix_insert_bound(struct unix_sock *u, struct unix_address *a)
{
	u->addr = a;
	u->next_bound = unix_bound;
	unix_bound = u;
}

void unix_remove_bound(struct unix_sock *u)
{
	net_lock(&unix_table_lock);
	for (struct unix_sock **pp = &unix_bound; *pp; pp = &(*pp)->next_bound)
		if (*pp == u) {
			*pp = u->next_bound;
			break;
		}
	net_unlock(&unix_table_lock);
}

static int unix_bind_abstract(struct unix_sock *u, const void *name, int len)
{
	struct unix_address *a;
	int err = 0;

	if (u->addr)
		return -EINVAL;
	a = unix_make_addr(name, len);
	if (!a)
		return -ENOMEM;
	net_lock(&unix_table_lock);
	if (find_abstract(sock_net(&u->sk), name, len, 0))
		err = -EADDRINUSE;
	else
		unix_insert_bound(u, a);
	net_unlock(&unix_table_lock);
	if (err)
		kfree(a);
	return err;
}

int unix_autobind(struct sock *sk)
{
	struct unix_sock *u = unix_sk(sk);
	char name[SUN_PATH_OFFSET + 6 + 1]; /* and snprintf's NUL */

	if (u->addr)
		return 0;
	for (unsigned int tries = 0; tries < 0x100000; tries++) {
		unix_ordernum = (unix_ordernum + 1) & 0xfffff;
		name[0] = AF_UNIX;
		name[1] = 0;
		name[2] = 0;
		snprintf(name + 3, 6, "%05x", unix_ordernum);
		int err = unix_bind_abstract(u, name, SUN_PATH_OFFSET + 6);
		if (err != -EADDRINUSE)
			return err;
	}
	return -ENOSPC;
}

static int unix_bind_bsd(struct unix_sock *u, struct sockaddr_un *addr, int len)
{
	struct unix_address *a;
	struct dentry *d;
	int err;

	len = unix_mkname_bsd(addr, len);
	err = vfs_mknod_at(AT_FDCWD, addr->sun_path, S_IFSOCK | (0777 & ~current_umask()), 0);
	if (err)
		return err == -EEXIST ? -EADDRINUSE : err;
	err = kern_path_at(AT_FDCWD, addr->sun_path, 0, &d);
	if (err)
		return err;
	if (u->addr || !(a = unix_make_addr(addr, len))) {
		err = u->addr ? -EINVAL : -ENOMEM;
		dput(d);
		vfs_unlink_at(AT_FDCWD, addr->sun_path, false);
		return err;
	}
	net_lock(&unix_table_lock);
	u->path = d;
	unix_insert_bound(u, a);
	net_unlock(&unix_table_lock);
	return 0;
}

int unix_bind(struct socket *sock, void *uaddr, int len)
{
	struct sockaddr_un *addr = uaddr;
	int err;

	if (len == SUN_PATH_OFFSET && addr->sun_family == AF_UNIX)
		return unix_autobind(sock->sk);
	err = unix_validate_addr(addr, len);
	if (err)
		return err;
	if (addr->sun_path[0])
		return unix_bind_bsd(unix_sk(sock->sk), addr, len);
	return unix_bind_abstract(unix_sk(sock->sk), addr, len);
}

static struct sock *unix_find_bsd(struct sockaddr_un *addr, int len, int type)
{
	struct unix_sock *u;
	struct dentry *d;
	struct inode *inode;
	int err;

	unix_mkname_bsd(addr, len);
	err = kern_path_at(AT_FDCWD, addr->sun_path, LOOKUP_FOLLOW, &d);
	if (err)
		return ERR_PTR(err);
	inode = d->d_inode;
	err = inode_permission(inode, MAY_WRITE);
	if (!err && !S_ISSOCK(inode->i_mode))
		err = -ECONNREFUSED;
	dput(d);
	if (err)
		return ERR_PTR(err);
	net_lock(&unix_table_lock);
	for (u = unix_bound; u; u = u->next_bound)
		if (u->path && u->path->d_inode == inode)
			break;
	if (u)
		sock_hold(&u->sk);
	net_unlock(&unix_table_lock);
	if (!u)
		return ERR_PTR(-ECONNREFUSED);
	if (u->sk.sk_type != type) {
		sock_put(&u->sk);
		return ERR_PTR(-EPROTOTYPE);
	}
	return &u->sk;
}

struct sock *unix_find_other(struct net *net, const struct sockaddr_un *addr, int len, int type)
{
	char copy[SOCKADDR_MAX + 1] __attribute__((aligned(8)));
	struct unix_sock *u;

	memcpy(copy, addr, len);
	if (addr->sun_path[0])
		return unix_find_bsd((struct sockaddr_un *)copy, len, type);
	net_lock(&unix_table_lock);
	u = find_abstract(net, addr, len, type);
	if (u)
		sock_hold(&u->sk);
	net_unlock(&unix_table_lock);
	return u ? &u->sk : ERR_PTR(-ECONNREFUSED);
}

int unix_getname(struct socket *sock, void *uaddr, bool peer)
{
	struct sock *sk = sock->sk;
	struct unix_address *a;

	if (peer) {
		sk = unix_peer(sk);
		if (!sk)
			return -ENOTCONN;
	}
	a = unix_sk(sk)->addr;
	if (!a) {
		*(uint16_t *)uaddr = AF_UNIX;
		return sizeof(uint16_t);
	}
	memcpy(uaddr, a->name, a->len);
	return a->len;
}

/* Give an accepted socket its listener's name (a copy of its own). */
int unix_copy_name(struct unix_sock *to, struct unix_sock *from)
{
	if (from->addr && !(to->addr = unix_make_addr(from->addr->name, from->addr->len)))
		return -ENOMEM;
	return 0;
}
