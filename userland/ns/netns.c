/*
 * netns - network namespaces as AF_UNIX sees them, compared with Linux:
 * abstract names belong to a namespace, filesystem names reach across,
 * /proc/net/unix lists the sockets of the reader's namespace, setns and
 * clone(CLONE_NEWNET) move between them, the last user frees one.
 *
 * Runs as root. Lines of /proc/net/unix are printed without their Num
 * (an address), RefCount and Inode columns, and only for the sockets this
 * program made; a new namespace's inode number is only compared.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define ABSTRACT "\0netns-test"
#define PATH "/tmp/netns-test.sock"

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case EADDRINUSE: return "EADDRINUSE";
	case ECONNREFUSED: return "ECONNREFUSED";
	case ENOENT: return "ENOENT";
	default: return "E?";
	}
}

#define CHECK(what, call) printf("%s: %s\n", what, (call) < 0 ? errname(errno) : "0")

static socklen_t unix_addr(struct sockaddr_un *a, const char *name, size_t len)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	memcpy(a->sun_path, name, len);
	return offsetof(struct sockaddr_un, sun_path) + len;
}

static int bound(int type, const char *name, size_t len)
{
	struct sockaddr_un a;
	socklen_t n = unix_addr(&a, name, len);
	int fd = socket(AF_UNIX, type, 0);

	if (bind(fd, (struct sockaddr *)&a, n) < 0)
		return -1;
	if (type == SOCK_STREAM)
		listen(fd, 4);
	return fd;
}

static int connected(const char *name, size_t len, int *fdp)
{
	struct sockaddr_un a;
	socklen_t n = unix_addr(&a, name, len);

	*fdp = socket(AF_UNIX, SOCK_STREAM, 0);
	return connect(*fdp, (struct sockaddr *)&a, n);
}

/* /proc/PID/net/unix: the header, then this program's named sockets as
 * "Flags Type St Path", sorted as ls sorts; how many unnamed ones. */
static void show_unix(const char *what, const char *file)
{
	FILE *f = fopen(file, "r");
	char line[256], keep[16][64];
	int n = 0, unnamed = 0;

	printf("%s:\n", what);
	if (!f) {
		printf("  open: %s\n", errname(errno));
		return;
	}
	if (fgets(line, sizeof(line), f))
		printf("  %s", line);
	while (fgets(line, sizeof(line), f)) {
		char flags[16], type[8], st[8], path[128] = "";
		if (sscanf(line, "%*s %*s %*s %15s %7s %7s %*s %127s", flags, type, st, path) < 3)
			continue;
		if (!path[0])
			unnamed++;
		else if (strstr(path, "netns-test") && n < 16)
			snprintf(keep[n++], sizeof(keep[0]), "%s %s %s %s", flags, type, st, path);
	}
	fclose(f);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (strcmp(keep[j], keep[i]) < 0) {
				char t[64];
				memcpy(t, keep[i], 64);
				memcpy(keep[i], keep[j], 64);
				memcpy(keep[j], t, 64);
			}
	for (int i = 0; i < n; i++)
		printf("  %s\n", keep[i]);
	printf("  unnamed sockets: %s\n", unnamed ? "some" : "none");
}

static void net_link(char *buf, size_t size, const char *path)
{
	ssize_t n = readlink(path, buf, size - 1);

	buf[n < 0 ? 0 : n] = 0;
}

/* A child in a new namespace of its own: what it and its parent see. */
static void clone_newnet(const char *initial)
{
	int pipefd[2];
	char me[64], path[64], child[64];

	pipe(pipefd);
	pid_t pid = syscall(SYS_clone, CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		int fd = bound(SOCK_DGRAM, ABSTRACT "-child", sizeof(ABSTRACT "-child") - 1);
		net_link(me, sizeof(me), "/proc/self/ns/net");
		printf("clone: child's namespace is new: %s\n", strcmp(me, initial) ? "yes" : "no");
		printf("clone: child binds the parent's abstract name: %s\n",
		       bound(SOCK_STREAM, ABSTRACT, sizeof(ABSTRACT) - 1) < 0 ? errname(errno) : "0");
		fflush(stdout);
		write(pipefd[1], "x", 1);
		pause();
		close(fd);
		_exit(0);
	}
	read(pipefd[0], path, 1);
	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	net_link(child, sizeof(child), path);
	net_link(me, sizeof(me), "/proc/self/ns/net");
	printf("clone: parent sees the child's namespace: %s\n", strcmp(child, me) ? "other" : "same");
	snprintf(path, sizeof(path), "/proc/%d/net/unix", pid);
	show_unix("clone: the child's /proc/PID/net/unix", path);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Without CAP_SYS_ADMIN neither unshare nor setns may. */
static void unprivileged(int initial_fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		setuid(1000);
		CHECK("user 1000: unshare(CLONE_NEWNET)", unshare(CLONE_NEWNET));
		CHECK("user 1000: setns(initial, CLONE_NEWNET)", setns(initial_fd, CLONE_NEWNET));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void file_facts(void)
{
	char buf[64];
	struct stat st;

	net_link(buf, sizeof(buf), "/proc/net");
	printf("/proc/net -> %s\n", buf);
	if (stat("/proc/self/net", &st) == 0)
		printf("/proc/self/net: mode %o uid %u\n", st.st_mode, st.st_uid);
	if (stat("/proc/self/net/unix", &st) == 0)
		printf("/proc/self/net/unix: mode %o uid %u\n", st.st_mode, st.st_uid);
	if (stat("/proc/self/ns/net", &st) == 0) {
		net_link(buf, sizeof(buf), "/proc/self/ns/net");
		printf("/proc/self/ns/net: %s, st_ino matches: %s\n", buf,
		       (unsigned long)st.st_ino == strtoul(strchr(buf, '[') + 1, NULL, 10) ? "yes" : "no");
	}
}

int main(void)
{
	char initial[64], now[64];
	int listener, path_listener, initial_fd, c, fd2;

	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there */
	unlink(PATH);
	file_facts();
	net_link(initial, sizeof(initial), "/proc/self/ns/net");
	initial_fd = open("/proc/self/ns/net", O_RDONLY);
	listener = bound(SOCK_STREAM, ABSTRACT, sizeof(ABSTRACT) - 1);
	path_listener = bound(SOCK_STREAM, PATH, sizeof(PATH));
	show_unix("initial namespace", "/proc/net/unix");

	CHECK("unshare(CLONE_NEWNET)", unshare(CLONE_NEWNET));
	net_link(now, sizeof(now), "/proc/self/ns/net");
	printf("namespace changed: %s\n", strcmp(now, initial) ? "yes" : "no");
	show_unix("new namespace, nothing made yet", "/proc/net/unix");
	CHECK("connect to the abstract name of the other namespace", connected(ABSTRACT, sizeof(ABSTRACT) - 1, &c));
	close(c);
	CHECK("connect to the filesystem name", connected(PATH, sizeof(PATH), &c));
	close(c);
	fd2 = bound(SOCK_STREAM, ABSTRACT, sizeof(ABSTRACT) - 1);
	printf("bind the same abstract name here: %s\n", fd2 < 0 ? errname(errno) : "0");
	CHECK("connect to it", connected(ABSTRACT, sizeof(ABSTRACT) - 1, &c));
	show_unix("new namespace, a listener and a connection", "/proc/self/net/unix");
	close(c);
	close(fd2);

	CHECK("setns(initial, CLONE_NEWUTS)", setns(initial_fd, CLONE_NEWUTS));
	CHECK("setns(initial, 0)", setns(initial_fd, 0));
	net_link(now, sizeof(now), "/proc/self/ns/net");
	printf("back in the initial namespace: %s\n", strcmp(now, initial) ? "no" : "yes");
	CHECK("connect to the abstract name again", connected(ABSTRACT, sizeof(ABSTRACT) - 1, &c));
	close(c);
	clone_newnet(initial);
	unprivileged(initial_fd);
	close(listener);
	close(path_listener);
	unlink(PATH);
	return 0;
}
