/*
 * tlb_lazy - a flush owed to an idle CPU. A thread pinned to CPU 1
 * writes a page (its translation, writable, is now in CPU 1's TLB) and
 * blocks on a pipe, so that CPU 1 goes idle with the process's tables
 * still loaded. The main thread, on CPU 0, forks: the page is now shared
 * with the child and write-protected. Then it wakes the thread, which
 * writes the page again on CPU 1: that write must break copy-on-write,
 * not go through the old writable translation into the frame the child
 * sees. The child then looks at the page: it must hold the value from
 * before the fork.
 *
 * A kernel may spare the idle CPU the shootdown IPI (Linux does, for a
 * CPU in lazy TLB mode), but must then flush before the thread runs.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cpus.h"

#define ROUNDS 200
#define PAGE 4096

static volatile long *page;
static int wake_pipe[2];
static atomic_int wrote_first, wrote_second;

static void *writer(void *arg)
{
	char c;

	(void)arg;
	pin_to(1);
	for (int r = 0; r < ROUNDS; r++) {
		*page = 1;
		atomic_store(&wrote_first, 1);
		if (read(wake_pipe[0], &c, 1) != 1) /* CPU 1 idles meanwhile */
			break;
		*page = 2;
		atomic_store(&wrote_second, 1);
		while (atomic_load(&wrote_second)) /* until the round is judged */
			;
	}
	return NULL;
}

/* One round: did the child see the thread's second write (0 or 1), and
 * did the parent miss it? */
static void round_once(int *child_saw, int *parent_missed)
{
	int check[2], status;

	while (!atomic_load(&wrote_first))
		;
	atomic_store(&wrote_first, 0);
	usleep(2000); /* the writer is in read(), CPU 1 idle */
	if (pipe(check) < 0) {
		perror("pipe");
		exit(1);
	}
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		if (read(check[0], &c, 1) != 1)
			_exit(2);
		_exit(*page == 1 ? 0 : 1);
	}
	if (write(wake_pipe[1], "w", 1) != 1)
		perror("write");
	while (!atomic_load(&wrote_second))
		;
	if (write(check[1], "c", 1) != 1)
		perror("write");
	*child_saw += pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		      WEXITSTATUS(status) != 0;
	*parent_missed += *page != 2;
	close(check[0]);
	close(check[1]);
	atomic_store(&wrote_second, 0);
}

int main(void)
{
	int child_saw = 0, parent_missed = 0;
	pthread_t t;

	if (cpus_allowed() < 2) {
		printf("tlb_lazy: needs 2 CPUs, has %d\n", cpus_allowed());
		return 1;
	}
	page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED || pipe(wake_pipe) < 0) {
		perror("tlb_lazy: setting up");
		return 1;
	}
	pin_to(0);
	pthread_create(&t, NULL, writer, NULL);
	for (int r = 0; r < ROUNDS; r++)
		round_once(&child_saw, &parent_missed);
	pthread_join(t, NULL);
	printf("tlb_lazy: %d forks while the writer slept on CPU 1: the child saw its later write "
	       "%d times, the parent missed it %d times\n",
	       ROUNDS, child_saw, parent_missed);
	return 0;
}
