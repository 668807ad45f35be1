/*
 * unix_basic - AF_UNIX sockets without names: socket(2)'s checks,
 * socketpair of each type, stream reads and writes (MSG_PEEK, MSG_WAITALL,
 * MSG_DONTWAIT), datagram and seqpacket boundaries (MSG_TRUNC), shutdown,
 * EPIPE with SIGPIPE and MSG_NOSIGNAL, ECONNRESET, poll readiness,
 * FIONREAD, fstat and /proc/PID/fd, and read/write on a socket file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>
#include "nettest.h"

static volatile int sigpipes;
static void on_pipe(int sig) { (void)sig; sigpipes++; }

static void creation(void)
{
	int sv[2];

	printf("-- socket\n");
	rep("socket(-1)", socket(-1, SOCK_STREAM, 0));
	rep("socket(46)", socket(46, SOCK_STREAM, 0));
	rep("socket(AF_UNIX, 99)", socket(AF_UNIX, 99, 0));
	rep("socket(AF_UNIX, SOCK_RDM)", socket(AF_UNIX, SOCK_RDM, 0));
	rep("socket(AF_UNIX, STREAM, 7)", socket(AF_UNIX, SOCK_STREAM, 7));
	rep("socket(AF_UNIX, STREAM|0x100)", socket(AF_UNIX, SOCK_STREAM | 0x100, 0));
	int fd = socket(AF_UNIX, SOCK_RAW, 0);
	int type = -1;
	socklen_t len = sizeof(type);
	getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len);
	printf("SOCK_RAW becomes type %d\n", type);
	close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, PF_UNIX);
	printf("flags nonblock=%d cloexec=%d\n", !!(fcntl(fd, F_GETFL) & O_NONBLOCK),
	       !!(fcntl(fd, F_GETFD) & FD_CLOEXEC));
	struct stat st;
	fstat(fd, &st);
	printf("fstat mode %o\n", st.st_mode);
	char path[64], link[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	printf("fd link starts with socket:[: %d\n", !strncmp(link, "socket:[", 8));
	rep("lseek", lseek(fd, 0, SEEK_SET));
	close(fd);
	rep("socketpair(AF_INET)", socketpair(AF_INET + 44, SOCK_STREAM, 0, sv));
	rep("getsockopt on a pipe", getsockopt(0 * pipe(sv) + sv[0], SOL_SOCKET, SO_TYPE, &type, &len));
	rep("shutdown of a pipe", shutdown(sv[1], SHUT_RD));
	close(sv[0]);
	close(sv[1]);
	rep("send on a bad fd", send(999, "x", 1, 0));
}

static void stream(void)
{
	int sv[2], n;
	char buf[64];

	printf("-- stream socketpair\n");
	rep("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	rep("write 5", write(sv[0], "hello", 5));
	rep("send 6", send(sv[0], " world", 6, 0));
	rep("FIONREAD", ioctl(sv[1], FIONREAD, &n) ? -1 : n);
	rep("recv PEEK 8", recv(sv[1], buf, 8, MSG_PEEK));
	printf("peeked '%.8s'\n", buf);
	memset(buf, 0, sizeof(buf));
	rep("read 64", read(sv[1], buf, 64));
	printf("read '%s'\n", buf);
	rep("recv DONTWAIT empty", recv(sv[1], buf, 64, MSG_DONTWAIT));
	rep("read 0 bytes", read(sv[1], buf, 0));
	if (fork() == 0) {
		usleep(50000);
		write(sv[0], "abc", 3);
		usleep(50000);
		write(sv[0], "defg", 4);
		_exit(0);
	}
	rep("recv WAITALL 7", recv(sv[1], buf, 7, MSG_WAITALL));
	printf("got '%.7s'\n", buf);
	wait(NULL);
	rep("sendto with address", sendto(sv[0], "x", 1, 0, (struct sockaddr *)&(struct sockaddr_un){ AF_UNIX, "/x" }, 5));
	struct pollfd p[2] = { { sv[0], POLLIN | POLLOUT | POLLRDHUP, 0 }, { sv[1], POLLIN | POLLOUT | POLLRDHUP, 0 } };
	poll(p, 2, 0);
	printf("poll idle: %x %x\n", p[0].revents, p[1].revents);
	rep("shutdown(SHUT_WR)", shutdown(sv[0], SHUT_WR));
	rep("shutdown(7)", shutdown(sv[0], 7));
	poll(p, 2, 0);
	printf("poll after SHUT_WR: %x %x\n", p[0].revents, p[1].revents);
	rep("read at EOF", read(sv[1], buf, 64));
	signal(SIGPIPE, on_pipe);
	rep("write after SHUT_WR", write(sv[0], "x", 1));
	printf("SIGPIPEs %d\n", sigpipes);
	rep("send NOSIGNAL after SHUT_WR", send(sv[0], "x", 1, MSG_NOSIGNAL));
	printf("SIGPIPEs %d\n", sigpipes);
	rep("other way still works", write(sv[1], "y", 1));
	rep("read it", read(sv[0], buf, 64));
	rep("shutdown(SHUT_RD)", shutdown(sv[0], SHUT_RD));
	rep("peer writes to SHUT_RD", write(sv[1], "z", 1));
	printf("SIGPIPEs %d\n", sigpipes);
	poll(p, 2, 0);
	printf("poll after SHUT_RDWR: %x %x\n", p[0].revents, p[1].revents);
	close(sv[0]);
	close(sv[1]);

	printf("-- close with unread data\n");
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write(sv[1], "unread", 6);
	write(sv[0], "for you", 7);
	close(sv[0]);
	p[0].fd = sv[1];
	poll(p, 1, 0);
	printf("poll: %x\n", p[0].revents);
	rep("read", read(sv[1], buf, 64));
	rep("read again", read(sv[1], buf, 64));
	rep("write", write(sv[1], "x", 1));
	printf("SIGPIPEs %d\n", sigpipes);
	close(sv[1]);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write(sv[0], "unread", 6);
	close(sv[0]);
	rep("peer closed with my data unread: read", read(sv[1], buf, 64));
	rep("read again", read(sv[1], buf, 64));
	close(sv[1]);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write(sv[1], "unread", 6);
	close(sv[0]);
	rep("peer closed with its data unread: read", read(sv[1], buf, 64));
	int err = -1;
	socklen_t len = sizeof(err);
	getsockopt(sv[1], SOL_SOCKET, SO_ERROR, &err, &len);
	printf("SO_ERROR %d\n", err);
	close(sv[1]);
}

static void packets(int type, const char *name)
{
	int sv[2], n;
	char buf[64];

	printf("-- %s socketpair\n", name);
	rep("socketpair", socketpair(AF_UNIX, type, 0, sv));
	rep("send 3", send(sv[0], "one", 3, 0));
	rep("send 5", send(sv[0], "three", 5, 0));
	rep("send 0", send(sv[0], "", 0, 0));
	rep("FIONREAD", ioctl(sv[1], FIONREAD, &n) ? -1 : n);
	rep("recv 64", recv(sv[1], buf, 64, 0));
	rep("recv 2 (TRUNC flag)", recv(sv[1], buf, 2, MSG_TRUNC));
	rep("recv empty datagram", recv(sv[1], buf, 64, 0));
	struct msghdr m = { 0 };
	struct iovec iov = { buf, 2 };
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	send(sv[0], "truncated", 9, 0);
	rep("recvmsg 2", recvmsg(sv[1], &m, 0));
	printf("msg_flags %x\n", m.msg_flags);
	rep("recv DONTWAIT", recv(sv[1], buf, 64, MSG_DONTWAIT));
	rep("connect on a pair", connect(sv[0], (struct sockaddr *)&(struct sockaddr_un){ AF_UNIX, "/nonexistent" }, 15));
	int big = 300000;
	char *huge = calloc(1, big);
	rep("send 300000", send(sv[0], huge, big, 0));
	free(huge);
	rep("shutdown SHUT_WR", shutdown(sv[0], SHUT_WR));
	rep("recv after peer SHUT_WR", recv(sv[1], buf, 64, MSG_DONTWAIT));
	signal(SIGPIPE, on_pipe);
	rep("send after SHUT_WR", send(sv[0], "x", 1, 0));
	printf("SIGPIPEs %d\n", sigpipes);
	close(sv[0]);
	rep("send to closed peer", send(sv[1], "x", 1, 0));
	printf("SIGPIPEs %d\n", sigpipes);
	struct pollfd p = { sv[1], POLLIN | POLLOUT, 0 };
	poll(&p, 1, 0);
	printf("poll: %x\n", p.revents);
	close(sv[1]);
}

static void readiness(void)
{
	int sv[2], ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN }, out;
	fd_set rd;
	struct timeval tv = { 0, 0 };

	printf("-- select and epoll\n");
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	ev.data.fd = sv[1];
	epoll_ctl(ep, EPOLL_CTL_ADD, sv[1], &ev);
	rep("epoll_wait empty", epoll_wait(ep, &out, 1, 0));
	FD_ZERO(&rd);
	FD_SET(sv[1], &rd);
	rep("select empty", select(sv[1] + 1, &rd, NULL, NULL, &tv));
	if (fork() == 0) {
		usleep(100000);
		write(sv[0], "wake", 4);
		_exit(0);
	}
	rep("epoll_wait blocks, then", epoll_wait(ep, &out, 1, 5000));
	printf("event %x on the right fd: %d\n", out.events, out.data.fd == sv[1]);
	FD_SET(sv[1], &rd);
	rep("select", select(sv[1] + 1, &rd, NULL, NULL, &tv));
	wait(NULL);
	close(ep);
	close(sv[0]);
	close(sv[1]);
}

static void mmsg(void)
{
	int sv[2];
	char bufs[5][16];
	struct iovec iov[5];
	struct mmsghdr mm[5];

	printf("-- sendmmsg and recvmmsg\n");
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	memset(mm, 0, sizeof(mm));
	for (int i = 0; i < 5; i++) {
		iov[i] = (struct iovec){ bufs[i], i + 1 };
		memset(bufs[i], 'a' + i, sizeof(bufs[i]));
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	rep("sendmmsg 3", sendmmsg(sv[0], mm, 3, 0));
	for (int i = 0; i < 5; i++)
		iov[i].iov_len = sizeof(bufs[i]);
	struct timespec bad = { 0, 2000000000 }, ok = { 1, 0 };
	rep("recvmmsg bad timeout", recvmmsg(sv[1], mm, 5, MSG_DONTWAIT, &bad));
	rep("recvmmsg 5 with timeout", recvmmsg(sv[1], mm, 5, MSG_DONTWAIT, &ok));
	printf("lengths %u %u %u\n", mm[0].msg_len, mm[1].msg_len, mm[2].msg_len);
	rep("recvmmsg empty", recvmmsg(sv[1], mm, 5, MSG_DONTWAIT, NULL));
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	creation();
	stream();
	packets(SOCK_DGRAM, "dgram");
	packets(SOCK_SEQPACKET, "seqpacket");
	readiness();
	mmsg();
	return 0;
}
