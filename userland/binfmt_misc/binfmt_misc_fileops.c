/*
 * binfmt_misc_fileops - every other system call on binfmt_misc's files
 * and on its mount, against Linux 6.1 (test binfmt_misc_fileops; bm_setup
 * mounts the filesystem first):
 *
 *   1. mount(2)'s data: binfmt_misc has no options, so only the words any
 *      filesystem takes (ro, rw, sync, ...) pass, "ro" making a new super
 *      block read-only, and "source=" names a mount given no source;
 *   2. what the files allow besides read and write: seek (SEEK_DATA and
 *      SEEK_HOLE too), truncate (it sets the size stat shows), no mmap,
 *      no fsync, no rename, link, symlink, mknod or rmdir, access(2),
 *      getdents' offsets.
 */
#include "bm_common.h"
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

#define M "/tmp/m"

/* The call's result and errno's name. */
#define SHOW(what, expr)                                                                      \
	do {                                                                                  \
		long r_;                                                                      \
		errno = 0;                                                                    \
		r_ = (long)(expr);                                                            \
		printf("%-36s %ld %s\n", what, r_, r_ < 0 ? errname(errno) : "ok");          \
	} while (0)

static void step(const char *what)
{
	printf("--- %s\n", what);
}

/* Mount binfmt_misc on M with data, say what happened, unmount. */
static void try_data(const char *source, const char *data)
{
	char label[80];

	snprintf(label, sizeof(label), "data '%s'%s", data, source ? "" : ", no source");
	SHOW(label, mount(source, M, "binfmt_misc", 0, data));
	umount(M);
}

static void mount_data(void)
{
	step("mount data: only what every filesystem takes");
	mkdir(M, 0755);
	try_data("binfmt_misc", "");
	try_data("binfmt_misc", ",");
	try_data("binfmt_misc", "rw,sync,dirsync,lazytime,mand,async,nomand,nolazytime");
	try_data("binfmt_misc", "ro,");
	try_data("binfmt_misc", "ro=1");
	try_data("binfmt_misc", "foo");
	try_data("binfmt_misc", "a=b");
	try_data("binfmt_misc", "noexec");
	try_data("binfmt_misc", "silent");
	try_data("binfmt_misc", "RO");
	try_data("binfmt_misc", "source");
	try_data("binfmt_misc", "source=x");
	SHOW("data 'source=x', no source", mount(NULL, M, "binfmt_misc", 0, "source=x"));
	bm_show_mounts();
	umount(M);

	step("mount data ro: the super block there is stays rw");
	SHOW("data 'ro'", mount("binfmt_misc", M, "binfmt_misc", 0, "ro"));
	bm_show_mounts();
	printf("register through %s: %s\n", M, errname(bm_write("../../../.." M "/register", ":y:E::yy::/x:")));
	umount(M);
	bm_clear();

	step("mount data ro: a new super block is read-only");
	umount(BM_DIR);
	SHOW("data 'ro'", mount("binfmt_misc", BM_DIR, "binfmt_misc", 0, "ro"));
	bm_show_mounts();
	printf("register: %s\n", errname(bm_write("register", ":y:E::yy::/x:")));
	umount(BM_DIR);
	mount("binfmt_misc", BM_DIR, "binfmt_misc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
}

static void seek_truncate(void)
{
	struct stat st;
	void *p;
	int fd;

	step("an entry's file: mmap, fsync, seek, truncate");
	bm_register(":x:M::BMTX::/usr/lib/exec-tests/bm_interp:");
	fd = open(BM_DIR "/x", O_RDWR);
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	printf("mmap: %s\n", p == MAP_FAILED ? errname(errno) : "ok");
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	printf("mmap shared: %s\n", p == MAP_FAILED ? errname(errno) : "ok");
	SHOW("fsync", fsync(fd));
	SHOW("fdatasync", fdatasync(fd));
	SHOW("lseek 0 SEEK_DATA", lseek(fd, 0, SEEK_DATA));
	SHOW("lseek 0 SEEK_HOLE", lseek(fd, 0, SEEK_HOLE));
	SHOW("lseek -1 SEEK_DATA", lseek(fd, -1, SEEK_DATA));
	SHOW("ftruncate 10", ftruncate(fd, 10));
	fstat(fd, &st);
	printf("size %lld\n", (long long)st.st_size);
	SHOW("lseek 5 SEEK_DATA", lseek(fd, 5, SEEK_DATA));
	SHOW("lseek 5 SEEK_HOLE", lseek(fd, 5, SEEK_HOLE));
	SHOW("lseek 10 SEEK_DATA", lseek(fd, 10, SEEK_DATA));
	SHOW("lseek 0 SEEK_END", lseek(fd, 0, SEEK_END));
	SHOW("ftruncate 0", ftruncate(fd, 0));
	SHOW("pwrite '0' at 5", pwrite(fd, "0", 1, 5));
	bm_show("x");
	SHOW("lseek 100, write '1'", (lseek(fd, 100, SEEK_SET), write(fd, "1", 1)));
	SHOW("read at 100", read(fd, (char[300]){ 0 }, 300));
	close(fd);

	step("the fixed files and the directory");
	fd = open(BM_DIR "/register", O_WRONLY);
	SHOW("register: lseek 0 SEEK_DATA", lseek(fd, 0, SEEK_DATA));
	SHOW("register: fsync", fsync(fd));
	close(fd);
	fd = open(BM_DIR, O_RDONLY | O_DIRECTORY);
	SHOW("directory: fsync", fsync(fd));
	SHOW("directory: lseek 0 SEEK_DATA", lseek(fd, 0, SEEK_DATA));
	{
		char d[4096];
		long n = syscall(SYS_getdents64, fd, d, sizeof(d));

		printf("getdents64: %ld\n", n);
		for (long o = 0; o < n; o += *(unsigned short *)(d + o + 16))
			printf("  %s off %lld type %d\n", d + o + 19, *(long long *)(d + o + 8), d[o + 18]);
	}
	close(fd);
	SHOW("truncate status", truncate(BM_DIR "/status", 0));
	SHOW("truncate register", truncate(BM_DIR "/register", 0));
	fd = open(BM_DIR "/register", O_WRONLY | O_TRUNC);
	printf("open register O_TRUNC: %s\n", fd < 0 ? errname(errno) : "ok");
	close(fd);
	fd = open(BM_DIR "/register", O_WRONLY | O_APPEND);
	printf("open register O_APPEND: %s\n", fd < 0 ? errname(errno) : "ok");
	close(fd);
	SHOW("open the directory O_RDWR", open(BM_DIR, O_RDWR));
	SHOW("chmod the directory 0700", chmod(BM_DIR, 0700));
	stat(BM_DIR, &st);
	printf("its mode %o, size %lld, blocks %lld\n", st.st_mode, (long long)st.st_size,
	       (long long)st.st_blocks);
	chmod(BM_DIR, 0755);
}

static void names(void)
{
	step("names: nothing but register can make or change one");
	SHOW("rename x y", rename(BM_DIR "/x", BM_DIR "/y"));
	SHOW("rename status x", rename(BM_DIR "/status", BM_DIR "/x"));
	SHOW("link x z", link(BM_DIR "/x", BM_DIR "/z"));
	SHOW("link x /tmp/z", link(BM_DIR "/x", "/tmp/z"));
	SHOW("symlink", symlink("x", BM_DIR "/s"));
	SHOW("mknod", mknod(BM_DIR "/n", S_IFIFO | 0644, 0));
	SHOW("rmdir x", rmdir(BM_DIR "/x"));
	SHOW("setxattr", setxattr(BM_DIR "/x", "user.a", "b", 1, 0));
	SHOW("access register W_OK", access(BM_DIR "/register", W_OK));
	SHOW("access register R_OK", access(BM_DIR "/register", R_OK));
	SHOW("access register X_OK", access(BM_DIR "/register", X_OK));
	SHOW("access status X_OK", access(BM_DIR "/status", X_OK));
	bm_list();
	bm_clear();
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	mount_data();
	seek_truncate();
	names();
	return 0;
}
