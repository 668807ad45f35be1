/*
 * cowtest - fork's copy-on-write seen from user space, and the memory calls
 * that must keep working on shared pages: each check prints one line, "ok"
 * or what went wrong, so the output is the same on Linux and on our kernel.
 *
 *  - after fork, parent and child each see only their own writes, whether
 *    made by the CPU or by the kernel on their behalf (read() into a
 *    buffer, clock_gettime), in a grandchild too;
 *  - CLONE_CHILD_SETTID writes the child's tid into the child's copy only;
 *  - munmap, mprotect, brk and madvise(MADV_DONTNEED) in one process leave
 *    the other's pages alone;
 *  - mremap grows, shrinks and moves a mapping with its contents, and
 *    realloc of a large block (which uses mremap in musl and glibc) keeps
 *    its bytes; madvise and mremap give Linux's errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define NPAGES 64

static int failures;

/* Is the page at addr mapped? (madvise says ENOMEM for a hole.) */
static int mapped(void *addr)
{
	return madvise(addr, PAGE, MADV_NORMAL) == 0;
}

static void check(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	if (!ok)
		failures++;
}

/* Every page of buf (npages pages) starts with its index + seed. */
static void fill(unsigned char *buf, int npages, int seed)
{
	for (int i = 0; i < npages; i++)
		memset(buf + i * PAGE, (unsigned char)(i + seed), PAGE);
}

static int holds(const unsigned char *buf, int npages, int seed)
{
	for (int i = 0; i < npages; i++)
		for (int j = 0; j < PAGE; j += 512)
			if (buf[i * PAGE + j] != (unsigned char)(i + seed))
				return 0;
	return 1;
}

/* Run fn in a child; the child's exit status (0 = its checks passed). */
static int in_child(int (*fn)(void *), void *arg)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int r = fn(arg);
		fflush(stdout);
		_exit(r);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static unsigned char *heap; /* NPAGES pages of malloc'd memory, seed 1 */

static int child_writes(void *arg)
{
	(void)arg;
	if (!holds(heap, NPAGES, 1))
		return 1;
	fill(heap, NPAGES, 50); /* every page copied now */
	return holds(heap, NPAGES, 50) ? 0 : 2;
}

static int grandchild(void *arg)
{
	(void)arg;
	if (!holds(heap, NPAGES, 7))
		return 1;
	fill(heap, NPAGES / 2, 9);
	return 0;
}

static int child_forks(void *arg)
{
	(void)arg;
	fill(heap, NPAGES, 7);
	if (in_child(grandchild, NULL) != 0)
		return 1;
	return holds(heap, NPAGES, 7) ? 0 : 2;
}

/* The kernel writes into a shared page: read() from a pipe and
 * clock_gettime, in the child. */
static int pipe_fd;
static int child_kernel_writes(void *arg)
{
	(void)arg;
	if (read(pipe_fd, heap + 5 * PAGE + 100, 6) != 6)
		return 1;
	struct timespec *ts = (struct timespec *)(heap + 9 * PAGE);
	if (clock_gettime(CLOCK_MONOTONIC, ts) != 0)
		return 2;
	if (memcmp(heap + 5 * PAGE + 100, "child", 6) != 0)
		return 3;
	return ts->tv_sec == 0x0909090909090909 ? 4 : 0;
}

static int child_unmaps(void *arg)
{
	unsigned char *map = arg;
	if (munmap(map + PAGE, 2 * PAGE) != 0)
		return 1;
	if (mprotect(map + 4 * PAGE, PAGE, PROT_READ) != 0)
		return 2;
	if (madvise(map + 5 * PAGE, 2 * PAGE, MADV_DONTNEED) != 0)
		return 3;
	if (map[5 * PAGE] != 0 || map[6 * PAGE + 7] != 0)
		return 4;
	if (mprotect(map + 4 * PAGE, PAGE, PROT_READ | PROT_WRITE) != 0)
		return 5;
	map[4 * PAGE] = 0xee;
	return 0;
}

static pid_t settid_word;

static void test_settid(void)
{
	fflush(stdout);
	long pid = syscall(SYS_clone, CLONE_CHILD_SETTID | SIGCHLD, 0, NULL, &settid_word, 0);
	if (pid == 0)
		syscall(SYS_exit, settid_word == (pid_t)syscall(SYS_gettid) ? 0 : 1);
	int status = -1;
	waitpid(pid, &status, 0);
	check("CLONE_CHILD_SETTID writes the child's copy", pid > 0 && status == 0);
	check("CLONE_CHILD_SETTID leaves the parent's word", settid_word == 0);
}

static void test_fork(void)
{
	heap = malloc(NPAGES * PAGE);
	fill(heap, NPAGES, 1);
	check("child writes every page", in_child(child_writes, NULL) == 0);
	check("parent keeps its pages", holds(heap, NPAGES, 1));

	/* The parent writes while a child still shares the pages. */
	int p[2];
	if (pipe(p) != 0)
		return;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		read(p[0], &c, 1); /* wait until the parent has written */
		_exit(holds(heap, NPAGES, 1) ? 0 : 1);
	}
	fill(heap, NPAGES, 3);
	write(p[1], "x", 1);
	int status = -1;
	waitpid(pid, &status, 0);
	check("child keeps its pages while the parent writes", status == 0);
	check("parent sees its writes", holds(heap, NPAGES, 3));

	fill(heap, NPAGES, 1);
	check("grandchild and child see their own writes", in_child(child_forks, NULL) == 0);
	check("parent unchanged by child and grandchild", holds(heap, NPAGES, 1));

	memset(heap + 9 * PAGE, 9, PAGE);
	write(p[1], "child", 6);
	pipe_fd = p[0];
	check("read() and clock_gettime write the child's copy",
	      in_child(child_kernel_writes, NULL) == 0);
	check("parent's buffer unchanged", holds(heap, 5, 1) && heap[5 * PAGE + 100] == 6 &&
	      heap[9 * PAGE] == 9 && heap[9 * PAGE + 4095] == 9);
	/* The parent's own read() into a page the child had shared. */
	write(p[1], "parent", 7);
	check("read() into the parent's page",
	      read(p[0], heap + 5 * PAGE + 100, 7) == 7 && !strcmp((char *)heap + 5 * PAGE + 100, "parent"));
	close(p[0]);
	close(p[1]);
	free(heap);
}

static void test_unmap_protect(void)
{
	unsigned char *map = mmap(NULL, 8 * PAGE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fill(map, 8, 20);
	check("munmap, mprotect, MADV_DONTNEED in the child", in_child(child_unmaps, map) == 0);
	check("the parent's pages stay", holds(map, 8, 20));
	/* PROT_NONE across fork, then writable again. */
	mprotect(map, 8 * PAGE, PROT_NONE);
	pid_t pid = fork();
	if (pid == 0) {
		mprotect(map, 8 * PAGE, PROT_READ | PROT_WRITE);
		_exit(holds(map, 8, 20) ? (fill(map, 8, 30), 0) : 1);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	mprotect(map, 8 * PAGE, PROT_READ | PROT_WRITE);
	check("PROT_NONE pages shared, then written in the child", status == 0 && holds(map, 8, 20));
	munmap(map, 8 * PAGE);

	/* brk: the child shrinks and regrows the heap. */
	char *top = (char *)(((unsigned long)sbrk(0) + PAGE - 1) & -PAGE);
	int brk_ok = syscall(SYS_brk, top + 4 * PAGE) == (long)(top + 4 * PAGE);
	if (brk_ok) {
		memset(top, 0x42, 4 * PAGE);
		pid = fork();
		if (pid == 0) {
			syscall(SYS_brk, top);
			syscall(SYS_brk, top + 4 * PAGE);
			_exit(top[0] == 0 && top[4 * PAGE - 1] == 0 ? 0 : 1);
		}
		waitpid(pid, &status, 0);
		brk_ok = status == 0 && top[0] == 0x42 && top[4 * PAGE - 1] == 0x42;
		syscall(SYS_brk, top);
	}
	check("brk shrunk and regrown in the child gives zeros there only", brk_ok);
}

static void test_mremap(void)
{
	unsigned char *a = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* Block growth in place: a page right above (unless something is
	 * there already). */
	void *above = mmap(a + 4 * PAGE, PAGE, PROT_READ,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	int blocked = above == a + 4 * PAGE || (above == MAP_FAILED && errno == EEXIST);
	fill(a, 4, 60);
	errno = 0;
	check("mremap without MAYMOVE: ENOMEM",
	      blocked && mremap(a, 4 * PAGE, 8 * PAGE, 0) == MAP_FAILED && errno == ENOMEM);
	unsigned char *b = mremap(a, 4 * PAGE, 16 * PAGE, MREMAP_MAYMOVE);
	check("mremap MAYMOVE moves the pages", b != MAP_FAILED && b != a && holds(b, 4, 60));
	check("the grown part is zero", b[4 * PAGE] == 0 && b[16 * PAGE - 1] == 0);
	check("the old range is unmapped", !mapped(a));
	fill(b, 16, 70);
	unsigned char *c = mremap(b, 16 * PAGE, 2 * PAGE, 0);
	check("mremap shrinks in place", c == b && holds(c, 2, 70));
	check("the cut tail is unmapped", !mapped(b + 2 * PAGE) && !mapped(b + 15 * PAGE));
	errno = 0;
	check("mremap of an unaligned address: EINVAL",
	      mremap(c + 1, PAGE, 2 * PAGE, MREMAP_MAYMOVE) == MAP_FAILED && errno == EINVAL);
	errno = 0;
	check("mremap of an unmapped address: EFAULT",
	      mremap(a, PAGE, 2 * PAGE, MREMAP_MAYMOVE) == MAP_FAILED && errno == EFAULT);
	errno = 0;
	check("mremap past the end of the mapping: EFAULT",
	      mremap(c, 3 * PAGE, 4 * PAGE, MREMAP_MAYMOVE) == MAP_FAILED && errno == EFAULT);
	errno = 0;
	check("mremap with unknown flags: EINVAL",
	      mremap(c, PAGE, 2 * PAGE, 0x100) == MAP_FAILED && errno == EINVAL);
	/* MREMAP_FIXED to where a was, over a new mapping there. */
	void *target = mmap(a, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	unsigned char *d = mremap(c, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, a);
	check("mremap FIXED replaces the target", target == a && d == a && holds(d, 2, 70));
	check("and unmaps the source", !mapped(c));

	/* Shared pages move with their sharing intact. */
	pid_t pid = fork();
	if (pid == 0) {
		unsigned char *e = mremap(d, 2 * PAGE, 32 * PAGE, MREMAP_MAYMOVE);
		if (e == MAP_FAILED || !holds(e, 2, 70))
			_exit(1);
		fill(e, 32, 80);
		_exit(0);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	check("mremap of shared pages in the child", status == 0 && holds(d, 2, 70));
	munmap(d, 2 * PAGE);

	/* realloc of a large block: musl and glibc use mremap for it. */
	unsigned char *r = malloc(64 * PAGE);
	fill(r, 64, 90);
	r = realloc(r, 1024 * PAGE);
	check("realloc to 4 MiB keeps the bytes", r && holds(r, 64, 90));
	fill(r, 1024, 91);
	r = realloc(r, 16 * PAGE);
	check("realloc down keeps the bytes", r && holds(r, 16, 91));
	free(r);
}

static void test_madvise(void)
{
	unsigned char *m = mmap(NULL, 5 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(m + 4 * PAGE, PAGE); /* a hole right after */
	fill(m, 4, 100);
	check("MADV_DONTNEED", madvise(m + PAGE, 2 * PAGE, MADV_DONTNEED) == 0);
	check("the pages read back as zero", m[PAGE] == 0 && m[3 * PAGE - 1] == 0);
	check("the others stay", m[0] == 100 && m[3 * PAGE] == 103);
	check("MADV_WILLNEED, MADV_NORMAL, MADV_DONTFORK: 0",
	      madvise(m, 4 * PAGE, MADV_WILLNEED) == 0 && madvise(m, 4 * PAGE, MADV_NORMAL) == 0 &&
	      madvise(m, PAGE, MADV_DONTFORK) == 0 && madvise(m, PAGE, MADV_DOFORK) == 0);
	errno = 0;
	check("madvise of an unaligned address: EINVAL",
	      madvise(m + 1, PAGE, MADV_DONTNEED) == -1 && errno == EINVAL);
	errno = 0;
	check("madvise with unknown advice: EINVAL", madvise(m, PAGE, 77) == -1 && errno == EINVAL);
	errno = 0;
	check("madvise over a hole: ENOMEM, after acting",
	      madvise(m + 3 * PAGE, 2 * PAGE, MADV_DONTNEED) == -1 && errno == ENOMEM && m[3 * PAGE] == 0);
	check("madvise of length 0: 0", madvise(m, 0, MADV_DONTNEED) == 0);
	errno = 0;
	check("MADV_REMOVE on private memory: EINVAL",
	      madvise(m, PAGE, MADV_REMOVE) == -1 && errno == EINVAL);
	munmap(m, 4 * PAGE);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_fork();
	test_settid();
	test_unmap_protect();
	test_mremap();
	test_madvise();
	printf("cowtest: %s\n", failures ? "FAILED" : "all ok");
	return failures != 0;
}
