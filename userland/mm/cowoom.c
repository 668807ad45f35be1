/*
 * cowoom - copy-on-write running out of memory. The parent fills about two
 * thirds of free memory and forks: the fork itself is cheap (the pages are
 * shared), but a child that writes every page needs as much again, which
 * does not exist. The kernel must kill that child (SIGKILL, "Out of
 * memory" in its log) and stay up; the parent then writes its own pages,
 * which are no longer shared, without needing any new memory, and once its
 * block is freed the free memory is what it was.
 *
 * Not for Linux: its OOM killer picks its victim by its own rules, and
 * memory figures differ anyway.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leakcheck.h"

#define PAGE 4096
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

/* The linker's marks around this program's image (its segments follow
 * each other with no gap). */
extern char __executable_start[], end[];

int main(void)
{
	size_t size = (size_t)free_kib() * 1024 / 3 * 2;
	/* malloc's bookkeeping, the kernel's heap (a slab page for a kind
	 * of object it had none of), this stack and this program's own
	 * pages (read from its file when first touched: demand paging)
	 * take memory the first time and keep it: warm them up, so that
	 * "before" and "after" differ only by what this test would leak. */
	uintptr_t image = (uintptr_t)__executable_start & -PAGE;
	madvise((void *)image, (uintptr_t)end - image, MADV_POPULATE_READ);
	static void *volatile warm_block; /* volatile: not optimised away */
	warm_block = malloc(size);
	free(warm_block);
	pid_t warm = fork();
	if (warm == 0)
		_exit(0);
	waitpid(warm, NULL, 0);
	warm_stack();
	long long before = free_kib();
	unsigned char *mem = malloc(size);
	if (!mem) {
		printf("cowoom: no memory for the block\n");
		return 1;
	}
	memset(mem, 1, size);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		printf("cowoom: fork failed\n");
		return 1;
	}
	if (pid == 0) {
		for (size_t off = 0; off < size; off += PAGE)
			mem[off] = 2;
		printf("cowoom: the child wrote every page?\n");
		_exit(0);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid) {
		printf("cowoom: waitpid failed\n");
		return 1;
	}
	if (WIFSIGNALED(status))
		printf("cowoom: the child was killed by signal %d\n", WTERMSIG(status));
	else
		printf("cowoom: the child exited with %d\n", WEXITSTATUS(status));

	int intact = 1;
	for (size_t off = 0; off < size; off += PAGE) {
		intact &= mem[off] == 1;
		mem[off] = 3; /* ours alone now: no copy, no new memory */
	}
	printf("cowoom: the parent's pages %s, and writable\n", intact ? "intact" : "CHANGED");
	free(mem);
	long long after = free_kib();
	if (after == before)
		printf("cowoom: free memory as before\n");
	else
		printf("cowoom: free memory differs by %lld KiB\n", after - before);
	return 0;
}
