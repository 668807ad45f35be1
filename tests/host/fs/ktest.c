/* Kernel-side tests: things Linux's syscalls cannot show from user space. */
#include "../../../fs/vfs.h"
#include <sched.h>
#include <mm.h>
extern int printf(const char *, ...);
extern long ksys(long, long, long, long, long, long, long);
extern void h_feed(const char *); extern void h_sigclear(void); extern void h_setuid(int, int);
extern long nr_allocs, nr_pages;
#define S(nr, a, b, c) ksys(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define P(what, v) printf("%s = %ld\n", what, (long)(v))

static void leak_loop(void)
{
	char buf[16384];
	memset(buf, 'q', sizeof buf);
	S(83, "/leak", 0755, 0);
	S(80, "/leak", 0, 0);
	long a = nr_allocs, p = nr_pages;
	for (int i = 0; i < 300; i++) {
		S(83, "d", 0755, 0);
		S(83, "d/e", 0755, 0);
		int fd = S(2, "d/e/f", O_CREAT | O_RDWR, 0644);
		S(1, fd, buf, sizeof buf);
		int fd2 = S(32, fd, 0, 0);
		S(8, fd2, 3, 0);
		S(1, fd2, buf, 100);
		S(77, fd, 5000, 0);
		S(3, fd, 0, 0);
		S(88, "e/f", "d/l", 0);
		S(82, "d/e/f", "d/g", 0);
		S(86, "d/g", "d/h", 0);
		S(87, "d/g", 0, 0);
		int dfd = S(2, "d", O_RDONLY, 0);
		S(217, dfd, buf, sizeof buf);
		S(3, dfd, 0, 0);
		S(80, "d/e", 0, 0);
		S(84, "../e", 0, 0);      /* remove the cwd */
		S(80, "/leak", 0, 0);
		S(87, "d/h", 0, 0);
		S(87, "d/l", 0, 0);
		S(84, "d/e", 0, 0);
		S(84, "d", 0, 0);
		S(3, fd2, 0, 0);          /* last close of an unlinked file */
		S(2, "nope/x", O_RDONLY, 0);
		S(3, S(2, "d", O_CREAT | O_EXCL, 0), 0, 0);
		S(87, "d", 0, 0);
	}
	P("leak: allocs delta", nr_allocs - a);
	P("leak: pages delta", nr_pages - p);
	struct files_struct *f = files_dup(current->files);
	struct fs_struct *fs = fs_dup(current->fs);
	files_put(f);
	fs_put(fs);
	P("leak: after files_dup/fs_dup", nr_allocs - a);
}

static void etxtbsy(void)
{
	int fd = S(2, "/leak/exe", O_CREAT | O_WRONLY, 0755);
	S(1, fd, "\177ELF", 4);
	struct file *exe = filp_open("/leak/exe", O_RDONLY | __FMODE_EXEC, 0);
	P("deny while open for write", deny_write_access(exe));
	S(3, fd, 0, 0);
	P("deny", deny_write_access(exe));
	P("open O_WRONLY", S(2, "/leak/exe", O_WRONLY, 0));
	P("open O_RDONLY|O_TRUNC", S(2, "/leak/exe", O_RDONLY | O_TRUNC, 0));
	P("truncate", S(76, "/leak/exe", 0, 0));
	fd = S(2, "/leak/exe", O_RDONLY, 0);
	P("open O_RDONLY", fd);
	S(3, fd, 0, 0);
	char b[8] = { 0 };
	P("kernel_read", kernel_read(exe, b, 8, 0));
	allow_write_access(exe);
	fput(exe);
	fd = S(2, "/leak/exe", O_WRONLY, 0);
	P("open O_WRONLY after", fd);
	S(3, fd, 0, 0);
	S(90, "/leak/exe", 0100, 0);
	exe = filp_open("/leak/exe", O_RDONLY | __FMODE_EXEC, 0);
	P("filp_open exec 0100", IS_ERR(exe) ? PTR_ERR(exe) : 0);
	if (!IS_ERR(exe)) fput(exe);
	h_setuid(1000, 1000);
	exe = filp_open("/leak/exe", O_RDONLY | __FMODE_EXEC, 0);
	P("filp_open exec 0100 as user", IS_ERR(exe) ? PTR_ERR(exe) : 0);
	if (!IS_ERR(exe)) fput(exe);
	exe = filp_open("/leak/exe", O_RDONLY, 0);
	P("filp_open read 0100 as user", IS_ERR(exe) ? PTR_ERR(exe) : 0);
	h_setuid(0, 0);
	S(90, "/leak/exe", 0644, 0);
	struct dentry *d;
	kern_path_at(AT_FDCWD, "/leak/exe", 0, &d);
	P("root MAY_EXEC on 0644", inode_permission(d->d_inode, MAY_EXEC));
	P("root MAY_READ|MAY_WRITE on 0644", inode_permission(d->d_inode, MAY_READ | MAY_WRITE));
	dput(d);
	kern_path_at(AT_FDCWD, "/leak", 0, &d);
	S(90, "/leak", 0600, 0);
	P("root MAY_EXEC on dir 0600", inode_permission(d->d_inode, MAY_EXEC));
	S(90, "/leak", 0755, 0);
	dput(d);
	/* O_PATH */
	fd = S(2, "/leak/exe", O_PATH, 0);
	P("O_PATH open", fd);
	P("O_PATH read", S(0, fd, b, 1));
	{ static char st[144]; P("O_PATH fstat", S(5, fd, st, 0)); }
	P("O_PATH F_GETFL", S(72, fd, 3, 0));
	S(3, fd, 0, 0);
	S(88, "exe", "/leak/lnk", 0);
	fd = S(2, "/leak/lnk", O_PATH | O_NOFOLLOW, 0);
	P("O_PATH|O_NOFOLLOW on symlink", fd);
	S(3, fd, 0, 0);
}

static void tty(void)
{
	char b[64];
	long n;
	P("open /dev/tty without a controlling tty", S(2, "/dev/tty", O_RDWR, 0));
	S(133, "/dev/ttyS0", 020666, (4 << 8) | 64);
	int fd = S(2, "/dev/ttyS0", O_RDWR, 0);
	P("tty open (a session leader: it becomes the controlling tty)", fd);
	int fd2 = S(2, "/dev/tty", O_RDWR, 0);
	P("open /dev/tty", fd2);
	S(3, fd2, 0, 0);
	P("tty write", S(1, fd, "line1\nline2\n", 12));
	P("\ntty lseek", S(8, fd, 0, 0));
	P("tty pread", ksys(17, fd, (long)b, 1, 0, 0, 0));
	h_feed("abc\177d\r");
	n = S(0, fd, b, sizeof b);
	printf("\nread %ld '%.*s'\n", n, (int)n, b);
	h_feed("one\ntwo\n");
	n = S(0, fd, b, 2);
	printf("\nread %ld '%.*s'\n", n, (int)n, b);
	n = S(0, fd, b, sizeof b);
	printf("read %ld '%.*s'\n", n, (int)n, b);
	n = S(0, fd, b, sizeof b);
	printf("read %ld '%.*s'\n", n, (int)n, b);
	h_feed("\004");
	P("read after ^D", S(0, fd, b, sizeof b));
	h_feed("xy\004z\n");
	n = S(0, fd, b, sizeof b);
	printf("\nread %ld '%.*s'\n", n, (int)n, b);
	n = S(0, fd, b, sizeof b);
	printf("read %ld '%.*s'\n", n, (int)n, b);
	h_feed("junk\025ok\027fine\n");
	n = S(0, fd, b, sizeof b);
	printf("\nread %ld '%.*s'\n", n, (int)n, b);
	h_feed("\003partial");
	h_sigclear();
	P("\nread with nothing (sleeps then EINTR)", S(0, fd, b, sizeof b));
	h_sigclear();
	S(72, fd, 4, O_NONBLOCK);
	P("read nonblock", S(0, fd, b, sizeof b));
	S(72, fd, 4, 0);
	unsigned char t[60];
	memset(t, 0xee, sizeof t);
	P("TCGETS", S(16, fd, 0x5401, t));
	printf("termios:");
	for (int i = 0; i < 38; i++) printf(" %02x", t[i]);
	printf("\n");
	t[12] &= ~(0x2 | 0x8); /* ICANON, ECHO off */
	P("TCSETS", S(16, fd, 0x5402, t));
	h_feed("r");
	n = S(0, fd, b, sizeof b);
	printf("raw read %ld '%.*s'\n", n, (int)n, b);
	t[12] |= 0x2 | 0x8;
	S(16, fd, 0x5404, t);
	unsigned short ws[4];
	P("TIOCGWINSZ", S(16, fd, 0x5413, ws));
	printf("winsize %d %d\n", ws[0], ws[1]);
	P("ioctl bad", S(16, fd, 0x1234, 0));
	P("TCGETS efault", S(16, fd, 0x5401, 8));
	int pg = 77;
	P("TIOCSPGRP to a group that does not exist", S(16, fd, 0x5410, &pg));
	pg = 1;
	P("TIOCSPGRP", S(16, fd, 0x5410, &pg));
	pg = 0;
	S(16, fd, 0x540F, &pg);
	P("TIOCGPGRP", pg);
	P("TIOCGSID", (S(16, fd, 0x5429, &pg), pg));
	/* VMIN 0, VTIME 0: a read returns at once, with what is there. */
	t[12] &= ~(0x2 | 0x8);
	t[17 + 6] = 0;
	S(16, fd, 0x5402, t);
	P("raw read with VMIN 0, nothing typed", S(0, fd, b, sizeof b));
	h_feed("q");
	P("raw read with VMIN 0, one byte typed", S(0, fd, b, sizeof b));
	t[17 + 6] = 3;
	S(16, fd, 0x5402, t);
	h_feed("ab");
	n = S(0, fd, b, sizeof b);
	printf("raw read with VMIN 3, two typed (sleeps, then a signal) %ld '%.*s'\n", n, (int)n, b);
	h_sigclear();
	h_feed("cde");
	n = S(0, fd, b, sizeof b);
	printf("raw read with VMIN 3, three typed %ld '%.*s'\n", n, (int)n, b);
	t[12] |= 0x2 | 0x8;
	t[17 + 6] = 1;
	S(16, fd, 0x5402, t);
	h_feed("\034");
	h_feed("\032");
	P("\nTIOCNOTTY (SIGHUP, SIGCONT to the foreground)", S(16, fd, 0x5422, 0));
	P("TIOCGPGRP without a controlling tty", S(16, fd, 0x540F, &pg));
	P("TIOCSCTTY", S(16, fd, 0x540E, 0));
	P("TIOCGPGRP", (S(16, fd, 0x540F, &pg), pg));
	P("F_GETFL", S(72, fd, 3, 0));
	S(3, fd, 0, 0);
	h_sigclear();
}

#define S5(nr, a, b, c, d, e) ksys(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

/* Print a file's text (a /proc file), up to 300 bytes. */
static void cat(const char *path)
{
	char b[301];
	int fd = S(2, path, O_RDONLY, 0);
	long n = fd < 0 ? fd : S(0, fd, b, 300);
	if (fd >= 0)
		S(3, fd, 0, 0);
	if (n < 0) {
		printf("cat %s: %ld\n", path, n);
		return;
	}
	b[n] = 0;
	printf("cat %s:\n%s%s", path, b, n && b[n - 1] != '\n' ? "\n" : "");
}

/* mount, umount2, procfs, pipes: their objects all go away again. */
static void mounts(void)
{
	char b[256];
	int pfd[2];
	S(22, pfd, 0, 0); /* the first pipe makes pipefs, which stays */
	S(3, pfd[0], 0, 0);
	S(3, pfd[1], 0, 0);
	long a = nr_allocs, p = nr_pages;
	for (int round = 0; round < 2; round++) {
		S(83, "/m", 0755, 0);
		P("mount ramfs", S5(165, "none", "/m", "ramfs", 0, 0));
		P("mount ext4", S5(165, "none", "/m", "ext4", 0, 0));
		P("mount no type", S5(165, "none", "/m", 0, 0, 0));
		P("mount on a missing dir", S5(165, "none", "/nodir", "tmpfs", 0, 0));
		S(83, "/m/d", 0755, 0);
		int fd = S(2, "/m/d/f", O_CREAT | O_RDWR, 0644);
		S(1, fd, "data", 4);
		P("mount on a file", S5(165, "none", "/m/d/f", "tmpfs", 0, 0));
		P("umount with a file open", S(166, "/m", 0, 0));
		S(3, fd, 0, 0);
		S(80, "/m/d", 0, 0);
		P("umount with the cwd inside", S(166, "/m", 0, 0));
		S(80, "/", 0, 0);
		P("mount tmpfs on top", S5(165, "t", "/m", "tmpfs", 0, "mode=700,uid=5"));
		P("mount proc on /m/...", S5(165, "proc", "/m", "proc", 0, 0));
		cat("/m/mounts");
		cat("/m/self/comm");
		cat("/m/meminfo");
		P("readlink /m/self", S(89, "/m/self", b, sizeof b));
		P("readlink /m/1/cwd", S(89, "/m/1/cwd", b, sizeof b));
		P("stat /m/2", S(4, "/m/2", b, 0));
		P("umount /m (proc)", S(166, "/m", 0, 0));
		P("umount /m (tmpfs)", S(166, "/m", 0, 0));
		fd = S(2, "/m/d/f", O_RDONLY, 0);
		P("umount -l with a file open", S(166, "/m", 2, 0));
		P("read the file after umount -l", S(0, fd, b, 10));
		S(3, fd, 0, 0);
		P("umount again", S(166, "/m", 0, 0));
		P("umount /", S(166, "/", 0, 0));
		S(22, pfd, 0, 0);
		S(1, pfd[1], b, 100);
		S(3, pfd[0], 0, 0);
		S(3, pfd[1], 0, 0);
		S(84, "/m", 0, 0);
	}
	P("mounts: allocs delta", nr_allocs - a);
	P("mounts: pages delta", nr_pages - p);
}

/* A cpio entry: header, name, data, padding. */
static size_t entry(char *out, size_t off, const char *name, unsigned mode, unsigned ino, unsigned nlink,
		    const char *data, unsigned size, unsigned rmaj, unsigned rmin)
{
	size_t nl = strlen(name) + 1;
	off += snprintf(out + off, 200, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
			ino, mode, 0, 0, nlink, 1700000000, size, 0, 0, rmaj, rmin, (unsigned)nl, 0);
	memcpy(out + off, name, nl);
	off = ALIGN_UP(off + nl, 4);
	memcpy(out + off, data, size);
	off = ALIGN_UP(off + size, 4);
	return off;
}

static void ls(const char *dir);
static void cpio(void)
{
	static char a[8192];
	size_t n = 0;
	memset(a, 0, sizeof a);
	n = entry(a, n, ".", 040700, 1, 2, "", 0, 0, 0);
	n = entry(a, n, "c/deep/file", 0100640, 2, 1, "hello", 5, 0, 0);
	n = entry(a, n, "c/h1", 0100755, 3, 2, "", 0, 0, 0);
	n = entry(a, n, "c/h2", 0100755, 3, 2, "linked", 6, 0, 0);
	n = entry(a, n, "c/sym", 0120777, 4, 1, "deep/file", 9, 0, 0);
	n = entry(a, n, "c/console", 020600, 5, 1, "", 0, 5, 1);
	n = entry(a, n, "c", 040711, 6, 2, "", 0, 0, 0);
	n = entry(a, n, "TRAILER!!!", 0, 0, 1, "", 0, 0, 0);
	P("unpack", unpack_initramfs(a, n + 512));
	ls("/c");
	ls("/c/deep");
	char b[32];
	long r = S(89, "/c/sym", b, 32);
	printf("readlink %ld %.*s\n", r, (int)r, b);
	int fd = S(2, "/c/h1", O_RDONLY, 0);
	r = S(0, fd, b, 32);
	printf("h1: %ld %.*s\n", r, (int)r, b);
	S(3, fd, 0, 0);
	/* malformed */
	long a0 = nr_allocs;
	P("truncated", unpack_initramfs(a, 200));
	P("bad magic", unpack_initramfs("070703xxxxxxxx", 14));
	char bad[200];
	memcpy(bad, a, 200);
	bad[20] = 'z';
	P("bad hex", unpack_initramfs(bad, 200));
	P("short", unpack_initramfs(a, 50));
	P("empty", unpack_initramfs(a, 0));
	P("junk", unpack_initramfs("hello", 5));
	char nn[300];
	memset(nn, 0, sizeof nn);
	memcpy(nn, a, 110);
	memcpy(nn + 94, "FFFFFFFF", 8); /* namesize */
	P("huge namesize", unpack_initramfs(nn, sizeof nn));
	memcpy(nn + 94, "00000002", 8);
	memcpy(nn + 110, "ab", 2);
	P("unterminated name", unpack_initramfs(nn, sizeof nn));
	memcpy(nn + 54, "7FFFFFFF", 8); /* filesize */
	memcpy(nn + 94, "00000002", 8);
	memcpy(nn + 110, "a\0", 2);
	P("huge filesize", unpack_initramfs(nn, sizeof nn));
	P("malformed allocs delta", nr_allocs - a0);
}

extern void *malloc(size_t);
extern long read(int, void *, size_t);
extern int open(const char *, int, ...);
static void real_cpio(const char *path)
{
	static char img[8 << 20];
	int fd = open(path, 0);
	long n = read(fd, img, sizeof img);
	P("\nreal archive bytes", n);
	P("unpack real", unpack_initramfs(img, n));
	ls("/");
	ls("/dev");
	struct dentry *d;
	if (!kern_path_at(AT_FDCWD, "/init", 0, &d)) {
		struct kstat k;
		generic_fillattr(d->d_inode, &k);
		printf("/init mode %o size %ld mtime %ld\n", k.mode, (long)k.size, (long)k.mtime.tv_sec);
		dput(d);
	}
	if (!kern_path_at(AT_FDCWD, "/", 0, &d)) {
		printf("/ mode %o mtime %ld\n", d->d_inode->i_mode, (long)d->d_inode->i_mtime.tv_sec);
		dput(d);
	}
	struct file *f = open_console();
	P("open_console", IS_ERR(f) ? PTR_ERR(f) : 0);
	if (!IS_ERR(f)) fput(f);
}

static void ls(const char *dir)
{
	char buf[4096];
	int fd = S(2, dir, O_RDONLY | O_DIRECTORY, 0);
	long r;
	printf("ls %s:", dir);
	while ((r = S(217, fd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < r;) {
			struct { uint64_t ino; int64_t off; uint16_t reclen; uint8_t type; char name[]; } __packed *de = (void *)(buf + off);
			char p[300];
			struct dentry *d;
			snprintf(p, sizeof p, "%s/%s", dir, de->name);
			if (!kern_path_at(AT_FDCWD, p, 0, &d)) {
				struct inode *i = d->d_inode;
				printf(" %s[%o %u %ld %d:%d %d:%d]", de->name, i->i_mode, i->i_nlink, (long)i->i_size,
				       i->i_uid, i->i_gid, MAJOR(i->i_rdev), MINOR(i->i_rdev));
				dput(d);
			}
			off += de->reclen;
		}
	}
	printf("\n");
	S(3, fd, 0, 0);
}

/* "k": the kernel-side tests; "k ARCHIVE": unpack ARCHIVE and list it. */
void h_ktests(const char *cpio_path)
{
	if (cpio_path) {
		real_cpio(cpio_path);
		return;
	}
	leak_loop();
	etxtbsy();
	tty();
	mounts();
	cpio();
}
