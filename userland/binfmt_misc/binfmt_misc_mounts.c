/*
 * binfmt_misc_mounts - the binfmt_misc filesystem mounted more than once,
 * and its life from mount to umount, against Linux 6.1 (test
 * binfmt_misc_mounts; bm_setup mounts it on /proc/sys/fs/binfmt_misc
 * first, nosuid,nodev,noexec, as Debian does).
 *
 * Linux has one super block for all of binfmt_misc's mounts (its mount
 * is get_tree_single): every mount shows the same device and inodes, a
 * chmod made through one is seen through the others, and the super block,
 * with every entry, lives as long as a mount does. Each mount is still a
 * mount of its own: its options (noexec, ro), its line in /proc/mounts,
 * and umount's EBUSY while something is open or in use through it.
 */
#include "bm_common.h"
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/statfs.h>
#include <time.h>

#define BM2 "/tmp/bm2"
#define NOSUID_NODEV_NOEXEC (MS_NOSUID | MS_NODEV | MS_NOEXEC)

static void step(const char *what)
{
	printf("--- %s\n", what);
}

static struct stat st_of(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		printf("stat %s: %s\n", path, errname(errno));
		memset(&st, 0, sizeof(st));
	}
	return st;
}

/* Do two paths name the same file (device and inode)? */
static void same_file(const char *a, const char *b)
{
	struct stat sa = st_of(a), sb = st_of(b);

	printf("%s and %s: %s device, %s inode\n", a, b, sa.st_dev == sb.st_dev ? "same" : "other",
	       sa.st_ino == sb.st_ino ? "same" : "other");
}

static void statfs_flags(const char *path)
{
	struct statfs sfs;

	if (statfs(path, &sfs) < 0)
		printf("statfs %s: %s\n", path, errname(errno));
	else
		printf("statfs %s: type 0x%lx flags 0x%lx\n", path, (unsigned long)sfs.f_type,
		       (unsigned long)sfs.f_flags);
}

/* One write of s to path: 0 or errno. */
static int write_path(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

static void do_mount(const char *where, unsigned long flags)
{
	mkdir(where, 0755);
	if (mount("binfmt_misc", where, "binfmt_misc", flags, NULL) < 0)
		printf("mount %s: %s\n", where, errname(errno));
}

static void do_umount(const char *where, int flags)
{
	printf("umount%s %s: %s\n", flags & MNT_DETACH ? " -l" : "", where,
	       umount2(where, flags) < 0 ? errname(errno) : "ok");
}

static void two_mounts(void)
{
	struct stat before;

	step("a second mount: the same super block");
	do_mount(BM2, 0);
	same_file(BM_DIR, BM2);
	same_file(BM_DIR "/status", BM2 "/status");
	same_file(BM_DIR "/register", BM2 "/register");
	printf("register through %s: %s\n", BM2, errname(write_path(BM2 "/register", ":two:M::BMT2::/usr/lib/exec-tests/bm_interp:")));
	bm_list();
	same_file(BM_DIR "/two", BM2 "/two");
	bm_show_mounts();
	printf("mount it on its own root: %s\n",
	       mount("binfmt_misc", BM2, "binfmt_misc", 0, NULL) < 0 ? errname(errno) : "ok");

	step("the inodes stay: chmod, times");
	before = st_of(BM_DIR "/two");
	nanosleep(&(struct timespec){ 0, 100 * 1000 * 1000 }, NULL);
	printf("stat again: %s times\n",
	       st_of(BM2 "/two").st_ctim.tv_nsec == before.st_ctim.tv_nsec ? "same" : "other");
	if (chmod(BM2 "/two", 0755) < 0)
		printf("chmod: %s\n", errname(errno));
	printf("mode through the other mount: %o\n", st_of(BM_DIR "/two").st_mode & 07777);

	step("each mount has its own options: noexec");
	statfs_flags(BM_DIR);
	statfs_flags(BM2);
	run(BM_DIR "/two", (char *const[]){ "two", NULL });
	printf("(an exec reads a binfmt_misc file with kernel_read, which refuses it)\n");
	run(BM2 "/two", (char *const[]){ "two", NULL });
	chmod(BM2 "/two", 0644);

	step("each mount has its own options: ro");
	do_umount(BM2, 0);
	do_mount(BM2, MS_RDONLY);
	bm_show_mounts();
	printf("register through %s: %s\n", BM2, errname(write_path(BM2 "/register", ":r:E::rr::/bin/x:")));
	printf("register through %s: %s\n", BM_DIR, errname(write_path(BM_DIR "/register", ":r:E::rr::/bin/x:")));
	printf("write 0 to %s/r: %s\n", BM2, errname(write_path(BM2 "/r", "0")));
	printf("remount %s rw: %s\n", BM2,
	       mount(NULL, BM2, NULL, MS_REMOUNT, NULL) < 0 ? errname(errno) : "ok");
	printf("remount %s ro: %s (the super block too)\n", BM2,
	       mount(NULL, BM2, NULL, MS_REMOUNT | MS_RDONLY, NULL) < 0 ? errname(errno) : "ok");
	bm_show_mounts();
	printf("register through %s: %s\n", BM_DIR, errname(write_path(BM_DIR "/register", ":s:E::ss::/bin/x:")));
	printf("remount %s rw: %s\n", BM2,
	       mount(NULL, BM2, NULL, MS_REMOUNT, NULL) < 0 ? errname(errno) : "ok");
	bm_show_mounts();
	bm_write("r", "-1");
}

static void busy(void)
{
	int fd;

	step("a file open through one mount keeps that mount busy");
	fd = open(BM2 "/two", O_RDONLY);
	do_umount(BM2, 0);
	do_umount(BM_DIR, 0);
	do_mount(BM_DIR, NOSUID_NODEV_NOEXEC);
	close(fd);
	fd = open(BM2 "/status", O_RDONLY);
	do_umount(BM2, 0);
	close(fd);
	if (chdir(BM2) == 0) {
		printf("cwd in %s: ", BM2);
		do_umount(BM2, 0);
		chdir("/");
	}
	do_umount(BM2, 0);
	do_mount(BM2, 0);
	do_umount(BM2, MNT_DETACH);
	bm_show_mounts();
}

static void removed_entry(void)
{
	struct stat st;
	int fd;

	step("a removed entry's open file");
	fd = open(BM_DIR "/two", O_RDWR);
	printf("two <- -1: %s\n", errname(bm_write("two", "-1")));
	fstat(fd, &st);
	printf("its links: %lu\n", (unsigned long)st.st_nlink);
	{
		char link[64], target[128];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		printf("its name: %s\n", target);
	}
	bm_register(":two:M::BMT2::/usr/lib/exec-tests/bm_interp:");
	printf("write 0, then -1 to the old file: %zd %zd\n", write(fd, "0", 1), write(fd, "-1", 2));
	printf("the new two: ");
	bm_list();
	bm_show("two");
	close(fd);
}

static void kernel_io(void)
{
	int in, out;

	step("the kernel's own reads and writes are refused: sendfile");
	in = open(BM_DIR "/status", O_RDONLY);
	out = open("/dev/null", O_WRONLY);
	printf("from status: %s\n", sendfile(out, in, NULL, 8) < 0 ? errname(errno) : "ok");
	close(in);
	close(out);
	put_file("/tmp/cmd", "0", 1, 0644);
	in = open("/tmp/cmd", O_RDONLY);
	out = open(BM_DIR "/two", O_WRONLY);
	printf("to an entry: %s\n", sendfile(out, in, NULL, 1) < 0 ? errname(errno) : "ok");
	close(in);
	close(out);
	bm_show("two");
}

static void lifetime(void)
{
	struct stat before, after;
	int fd;

	step("the last umount takes the entries with it");
	copy_file("/usr/lib/exec-tests/bm_interp", "/tmp/fixed", 0755);
	bm_register(":fixed:M::BMT3::/tmp/fixed:F");
	bm_write("status", "0");
	bm_list();
	fd = open("/tmp/fixed", O_WRONLY);
	printf("open the F interpreter for writing: %s\n", fd < 0 ? errname(errno) : "ok");
	before = st_of(BM_DIR);
	do_umount(BM_DIR, 0);
	printf("%s is procfs's empty directory again: %s\n", BM_DIR,
	       st_of(BM_DIR).st_dev == before.st_dev ? "no" : "yes");
	printf("create a file in it: %s\n",
	       open(BM_DIR "/register", O_WRONLY | O_CREAT, 0644) < 0 ? errname(errno) : "ok");
	printf("mkdir in it: %s\n", mkdir(BM_DIR "/d", 0755) < 0 ? errname(errno) : "ok");
	fd = open("/tmp/fixed", O_WRONLY);
	printf("open the F interpreter for writing: %s\n", fd < 0 ? errname(errno) : "ok");
	if (fd >= 0)
		close(fd);
	do_mount(BM_DIR, NOSUID_NODEV_NOEXEC);
	after = st_of(BM_DIR);
	printf("mounted again: %s device (the number is free again)\n",
	       before.st_dev == after.st_dev ? "same" : "another");
	bm_list();
	printf("status:\n");
	bm_show("status");
	bm_write("status", "1");
	bm_show_mounts();
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	two_mounts();
	busy();
	removed_entry();
	kernel_io();
	lifetime();
	return 0;
}
