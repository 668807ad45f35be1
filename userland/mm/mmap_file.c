/*
 * mmap_file - mmap of a regular file: what a program sees through a private
 * or read-only shared mapping, where the file ends (zeros to the end of the
 * last page, SIGBUS past it), file offsets through munmap, mremap, fork and
 * MADV_DONTNEED, and the errors (EINVAL, EBADF, EACCES, ENODEV, EOVERFLOW).
 *
 * Only what this kernel does exactly as Linux is checked: not a shared
 * writable mapping (Linux writes it back to the file; this kernel refuses
 * it), nor a page already touched when the file is truncated.
 * The error cases call the system call directly, so that the C library's
 * own checks do not answer first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096
#define FILE_SIZE (3 * PAGE + 100) /* the last page is partly the file's */

static const char *path = "/tmp/mmap_file.dat";
static char data[FILE_SIZE];

static void check(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
}

/* The raw system call: -errno on failure. */
static long raw_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);
	return r == -1 ? -errno : r;
}

static void check_errno(const char *what, long r, int want)
{
	printf("%s: %s\n", what, r == -want ? "ok" : r < 0 ? strerror(-r) : "mapped");
}

/* Do len bytes at p show the file from offset pos (zeros past its end)? */
static int shows_file(const char *p, size_t len, size_t pos)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != (pos + i < FILE_SIZE ? data[pos + i] : 0))
			return 0;
	return 1;
}

/* Touch the byte at p in a child: the signal that killed it, or 0. */
static int touch_in_child(volatile char *p)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		(void)*p;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

static int make_file(void)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	for (int i = 0; i < FILE_SIZE; i++)
		data[i] = 'A' + i % 23 + i / PAGE;
	if (fd < 0 || write(fd, data, FILE_SIZE) != FILE_SIZE)
		return -1;
	return fd;
}

static void errors(void)
{
	int ro = open(path, O_RDONLY), wo = open(path, O_WRONLY), dir = open("/", O_RDONLY);
	int pipefd[2];

	if (ro < 0 || wo < 0 || dir < 0 || pipe(pipefd)) {
		perror("open");
		return;
	}
	check_errno("offset not page aligned: EINVAL",
		    raw_mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, ro, 100), EINVAL);
	check_errno("a closed descriptor: EBADF",
		    raw_mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, 99, 0), EBADF);
	check_errno("descriptor -1 without MAP_ANONYMOUS: EBADF",
		    raw_mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, -1, 0), EBADF);
	check_errno("a write-only descriptor: EACCES",
		    raw_mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, wo, 0), EACCES);
	check_errno("shared and writable on a read-only descriptor: EACCES",
		    raw_mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0), EACCES);
	check_errno("a directory: ENODEV",
		    raw_mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, dir, 0), ENODEV);
	check_errno("a pipe: ENODEV",
		    raw_mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, pipefd[0], 0), ENODEV);
	check_errno("an offset past the largest file: EOVERFLOW",
		    raw_mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, ro, 0x7ffffffffffff000L),
		    EOVERFLOW);
	check_errno("length 0: EINVAL", raw_mmap(NULL, 0, PROT_READ, MAP_PRIVATE, ro, 0), EINVAL);
	/* A private writable mapping of a read-only descriptor is fine. */
	long p = raw_mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0);
	check("private and writable on a read-only descriptor", p > 0);
	if (p > 0)
		munmap((void *)p, PAGE);
	close(ro);
	close(wo);
	close(dir);
	close(pipefd[0]);
	close(pipefd[1]);
}

int main(void)
{
	int fd = make_file();
	char buf[PAGE];

	if (fd < 0) {
		perror(path);
		return 1;
	}
	errors();

	/* Five pages of a file of three pages and 100 bytes. */
	char *p = mmap(NULL, 5 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	check("private mapping shows the file", shows_file(p, 3 * PAGE + 100, 0));
	check("zeros after the end of the file in its last page",
	      shows_file(p + 3 * PAGE, PAGE, 3 * PAGE));
	check("a page past the end of the file: SIGBUS", touch_in_child(p + 4 * PAGE) == SIGBUS);
	check("PROT_NONE, then a read: SIGSEGV",
	      touch_in_child(p) == 0 && mprotect(p, PAGE, PROT_NONE) == 0 &&
		      touch_in_child(p) == SIGSEGV);
	int pipefd[2];
	check("write() from a page past the end: EFAULT",
	      pipe(pipefd) == 0 && write(pipefd[1], p + 4 * PAGE, 1) == -1 && errno == EFAULT);
	close(pipefd[0]);
	close(pipefd[1]);
	munmap(p, 5 * PAGE);

	/* Private and writable: the writes stay in the process. */
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	memcpy(p + 10, "private", 7);
	p[3 * PAGE + 200] = 'z'; /* past the end of the file, in its last page */
	check("writes show in the mapping", !memcmp(p + 10, "private", 7) && p[3 * PAGE + 200] == 'z');
	check("and not in the file", pread(fd, buf, PAGE, 0) == PAGE && shows_file(buf, PAGE, 0));
	check("the file keeps its size", lseek(fd, 0, SEEK_END) == FILE_SIZE);
	pid_t pid = fork();
	if (pid == 0) {
		p[11] = 'R';
		_exit(p[10] == 'p' && shows_file(p + PAGE, PAGE, PAGE) ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	check("a child sees the parent's copy and writes its own",
	      WIFEXITED(status) && WEXITSTATUS(status) == 0 && p[11] == 'r');
	check("MADV_DONTNEED gives the file's bytes back",
	      madvise(p, PAGE, MADV_DONTNEED) == 0 && shows_file(p, PAGE, 0));
	/* munmap of the middle: the rest keeps its offsets. */
	check("munmap of a middle page", munmap(p + PAGE, PAGE) == 0 &&
					 shows_file(p + 2 * PAGE, PAGE, 2 * PAGE));
	/* mremap: the moved part keeps its offset; grown, it shows more of
	 * the file. */
	char *q = mremap(p + 2 * PAGE, PAGE, 2 * PAGE, MREMAP_MAYMOVE);
	check("mremap grows a file mapping", q != MAP_FAILED && shows_file(q, 2 * PAGE, 2 * PAGE));
	munmap(p, PAGE);
	munmap(q, 2 * PAGE);

	/* An offset. */
	p = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 2 * PAGE);
	check("mapping from offset 8192", p != MAP_FAILED && shows_file(p, PAGE + 100, 2 * PAGE));
	munmap(p, 2 * PAGE);

	/* Shared and read-only; mprotect cannot make it writable when the
	 * descriptor is read-only. */
	int ro = open(path, O_RDONLY);
	p = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, ro, PAGE);
	check("shared read-only mapping shows the file", p != MAP_FAILED && shows_file(p, 2 * PAGE, PAGE));
	check("mprotect to PROT_WRITE: EACCES",
	      mprotect(p, PAGE, PROT_READ | PROT_WRITE) == -1 && errno == EACCES);
	/* The mapping outlives its descriptor and the file's name. */
	close(ro);
	unlink(path);
	check("closed and unlinked, the file still reads", shows_file(p + PAGE, PAGE, 2 * PAGE));
	munmap(p, 2 * PAGE);

	/* A private page read but not written shows the file's later writes
	 * (it is the file's page until the process writes it); once written,
	 * it is the process's own. */
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	check("a page read before the file is written", p[PAGE + 1] == data[PAGE + 1]);
	check("shows the file's write", pwrite(fd, "N", 1, PAGE + 1) == 1 && p[PAGE + 1] == 'N');
	p[PAGE] = 'm';
	check("once the process writes its page, the file's writes do not show",
	      pwrite(fd, "O", 1, PAGE + 1) == 1 && p[PAGE + 1] == 'N' && p[PAGE] == 'm');
	pwrite(fd, data + PAGE + 1, 1, PAGE + 1);
	munmap(p, 2 * PAGE);

	/* The file grows and shrinks under a mapping: a page not touched yet
	 * shows the file as it is when touched. */
	p = mmap(NULL, 5 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	check("a page past the end before the file grows: SIGBUS",
	      touch_in_child(p + 4 * PAGE) == SIGBUS);
	memset(buf, 'g', PAGE);
	check("after it grows, that page shows the new bytes",
	      pwrite(fd, buf, PAGE, 4 * PAGE) == PAGE && p[4 * PAGE] == 'g' && p[3 * PAGE + 100] == 0);
	check("truncated, an untouched page past the end: SIGBUS",
	      ftruncate(fd, PAGE) == 0 && touch_in_child(p + 2 * PAGE) == SIGBUS);
	munmap(p, 5 * PAGE);
	close(fd);
	return 0;
}
