/*
 * sparse_file - a file of the in-memory filesystem written one byte a
 * terabyte in: it costs one page, not a table a slot per page; reading,
 * mapping, punching a hole over the terabyte and truncating touch only
 * the pages there are (tmpfs on Linux, ramfs here: both keep a file's
 * pages in a sparse tree).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#define TB (1LL << 40)

static long free_kib(void)
{
	struct sysinfo si;

	sysinfo(&si);
	return (long)(si.freeram * si.mem_unit / 1024);
}

static void show(const char *what, long ret)
{
	if (ret < 0)
		printf("%s: %s\n", what, strerror(errno));
	else
		printf("%s: %ld\n", what, ret);
}

static void mapped_write(int fd)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, TB);

	if (p == MAP_FAILED) {
		printf("mmap at 1 TiB: %s\n", strerror(errno));
		return;
	}
	printf("mapped byte: %c\n", p[0]);
	p[1] = 'y';
	munmap(p, 4096);
}

/* Many files with a page far out, each truncated away: what the pages
 * and the tree's nodes took must come back (sparse_file_leak; Linux's
 * free-page count moves on its own, its caches refill lazily). */
static int churn(void)
{
	long before = free_kib();

	for (int i = 1; i <= 200; i++) {
		int fd = open("/tmp/sparse2", O_CREAT | O_RDWR | O_TRUNC, 0600);
		off_t off = ((off_t)i * 7919 % 4096) * (TB / 4096) * 31 + i * 4096;

		if (pwrite(fd, "z", 1, off) != 1)
			printf("pwrite %d: %s\n", i, strerror(errno));
		ftruncate(fd, 0);
		close(fd);
	}
	unlink("/tmp/sparse2");
	long lost = before - free_kib();
	printf("200 sparse files written and truncated: %s\n",
	       lost < 64 ? "no memory kept" : "memory kept");
	return 0;
}

int main(int argc, char **argv)
{
	struct stat st;
	char c[2] = { 0 };
	if (argc > 1 && !strcmp(argv[1], "leak"))
		return churn();
	int fd = open("/tmp/sparse", O_CREAT | O_RDWR | O_TRUNC, 0600);

	show("pwrite at 1 TiB", pwrite(fd, "x", 1, TB));
	fstat(fd, &st);
	printf("size: %lld, blocks: %lld\n", (long long)st.st_size, (long long)st.st_blocks);
	show("pread at 1 TiB", pread(fd, c, 1, TB));
	printf("byte: %c\n", c[0]);
	show("pread at 512 GiB", pread(fd, c, 2, TB / 2));
	printf("bytes: %d %d\n", c[0], c[1]);
	mapped_write(fd);
	show("pread after the mapped write", pread(fd, c, 2, TB));
	printf("bytes: %c %d\n", c[0], c[1]);
	show("punch a hole over the terabyte",
	     fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, TB + 4096));
	fstat(fd, &st);
	printf("size: %lld, blocks: %lld\n", (long long)st.st_size, (long long)st.st_blocks);
	show("pread in the hole", pread(fd, c, 2, TB));
	printf("bytes: %d %d\n", c[0], c[1]);
	show("ftruncate to 0", ftruncate(fd, 0));
	close(fd);
	unlink("/tmp/sparse");
	return 0;
}
