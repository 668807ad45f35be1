/*
 * unix_sockets_leak - AF_UNIX sockets give back all they took: 500 rounds
 * of a socketpair whose ends are sent over themselves (a cycle only the
 * collector of files in flight, net/unix/garbage.c, can free), of a
 * connection through a listener, and of datagrams never read, leave free
 * memory where it was.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysinfo.h>
#include <sys/un.h>
#include <unistd.h>

static long free_kib(void)
{
	struct sysinfo si;
	return sysinfo(&si) ? -1 : (long)(si.freeram * si.mem_unit / 1024);
}

static void send_fds(int sock, int a, int b)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	int fds[2] = { a, b };
	struct iovec iov = { "x", 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	if (sendmsg(sock, &m, 0) < 0)
		perror("sendmsg");
}

static void round_trip(void)
{
	int sv[2], dg[2], s, c;
	struct sockaddr_un a = { AF_UNIX, "\0leak" };

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	send_fds(sv[0], sv[0], sv[1]); /* both ends in flight on sv[1] */
	send_fds(sv[1], sv[1], sv[0]);
	close(sv[0]);
	close(sv[1]);
	socketpair(AF_UNIX, SOCK_DGRAM, 0, dg);
	send(dg[0], "unread", 6, 0);
	close(dg[0]);
	close(dg[1]);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	bind(s, (struct sockaddr *)&a, 7);
	listen(s, 4);
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&a, 7);
	write(c, "never accepted", 14);
	close(s);
	close(c);
}

int main(void)
{
	for (int i = 0; i < 20; i++)
		round_trip(); /* warm up */
	long before = free_kib();
	for (int i = 0; i < 500; i++)
		round_trip();
	/* A last close runs the collector for the last round's cycle. */
	close(socket(AF_UNIX, SOCK_STREAM, 0));
	usleep(50000);
	long after = free_kib();
	if (before == after)
		printf("unix_sockets_leak: free memory before and after 500 rounds: same\n");
	else
		printf("unix_sockets_leak: free memory differs by %ld KiB\n", after - before);
	return 0;
}
