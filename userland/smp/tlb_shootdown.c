/*
 * tlb_shootdown - a thread pinned to CPU 1 reads one page in a loop,
 * while the main thread, on CPU 0, takes the page away or changes it:
 *
 *   munmap     the page is unmapped: the reader must get SIGSEGV
 *   mprotect   PROT_NONE: SIGSEGV
 *   mremap     moved elsewhere: SIGSEGV at the old address
 *   replace    mmap MAP_FIXED over it, a page of new contents: the new value
 *   cow        written by the main thread while a child shares it (the
 *              write breaks copy-on-write): the new value
 *
 * CPU 1's TLB still holds the old translation unless the kernel shot it
 * down before the call returned. Each round: the main thread maps the
 * page with the round's old value, waits until the reader has read it
 * (the translation is then in CPU 1's TLB), makes the call, then raises
 * a flag; the reader's first read after it saw the flag is the one
 * judged. Any old value then is a stale TLB entry.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cpus.h"

#define ROUNDS 300
#define PAGE 4096
#define STOP (-1)
enum kind { MUNMAP, MPROTECT, MREMAP, REPLACE, COW, KINDS };
static const char *const kind_name[KINDS] = { "munmap", "mprotect", "mremap", "replace", "cow" };
enum outcome { SEGV, OLD, NEW, OTHER, OUTCOMES };

/* A round's id: kind * 1000 + round + 1; its values, in the two pages of
 * the memfd (old at offset 0, new at PAGE). */
#define OLD_VALUE(id) (2 * (id))
#define NEW_VALUE(id) (2 * (id) + 1)

static volatile int *page;     /* the address the reader reads */
static char *elsewhere;        /* where mremap moves the page */
static int memfd;
static atomic_int round_id;    /* the round under way, or STOP */
static atomic_int seen;        /* the reader read this round's old value */
static atomic_int done;        /* the main thread's call of this round returned */
static atomic_int judged;      /* the reader judged this round's read */
static int results[KINDS][OUTCOMES];
static sigjmp_buf fault;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(fault, 1);
}

/* One read of the page: SEGV, OLD, NEW or OTHER for round id. No system
 * call on the way (the handler is SA_NODEFER, so no signal mask to
 * restore): a kernel entry that reloads CR3 would flush the TLB and hide
 * a missing shootdown. */
static enum outcome read_page(int id)
{
	volatile int faulted = 0, v = 0;

	if (sigsetjmp(fault, 0))
		faulted = 1;
	else
		v = *page;
	if (faulted)
		return SEGV;
	return v == OLD_VALUE(id) ? OLD : v == NEW_VALUE(id) ? NEW : OTHER;
}

static void *reader(void *arg)
{
	(void)arg;
	pin_to(1);
	for (;;) {
		int id = atomic_load(&round_id), after;
		enum outcome o;

		if (id == STOP)
			return NULL;
		if (atomic_load(&judged) == id)
			continue;
		after = atomic_load(&done) == id; /* before the read */
		o = read_page(id);
		if (!after) {
			if (o == OLD)
				atomic_store(&seen, id);
			continue;
		}
		results[id / 1000][o]++;
		atomic_store(&judged, id);
	}
}

static void map_page(int prot, int flags, off_t offset)
{
	if (mmap((void *)page, PAGE, prot, MAP_FIXED | flags, memfd, offset) == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
}

/* Map the page with round id's old value; for cow, fork a child that
 * shares it until told to go (returns its pid and pipe). */
static pid_t prepare(enum kind k, int id, int *go)
{
	int values[2] = { OLD_VALUE(id), NEW_VALUE(id) };
	pid_t pid;

	if (k != COW) {
		if (pwrite(memfd, &values[0], sizeof(int), 0) < 0 ||
		    pwrite(memfd, &values[1], sizeof(int), PAGE) < 0)
			exit(1);
		map_page(PROT_READ, MAP_SHARED, 0);
		return 0;
	}
	if (mmap((void *)page, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0) == MAP_FAILED || pipe(go) < 0)
		exit(1);
	*page = OLD_VALUE(id);
	pid = fork();
	if (pid == 0) {
		char c;
		close(go[1]);
		_exit(read(go[0], &c, 1) < 0);
	}
	close(go[0]);
	return pid;
}

/* The call that takes the page away or changes it. */
static void act(enum kind k, int id)
{
	switch (k) {
	case MUNMAP: munmap((void *)page, PAGE); break;
	case MPROTECT: mprotect((void *)page, PAGE, PROT_NONE); break;
	case MREMAP:
		if (mremap((void *)page, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, elsewhere) == MAP_FAILED)
			perror("mremap");
		break;
	case REPLACE: map_page(PROT_READ, MAP_SHARED, PAGE); break;
	case COW: *page = NEW_VALUE(id); break;
	default: break;
	}
}

static void run_round(enum kind k, int id)
{
	int go[2];
	pid_t child = prepare(k, id, go);

	atomic_store(&round_id, id);
	while (atomic_load(&seen) != id)
		;
	act(k, id);
	atomic_store(&done, id);
	while (atomic_load(&judged) != id)
		;
	if (child > 0) {
		close(go[1]);
		waitpid(child, NULL, 0);
	}
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_segv, .sa_flags = SA_NODEFER };
	pthread_t t;

	if (cpus_allowed() < 2) {
		printf("tlb_shootdown: needs 2 CPUs, has %d\n", cpus_allowed());
		return 1;
	}
	sigaction(SIGSEGV, &sa, NULL);
	memfd = memfd_create("tlb_shootdown", 0);
	page = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	elsewhere = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (memfd < 0 || ftruncate(memfd, 2 * PAGE) < 0 || page == MAP_FAILED || elsewhere == MAP_FAILED) {
		perror("tlb_shootdown: setting up");
		return 1;
	}
	pin_to(0);
	pthread_create(&t, NULL, reader, NULL);
	for (int k = 0; k < KINDS; k++)
		for (int r = 0; r < ROUNDS; r++)
			run_round(k, k * 1000 + r + 1);
	atomic_store(&round_id, STOP);
	pthread_join(t, NULL);

	printf("tlb_shootdown: the reader on CPU 1, the calls on CPU 0, %d rounds each\n", ROUNDS);
	for (int k = 0; k < KINDS; k++)
		printf("%s: after the call, SIGSEGV %d, old value %d, new value %d, other %d\n", kind_name[k],
		       results[k][SEGV], results[k][OLD], results[k][NEW], results[k][OTHER]);
	return 0;
}
