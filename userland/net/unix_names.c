/*
 * unix_names - AF_UNIX names and connections: bind to a path (a socket
 * inode, EADDRINUSE), abstract names, autobind, listen/connect/accept with
 * a backlog, ECONNREFUSED, EPROTOTYPE, getsockname/getpeername lengths,
 * datagrams to an address; SCM_RIGHTS, SCM_CREDENTIALS, MSG_CTRUNC,
 * SO_PEERCRED, SO_PASSCRED and the other SOL_SOCKET options.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "nettest.h"

static socklen_t mkaddr(struct sockaddr_un *a, const char *path, int abstract)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (abstract) {
		memcpy(a->sun_path + 1, path, strlen(path));
		return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(path);
	}
	strcpy(a->sun_path, path);
	return sizeof(*a);
}

static void show_name(const char *what, int fd, int peer)
{
	struct sockaddr_un a;
	socklen_t len = sizeof(a);
	memset(&a, 0, sizeof(a));
	long r = peer ? getpeername(fd, (struct sockaddr *)&a, &len) : getsockname(fd, (struct sockaddr *)&a, &len);
	if (r < 0) {
		rep(what, r);
		return;
	}
	printf("%s: len %d family %d path '%s'%s\n", what, len, a.sun_family,
	       a.sun_path[0] ? a.sun_path : a.sun_path + 1, a.sun_path[0] ? "" : " (abstract)");
}

static void paths(void)
{
	struct sockaddr_un a;
	socklen_t len = mkaddr(&a, "/tmp/sock1", 0);
	struct stat st;

	printf("-- filesystem names\n");
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	show_name("unbound getsockname", s, 0);
	show_name("unbound getpeername", s, 1);
	rep("listen unbound", listen(s, 5));
	rep("bind short", bind(s, (struct sockaddr *)&a, 1));
	rep("bind AF_INET family", bind(s, (struct sockaddr *)&(struct sockaddr_un){ AF_INET, "/x" }, 5));
	rep("bind", bind(s, (struct sockaddr *)&a, len));
	rep("stat it", stat("/tmp/sock1", &st));
	printf("is a socket: %d mode %o\n", S_ISSOCK(st.st_mode), st.st_mode & 07777);
	show_name("getsockname", s, 0);
	rep("bind again", bind(s, (struct sockaddr *)&a, len));
	int s2 = socket(AF_UNIX, SOCK_STREAM, 0);
	rep("bind the same path", bind(s2, (struct sockaddr *)&a, len));
	int c = socket(AF_UNIX, SOCK_STREAM, 0);
	rep("connect before listen", connect(c, (struct sockaddr *)&a, len));
	rep("listen 1", listen(s, 1));
	int v = 0;
	socklen_t vl = sizeof(v);
	getsockopt(s, SOL_SOCKET, SO_ACCEPTCONN, &v, &vl);
	printf("SO_ACCEPTCONN %d\n", v);
	rep("connect", connect(c, (struct sockaddr *)&a, len));
	rep("connect again", connect(c, (struct sockaddr *)&a, len));
	show_name("client getpeername", c, 1);
	show_name("client getsockname", c, 0);
	rep("client writes before accept", write(c, "early", 5));
	int c2 = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	rep("second connect (backlog 1)", connect(c2, (struct sockaddr *)&a, len));
	int c3 = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	rep("third connect (full)", connect(c3, (struct sockaddr *)&a, len));
	struct sockaddr_un pa;
	socklen_t pl = sizeof(pa);
	int acc = accept(s, (struct sockaddr *)&pa, &pl);
	rep("accept", acc >= 0 ? 0 : -1);
	printf("accept's address len %d\n", pl);
	show_name("accepted getsockname", acc, 0);
	char buf[32] = { 0 };
	rep("accepted reads", read(acc, buf, sizeof(buf)));
	printf("'%s'\n", buf);
	fcntl(s, F_SETFL, O_NONBLOCK);
	rep("accept4 bad flags", syscall(SYS_accept4, s, NULL, NULL, 0x1234));
	int acc2 = accept4(s, NULL, NULL, SOCK_CLOEXEC);
	rep("accept4 CLOEXEC", acc2 >= 0 ? fcntl(acc2, F_GETFD) : -1);
	int ns = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	rep("accept on non-listener", accept(ns, NULL, NULL));
	fcntl(s, F_SETFL, O_NONBLOCK);
	rep("accept empty nonblocking", accept(s, NULL, NULL));
	int d = socket(AF_UNIX, SOCK_DGRAM, 0);
	rep("dgram connect to stream path", connect(d, (struct sockaddr *)&a, len));
	rep("accept on dgram", accept(d, NULL, NULL));
	rep("listen on dgram", listen(d, 1));
	rep("connect to no such path", connect(ns, (struct sockaddr *)&(struct sockaddr_un){ AF_UNIX, "/tmp/none" }, 12));
	rep("connect to a regular file", connect(ns, (struct sockaddr *)&(struct sockaddr_un){ AF_UNIX, "/init" }, 8));
	close(s);
	rep("connect after the listener closed", connect(ns, (struct sockaddr *)&a, len));
	unlink("/tmp/sock1");
	close(s2); close(c); close(c2); close(c3); close(acc); close(acc2); close(ns); close(d);
}

static void abstract(void)
{
	struct sockaddr_un a, b;
	socklen_t la = mkaddr(&a, "abs-test", 1);

	printf("-- abstract names\n");
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	rep("bind abstract", bind(s, (struct sockaddr *)&a, la));
	show_name("getsockname", s, 0);
	int t = socket(AF_UNIX, SOCK_DGRAM, 0);
	rep("bind the same abstract", bind(t, (struct sockaddr *)&a, la));
	rep("autobind", bind(t, (struct sockaddr *)&(sa_family_t){ AF_UNIX }, sizeof(sa_family_t)));
	socklen_t lb = sizeof(b);
	getsockname(t, (struct sockaddr *)&b, &lb);
	printf("autobind name: len %d abstract %d\n", lb, b.sun_path[0] == 0);
	rep("autobind again", bind(t, (struct sockaddr *)&(sa_family_t){ AF_UNIX }, sizeof(sa_family_t)));
	rep("sendto", sendto(t, "dgram", 5, 0, (struct sockaddr *)&a, la));
	char buf[32] = { 0 };
	struct sockaddr_un from;
	socklen_t fl = sizeof(from);
	rep("recvfrom", recvfrom(s, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl));
	printf("from len %d same as autobind: %d\n", fl, fl == lb && !memcmp(&from, &b, lb));
	int u = socket(AF_UNIX, SOCK_DGRAM, 0);
	rep("unbound sendto", sendto(u, "anon", 4, 0, (struct sockaddr *)&a, la));
	fl = sizeof(from);
	rep("recvfrom", recvfrom(s, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl));
	printf("from len %d\n", fl);
	rep("send unconnected", send(u, "x", 1, 0));
	rep("sendto no such name", sendto(u, "x", 1, 0, (struct sockaddr *)&b, lb - 1));
	rep("connect s to t", connect(s, (struct sockaddr *)&b, lb));
	rep("u sends to s, connected elsewhere", sendto(u, "x", 1, 0, (struct sockaddr *)&a, la));
	rep("stream connect to a dgram name", connect(socket(AF_UNIX, SOCK_STREAM, 0), (struct sockaddr *)&a, la));
	rep("disconnect (AF_UNSPEC)", connect(s, (struct sockaddr *)&(sa_family_t){ AF_UNSPEC }, sizeof(sa_family_t)));
	show_name("getpeername after disconnect", s, 1);
	for (int i = 0; i < 12; i++)
		if (sendto(u, "q", 1, MSG_DONTWAIT, (struct sockaddr *)&a, la) < 0) {
			printf("queue full after %d: %s\n", i, errname(errno));
			break;
		}
	close(s); close(t); close(u);
}

static void send_fd(int sock, int fd, const void *data, int len)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { (void *)data, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	rep("sendmsg SCM_RIGHTS", sendmsg(sock, &m, 0));
}

static void show_cmsgs(struct msghdr *m)
{
	printf("msg_flags %x controllen %zu\n", m->msg_flags, (size_t)m->msg_controllen);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		printf("cmsg level %d type %d len %zu\n", c->cmsg_level, c->cmsg_type, (size_t)c->cmsg_len);
		if (c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred uc;
			memcpy(&uc, CMSG_DATA(c), sizeof(uc));
			printf("creds pid ok %d uid %d gid %d\n", uc.pid == getpid(), uc.uid, uc.gid);
		}
	}
}

static void scm(void)
{
	int sv[2], p[2];
	char buf[32] = { 0 }, cbuf[256];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };

	printf("-- SCM_RIGHTS and SCM_CREDENTIALS\n");
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pipe(p);
	send_fd(sv[0], p[1], "fd", 2);
	close(p[1]);
	rep("recvmsg", recvmsg(sv[1], &m, 0));
	show_cmsgs(&m);
	int got;
	memcpy(&got, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof(int));
	rep("write to the passed pipe", write(got, "via", 3));
	rep("read the pipe", read(p[0], buf, sizeof(buf)));
	close(got);
	send_fd(sv[0], p[0], "ab", 2);
	m.msg_control = NULL;
	m.msg_controllen = 0;
	rep("recvmsg without room", recvmsg(sv[1], &m, 0));
	printf("msg_flags %x\n", m.msg_flags);
	send_fd(sv[0], p[0], "cd", 2);
	m.msg_control = cbuf;
	m.msg_controllen = sizeof(struct cmsghdr);
	rep("recvmsg with a header's room", recvmsg(sv[1], &m, 0));
	printf("msg_flags %x controllen %zu\n", m.msg_flags, (size_t)m.msg_controllen);
	send_fd(sv[0], 999, "x", 1);
	rep("sendmsg bad cmsg_len", sendmsg(sv[0], &(struct msghdr){ .msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = &(struct cmsghdr){ .cmsg_len = 100, .cmsg_level = SOL_SOCKET, .cmsg_type = SCM_RIGHTS }, .msg_controllen = sizeof(struct cmsghdr) }, 0));

	int on = 1;
	rep("SO_PASSCRED", setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)));
	write(sv[0], "c1", 2);
	m.msg_control = cbuf;
	m.msg_controllen = sizeof(cbuf);
	m.msg_flags = 0;
	rep("recvmsg with PASSCRED", recvmsg(sv[1], &m, 0));
	show_cmsgs(&m);
	struct ucred uc = { getpid(), getuid(), getgid() };
	char cb2[CMSG_SPACE(sizeof(uc))];
	struct msghdr sm = { .msg_iov = &(struct iovec){ "c2", 2 }, .msg_iovlen = 1, .msg_control = cb2, .msg_controllen = sizeof(cb2) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&sm);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(uc));
	memcpy(CMSG_DATA(c), &uc, sizeof(uc));
	rep("send own SCM_CREDENTIALS", sendmsg(sv[0], &sm, 0));
	uc.pid = 1;
	memcpy(CMSG_DATA(c), &uc, sizeof(uc));
	rep("claim pid 1 as root", sendmsg(sv[0], &sm, 0));
	close(sv[0]);
	close(sv[1]);
	close(p[0]);
}

static void options(void)
{
	int sv[2], v;
	socklen_t l;
	struct ucred uc;
	struct timeval tv;

	printf("-- options\n");
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
	const int names[] = { SO_TYPE, SO_DOMAIN, SO_PROTOCOL, SO_ERROR, SO_SNDBUF, SO_RCVBUF, SO_PASSCRED, SO_ACCEPTCONN };
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		l = sizeof(v);
		v = -1;
		rep("getsockopt", getsockopt(sv[0], SOL_SOCKET, names[i], &v, &l));
		printf("  opt %d = %d (len %d)\n", names[i], v, l);
	}
	l = sizeof(uc);
	getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &uc, &l);
	printf("SO_PEERCRED pid ok %d uid %d gid %d len %d\n", uc.pid == getpid(), uc.uid, uc.gid, l);
	int lone = socket(AF_UNIX, SOCK_STREAM, 0);
	l = sizeof(uc);
	getsockopt(lone, SOL_SOCKET, SO_PEERCRED, &uc, &l);
	printf("unconnected SO_PEERCRED pid %d uid %d gid %d\n", uc.pid, uc.uid, uc.gid);
	const int sizes[] = { 1, 10000, 1 << 30, -1 };
	for (int i = 0; i < 4; i++) {
		v = sizes[i];
		setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
		setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
		int s1, r1;
		l = sizeof(s1);
		getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &s1, &l);
		getsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &r1, &l);
		printf("set %d: SO_SNDBUF %d SO_RCVBUF %d\n", sizes[i], s1, r1);
	}
	rep("short optlen", setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &v, 2));
	rep("unknown option", setsockopt(sv[0], SOL_SOCKET, 9999, &v, sizeof(v)));
	rep("set SO_TYPE", setsockopt(sv[0], SOL_SOCKET, SO_TYPE, &v, sizeof(v)));
	rep("level IPPROTO_TCP", setsockopt(sv[0], 6, 1, &v, sizeof(v)));
	tv = (struct timeval){ 0, 200000 };
	rep("SO_RCVTIMEO 0.2s", setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	tv = (struct timeval){ 0, 2000000 };
	rep("SO_RCVTIMEO bad usec", setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	l = sizeof(tv);
	getsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, &l);
	printf("SO_RCVTIMEO %ld.%06ld\n", (long)tv.tv_sec, (long)tv.tv_usec);
	char buf[8];
	rep("recv times out", recv(sv[0], buf, sizeof(buf), 0));
	close(sv[0]);
	close(sv[1]);
	close(lone);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	paths();
	abstract();
	scm();
	options();
	return 0;
}
