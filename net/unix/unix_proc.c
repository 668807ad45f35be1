/*
 * unix_proc.c - /proc/net/unix (/proc/PID/net/unix): every AF_UNIX socket
 * of a network namespace, one line each, in Linux's columns:
 *
 *   Num       RefCount Protocol Flags    Type St Inode Path
 *   0000000012345678: 00000002 00000000 00010000 0001 01 12345 /run/sock
 *
 * Num: the sock's address as Linux's %pK gives it to root with
 * kptr_restrict 0, hashed so that it gives nothing away. RefCount: its
 * references, plus the one Linux's socket table holds (ours is a list that
 * holds none). Flags: __SO_ACCEPTCON for a listener. St: SS_* (connected
 * or not, for a socket that still has its file; connecting or
 * disconnecting for one that has none). Inode: its sockfs inode (0 for
 * none). Path: the name it is bound to, '@' for an abstract name's
 * leading NUL and for every NUL in it.
 */
#include "../../fs/vfs.h"
#include "af_unix.h"
#include <linux/init.h>
#include <proc_fs.h>
#include <random.h>

#define SO_ACCEPTCON (1 << 16)

/* A stable stand-in for the address, different at each boot. */
static uint32_t sock_id(const struct sock *sk)
{
	static uint64_t key;
	uint64_t x;

	if (!key)
		key = get_random_u64() | 1;
	x = ((uint64_t)(uintptr_t)sk ^ key) * 0x9e3779b97f4a7c15ULL;
	return (uint32_t)(x >> 32);
}

static void show_unix_path(struct seq_file *m, const struct unix_address *a)
{
	int i = SUN_PATH_OFFSET, end = a->len;

	seq_putc(m, ' ');
	if (a->name[i]) {
		end--; /* a filesystem name: its kept length counts the NUL */
	} else {
		seq_putc(m, '@');
		i++;
	}
	for (; i < end; i++)
		seq_putc(m, a->name[i] ? a->name[i] : '@');
}

static void show_unix_sock(struct seq_file *m, struct unix_sock *u)
{
	struct sock *sk = &u->sk;
	bool established = sk->sk_state == TCP_ESTABLISHED;
	int st = sk->sk_socket ? (established ? SS_CONNECTED : SS_UNCONNECTED)
			       : (established ? SS_CONNECTING : SS_DISCONNECTING);
	unsigned long ino = sk->sk_socket && sk->sk_socket->inode ? sk->sk_socket->inode->i_ino : 0;

	seq_printf(m, "%016lx: %08X %08X %08X %04X %02X %5lu", (unsigned long)sock_id(sk),
		   sk->sk_refcnt + 1, 0, sk->sk_state == TCP_LISTEN ? SO_ACCEPTCON : 0,
		   sk->sk_type, st, ino);
	if (u->addr)
		show_unix_path(m, u->addr);
	seq_putc(m, '\n');
}

static int show_unix(struct seq_file *m, struct net *net)
{
	seq_puts(m, "Num       RefCount Protocol Flags    Type St Inode Path\n");
	net_lock(&unix_table_lock);
	for (struct unix_sock *u = unix_all; u; u = u->next_all)
		if (sock_net(&u->sk) == net)
			show_unix_sock(m, u);
	net_unlock(&unix_table_lock);
	return 0;
}

static int unix_proc_init(void)
{
	return proc_create_net("unix", show_unix);
}
fs_initcall(unix_proc_init);
