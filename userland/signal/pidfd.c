/*
 * pidfd - what a pidfd is and what may be done with it, beyond Linux's
 * selftests: its file (anon_inode:[pidfd], mode 0600, no lseek or read),
 * its fdinfo before and after the process is reaped, poll's POLLIN then
 * POLLHUP, and the errors of pidfd_open, pidfd_send_signal, pidfd_getfd,
 * clone's CLONE_PIDFD, waitid(P_PIDFD) and epoll_ctl.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK O_NONBLOCK
#endif
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x1000
#endif

static const char *err(long ret) { return ret < 0 ? strerror(errno) : "ok"; }

static int pidfd_open(pid_t pid, unsigned int flags) { return syscall(SYS_pidfd_open, pid, flags); }
static int send_sig(int fd, int sig, siginfo_t *info, unsigned int flags)
{
	return syscall(SYS_pidfd_send_signal, fd, sig, info, flags);
}
static int getfd(int fd, int target, unsigned int flags) { return syscall(SYS_pidfd_getfd, fd, target, flags); }

/* The lines of /proc/self/fdinfo/FD that start with key, with the pid
 * replaced by "self" when it is ours, "child" when it is child's. */
static pid_t child;

static void show_fdinfo(int fd, const char *key)
{
	char path[64], line[128], self[32], kid[32];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	snprintf(self, sizeof(self), "\t%d\n", getpid());
	snprintf(kid, sizeof(kid), "\t%d\n", child);
	f = fopen(path, "r");
	if (!f) {
		printf("  fdinfo: %s\n", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)))
			continue;
		char *v = strchr(line, '\t');
		printf("  %.*s%s", (int)(v - line), line,
		       !strcmp(v, self) ? "\tself\n" : !strcmp(v, kid) ? "\tchild\n" : v);
	}
	fclose(f);
}

static void the_file(void)
{
	int fd = pidfd_open(getpid(), 0);
	char path[64], link[64] = "";
	struct stat st;
	char c;

	printf("pidfd_open(self): %s\n", err(fd));
	printf("  FD_CLOEXEC: %d\n", fcntl(fd, F_GETFD));
	printf("  F_GETFL: 0%o\n", fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	readlink(path, link, sizeof(link) - 1);
	printf("  /proc/self/fd: %s\n", link);
	fstat(fd, &st);
	printf("  st_mode: 0%o\n", st.st_mode);
	printf("  lseek: %s\n", err(lseek(fd, 0, SEEK_SET)));
	printf("  read: %s\n", err(read(fd, &c, 1)));
	show_fdinfo(fd, "flags:");
	show_fdinfo(fd, "Pid:");
	show_fdinfo(fd, "NSpid:");
	close(fd);
	int nb = pidfd_open(getpid(), PIDFD_NONBLOCK);
	printf("pidfd_open(self, PIDFD_NONBLOCK): F_GETFL 0%o\n", fcntl(nb, F_GETFL) & (O_ACCMODE | O_NONBLOCK));
	close(nb);
}

static void *thread_fn(void *arg)
{
	*(pid_t *)arg = syscall(SYS_gettid);
	pause();
	return NULL;
}

static void open_errors(void)
{
	pthread_t th;
	volatile pid_t tid = 0;

	printf("pidfd_open(-1): %s\n", err(pidfd_open(-1, 0)));
	printf("pidfd_open(0): %s\n", err(pidfd_open(0, 0)));
	printf("pidfd_open(self, 1): %s\n", err(pidfd_open(getpid(), 1)));
	printf("pidfd_open(no such pid): %s\n", err(pidfd_open(4000000, 0)));
	pthread_create(&th, NULL, thread_fn, (void *)&tid);
	while (!tid)
		sched_yield();
	printf("pidfd_open(a thread): %s\n", err(pidfd_open(tid, 0)));
}

/* A child that waits until its pipe is closed, then exits with 7. */
static pid_t child_on_pipe(int *wfd)
{
	int p[2];
	char c;
	pid_t pid;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], &c, 1);
		_exit(7);
	}
	close(p[0]);
	*wfd = p[1];
	return pid;
}

static void poll_and_reap(void)
{
	int w, fd, status, n;
	pid_t pid = child_on_pipe(&w);
	struct pollfd pfd;
	siginfo_t si = { .si_signo = SIGUSR1, .si_code = SI_USER };

	child = pid;
	fd = pidfd_open(pid, 0);
	pfd = (struct pollfd){ fd, POLLIN, 0 };
	n = poll(&pfd, 1, 0);
	printf("poll, child running: %d, revents 0x%x\n", n, pfd.revents);
	printf("send_signal(child, 0): %s\n", err(send_sig(fd, 0, NULL, 0)));
	printf("send_signal(child, flags 1): %s\n", err(send_sig(fd, 0, NULL, 1)));
	printf("send_signal(child, -1): %s\n", err(send_sig(fd, -1, NULL, 0)));
	printf("send_signal(child, 65): %s\n", err(send_sig(fd, 65, NULL, 0)));
	printf("send_signal(child, SI_USER info): %s\n", err(send_sig(fd, SIGUSR1, &si, 0)));
	si.si_code = SI_QUEUE;
	printf("send_signal(child, si_signo != sig): %s\n", err(send_sig(fd, SIGUSR2, &si, 0)));
	printf("send_signal(child, bad info pointer): %s\n", err(send_sig(fd, SIGUSR1, (void *)8, 0)));
	close(w);
	n = poll(&pfd, 1, -1);
	printf("poll, child ended: %d, revents 0x%x\n", n, pfd.revents);
	show_fdinfo(fd, "Pid:");
	waitpid(pid, &status, 0);
	n = poll(&pfd, 1, 0);
	printf("poll, child reaped: %d, revents 0x%x\n", n, pfd.revents);
	show_fdinfo(fd, "Pid:");
	show_fdinfo(fd, "NSpid:");
	printf("send_signal(reaped, 0): %s\n", err(send_sig(fd, 0, NULL, 0)));
	printf("getfd(reaped, 0): %s\n", err(getfd(fd, 0, 0)));
	siginfo_t wi;
	printf("waitid(P_PIDFD, reaped): %s\n", err(syscall(SYS_waitid, P_PIDFD, fd, &wi, WEXITED, NULL)));
	close(fd);
}

static void clone_pidfd(void)
{
	int fd = -1;
	long ret;
	siginfo_t si;

	ret = syscall(SYS_clone, CLONE_PIDFD | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM, 0, &fd, NULL, 0);
	printf("clone(CLONE_PIDFD | CLONE_THREAD): %s\n", err(ret));
	ret = syscall(SYS_clone, CLONE_PIDFD | CLONE_PARENT_SETTID | SIGCHLD, 0, &fd, NULL, 0);
	printf("clone(CLONE_PIDFD | CLONE_PARENT_SETTID): %s\n", err(ret));
	ret = syscall(SYS_clone, CLONE_PIDFD | CLONE_DETACHED | SIGCHLD, 0, &fd, NULL, 0);
	printf("clone(CLONE_PIDFD | CLONE_DETACHED): %s\n", err(ret));
	ret = syscall(SYS_clone, CLONE_PIDFD | SIGCHLD, 0, (void *)8, NULL, 0);
	printf("clone(CLONE_PIDFD) to a bad pointer: %s\n", err(ret));
	ret = syscall(SYS_clone, CLONE_PIDFD | SIGCHLD, 0, &fd, NULL, 0);
	if (ret == 0) {
		/* The child does not get the parent's new descriptor. */
		_exit(fcntl(fd, F_GETFD) < 0 && errno == EBADF ? 5 : 6);
	}
	printf("clone(CLONE_PIDFD): %s, FD_CLOEXEC %d\n", err(ret), fcntl(fd, F_GETFD));
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = 42 };
	printf("epoll_ctl(ADD pidfd): %s\n", err(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)));
	printf("epoll_ctl(ADD pidfd again): %s\n", err(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)));
	int n = epoll_wait(ep, &ev, 1, 5000);
	printf("epoll_wait: %d, events 0x%x, data %u\n", n, ev.events, ev.data.u32);
	memset(&si, 0, sizeof(si));
	ret = syscall(SYS_waitid, P_PIDFD, fd, &si, WEXITED, NULL);
	printf("waitid(P_PIDFD): %s, code %d, status %d, pid matches %d\n", err(ret), si.si_code,
	       si.si_status, si.si_pid > 0);
	close(fd);
	close(ep);
}

static void other_errors(void)
{
	int self = pidfd_open(getpid(), 0), null = open("/dev/null", O_RDONLY);
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN };
	siginfo_t si;

	printf("send_signal(/dev/null): %s\n", err(send_sig(null, 0, NULL, 0)));
	printf("send_signal(not open): %s\n", err(send_sig(200, 0, NULL, 0)));
	printf("waitid(P_PIDFD, self): %s\n", err(syscall(SYS_waitid, P_PIDFD, self, &si, WEXITED, NULL)));
	printf("waitid(P_PIDFD, /dev/null): %s\n", err(syscall(SYS_waitid, P_PIDFD, null, &si, WEXITED, NULL)));
	printf("waitid(P_PIDFD, -1): %s\n", err(syscall(SYS_waitid, P_PIDFD, -1, &si, WEXITED, NULL)));
	int fd = getfd(self, null, 0);
	printf("getfd(self, /dev/null): %s, FD_CLOEXEC %d\n", err(fd), fcntl(fd, F_GETFD));
	printf("getfd(self, not open): %s\n", err(getfd(self, 200, 0)));
	printf("getfd(self, flags 1): %s\n", err(getfd(self, null, 1)));
	printf("getfd(/dev/null): %s\n", err(getfd(null, 0, 0)));
	printf("epoll_ctl(ADD /dev/null): %s\n", err(epoll_ctl(ep, EPOLL_CTL_ADD, null, &ev)));
	printf("epoll_ctl(ADD itself): %s\n", err(epoll_ctl(ep, EPOLL_CTL_ADD, ep, &ev)));
	printf("epoll_ctl(DEL not there): %s\n", err(epoll_ctl(ep, EPOLL_CTL_DEL, self, &ev)));
	printf("epoll_wait(maxevents 0): %s\n", err(epoll_wait(ep, &ev, 0, 0)));
	printf("epoll_wait(nothing ready): %d\n", epoll_wait(ep, &ev, 1, 0));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	/* init mounts /proc only for an interactive session. */
	if (access("/proc/self", F_OK) < 0)
		mount("proc", "/proc", "proc", 0, NULL);
	the_file();
	open_errors();
	poll_and_reap();
	clone_pidfd();
	other_errors();
	return 0;
}
