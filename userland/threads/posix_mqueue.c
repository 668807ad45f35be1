/*
 * posix_mqueue - POSIX message queues (ipc/mqueue.c, ipc/mqueue_msg.c):
 * /proc/sys/fs/mqueue, mq_open's errors and defaults, priorities, message
 * sizes, O_NONBLOCK, timeouts, sleeping senders and receivers, poll and
 * epoll, mq_notify (SIGEV_SIGNAL, SIGEV_NONE, SIGEV_THREAD's checks, EBUSY,
 * not while a receiver waits, gone with the owner's close), the queue file
 * of a mounted mqueue ("QSIZE:... NOTIFY:..."), queues_max,
 * RLIMIT_MSGQUEUE, the limits of an unprivileged user. Every line holds
 * on Linux and here; times are checked with wide margins, never printed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case EAGAIN: return "EAGAIN";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EBADF: return "EBADF";
	case EBUSY: return "EBUSY";
	case EMSGSIZE: return "EMSGSIZE";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ENOSPC: return "ENOSPC";
	case EMFILE: return "EMFILE";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ENOTSOCK: return "ENOTSOCK";
	default: return "other";
	}
}

static void show(const char *what, long r)
{
	if (r < 0)
		printf("%s: %s\n", what, ename(errno));
	else
		printf("%s: %ld\n", what, r);
	fflush(stdout);
}

static void yes(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "yes" : "NO");
	fflush(stdout);
}

/* The raw call: the kernel takes the name without its '/'. */
static long kopen(const char *name, int flags, mode_t mode, struct mq_attr *a)
{
	return syscall(SYS_mq_open, name, flags, mode, a);
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct timespec in_ms(long ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += ms % 1000 * 1000000;
	ts.tv_sec += ms / 1000 + ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	return ts;
}

static void print_file(const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		printf("%s: %s\n", path, ename(errno));
	} else {
		buf[n] = 0;
		printf("%s: %s", path, buf);
	}
	if (fd >= 0)
		close(fd);
}

/* The queue file's line, our pid shown as "self". */
static void print_queue(const char *name)
{
	char path[128], buf[128], pid[16];
	snprintf(path, sizeof(path), "/dev/mqueue/%s", name);
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		printf("%s: %s\n", path, ename(errno));
		return;
	}
	buf[n] = 0;
	char *p = strstr(buf, "NOTIFY_PID:");
	snprintf(pid, sizeof(pid), "%-6d", getpid());
	if (p && strncmp(p + 11, pid, 6) == 0)
		memcpy(p + 11, "self  ", 6);
	printf("%s (%zd bytes): %s", path, n, buf);
}

static void sysctls(void)
{
	print_file("/proc/sys/fs/mqueue/queues_max");
	print_file("/proc/sys/fs/mqueue/msg_max");
	print_file("/proc/sys/fs/mqueue/msgsize_max");
	print_file("/proc/sys/fs/mqueue/msg_default");
	print_file("/proc/sys/fs/mqueue/msgsize_default");
}

static void open_errors(void)
{
	struct mq_attr a = { 0 };
	char longname[300];

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	show("open a queue that does not exist", kopen("nosuch", O_RDONLY, 0, NULL));
	show("open \"\"", kopen("", O_RDONLY | O_CREAT, 0600, NULL));
	show("open \"a/b\"", kopen("a/b", O_RDONLY | O_CREAT, 0600, NULL));
	show("open \".\"", kopen(".", O_RDONLY | O_CREAT, 0600, NULL));
	show("open \"..\"", kopen("..", O_RDONLY | O_CREAT, 0600, NULL));
	show("open a 299-byte name", kopen(longname, O_RDONLY | O_CREAT, 0600, NULL));
	show("open, name at a bad address", kopen((void *)8, O_RDONLY | O_CREAT, 0600, NULL));
	show("open, attr at a bad address", kopen("q", O_RDONLY | O_CREAT, 0600, (void *)8));
	a.mq_maxmsg = 0, a.mq_msgsize = 10;
	show("create, mq_maxmsg 0", kopen("q", O_RDONLY | O_CREAT, 0600, &a));
	a.mq_maxmsg = 10, a.mq_msgsize = -1;
	show("create, mq_msgsize -1", kopen("q", O_RDONLY | O_CREAT, 0600, &a));
	a.mq_maxmsg = 65537, a.mq_msgsize = 10;
	show("create, mq_maxmsg 65537 (past HARD_MSGMAX)", kopen("q", O_RDONLY | O_CREAT, 0600, &a));
	a.mq_maxmsg = 10, a.mq_msgsize = 16 * 1024 * 1024 + 1;
	show("create, mq_msgsize past HARD_MSGSIZEMAX", kopen("q", O_RDONLY | O_CREAT, 0600, &a));
	show("mq_unlink of no queue", syscall(SYS_mq_unlink, "nosuch"));
	show("mq_unlink \"a/b\"", syscall(SYS_mq_unlink, "a/b"));
}

static void attrs(void)
{
	struct mq_attr a = { .mq_maxmsg = 200, .mq_msgsize = 100 }, g;
	mqd_t q = mq_open("/big", O_RDWR | O_CREAT | O_EXCL, 0600, &a);

	show("root creates a queue of 200 messages (past msg_max)", q >= 0 ? 0 : -1);
	show("O_CREAT | O_EXCL again", kopen("big", O_RDWR | O_CREAT | O_EXCL, 0600, &a));
	show("O_RDWR | O_WRONLY of an existing queue", kopen("big", O_RDWR | O_WRONLY, 0, NULL));
	mq_getattr(q, &g);
	printf("attr: flags %ld maxmsg %ld msgsize %ld curmsgs %ld\n", g.mq_flags, g.mq_maxmsg, g.mq_msgsize,
	       g.mq_curmsgs);
	yes("close-on-exec", fcntl(q, F_GETFD) == FD_CLOEXEC);
	mq_close(q);
	mq_unlink("/big");
	q = mq_open("/dflt", O_RDWR | O_CREAT, 0600, NULL);
	mq_getattr(q, &g);
	printf("default attr: flags %ld maxmsg %ld msgsize %ld curmsgs %ld\n", g.mq_flags, g.mq_maxmsg,
	       g.mq_msgsize, g.mq_curmsgs);
	a.mq_flags = O_NONBLOCK;
	show("mq_setattr O_NONBLOCK", mq_setattr(q, &a, NULL));
	mq_getattr(q, &g);
	printf("flags now %ld, maxmsg still %ld\n", g.mq_flags, g.mq_maxmsg);
	a.mq_flags = O_NONBLOCK | O_APPEND;
	show("mq_setattr, other flags", mq_setattr(q, &a, NULL));
	show("mq_getsetattr at a bad address", syscall(SYS_mq_getsetattr, q, NULL, (void *)8));
	show("mq_getsetattr of a pipe", syscall(SYS_mq_getsetattr, 0, NULL, &g));
	mq_close(q);
	mq_unlink("/dflt");
}

static void messages(void)
{
	struct mq_attr a = { .mq_maxmsg = 4, .mq_msgsize = 16 };
	mqd_t q = mq_open("/prio", O_RDWR | O_CREAT | O_NONBLOCK, 0600, &a);
	char buf[64];
	unsigned prio;

	mq_send(q, "low", 3, 1);
	mq_send(q, "high", 4, 10);
	mq_send(q, "mid", 3, 5);
	mq_send(q, "high2", 5, 10);
	show("a fifth message, O_NONBLOCK", mq_send(q, "x", 1, 0));
	for (int i = 0; i < 4; i++) {
		ssize_t n = mq_receive(q, buf, sizeof(buf), &prio);
		printf("received %.*s (%zd bytes) priority %u\n", (int)n, buf, n, prio);
	}
	show("receive from the empty queue, O_NONBLOCK", mq_receive(q, buf, sizeof(buf), &prio));
	show("send 17 bytes to a queue of 16", mq_send(q, buf, 17, 0));
	show("receive into 15 bytes", mq_receive(q, buf, 15, &prio));
	show("priority 32768", mq_send(q, "x", 1, 32768));
	show("priority 32767", mq_send(q, "x", 1, 32767));
	show("send from a bad address", mq_send(q, (void *)8, 4, 0));
	show("receive to a bad address (the message is lost)", mq_receive(q, (void *)8, 16, &prio));
	show("then the queue is empty", mq_receive(q, buf, sizeof(buf), &prio));
	show("send 0 bytes", mq_send(q, "", 0, 0));
	show("receive them", mq_receive(q, buf, sizeof(buf), &prio));
	show("send on a pipe's descriptor", mq_send(0, "x", 1, 0));
	show("write(2) on the queue", write(q, "x", 1));
	mq_close(q);

	q = mq_open("/prio", O_RDONLY);
	show("send on a read-only descriptor", mq_send(q, "x", 1, 0));
	mq_close(q);
	q = mq_open("/prio", O_WRONLY);
	show("receive on a write-only descriptor", mq_receive(q, buf, sizeof(buf), &prio));
	mq_close(q);
	mq_unlink("/prio");
}

static void timeouts(void)
{
	struct mq_attr a = { .mq_maxmsg = 1, .mq_msgsize = 8 };
	mqd_t q = mq_open("/time", O_RDWR | O_CREAT, 0600, &a);
	struct timespec t = in_ms(100), bad = { 0, 1000000000 };
	char buf[8];

	long long t0 = now_ns();
	show("receive with a timeout 100 ms away", mq_timedreceive(q, buf, 8, NULL, &t));
	yes("not before 100 ms", now_ns() - t0 >= 100000000);
	t.tv_sec -= 5;
	show("a timeout in the past", mq_timedreceive(q, buf, 8, NULL, &t));
	mq_send(q, "m", 1, 0);
	show("an invalid timeout, a message there", mq_timedreceive(q, buf, 8, NULL, &bad));
	t = in_ms(100);
	t0 = now_ns();
	show("send to the full queue with a timeout", mq_timedsend(q, "n", 1, 0, &t));
	yes("not before 100 ms", now_ns() - t0 >= 100000000);
	show("timeout at a bad address", mq_timedsend(q, "n", 1, 0, (void *)8));
	mq_close(q);
	mq_unlink("/time");
}

/* A child sends (or receives) after 150 ms, while we sleep in the call. */
static void sleepers(void)
{
	struct mq_attr a = { .mq_maxmsg = 1, .mq_msgsize = 8 };
	mqd_t q = mq_open("/sleep", O_RDWR | O_CREAT, 0600, &a);
	char buf[8];
	int st;

	if (fork() == 0) {
		usleep(150000);
		mq_send(q, "wake", 4, 3);
		_exit(0);
	}
	unsigned prio = 0;
	ssize_t n = mq_receive(q, buf, 8, &prio);
	printf("blocking receive: %.*s priority %u\n", (int)n, buf, prio);
	wait(&st);
	mq_send(q, "one", 3, 0);
	if (fork() == 0) {
		usleep(150000);
		n = mq_receive(q, buf, 8, NULL);
		_exit(n == 3 && memcmp(buf, "one", 3) == 0 ? 0 : 1);
	}
	show("blocking send to a full queue", mq_send(q, "two", 3, 0));
	wait(&st);
	yes("the child received \"one\"", WIFEXITED(st) && WEXITSTATUS(st) == 0);
	n = mq_receive(q, buf, 8, NULL);
	printf("then: %.*s\n", (int)n, buf);
	mq_close(q);
	mq_unlink("/sleep");
}

static void polling(void)
{
	struct mq_attr a = { .mq_maxmsg = 1, .mq_msgsize = 8 };
	mqd_t q = mq_open("/poll", O_RDWR | O_CREAT, 0600, &a);
	struct pollfd p = { .fd = q, .events = POLLIN | POLLOUT };
	struct epoll_event ev = { .events = EPOLLIN }, out;
	int ep = epoll_create1(0);

	poll(&p, 1, 0);
	printf("poll, empty: %#x\n", p.revents);
	epoll_ctl(ep, EPOLL_CTL_ADD, q, &ev);
	printf("epoll_wait, empty: %d\n", epoll_wait(ep, &out, 1, 0));
	mq_send(q, "x", 1, 0);
	poll(&p, 1, 0);
	printf("poll, full: %#x\n", p.revents);
	fd_set r, w;
	struct timeval tv = { 0, 0 };
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(q, &r);
	FD_SET(q, &w);
	int ready = select(q + 1, &r, &w, NULL, &tv);
	printf("select, full: %d, readable %d, writable %d\n", ready, FD_ISSET(q, &r) != 0, FD_ISSET(q, &w) != 0);
	int n = epoll_wait(ep, &out, 1, 0);
	printf("epoll_wait, full: %d events %#x\n", n, out.events);
	close(ep);
	mq_close(q);
	mq_unlink("/poll");
}

static volatile int receiver_tid;

static void *receiver(void *arg)
{
	char buf[8];
	receiver_tid = gettid();
	mq_receive(*(mqd_t *)arg, buf, 8, NULL);
	return NULL;
}

/* Wait (5 s at most) until thread tid sleeps: its /proc state is S. */
static void wait_sleeping(int tid)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(path, "r");
		char *p = f && fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		if (f)
			fclose(f);
		if (p && p[1] == ' ' && p[2] == 'S')
			break;
		usleep(10000);
	}
	usleep(50000);
}

static void notify(void)
{
	struct mq_attr a = { .mq_maxmsg = 4, .mq_msgsize = 8 };
	mqd_t q = mq_open("/note", O_RDWR | O_CREAT, 0600, &a);
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct timespec zero = { 0, 0 }, five = { 5, 0 };
	sigset_t s;
	siginfo_t si;
	char buf[8];
	int st;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_BLOCK, &s, NULL);
	print_queue("note");
	sev.sigev_value.sival_int = 77;
	show("mq_notify SIGEV_SIGNAL", mq_notify(q, &sev));
	print_queue("note");
	show("mq_notify again", mq_notify(q, &sev));
	pid_t child = fork();
	if (child == 0) {
		mq_send(q, "hi", 2, 0);
		_exit(0);
	}
	waitpid(child, &st, 0);
	int sig = sigtimedwait(&s, &si, &five);
	printf("signal %s, code %s, value %d, si_pid is the sender: %s\n", sig == SIGUSR1 ? "SIGUSR1" : "none",
	       si.si_code == SI_MESGQ ? "SI_MESGQ" : "other", si.si_value.sival_int,
	       si.si_pid == child ? "yes" : "no");
	print_queue("note");
	mq_notify(q, &sev);
	mq_send(q, "2nd", 3, 0);
	show("a second message to a non-empty queue: no signal", sigtimedwait(&s, &si, &zero));
	print_queue("note");
	mq_receive(q, buf, 8, NULL);
	mq_receive(q, buf, 8, NULL);

	/* A receiver waits: the message goes to it, no notification. */
	pthread_t th;
	pthread_create(&th, NULL, receiver, &q);
	while (!receiver_tid)
		usleep(1000);
	wait_sleeping(receiver_tid);
	mq_send(q, "direct", 6, 0);
	pthread_join(th, NULL);
	show("a receiver was waiting: no signal", sigtimedwait(&s, &si, &zero));
	print_queue("note");
	show("mq_notify(NULL): taken back", mq_notify(q, NULL));
	print_queue("note");

	sev.sigev_notify = SIGEV_NONE;
	show("mq_notify SIGEV_NONE", mq_notify(q, &sev));
	print_queue("note");
	mq_send(q, "x", 1, 0);
	print_queue("note");
	mq_receive(q, buf, 8, NULL);

	sev.sigev_notify = SIGEV_SIGNAL;
	mq_notify(q, &sev);
	mqd_t q2 = mq_open("/note", O_RDWR);
	close(q2);
	print_queue("note");
	show("after our close of another descriptor: free again", mq_notify(q, &sev));
	mq_notify(q, NULL);

	sev.sigev_notify = 99;
	show("mq_notify, sigev_notify 99", mq_notify(q, &sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = 65;
	show("mq_notify, signal 65", mq_notify(q, &sev));
	show("mq_notify of a pipe", mq_notify(0, NULL));
	show("mq_notify, sigevent at a bad address", syscall(SYS_mq_notify, q, (void *)8));
	mq_close(q);
	mq_unlink("/note");
	sigprocmask(SIG_UNBLOCK, &s, NULL);
}

/* SIGEV_THREAD through the raw call: sigev_signo names a netlink socket
 * and sigev_value the 32-byte cookie. */
static void notify_thread_checks(void)
{
	struct { union sigval v; int signo, notify; int pad[12]; } ev = { .notify = SIGEV_THREAD };
	char cookie[32] = { 0 };
	int pfd[2], sv[2];
	mqd_t q = mq_open("/thr", O_RDWR | O_CREAT, 0600, NULL);

	pipe(pfd);
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	ev.v.sival_ptr = (void *)8;
	ev.signo = pfd[0];
	show("SIGEV_THREAD, cookie at a bad address", syscall(SYS_mq_notify, q, &ev));
	ev.v.sival_ptr = cookie;
	ev.signo = 999;
	show("SIGEV_THREAD, no such descriptor", syscall(SYS_mq_notify, q, &ev));
	ev.signo = pfd[0];
	show("SIGEV_THREAD, a pipe", syscall(SYS_mq_notify, q, &ev));
	ev.signo = sv[0];
	show("SIGEV_THREAD, a unix socket", syscall(SYS_mq_notify, q, &ev));
	close(pfd[0]), close(pfd[1]), close(sv[0]), close(sv[1]);
	mq_close(q);
	mq_unlink("/thr");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, sorted. */
static void list(const char *dir)
{
	char *names[64];
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) && n < 64)
		names[n++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	printf("ls %s:", dir);
	for (int i = 0; i < n; i++)
		printf(" %s", names[i]);
	printf("\n");
}

static void filesystem(void)
{
	struct stat st;
	static char buf[8192];

	umask(022);
	mqd_t q = mq_open("/fsq", O_RDWR | O_CREAT, 0666, NULL);
	stat("/dev/mqueue/fsq", &st);
	printf("queue file: mode %o size %ld\n", st.st_mode, (long)st.st_size);
	stat("/dev/mqueue", &st);
	printf("directory: mode %o size %ld\n", st.st_mode, (long)st.st_size);
	print_queue("fsq");
	mq_send(q, "0123456789", 10, 0);
	mq_send(q, "abc", 3, 7);
	print_queue("fsq");
	int fd = open("/dev/mqueue/fsq", O_RDONLY);
	ssize_t n = pread(fd, buf, 10, 6);
	printf("10 bytes at offset 6: %.*s\n", (int)n, buf);
	close(fd);
	fd = open("/dev/mqueue/made-by-open", O_RDWR | O_CREAT, 0600);
	struct mq_attr a;
	show("open(2) made a queue, mq_getattr on it", mq_getattr(fd, &a));
	printf("its attr: maxmsg %ld msgsize %ld\n", a.mq_maxmsg, a.mq_msgsize);
	show("mq_send on open(2)'s descriptor", mq_send(fd, "z", 1, 0));
	close(fd);
	show("mkdir in the mqueue", mkdir("/dev/mqueue/dir", 0755));
	show("symlink in the mqueue", symlink("fsq", "/dev/mqueue/link"));
	show("mknod of a FIFO in the mqueue", mknod("/dev/mqueue/fifo", S_IFIFO | 0600, 0));
	list("/dev/mqueue");
	show("unlink(2) of a queue", unlink("/dev/mqueue/made-by-open"));
	show("mq_unlink", mq_unlink("/fsq"));
	show("mq_open of the unlinked name", mq_open("/fsq", O_RDWR));
	show("its open descriptor still receives", mq_receive(q, buf, sizeof(buf), NULL));
	mq_close(q);
}

/* A registration made through a descriptor that survives exec: the new
 * program gets no signal (Linux's self_exec_id), and the registration
 * goes all the same. */
static void notify_across_exec(const char *self)
{
	mqd_t q = mq_open("/xnote", O_RDWR | O_CREAT, 0600, NULL);
	int st;

	if (fork() == 0) {
		struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
		sigset_t s;
		char arg[16];
		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		sigprocmask(SIG_BLOCK, &s, NULL);
		int fd = open("/dev/mqueue/xnote", O_RDWR); /* not close-on-exec */
		mq_close(q);
		show("mq_notify through a descriptor exec keeps", mq_notify(fd, &sev));
		snprintf(arg, sizeof(arg), "%d", fd);
		execl(self, self, "exec-notify", arg, (char *)NULL);
		_exit(1);
	}
	wait(&st);
	mq_close(q);
	mq_unlink("/xnote");
}

static void exec_notify(int fd)
{
	struct timespec t = { 0, 300000000 };
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	print_queue("xnote");
	mq_send(fd, "x", 1, 0);
	show("after exec: a message comes, no signal", sigtimedwait(&s, NULL, &t));
	print_queue("xnote");
}

static void limits(void)
{
	int st;

	if (fork() == 0) {
		int n = 0;
		char name[32];
		mqd_t q;
		while (n < 50) {
			snprintf(name, sizeof(name), "/lim%d", n);
			if ((q = mq_open(name, O_RDWR | O_CREAT, 0600, NULL)) < 0)
				break;
			n++;
		}
		printf("RLIMIT_MSGQUEUE 819200: %d default queues, then %s\n", n, ename(errno));
		for (int i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "/lim%d", i);
			mq_unlink(name);
		}
		_exit(0);
	}
	wait(&st);
	int fd = open("/proc/sys/fs/mqueue/queues_max", O_WRONLY);
	write(fd, "2\n", 2);
	close(fd);
	print_file("/proc/sys/fs/mqueue/queues_max");
	mqd_t r1 = mq_open("/r1", O_RDWR | O_CREAT, 0600, NULL);
	mqd_t r2 = mq_open("/r2", O_RDWR | O_CREAT, 0600, NULL);
	show("root past queues_max", mq_open("/r3", O_RDWR | O_CREAT, 0600, NULL) >= 0 ? 0 : -1);
	if (fork() == 0) {
		setuid(1000);
		show("a user past queues_max", mq_open("/u1", O_RDWR | O_CREAT, 0600, NULL));
		_exit(0);
	}
	wait(&st);
	mq_unlink("/r3");
	mq_close(r2), mq_unlink("/r2");
	mq_close(r1), mq_unlink("/r1");
	fd = open("/proc/sys/fs/mqueue/queues_max", O_WRONLY);
	write(fd, "256\n", 4);
	close(fd);
	mqd_t rq = mq_open("/rootq", O_RDWR | O_CREAT, 0600, NULL);
	if (fork() == 0) {
		struct mq_attr a = { .mq_maxmsg = 11, .mq_msgsize = 8 };
		setuid(1000);
		show("a user, mq_maxmsg 11 (past msg_max)", mq_open("/u1", O_RDWR | O_CREAT, 0600, &a));
		a.mq_maxmsg = 10, a.mq_msgsize = 8193;
		show("a user, mq_msgsize 8193", mq_open("/u1", O_RDWR | O_CREAT, 0600, &a));
		show("a user, a queue", mq_open("/u1", O_RDWR | O_CREAT, 0600, NULL) >= 0 ? 0 : -1);
		show("a user opens root's queue of mode 0600", mq_open("/rootq", O_RDONLY));
		show("a user removes root's queue (sticky directory)", mq_unlink("/rootq"));
		mq_unlink("/u1");
		_exit(0);
	}
	wait(&st);
	fd = open("/proc/sys/fs/mqueue/msg_max", O_WRONLY);
	show("msg_max = 0 (below its minimum)", write(fd, "0\n", 2));
	close(fd);
	mq_close(rq);
	mq_unlink("/rootq");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* nothing left to a fork child */
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL); /* init does not, for tests */
	mkdir("/dev/mqueue", 0755);
	if (argc > 2 && strcmp(argv[1], "exec-notify") == 0) {
		exec_notify(atoi(argv[2]));
		return 0;
	}
	show("mount -t mqueue none /dev/mqueue", mount("none", "/dev/mqueue", "mqueue", 0, NULL));
	sysctls();
	open_errors();
	attrs();
	messages();
	timeouts();
	sleepers();
	polling();
	notify();
	notify_thread_checks();
	filesystem();
	notify_across_exec(argv[0]);
	limits();
	show("umount /dev/mqueue", umount("/dev/mqueue"));
	printf("posix_mqueue: done\n");
	return 0;
}
