/* One test program, two back ends: -DREAL runs real Linux syscalls in a tmpfs
 * directory; otherwise ksys() calls the teaching kernel's fs code. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
struct A { long a[8]; };
struct A8 { long a0, a1, a2, a3, a4, a5, a6, a7; };

#ifndef SYS_statx
#define SYS_statx 332
#endif

#ifdef REAL
static long do_sys(long nr, long *a) { long r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]); return r == -1 ? -errno : r; }
#else
long ksys(long, long, long, long, long, long, long);
void h_boot(const void *, size_t); void h_feed(const char *); void h_setuid(int, int); void h_sigclear(void);
long h_allocs(void); long h_pages(void);
static long do_sys(long nr, long *a) { return ksys(nr, a[0], a[1], a[2], a[3], a[4], a[5]); }
#endif

static const char *ename(long e)
{
	static const char *n[] = { [EPERM] = "EPERM", [ENOENT] = "ENOENT", [EBADF] = "EBADF", [EACCES] = "EACCES",
		[EFAULT] = "EFAULT", [EBUSY] = "EBUSY", [EEXIST] = "EEXIST", [EXDEV] = "EXDEV", [ENOTDIR] = "ENOTDIR",
		[EISDIR] = "EISDIR", [EINVAL] = "EINVAL", [EMFILE] = "EMFILE", [ENOTTY] = "ENOTTY", [ETXTBSY] = "ETXTBSY",
		[ESPIPE] = "ESPIPE", [ERANGE] = "ERANGE", [ENAMETOOLONG] = "ENAMETOOLONG", [ENOTEMPTY] = "ENOTEMPTY",
		[ELOOP] = "ELOOP", [ENXIO] = "ENXIO", [ENOSPC] = "ENOSPC", [EFBIG] = "EFBIG", [EAGAIN] = "EAGAIN", [EINTR] = "EINTR" };
	static char buf[32];
	if (e > 0 && e < (long)(sizeof(n) / sizeof(n[0])) && n[e]) return n[e];
	snprintf(buf, sizeof buf, "E%ld", e);
	return buf;
}

static long show(int line, const char *nr, const char *args, long r)
{
	if (r < 0 && r > -4096) printf("%d: %s(%s) = -%s\n", line, nr, args, ename(-r));
	else printf("%d: %s(%s) = %ld\n", line, nr, args, r);
	return r;
}
#define T(nr, ...) show(__LINE__, #nr, #__VA_ARGS__, do_sys(nr, (long *)&(struct A8){ __VA_ARGS__ }))
#define Q(nr, ...) do_sys(nr, (long *)&(struct A8){ __VA_ARGS__ })
#define BAD ((void *)8)

static void pstat(const char *path, int follow)
{
	struct stat st;
	long r = Q(follow ? SYS_stat : SYS_lstat, path, &st);
	if (r < 0) { printf("  stat %s: -%s\n", path, ename(-r)); return; }
	printf("  stat %s: mode %o nlink %ld size %ld uid %d gid %d rdev %d:%d blocks %ld blksize %ld\n", path, st.st_mode,
	       (long)st.st_nlink, (long)st.st_size, st.st_uid, st.st_gid, major(st.st_rdev), minor(st.st_rdev),
	       (long)st.st_blocks, (long)st.st_blksize);
}

char base[4096];
static int cmp(const void *a, const void *b) { return strcmp(*(char **)a, *(char **)b); }
static void plist(const char *dir)
{
	char buf[4096], *names[512];
	int n = 0, fd = Q(SYS_open, dir, O_RDONLY | O_DIRECTORY);
	long r;
	if (fd < 0) { printf("  ls %s: -%s\n", dir, ename(-fd)); return; }
	while ((r = Q(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < r;) {
			unsigned short reclen = *(unsigned short *)(buf + off + 16);
			names[n] = malloc(300);
			snprintf(names[n++], 300, "%s(%d)", buf + off + 19, buf[off + 18]);
			off += reclen;
		}
	}
	qsort(names, n, sizeof(char *), cmp);
	printf("  ls %s:", dir);
	for (int i = 0; i < n; i++) { printf(" %s", names[i]); free(names[i]); }
	printf(" [%ld]\n", r);
	Q(SYS_close, fd);
}

static void pcwd(void)
{
	char buf[4096];
	long r = Q(SYS_getcwd, buf, sizeof buf);
	extern char base[];
	size_t bl = strlen(base);
	if (r > 0 && strncmp(buf, base, bl) == 0) printf("  cwd: %ld <B>%s\n", r - (long)bl, buf + bl);
	else printf("  cwd: %ld %s\n", r, r > 0 ? buf : "");
}

/* Pipes, FIFOs, poll and select: nothing here may block (a blocking call
 * would hang the real run; the kernel run's sleep_on gives up). */
static void pipes(void)
{
	int fd[2];
	char buf[70000];
	struct stat st;
	memset(buf, 'x', sizeof buf);
#ifdef REAL
	signal(SIGPIPE, SIG_IGN);
#endif
	T(SYS_pipe2, fd, 0);
	printf("  fds %d %d\n", fd[0], fd[1]);
	T(SYS_fcntl, fd[0], F_GETFL);
	T(SYS_fcntl, fd[1], F_GETFL);
	T(SYS_fcntl, fd[0], F_GETFD);
	T(SYS_fcntl, fd[0], F_GETPIPE_SZ);
	T(SYS_fstat, fd[0], &st);
	printf("  mode %o nlink %ld size %ld blksize %ld\n", st.st_mode, (long)st.st_nlink, (long)st.st_size, (long)st.st_blksize);
	T(SYS_lseek, fd[0], 0, SEEK_SET);
	T(SYS_pread64, fd[0], buf, 1, 0);
	T(SYS_write, fd[0], "a", 1);
	T(SYS_read, fd[1], buf, 1);
	T(SYS_write, fd[1], "hello", 5);
	T(SYS_write, fd[1], " world", 6);
	{ int n = -1; T(SYS_ioctl, fd[0], FIONREAD, &n); printf("  FIONREAD %d\n", n); }
	T(SYS_read, fd[0], buf, 3);
	T(SYS_read, fd[0], buf, sizeof buf);
	printf("  got '%.8s'\n", buf);
	memset(buf, 'x', sizeof buf);
	T(SYS_fcntl, fd[1], F_SETFL, O_NONBLOCK);
	T(SYS_fcntl, fd[1], F_GETFL);
	T(SYS_write, fd[1], buf, 70000);
	T(SYS_write, fd[1], buf, 1);
	T(SYS_read, fd[0], buf, 1);
	T(SYS_write, fd[1], buf, 1);
	T(SYS_read, fd[0], buf, 4096);
	T(SYS_write, fd[1], buf, 4097);
	T(SYS_write, fd[1], buf, 4096);
	T(SYS_write, fd[1], buf, 1);
	T(SYS_fcntl, fd[0], F_SETFL, O_NONBLOCK);
	{
		long total = 0, r;
		while ((r = Q(SYS_read, fd[0], buf, 3000)) > 0) total += r;
		printf("  drained %ld, then %ld\n", total, r);
	}
	{
		struct pollfd p[3] = { { fd[0], POLLIN | POLLOUT, 0 }, { fd[1], POLLIN | POLLOUT, 0 }, { 99, POLLIN, 0 } };
		T(SYS_poll, p, 3, 0);
		printf("  revents %x %x %x\n", p[0].revents, p[1].revents, p[2].revents);
		T(SYS_write, fd[1], "z", 1);
		T(SYS_poll, p, 2, 10);
		printf("  revents %x %x\n", p[0].revents, p[1].revents);
		fd_set r, w;
		FD_ZERO(&r); FD_ZERO(&w);
		FD_SET(fd[0], &r); FD_SET(fd[1], &r); FD_SET(fd[1], &w);
		struct timeval tv = { 0, 0 };
		T(SYS_select, fd[1] + 1, &r, &w, NULL, &tv);
		printf("  r %d %d w %d tv %ld %ld\n", FD_ISSET(fd[0], &r), FD_ISSET(fd[1], &r), FD_ISSET(fd[1], &w), (long)tv.tv_sec, (long)tv.tv_usec);
		FD_ZERO(&r); FD_SET(77, &r);
		T(SYS_select, 78, &r, NULL, NULL, &tv);
		T(SYS_select, -1, NULL, NULL, NULL, &tv);
		tv.tv_usec = -1;
		T(SYS_select, 1, NULL, NULL, NULL, &tv);
		struct timespec ts = { 0, 0 };
		T(SYS_ppoll, p, 2, &ts, NULL, 8);
		uint64_t mask = 0;
		T(SYS_ppoll, p, 2, &ts, &mask, 4);
		T(SYS_close, fd[1]);
		T(SYS_poll, p, 1, 0);
		printf("  after close of the writer: %x\n", p[0].revents);
		T(SYS_read, fd[0], buf, 10);
		T(SYS_read, fd[0], buf, 10);
		T(SYS_pipe, fd);
		T(SYS_close, fd[0]);
		p[0].fd = fd[1];
		T(SYS_poll, p, 1, 0);
		printf("  after close of the reader: %x\n", p[0].revents);
		T(SYS_write, fd[1], "", 0);
		T(SYS_write, fd[1], "a", 1);
		T(SYS_close, fd[1]);
	}
	T(SYS_close, fd[0]);
	T(SYS_pipe2, fd, O_CLOEXEC | O_NONBLOCK);
	T(SYS_fcntl, fd[0], F_GETFD);
	T(SYS_fcntl, fd[1], F_GETFL);
	T(SYS_fcntl, fd[1], F_SETPIPE_SZ, 100);
	T(SYS_fcntl, fd[1], F_GETPIPE_SZ);
	T(SYS_write, fd[1], buf, 5000);
	T(SYS_fcntl, fd[1], F_SETPIPE_SZ, 0);
	T(SYS_fcntl, fd[1], F_SETPIPE_SZ, 8192);
	T(SYS_write, fd[1], buf, 5000);
	T(SYS_read, fd[0], buf, sizeof buf);
	T(SYS_fcntl, 0, F_GETPIPE_SZ);
	T(SYS_close, fd[0]);
	T(SYS_close, fd[1]);
	T(SYS_pipe2, fd, O_RDWR);
	T(SYS_pipe2, 8, 0);
	/* FIFOs */
	T(SYS_mknod, "fifo2", S_IFIFO | 0600, 0);
	T(SYS_open, "fifo2", O_WRONLY | O_NONBLOCK);
	T(SYS_open, "fifo2", O_RDONLY | O_NONBLOCK);
	T(SYS_read, 3, buf, 10);
	T(SYS_open, "fifo2", O_WRONLY | O_NONBLOCK);
	T(SYS_write, 4, "fifo", 4);
	T(SYS_read, 3, buf, 10);
	T(SYS_lseek, 3, 0, SEEK_CUR);
	T(SYS_close, 4);
	T(SYS_read, 3, buf, 10);
	T(SYS_close, 3);
	T(SYS_open, "fifo2", O_RDWR);
	T(SYS_write, 3, "both", 4);
	T(SYS_read, 3, buf, 10);
	T(SYS_close, 3);
	pstat("fifo2", 1);
	T(SYS_unlink, "fifo2");
}

int main(int argc, char **argv)
{
	char buf[8192];
#ifndef REAL
	if (argc > 1) {
		void h_ktests(const char *);
		setvbuf(stdout, NULL, _IONBF, 0);
		h_boot(NULL, 0);
		Q(SYS_mkdir, "/dev", 0755);
		Q(SYS_mknod, "/dev/tty", S_IFCHR | 0666, makedev(5, 0));
		h_ktests(argc > 2 ? argv[2] : NULL);
		return 0;
	}
#endif
	struct stat st;
	setvbuf(stdout, NULL, _IOLBF, 0);
#ifdef REAL
	char tmpl[] = "/dev/shm/fstXXXXXX";
	chdir(mkdtemp(tmpl));
	umask(022);
	getcwd(base, sizeof base);
	/* 256 descriptors, on both kernels (the dup2 to 256 below). */
	struct rlimit rl = { 256, 256 };
	setrlimit(RLIMIT_NOFILE, &rl);
#else
	h_boot(NULL, 0);
	Q(SYS_umask, 0);
	Q(SYS_mkdir, "/dev", 0755);
	Q(SYS_mknod, "/dev/null", S_IFCHR | 0666, makedev(1, 3));
	Q(SYS_mknod, "/dev/zero", S_IFCHR | 0666, makedev(1, 5));
	Q(SYS_mknod, "/dev/full", S_IFCHR | 0666, makedev(1, 7));
	Q(SYS_mknod, "/dev/tty", S_IFCHR | 0666, makedev(5, 0));
	struct rlimit rl = { 256, 256 };
	Q(SYS_setrlimit, RLIMIT_NOFILE, &rl);
	Q(SYS_mkdir, "/x", 0755);
	Q(SYS_chdir, "/x");
	Q(SYS_umask, 022);
	strcpy(base, "/x");
	Q(SYS_open, "/dev/null", O_RDWR); Q(SYS_open, "/dev/null", O_RDWR); Q(SYS_open, "/dev/null", O_RDWR);
#endif
	long a0 = 0, p0 = 0;
#ifndef REAL
	a0 = h_allocs(); p0 = h_pages();
#endif
	/* --- basic files --- */
	T(SYS_mkdir, "w", 0777);
	T(SYS_chdir, "w");
	pcwd();
	T(SYS_open, "f", O_CREAT | O_WRONLY | O_EXCL, 0666);
	T(SYS_write, 3, "hello\n", 6);
	T(SYS_write, 3, BAD, 6);
	T(SYS_read, 3, buf, 6);
	T(SYS_lseek, 3, 0, SEEK_CUR);
	T(SYS_lseek, 3, -1, SEEK_SET);
	T(SYS_lseek, 3, 10, SEEK_END);
	T(SYS_lseek, 3, 0, 7);
	T(SYS_write, 3, "X", 1);
	pstat("f", 1);
	T(SYS_close, 3);
	T(SYS_close, 3);
	T(SYS_open, "f", O_CREAT | O_EXCL | O_RDWR, 0666);
	T(SYS_open, "f", O_RDONLY);
	T(SYS_read, 3, buf, 100);
	printf("  data: %d %d %d %d\n", buf[5], buf[6], buf[15], buf[16]);
	T(SYS_read, 3, buf, 100);
	T(SYS_read, 3, BAD, 100);
	T(SYS_lseek, 3, 0, SEEK_SET);
	T(SYS_read, 3, BAD, 100);
	T(SYS_write, 3, "a", 1);
	T(SYS_pread64, 3, buf, 3, 1);
	printf("  pread: %.3s\n", buf);
	T(SYS_pread64, 3, buf, 3, -1);
	T(SYS_lseek, 3, 0, SEEK_CUR);
	T(SYS_close, 3);
	T(SYS_open, "f", O_WRONLY | O_APPEND);
	T(SYS_write, 3, "app", 3);
	T(SYS_lseek, 3, 0, SEEK_CUR);
	T(SYS_pwrite64, 3, "P", 1, 0);
	T(SYS_fcntl, 3, F_GETFL);
	T(SYS_fcntl, 3, F_SETFL, O_NONBLOCK | O_RDWR);
	T(SYS_fcntl, 3, F_GETFL);
	T(SYS_read, 3, buf, 1);
	T(SYS_close, 3);
	pstat("f", 1);
	T(SYS_open, "f", O_RDWR | O_TRUNC);
	pstat("f", 1);
	T(SYS_ftruncate, 3, 10000);
	pstat("f", 1);
	T(SYS_pread64, 3, buf, 10, 9995);
	T(SYS_ftruncate, 3, -1);
	T(SYS_truncate, "f", 5000);
	T(SYS_truncate, "f", -1);
	T(SYS_truncate, ".", 0);
	pstat("f", 1);
	T(SYS_lseek, 3, 100000, SEEK_SET);
	T(SYS_write, 3, "z", 1);
	pstat("f", 1);
	T(SYS_pread64, 3, buf, 10, 99995);
	T(SYS_close, 3);
	T(SYS_open, "f", O_RDONLY);
	T(SYS_ftruncate, 3, 0);
	T(SYS_write, 3, "x", 1);
	T(SYS_close, 3);
	T(SYS_open, "f", O_WRONLY);
	T(SYS_read, 3, buf, 1);
	T(SYS_close, 3);
	/* big file, multi-megabyte */
	{
		int fd = Q(SYS_open, "big", O_CREAT | O_RDWR, 0644);
		static char blk[65536];
		for (int i = 0; i < (int)sizeof blk; i++) blk[i] = i * 7;
		long tot = 0;
		for (int i = 0; i < 40; i++) tot += Q(SYS_write, fd, blk, sizeof blk - i);
		printf("  wrote %ld\n", tot);
		Q(SYS_lseek, fd, 0, SEEK_SET);
		long got = 0, ok = 1, r;
		static char rb[70000];
		for (int i = 0; i < 40; i++) {
			r = Q(SYS_read, fd, rb, sizeof blk - i);
			got += r;
			if (memcmp(rb, blk, r)) ok = 0;
		}
		printf("  read back %ld ok %ld\n", got, ok);
		pstat("big", 1);
		Q(SYS_close, fd);
		T(SYS_unlink, "big");
	}
	/* readv/writev */
	{
		struct iovec v[3] = { { "ab", 2 }, { NULL, 0 }, { "cde", 3 } };
		T(SYS_open, "v", O_CREAT | O_RDWR, 0600);
		T(SYS_writev, 3, v, 3);
		T(SYS_writev, 3, v, -1);
		T(SYS_writev, 3, BAD, 1);
		char r1[2], r2[10];
		struct iovec w[2] = { { r1, 2 }, { r2, 10 } };
		T(SYS_lseek, 3, 0, SEEK_SET);
		T(SYS_readv, 3, w, 2);
		printf("  readv: %.2s %.3s\n", r1, r2);
		struct iovec bad[2] = { { r1, 1 }, { BAD, 10 } };
		T(SYS_lseek, 3, 0, SEEK_SET);
		T(SYS_readv, 3, bad, 2);
		T(SYS_readv, 3, w, 0);
		T(SYS_readv, 99, w, 0);
		T(SYS_close, 3);
	}
	/* --- directories --- */
	T(SYS_mkdir, "d", 0755);
	T(SYS_mkdir, "d", 0755);
	T(SYS_mkdir, "d/", 0755);
	T(SYS_mkdir, "d/e/", 0700);
	T(SYS_mkdir, "d/e/.", 0700);
	T(SYS_mkdir, "d/e/..", 0700);
	T(SYS_mkdir, "nonexist/e", 0700);
	T(SYS_mkdir, "f/e", 0700);
	T(SYS_mkdir, "", 0700);
	T(SYS_mkdir, BAD, 0700);
	T(SYS_mkdir, "/", 0700);
	pstat("d", 1);
	pstat("d/e", 1);
	pstat(".", 1);
	T(SYS_rmdir, "d");
	T(SYS_rmdir, "d/e/.");
	T(SYS_rmdir, "d/e/..");
	T(SYS_rmdir, "f");
	T(SYS_rmdir, "f/");
	T(SYS_unlink, "d");
	T(SYS_unlink, "d/");
	T(SYS_unlink, "f/");
	T(SYS_unlink, "nope");
	T(SYS_unlink, ".");
	T(SYS_unlink, "d/e/..");
	T(SYS_open, "d", O_RDONLY);
	T(SYS_read, 3, buf, 10);
	T(SYS_write, 3, buf, 10);
	T(SYS_close, 3);
	T(SYS_open, "d", O_WRONLY);
	T(SYS_open, "d", O_RDWR);
	T(SYS_open, "d", O_RDONLY | O_CREAT, 0644);
	T(SYS_open, "d/", O_RDONLY | O_CREAT, 0644);
	T(SYS_open, "newf/", O_RDONLY | O_CREAT, 0644);
	T(SYS_open, "f", O_RDONLY | O_DIRECTORY);
	T(SYS_open, "f/", O_RDONLY);
	T(SYS_open, "f/.", O_RDONLY);
	T(SYS_open, "f/x", O_RDONLY);
	T(SYS_open, "d/.", O_RDONLY | O_CREAT, 0644);
	T(SYS_open, ".", O_WRONLY);
	T(SYS_open, "", O_RDONLY);
	T(SYS_open, BAD, O_RDONLY);
	T(SYS_open, "d/e/../../f", O_RDONLY);
	T(SYS_close, 3);
	T(SYS_open, "d/../d/./e/", O_RDONLY);
	T(SYS_close, 3);
	plist(".");
	plist("d");
	plist("f");
	T(SYS_getdents64, 0x7777, buf, 100);
	{
		int fd = Q(SYS_open, ".", O_RDONLY);
		T(SYS_getdents64, fd, buf, 10);
		T(SYS_getdents64, fd, BAD, 1000);
		Q(SYS_close, fd);
	}
	/* rmdir/unlink order and removing during readdir */
	{
		T(SYS_mkdir, "many", 0755);
		for (int i = 0; i < 50; i++) { char n[32]; snprintf(n, sizeof n, "many/file%02d", i); Q(SYS_close, Q(SYS_open, n, O_CREAT | O_WRONLY, 0644)); }
		int fd = Q(SYS_open, "many", O_RDONLY | O_DIRECTORY);
		long r, removed = 0;
		while ((r = Q(SYS_getdents64, fd, buf, 200)) > 0) {
			for (long off = 0; off < r;) {
				unsigned short reclen = *(unsigned short *)(buf + off + 16);
				char *name = buf + off + 19, p[300];
				if (name[0] != '.') { snprintf(p, sizeof p, "many/%s", name); if (Q(SYS_unlink, p) == 0) removed++; }
				off += reclen;
			}
		}
		printf("  removed %ld, last %ld\n", removed, r);
		Q(SYS_close, fd);
		plist("many");
		pstat("many", 1);
		T(SYS_rmdir, "many");
	}
	/* --- symlinks --- */
	T(SYS_symlink, "f", "lf");
	T(SYS_symlink, "d", "ld");
	T(SYS_symlink, "nowhere", "ldang");
	T(SYS_symlink, "loop1", "loop2");
	T(SYS_symlink, "loop2", "loop1");
	T(SYS_symlink, "", "lempty");
	T(SYS_symlink, "f", "lf");
	T(SYS_symlink, "x", "newl/");
	T(SYS_symlink, "x", "d/");
	T(SYS_symlink, "/", "lroot");
	pstat("lf", 0);
	pstat("lf", 1);
	pstat("ld/", 0);
	pstat("ldang", 1);
	pstat("loop1", 1);
	pstat("loop1/x", 0);
	pstat("lf/", 0);
	T(SYS_readlink, "lf", buf, sizeof buf);
	T(SYS_readlink, "lf", buf, 0);
	T(SYS_readlink, "lf", buf, 1);
	T(SYS_readlink, "f", buf, 100);
	T(SYS_readlink, "nope", buf, 100);
	T(SYS_readlink, "lf", BAD, 100);
	T(SYS_readlink, "ld/", buf, 100);
	T(SYS_open, "lf", O_RDONLY | O_NOFOLLOW);
	T(SYS_open, "ld/", O_RDONLY | O_NOFOLLOW);
	T(SYS_close, 3);
	T(SYS_open, "lf", O_RDONLY | O_CREAT | O_EXCL, 0644);
	T(SYS_open, "ldang", O_WRONLY | O_CREAT, 0644);
	T(SYS_close, 3);
	pstat("nowhere", 1);
	T(SYS_unlink, "nowhere");
	T(SYS_open, "ldang", O_WRONLY | O_CREAT | O_EXCL, 0644);
	T(SYS_open, "loop1", O_RDONLY);
	T(SYS_open, "loop1", O_RDONLY | O_CREAT, 0644);
	T(SYS_stat, "lempty", &st);
	T(SYS_chdir, "ld");
	pcwd();
	T(SYS_chdir, "..");
	T(SYS_chdir, "lf");
	T(SYS_chdir, "lroot");
	T(SYS_chdir, "..");
	T(SYS_chdir, "../../../..");
	pcwd();
	T(SYS_stat, "../../../../..", &st);
	/* chain of 40 and 41 symlinks */
	T(SYS_chdir, base);
	pcwd();
	T(SYS_mkdir, "ch", 0755);
	Q(SYS_close, Q(SYS_open, "ch/target", O_CREAT | O_WRONLY, 0644));
	for (int i = 0; i <= 41; i++) {
		char t[32], n[32];
		snprintf(t, sizeof t, i ? "c%d" : "target", i - 1);
		snprintf(n, sizeof n, "ch/c%d", i);
		Q(SYS_symlink, t, n);
	}
	T(SYS_stat, "ch/c39", &st);
	T(SYS_stat, "ch/c40", &st);
	T(SYS_stat, "ch/c41", &st);
	T(SYS_lstat, "ch/c41", &st);
	/* --- rename --- */
	T(SYS_mkdir, "r", 0755);
	T(SYS_chdir, "r");
	T(SYS_mkdir, "a", 0755);
	T(SYS_mkdir, "a/b", 0755);
	T(SYS_mkdir, "c", 0755);
	Q(SYS_close, Q(SYS_open, "c/x", O_CREAT | O_WRONLY, 0644));
	Q(SYS_close, Q(SYS_open, "file", O_CREAT | O_WRONLY, 0644));
	Q(SYS_close, Q(SYS_open, "file2", O_CREAT | O_WRONLY, 0644));
	T(SYS_rename, "a", "a/b/c");
	T(SYS_rename, "a", "a");
	T(SYS_rename, "a/b", "a");
	T(SYS_rename, "a", "c");
	T(SYS_rename, "a", "file");
	T(SYS_rename, "file", "a");
	T(SYS_rename, "file", "file/");
	T(SYS_rename, "file/", "file3");
	T(SYS_rename, "a/", "a2/");
	T(SYS_rename, "a2", "e");
	T(SYS_rename, "e/b", "b");
	T(SYS_rename, "b", "e");
	T(SYS_rename, "file", "file2");
	T(SYS_rename, "nope", "x");
	T(SYS_rename, ".", "x");
	T(SYS_rename, "x", ".");
	T(SYS_rename, "file2", "..");
	T(SYS_renameat2, AT_FDCWD, "e", AT_FDCWD, "c", 1);
	T(SYS_renameat2, AT_FDCWD, "e", AT_FDCWD, "newname", 1);
	T(SYS_renameat2, AT_FDCWD, "newname", AT_FDCWD, "e", 8);
	plist(".");
	pstat(".", 1);
	pstat("c", 1);
	pstat("e", 1);
	T(SYS_link, "file2", "hl");
	pstat("file2", 1);
	T(SYS_rename, "file2", "hl");
	pstat("file2", 1);
	T(SYS_unlink, "hl");
	pstat("file2", 1);
	T(SYS_link, "e", "el");
	/* unlink while open */
	T(SYS_open, "tmpf", O_CREAT | O_RDWR, 0644);
	T(SYS_write, 3, "still here", 10);
	T(SYS_unlink, "tmpf");
	T(SYS_lseek, 3, 0, SEEK_SET);
	T(SYS_read, 3, buf, 100);
	T(SYS_fstat, 3, &st);
	printf("  nlink %ld size %ld\n", (long)st.st_nlink, (long)st.st_size);
	T(SYS_close, 3);
	/* removed cwd */
	T(SYS_mkdir, "gone", 0755);
	T(SYS_chdir, "gone");
	T(SYS_rmdir, "../gone");
	pcwd();
	T(SYS_open, "newfile", O_CREAT | O_RDWR, 0644);
	T(SYS_mkdir, "sub", 0755);
	T(SYS_open, ".", O_RDONLY);
	T(SYS_getdents64, 3, buf, sizeof buf);
	T(SYS_close, 3);
	T(SYS_stat, ".", &st);
	printf("  nlink %ld\n", (long)st.st_nlink);
	T(SYS_chdir, "..");
	pcwd();
	/* --- getcwd --- */
	T(SYS_getcwd, buf, 1);
	T(SYS_getcwd, BAD, 4096);
	/* --- dup / fcntl --- */
	T(SYS_open, "file2", O_RDWR);
	T(SYS_dup, 3);
	T(SYS_dup, 99);
	T(SYS_dup2, 3, 3);
	T(SYS_dup2, 99, 99);
	T(SYS_dup2, 3, 10);
	T(SYS_dup2, 3, 256);
	T(SYS_dup2, 3, -1);
	T(SYS_dup3, 3, 3, 0);
	T(SYS_dup3, 3, 11, O_CLOEXEC);
	T(SYS_dup3, 3, 12, O_APPEND);
	T(SYS_fcntl, 11, F_GETFD);
	T(SYS_fcntl, 10, F_GETFD);
	T(SYS_fcntl, 10, F_SETFD, FD_CLOEXEC);
	T(SYS_fcntl, 10, F_GETFD);
	T(SYS_fcntl, 3, F_DUPFD, 20);
	T(SYS_fcntl, 3, F_DUPFD_CLOEXEC, 20);
	T(SYS_fcntl, 21, F_GETFD);
	T(SYS_fcntl, 3, F_DUPFD, -1);
	T(SYS_fcntl, 3, F_DUPFD, 100000);
	T(SYS_fcntl, 3, 12345);
	T(SYS_fcntl, 99, F_GETFD);
	T(SYS_write, 4, "ab", 2);
	T(SYS_lseek, 3, 0, SEEK_CUR);
	for (int fd = 4; fd < 30; fd++) Q(SYS_close, fd);
	{
		int n = 0, last = 0;
		long r;
		while ((r = Q(SYS_dup, 3)) >= 0) { n++; last = r; }
		printf("  dups: last %d err -%s\n", last, ename(-r));
		(void)n;
		T(SYS_open, "file2", O_RDONLY);
		for (int fd = 4; fd <= last; fd++) Q(SYS_close, fd);
	}
	T(SYS_close, 3);
	/* --- ioctl --- */
	T(SYS_open, "file2", O_RDONLY);
	T(SYS_ioctl, 3, 0x5401, buf);
	T(SYS_ioctl, 3, 0x5413, buf);
	T(SYS_ioctl, 99, 0x5401, buf);
	T(SYS_ioctl, 3, 0x5451);
	T(SYS_fcntl, 3, F_GETFD);
	T(SYS_close, 3);
	/* --- devices --- */
	T(SYS_open, "/dev/null", O_RDWR);
	T(SYS_write, 3, "xyz", 3);
	T(SYS_read, 3, buf, 3);
	T(SYS_lseek, 3, 100, SEEK_SET);
	T(SYS_pread64, 3, buf, 3, 10);
	T(SYS_ioctl, 3, 0x5401, buf);
	T(SYS_close, 3);
	T(SYS_open, "/dev/zero", O_RDWR);
	buf[0] = 1;
	T(SYS_read, 3, buf, 3);
	printf("  zero: %d\n", buf[0]);
	T(SYS_read, 3, BAD, 3);
	T(SYS_close, 3);
	T(SYS_open, "/dev/full", O_RDWR);
	T(SYS_write, 3, "xyz", 3);
	T(SYS_write, 3, "", 0);
	T(SYS_close, 3);
	T(SYS_open, "/dev/null", O_RDWR | O_TRUNC);
	T(SYS_close, 3);
	/* --- access / chmod / umask --- */
	T(SYS_access, "file2", F_OK);
	T(SYS_access, "file2", X_OK);
	T(SYS_access, "file2", R_OK | W_OK);
	T(SYS_access, "file2", 8);
	T(SYS_access, "nope", F_OK);
	T(SYS_access, "c", X_OK);
	T(SYS_faccessat2, AT_FDCWD, "file2", R_OK, 0x1);
	T(SYS_faccessat2, AT_FDCWD, "file2", R_OK, AT_SYMLINK_NOFOLLOW);
	T(SYS_chmod, "file2", 04755);
	pstat("file2", 1);
	T(SYS_access, "file2", X_OK);
	T(SYS_umask, 077);
	T(SYS_umask, 022);
	T(SYS_umask, 0);
	T(SYS_open, "um", O_CREAT | O_RDWR, 0777);
	pstat("um", 1);
	T(SYS_umask, 022);
	T(SYS_fchmod, 3, 0);
	pstat("um", 1);
	T(SYS_fchmodat, AT_FDCWD, "um", 0640);
	pstat("um", 1);
	T(SYS_close, 3);
	/* --- *at with dirfd --- */
	T(SYS_open, "c", O_RDONLY | O_DIRECTORY);
	T(SYS_openat, 3, "x", O_RDONLY);
	T(SYS_close, 4);
	T(SYS_openat, 3, "", O_RDONLY);
	T(SYS_newfstatat, 3, "", &st, AT_EMPTY_PATH);
	printf("  mode %o\n", st.st_mode);
	T(SYS_newfstatat, 3, "", &st, 0);
	T(SYS_newfstatat, 3, "x", &st, 0x8000);
	T(SYS_mkdirat, 3, "sub", 0755);
	T(SYS_unlinkat, 3, "sub", 0);
	T(SYS_unlinkat, 3, "sub", AT_REMOVEDIR);
	T(SYS_unlinkat, 3, "x", 0x1);
	T(SYS_symlinkat, "x", 3, "xl");
	T(SYS_readlinkat, 3, "xl", buf, 100);
	T(SYS_renameat, 3, "xl", AT_FDCWD, "xl2");
	T(SYS_fchdir, 3);
	pcwd();
	T(SYS_chdir, "..");
	T(SYS_openat, 99, "x", O_RDONLY);
	T(SYS_open, "file2", O_RDONLY);
	T(SYS_openat, 4, "x", O_RDONLY);
	T(SYS_fchdir, 4);
	T(SYS_close, 4);
	T(SYS_openat, 99, "/dev/null", O_RDONLY);
	T(SYS_close, 4);
	T(SYS_close, 3);
	/* --- names --- */
	memset(buf, 'n', 300);
	buf[256] = 0;
	T(SYS_open, buf, O_CREAT | O_RDWR, 0644);
	buf[255] = 0;
	T(SYS_open, buf, O_CREAT | O_RDWR, 0644);
	T(SYS_close, 3);
	T(SYS_unlink, buf);
	{
		static char longp[5000];
		for (int i = 0; i < 4999; i++) longp[i] = i % 2 ? '/' : '.';
		longp[4095] = 0;
		T(SYS_stat, longp, &st);
		longp[4094] = 0;
		T(SYS_stat, longp, &st);
	}
	/* --- stat bad buf --- */
	T(SYS_stat, "file2", BAD);
	T(SYS_fstat, 99, &st);
	T(SYS_lstat, "lroot", &st);
	/* --- more corners --- */
	T(SYS_mkdir, "m", 0755);
	T(SYS_chdir, "m");
	T(SYS_mkdir, "p1", 0755);
	T(SYS_mkdir, "p2", 0755);
	T(SYS_mkdir, "p1/sub", 0755);
	T(SYS_mkdir, "p2/empty", 0755);
	pstat("p1", 1);
	pstat("p2", 1);
	T(SYS_rename, "p1/sub", "p2/empty");
	pstat("p1", 1);
	pstat("p2", 1);
	pstat("p2/empty", 1);
	T(SYS_rename, "p2/empty", "p1/moved");
	pstat("p1", 1);
	pstat("p2", 1);
	T(SYS_symlink, "p1", "lp1");
	T(SYS_symlink, "nowhere", "dang");
	T(SYS_mkdir, "dang", 0755);
	T(SYS_mkdir, "dang/", 0755);
	T(SYS_mkdir, "lp1/", 0755);
	T(SYS_rmdir, "lp1/");
	T(SYS_rmdir, "lp1");
	T(SYS_unlink, "lp1/");
	T(SYS_rename, "lp1/", "lp2");
	T(SYS_rename, "lp1", "lp2");
	T(SYS_rename, "lp2", "p1/moved");
	T(SYS_rename, "p1/moved", "lp2");
	T(SYS_symlink, "../m/./p1/../p2/.", "rel");
	pstat("rel/", 1);
	T(SYS_symlink, "/..", "abs");
	T(SYS_stat, "abs", &st);
	T(SYS_open, "p1", O_RDONLY | O_DIRECTORY);
	T(SYS_lseek, 3, 0, SEEK_END);
	T(SYS_lseek, 3, 1, SEEK_SET);
	T(SYS_getdents64, 3, buf, sizeof buf);
	T(SYS_getdents64, 3, buf, sizeof buf);
	T(SYS_lseek, 3, 0, SEEK_SET);
	T(SYS_getdents64, 3, buf, sizeof buf);
	T(SYS_openat, 3, "../m/p2", O_RDONLY);
	T(SYS_close, 4);
	T(SYS_close, 3);
	T(SYS_open, "ff", O_CREAT | O_RDWR, 0644);
	T(SYS_openat, 3, "x", O_RDONLY);
	T(SYS_openat, 3, "/dev/null", O_RDONLY);
	T(SYS_close, 4);
	T(SYS_newfstatat, 3, "", &st, AT_EMPTY_PATH);
	T(SYS_newfstatat, AT_FDCWD, "", &st, AT_EMPTY_PATH);
	printf("  mode %o\n", st.st_mode);
	T(SYS_fchdir, 3);
	T(SYS_close, 3);
	T(SYS_open, "ff", O_RDWR | O_APPEND);
	T(SYS_write, 3, "1234", 4);
	T(SYS_pwrite64, 3, "ab", 2, 0);
	T(SYS_lseek, 3, 0, SEEK_CUR);
	T(SYS_pread64, 3, buf, 10, 0);
	printf("  %.6s\n", buf);
	T(SYS_close, 3);
	T(SYS_open, "/dev/null", O_RDWR | O_TRUNC | O_CREAT, 0644);
	T(SYS_fstat, 3, &st);
	printf("  mode %o rdev %d:%d\n", st.st_mode, major(st.st_rdev), minor(st.st_rdev));
	T(SYS_ftruncate, 3, 0);
	T(SYS_close, 3);
	T(SYS_getcwd, buf, 0);
	{
		long n = Q(SYS_getcwd, buf, sizeof buf);
		printf("  getcwd(buf, n) == n: %d\n", Q(SYS_getcwd, buf, n) == n && n == (long)strlen(buf) + 1);
		T(SYS_getcwd, buf, n - 1);
	}
	T(SYS_faccessat2, AT_FDCWD, "ff", W_OK, AT_EACCESS);
	T(SYS_faccessat2, AT_FDCWD, "", F_OK, 0);
	T(SYS_faccessat2, AT_FDCWD, "", F_OK, AT_EMPTY_PATH);
	T(SYS_faccessat, AT_FDCWD, "dang", F_OK);
	T(SYS_faccessat2, AT_FDCWD, "dang", F_OK, AT_SYMLINK_NOFOLLOW);
	T(SYS_link, "dang", "dang2");
	pstat("dang2", 0);
	T(SYS_linkat, AT_FDCWD, "dang", AT_FDCWD, "dang3", AT_SYMLINK_FOLLOW);
	T(SYS_link, "ff", "ff");
	T(SYS_link, "nope", "x");
	T(SYS_link, "ff", "nodir/x");
	T(SYS_mknod, "fifo", S_IFIFO | 0644, 0);
	pstat("fifo", 1);
	T(SYS_mknod, "reg", 0644, 0);
	pstat("reg", 1);
	T(SYS_mknod, "dirn", S_IFDIR | 0644, 0);
	T(SYS_mknod, "bad", 0170000 | 0644, 0);
	T(SYS_chdir, "..");
	/* --- as an ordinary user --- */
	T(SYS_mkdir, "perm", 0755);
	T(SYS_chdir, "perm");
	T(SYS_mkdir, "priv", 0700);
	T(SYS_mkdir, "pub", 0777);
	T(SYS_mkdir, "sticky", 01777);
	T(SYS_chmod, "pub", 0777);
	T(SYS_chmod, "sticky", 01777);
	T(SYS_mkdir, "sgid", 0777);
	T(SYS_chmod, "sgid", 02777);
	T(SYS_chown, "sgid", 0, 55);
	Q(SYS_close, Q(SYS_open, "priv/f", O_CREAT | O_WRONLY, 0644));
	Q(SYS_close, Q(SYS_open, "ro", O_CREAT | O_WRONLY, 0444));
	Q(SYS_close, Q(SYS_open, "wo", O_CREAT | O_WRONLY, 0222));
	Q(SYS_close, Q(SYS_open, "x", O_CREAT | O_WRONLY, 0111));
	Q(SYS_close, Q(SYS_open, "nox", O_CREAT | O_WRONLY, 0644));
	Q(SYS_close, Q(SYS_open, "sticky/rootf", O_CREAT | O_WRONLY, 0666));
	T(SYS_access, "nox", X_OK);
	T(SYS_access, "x", X_OK);
	T(SYS_access, "ro", W_OK);
	T(SYS_access, "priv", X_OK);
	fflush(stdout);
#ifdef REAL
	if (fork() == 0) {
		syscall(SYS_setresgid, 1000, 1000, 1000);
		syscall(SYS_setresuid, 1000, 1000, 1000);
#else
	{
		h_setuid(1000, 1000);
#endif
		T(SYS_open, "priv/f", O_RDONLY);
		T(SYS_stat, "priv/f", &st);
		T(SYS_stat, "priv", &st);
		T(SYS_open, "ro", O_RDONLY);
		T(SYS_close, 3);
		T(SYS_open, "ro", O_WRONLY);
		T(SYS_open, "ro", O_RDONLY | O_TRUNC);
		T(SYS_open, "wo", O_RDONLY);
		T(SYS_open, "wo", O_WRONLY);
		T(SYS_close, 3);
		T(SYS_access, "x", X_OK);
		T(SYS_access, "x", R_OK);
		T(SYS_access, "ro", W_OK);
		T(SYS_access, "ro", R_OK);
		T(SYS_access, "priv/f", F_OK);
		T(SYS_mkdir, "newdir", 0755);
		T(SYS_unlink, "ro");
		T(SYS_rename, "ro", "pub/ro");
		T(SYS_chmod, "ro", 0777);
		T(SYS_chdir, "priv");
		T(SYS_open, "pub/mine", O_CREAT | O_WRONLY, 0600);
		T(SYS_fchmod, 3, 04755);
		T(SYS_close, 3);
		pstat("pub/mine", 1);
		T(SYS_chmod, "pub/mine", 02755);
		pstat("pub/mine", 1);
		T(SYS_unlink, "sticky/rootf");
		T(SYS_open, "sticky/minef", O_CREAT | O_WRONLY, 0600);
		T(SYS_close, 3);
		T(SYS_unlink, "sticky/minef");
		T(SYS_mkdir, "pub/sub", 0755);
		T(SYS_rename, "pub/sub", "pub/sub2");
		T(SYS_truncate, "ro", 0);
		T(SYS_mkdir, "sgid/d", 0777);
		pstat("sgid/d", 1);
		T(SYS_open, "sgid/f", O_CREAT | O_WRONLY, 02777);
		T(SYS_close, 3);
		pstat("sgid/f", 1);
		T(SYS_chmod, "sgid/f", 02777);
		pstat("sgid/f", 1);
		T(SYS_chown, "pub/mine", 0, -1);
		T(SYS_chown, "pub/mine", -1, 1000);
		T(SYS_chown, "pub/mine", -1, 0);
		T(SYS_chown, "pub/mine", 1000, 1000);
#ifdef REAL
		exit(0);
	}
	{
		int status;
		wait(&status);
	}
#else
		h_setuid(0, 0);
	}
#endif
	T(SYS_open, "fl", O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY | O_RDWR | O_CLOEXEC | O_SYNC, 0644);
	T(SYS_fcntl, 3, F_GETFL);
	T(SYS_fcntl, 3, F_GETFD);
	T(SYS_close, 3);
	T(SYS_open, ".", O_DIRECTORY | O_NOFOLLOW);
	T(SYS_fcntl, 3, F_GETFL);
	T(SYS_close, 3);
	T(SYS_open, ".", O_PATH | O_RDWR | O_CREAT);
	T(SYS_fcntl, 3, F_GETFL);
	T(SYS_read, 3, buf, 1);
	T(SYS_fstat, 3, &st);
	T(SYS_fchdir, 3);
	T(SYS_getdents64, 3, buf, sizeof buf);
	T(SYS_ioctl, 3, 0x5401, buf);
	T(SYS_lseek, 3, 0, SEEK_SET);
	T(SYS_fchmod, 3, 0755);
	T(SYS_dup, 3);
	T(SYS_close, 4);
	T(SYS_close, 3);
	T(SYS_chdir, "..");
	/* --- ETXTBSY is tested on the kernel side only --- */
	T(SYS_chdir, "..");
	pcwd();
	pipes();
#ifndef REAL
	/* cleanup and leak check */
	(void)a0, (void)p0; /* files stay: the leak test is in ktest.c */
#else
	(void)a0, (void)p0;
#endif
	return 0;
}
