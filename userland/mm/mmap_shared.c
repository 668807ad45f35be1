/*
 * mmap_shared - MAP_SHARED memory: anonymous memory that parent and child
 * share after fork, file mappings whose writes are the file's bytes (read,
 * write and other mappings see them), mprotect and msync of such mappings.
 * Prints "what: ok" lines that hold on Linux and here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	fflush(stdout);
}

static int child_status(pid_t pid)
{
	int status;
	waitpid(pid, &status, 0);
	return status;
}

int main(void)
{
	int to_parent[2], to_child[2], status;
	char c, buf[64];

	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there already */

	/* Anonymous memory. */
	int *shared = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int *private = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	shared[0] = 1;
	private[0] = 1;
	/* One pipe each way: with one pipe, the child could read back its own
	 * byte before the parent did, and both would wait for ever. */
	pipe(to_parent);
	pipe(to_child);
	pid_t pid = fork();
	if (pid == 0) {
		shared[0] = 42;       /* a page the parent touched */
		shared[1024] = 43;    /* a page nobody touched yet */
		private[0] = 42;
		write(to_parent[1], "x", 1);
		read(to_child[0], &c, 1); /* the parent writes now */
		_exit(shared[1] == 7 ? 0 : 1);
	}
	read(to_parent[0], &c, 1);
	say("MAP_SHARED|MAP_ANONYMOUS: the child's writes show in the parent", shared[0] == 42 && shared[1024] == 43);
	say("MAP_PRIVATE|MAP_ANONYMOUS: they do not", private[0] == 1);
	shared[1] = 7;
	write(to_child[1], "x", 1);
	status = child_status(pid);
	say("and the parent's writes after fork show in the child", WIFEXITED(status) && WEXITSTATUS(status) == 0);
	say("a page of it stays zero until written", shared[2] == 0);

	FILE *maps = fopen("/proc/self/maps", "r");
	char line[256];
	int seen = 0;
	while (maps && fgets(line, sizeof(line), maps))
		if (strtoul(line, NULL, 16) == (unsigned long)shared)
			seen = strstr(line, " rw-s ") && strstr(line, "/dev/zero (deleted)");
	if (maps)
		fclose(maps);
	say("/proc/self/maps: rw-s ... /dev/zero (deleted)", seen);

	/* A file. */
	int fd = open("/tmp/mmap_shared.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "hello, world", 12);
	char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *m2 = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	memcpy(m, "HELLO", 5);
	memset(buf, 0, sizeof(buf));
	pread(fd, buf, 12, 0);
	say("a write through a MAP_SHARED file mapping: read() sees it", !strcmp(buf, "HELLO, world"));
	say("another MAP_SHARED mapping of the file sees it", !memcmp(m2, "HELLO, world", 12));
	pwrite(fd, "WORLD", 5, 7);
	say("write() to the file: both mappings see it", !memcmp(m + 7, "WORLD", 5) && !memcmp(m2 + 7, "WORLD", 5));
	pid = fork();
	if (pid == 0) {
		m[0] = 'J';
		_exit(0);
	}
	child_status(pid);
	pread(fd, buf, 1, 0);
	say("a child's write through the inherited mapping reaches the file", buf[0] == 'J' && m[0] == 'J');
	say("the file keeps its size", lseek(fd, 0, SEEK_END) == 12);
	say("msync(MS_SYNC): 0", msync(m, 4096, MS_SYNC) == 0);
	say("msync(MS_ASYNC|MS_SYNC): EINVAL", msync(m, 4096, MS_ASYNC | MS_SYNC) == -1 && errno == EINVAL);
	say("msync at an unaligned address: EINVAL", msync(m + 1, 10, MS_SYNC) == -1 && errno == EINVAL);

	pid = fork();
	if (pid == 0) {
		signal(SIGBUS, SIG_DFL);
		volatile char x = m[0] + m[4095]; /* the last page of the file: fine */
		(void)x;
		char *big = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
		x = big[4096]; /* a page past the end of the file */
		_exit(0);
	}
	status = child_status(pid);
	say("a page past the end of the file: SIGBUS", WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);

	/* mprotect of shared file mappings. */
	int ro = open("/tmp/mmap_shared.txt", O_RDONLY);
	say("MAP_SHARED with PROT_WRITE of a read-only descriptor: EACCES",
	    mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0) == MAP_FAILED && errno == EACCES);
	char *r = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0);
	say("mprotect(PROT_WRITE) of it: EACCES", mprotect(r, 4096, PROT_READ | PROT_WRITE) == -1 && errno == EACCES);
	say("PROT_WRITE of a private mapping of it: allowed",
	    mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0) != MAP_FAILED);
	say("mprotect(PROT_READ) of the writable shared mapping: 0", mprotect(m, 4096, PROT_READ) == 0);
	say("and back to PROT_READ|PROT_WRITE: 0", mprotect(m, 4096, PROT_READ | PROT_WRITE) == 0);
	m[1] = 'A';
	pread(fd, buf, 12, 0);
	say("the write after mprotect reaches the file", !memcmp(buf, "JALLO, WORLD", 12));
	munmap(m, 4096);
	munmap(m2, 4096);
	close(fd);
	close(ro);
	unlink("/tmp/mmap_shared.txt");
	return 0;
}
