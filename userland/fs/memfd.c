/*
 * memfd - memfd_create(2) and file seals, beside Linux's memfd_test: the
 * file's flags, mode, link count and names (/proc/PID/fd, maps, fdinfo),
 * the errors of memfd_create, reopening through /proc/self/fd, executing
 * it (fexecve), and each seal's rules for write, ftruncate, fallocate,
 * mmap and mprotect, with EBUSY for F_SEAL_WRITE while a shared mapping
 * may write.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif
#ifndef MFD_HUGETLB
#define MFD_HUGETLB 0x0004U
#endif

static const char *err(long ret) { return ret < 0 ? strerror(errno) : "ok"; }

static int memfd(const char *name, unsigned int flags) { return syscall(SYS_memfd_create, name, flags); }

/* The line of /proc/self/maps that maps addr, from its name on. */
static void show_map_name(void *addr)
{
	char line[512], want[32];
	FILE *f = fopen("/proc/self/maps", "r");

	snprintf(want, sizeof(want), "%lx-", (unsigned long)addr);
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, want, strlen(want)) == 0) {
			char *name = strchr(line, '/');
			printf("  maps: %.5s %s", strchr(line, ' ') + 1, name ? name : "(no name)\n");
		}
	}
	if (f)
		fclose(f);
}

static void show_link(int fd)
{
	char path[64], target[512];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	target[n < 0 ? 0 : n] = 0;
	printf("  /proc/self/fd: %s\n", n < 0 ? strerror(errno) : target);
}

static void show_fdinfo_flags(int fd)
{
	char path[64], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "flags:", 6) == 0)
			printf("  fdinfo %s", line);
	if (f)
		fclose(f);
}

static void basics(void)
{
	int fd = memfd("basic", 0), cfd = memfd("cloexec", MFD_CLOEXEC);
	struct stat st;
	char buf[16] = "";

	printf("memfd_create(basic): %s\n", err(fd));
	printf("  F_GETFL 0%o, F_GETFD %d, cloexec one: F_GETFD %d\n", fcntl(fd, F_GETFL),
	       fcntl(fd, F_GETFD), fcntl(cfd, F_GETFD));
	fstat(fd, &st);
	printf("  mode 0%o nlink %lu size %ld uid %u\n", st.st_mode, (unsigned long)st.st_nlink,
	       (long)st.st_size, st.st_uid);
	show_link(fd);
	show_fdinfo_flags(fd);
	long wrote = write(fd, "hello", 5), pos = lseek(fd, 1, SEEK_SET);
	printf("  write: %ld, lseek: %ld, ", wrote, pos);
	printf("read: %ld \"%s\"\n", (long)read(fd, buf, sizeof(buf) - 1), buf);
	printf("  ftruncate 10000: %s\n", err(ftruncate(fd, 10000)));
	fstat(fd, &st);
	printf("  size %ld blocks %ld\n", (long)st.st_size, (long)st.st_blocks);

	/* Reopened through its /proc link: the same file, a new offset. */
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int ro = open(path, O_RDONLY);
	memset(buf, 0, sizeof(buf));
	printf("  reopen O_RDONLY: %s, ", err(ro));
	printf("read \"%s\", ", read(ro, buf, 5) == 5 ? buf : "?");
	printf("write: %s\n", err(write(ro, "x", 1)));

	void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	show_map_name(p);
	strcpy(p, "mapped");
	pread(fd, buf, 6, 0);
	printf("  through a shared mapping: \"%.6s\"\n", buf);
	munmap(p, 8192);
	close(ro);
	close(fd);
	close(cfd);
}

static void create_errors(void)
{
	char name[300];

	memset(name, 'n', sizeof(name));
	name[249] = 0;
	int fd = memfd(name, 0);
	printf("memfd_create(249 bytes): %s\n", err(fd));
	close(fd);
	name[249] = 'n';
	name[250] = 0;
	printf("memfd_create(250 bytes): %s\n", err(memfd(name, 0)));
	printf("memfd_create(\"\"): %s\n", err(fd = memfd("", 0)));
	show_link(fd);
	close(fd);
	printf("memfd_create(NULL): %s\n", err(memfd(NULL, 0)));
	printf("memfd_create(bad pointer): %s\n", err(memfd((char *)8, 0)));
	printf("memfd_create(flag 8): %s\n", err(memfd("x", 8)));
	printf("memfd_create(huge size bits without MFD_HUGETLB): %s\n", err(memfd("x", 21U << 26)));
	/* Linux with hugetlbfs makes one; without, ENOSYS: either will do. */
	fd = memfd("huge", MFD_HUGETLB);
	printf("memfd_create(MFD_HUGETLB): %s\n", fd >= 0 || errno == ENOSYS ? "made, or ENOSYS" : err(fd));
	if (fd >= 0)
		close(fd);
	fd = memfd("huge", MFD_HUGETLB | 8);
	printf("memfd_create(MFD_HUGETLB | 8): %s\n", err(fd));
}

static int seals(int fd) { return fcntl(fd, F_GET_SEALS); }

static void seal_basics(void)
{
	int plain = memfd("plain", 0), fd = memfd("sealable", MFD_ALLOW_SEALING);
	int pipes[2];
	char path[64];

	printf("F_GET_SEALS: without MFD_ALLOW_SEALING %d, with %d\n", seals(plain), seals(fd));
	printf("  F_ADD_SEALS on the first: %s\n", err(fcntl(plain, F_ADD_SEALS, F_SEAL_WRITE)));
	pipe(pipes);
	printf("  F_GET_SEALS on a pipe: %s\n", err(seals(pipes[0])));
	printf("  F_ADD_SEALS on a pipe's read end: %s, ", err(fcntl(pipes[0], F_ADD_SEALS, F_SEAL_WRITE)));
	printf("write end: %s\n", err(fcntl(pipes[1], F_ADD_SEALS, F_SEAL_WRITE)));
	int reg = open("/memfd-regular", O_CREAT | O_RDWR, 0600);
	printf("  F_GET_SEALS on a file of the root: %d\n", seals(reg));
	close(reg);
	unlink("/memfd-regular");
	printf("  F_ADD_SEALS 0x20: %s\n", err(fcntl(fd, F_ADD_SEALS, 0x20)));
	printf("  F_ADD_SEALS 1 << 32: %s\n", err(syscall(SYS_fcntl, fd, F_ADD_SEALS, 1UL << 32 | F_SEAL_GROW)));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int ro = open(path, O_RDONLY);
	printf("  F_ADD_SEALS through a read-only reopen: %s\n", err(fcntl(ro, F_ADD_SEALS, F_SEAL_GROW)));
	printf("  F_ADD_SEALS SHRINK: %s, ", err(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK)));
	printf("seals %d\n", seals(fd));
	printf("  F_ADD_SEALS SEAL: %s, ", err(fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL)));
	printf("then GROW: %s, ", err(fcntl(fd, F_ADD_SEALS, F_SEAL_GROW)));
	printf("seals %d (on the reopen: %d)\n", seals(fd), seals(ro));
	printf("  F_ADD_SEALS 0 when sealed: %s\n", err(fcntl(fd, F_ADD_SEALS, 0)));
	close(ro);
	close(fd);
	close(plain);
	close(pipes[0]);
	close(pipes[1]);
}

/* A sealable memfd of 8192 bytes of 'a', with seal added. */
static int sealed_file(const char *name, int seal)
{
	int fd = memfd(name, MFD_ALLOW_SEALING);
	char page[8192];

	memset(page, 'a', sizeof(page));
	write(fd, page, sizeof(page));
	printf("%s: F_ADD_SEALS: %s\n", name, err(fcntl(fd, F_ADD_SEALS, seal)));
	return fd;
}

static void size_seals(void)
{
	int fd = sealed_file("shrink", F_SEAL_SHRINK);
	printf("  ftruncate down: %s, ", err(ftruncate(fd, 4096)));
	printf("up: %s, ", err(ftruncate(fd, 16384)));
	printf("same: %s\n", err(ftruncate(fd, 16384)));
	printf("  punch a hole: %s\n", err(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096)));
	close(fd);

	fd = sealed_file("grow", F_SEAL_GROW);
	printf("  ftruncate up: %s, ", err(ftruncate(fd, 16384)));
	printf("down: %s\n", err(ftruncate(fd, 4096)));
	printf("  pwrite inside: %ld, ", (long)pwrite(fd, "xy", 2, 10));
	printf("at the end: %s, ", err(pwrite(fd, "xy", 2, 4096)));
	printf("across it: %ld\n", (long)pwrite(fd, "xyz", 3, 4094));
	printf("  fallocate inside: %s, ", err(fallocate(fd, 0, 0, 4096)));
	printf("past the end: %s, ", err(fallocate(fd, 0, 0, 8192)));
	printf("KEEP_SIZE past: %s\n", err(fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 8192)));
	close(fd);
}

static void write_seal(void)
{
	int fd = memfd("write", MFD_ALLOW_SEALING);
	ftruncate(fd, 8192);
	char *w = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("write: F_ADD_SEALS while mapped shared writable: %s\n", err(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE)));
	munmap(w, 8192);
	char *r = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
	printf("  while mapped shared read-only: %s\n", err(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE)));
	munmap(r, 8192);
	char *priv = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	pid_t pid = fork();
	if (pid == 0) { /* the child's copy of a shared mapping counts too */
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		sleep(1);
		_exit(0);
	}
	usleep(200000);
	printf("  while a child maps it shared: %s\n", err(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE)));
	waitpid(pid, NULL, 0);
	printf("  mapped private only: %s, ", err(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE)));
	printf("seals %d\n", seals(fd));
	priv[0] = 'p'; /* copy-on-write: allowed */
	printf("  private page written: %c\n", priv[0]);
	printf("  write: %s, ", err(write(fd, "x", 1)));
	printf("pwrite: %s, ", err(pwrite(fd, "x", 1, 0)));
	printf("ftruncate: %s\n", err(ftruncate(fd, 100)));
	printf("  punch a hole: %s\n", err(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096)));
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("  mmap shared writable: %s\n", m == MAP_FAILED ? strerror(errno) : "ok");
	r = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	printf("  mmap shared read-only: %s, ", r == MAP_FAILED ? strerror(errno) : "ok");
	printf("mprotect writable: %s\n", err(mprotect(r, 4096, PROT_READ | PROT_WRITE)));
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	printf("  mmap private writable: %s\n", m == MAP_FAILED ? strerror(errno) : "ok");
	close(fd);
}

static void future_write_seal(void)
{
	int fd = memfd("future", MFD_ALLOW_SEALING);
	ftruncate(fd, 4096);
	char *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), buf[4] = "";
	printf("future_write: F_ADD_SEALS while mapped writable: %s\n",
	       err(fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE)));
	strcpy(w, "old");
	pread(fd, buf, 3, 0);
	printf("  the old mapping still writes: \"%s\"\n", buf);
	printf("  write: %s, ", err(write(fd, "x", 1)));
	printf("ftruncate up: %s\n", err(ftruncate(fd, 8192)));
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("  mmap shared writable: %s\n", m == MAP_FAILED ? strerror(errno) : "ok");
	char *r = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	printf("  mmap shared read-only: %s, ", r == MAP_FAILED ? strerror(errno) : "ok");
	printf("mprotect writable: %s\n", err(mprotect(r, 4096, PROT_READ | PROT_WRITE)));
	printf("  F_SEAL_WRITE now (a writable mapping): %s\n", err(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE)));
	munmap(w, 4096);
	printf("  F_SEAL_WRITE after munmap: %s, ", err(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE)));
	printf("seals %d\n", seals(fd));
	close(fd);
}

/* fexecve of a memfd holding a copy of this program. */
static void exec_copy(void)
{
	int fd = memfd("self", MFD_CLOEXEC), exe = open("/proc/self/exe", O_RDONLY);
	char buf[65536];
	ssize_t n;

	while ((n = read(exe, buf, sizeof(buf))) > 0)
		write(fd, buf, n);
	close(exe);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = { "memfd", "child", NULL };
		syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH);
		printf("execveat: %s\n", strerror(errno));
		_exit(1);
	}
	int status;
	waitpid(pid, &status, 0);
	printf("exec from a memfd: exit status %d\n", WEXITSTATUS(status));
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		char target[256];
		ssize_t n = readlink("/proc/self/exe", target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = 0;
		printf("  child: /proc/self/exe is %s\n", target);
		return 7;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	mount("proc", "/proc", "proc", 0, NULL);
	basics();
	create_errors();
	seal_basics();
	size_seals();
	write_seal();
	future_write_seal();
	exec_copy();
	return 0;
}
