/*
 * cowrefs - the test of lab 05 (labs/05-cow): copy-on-write keeps count.
 *
 * A 4 MiB buffer is written, then a child writes all of it and exits. A
 * correct copy-on-write fork copies each page once, for the child, and
 * frees the copies when the child exits; once the child is gone, each
 * page of the parent has one owner again, so the parent's own writes
 * copy nothing. Free memory (sysinfo(2)) tells, in pages:
 *   fork shares the pages: fork took less than 64 pages
 *   the child's copies are freed at its exit: free memory as before
 *   the parent's writes after the child's exit copy nothing: as before
 * Each line says "ok" or what was seen. Memory figures are our kernel's:
 * Linux's differ from run to run (per-CPU lists, caches).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGES 1024
#define PAGE 4096

static long free_pages(void)
{
	struct sysinfo si;

	if (sysinfo(&si) != 0) {
		perror("sysinfo");
		exit(1);
	}
	return (long)(si.freeram * si.mem_unit / PAGE);
}

static void write_all(char *buf, char c)
{
	for (long i = 0; i < PAGES; i++)
		buf[i * PAGE] = c;
}

static void report(const char *what, long before, long after, long slack)
{
	long d = before - after;

	if (d <= slack && d >= -slack)
		printf("%s: ok\n", what);
	else
		printf("%s: %ld pages %s\n", what, d < 0 ? -d : d, d > 0 ? "fewer free" : "more free");
}

/* Fork a child that writes every page (or none) and exits; wait for it. */
static void child_writes(char *buf, int write)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		if (write)
			write_all(buf, 'c');
		_exit(0);
	}
	waitpid(pid, &status, 0);
}

int main(void)
{
	char *buf = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fds[2];
	long before, after;

	if (buf == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	write_all(buf, 'p');
	/* Warm up: the kernel's own caches for a fork and an exit. */
	child_writes(buf, 1);
	child_writes(buf, 0);
	write_all(buf, 'p');

	/* 1. fork shares: the child waits on a pipe while we count. */
	if (pipe(fds)) {
		perror("pipe");
		return 1;
	}
	before = free_pages();
	pid_t pid = fork();
	if (pid == 0) {
		char c;

		close(fds[1]);
		read(fds[0], &c, 1);
		_exit(0);
	}
	close(fds[0]);
	after = free_pages();
	if (before - after < 64)
		printf("fork shares the pages: ok\n");
	else
		printf("fork shares the pages: fork took %ld pages\n", before - after);
	close(fds[1]);
	waitpid(pid, NULL, 0);
	write_all(buf, 'p');

	/* 2. The child's copies go with the child. */
	before = free_pages();
	child_writes(buf, 1);
	after = free_pages();
	report("the child's copies are freed at its exit", before, after, 8);

	/* 3. Alone again, the parent writes in place. */
	before = free_pages();
	write_all(buf, 'q');
	after = free_pages();
	report("the parent's writes after the child's exit copy nothing", before, after, 8);

	for (long i = 0; i < PAGES; i++)
		if (buf[i * PAGE] != 'q') {
			printf("page %ld lost the parent's write\n", i);
			return 1;
		}
	printf("the parent's pages hold its writes: ok\n");
	return 0;
}
