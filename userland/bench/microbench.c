/*
 * microbench N - the small rows of make bench (tests/bench.sh), each the
 * time of one operation over N cycles, in the format of bench.c:
 *   getppid                  one system call that does almost nothing
 *                            (cycles of 1000 calls, divided);
 *   anonymous page fault     the first write to a page of a fresh private
 *                            anonymous mapping (cycles of 64 pages, divided;
 *                            the mmap and munmap are outside the clock);
 *   fork+_exit+wait4         of this small process;
 * then the memory one more process or thread costs while it sleeps: the
 * free memory (sysinfo) before and after 1000 forked children that wait in
 * read(2) on a pipe, divided by 1000; the same for 1000 threads. So many,
 * because Linux keeps freed pages in per-CPU lists that do not count as
 * free, and serves new ones from there: with 100 sleepers that pool hid
 * most of what they cost.
 * Figures only: the output differs from run to run.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timing.h"

#define PAGE 4096
#define CALLS 1000
#define FAULT_PAGES 64
#define SLEEPERS 1000

static double getppid_cycle(void)
{
	double t0 = now_us();

	for (int i = 0; i < CALLS; i++)
		getppid(); /* musl's: the syscall instruction inline, nothing cached */
	return (now_us() - t0) / CALLS;
}

static double fault_cycle(void)
{
	char *p = mmap(NULL, FAULT_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	double t0 = now_us();
	for (int i = 0; i < FAULT_PAGES; i++)
		((volatile char *)p)[i * PAGE] = 1;
	double t = (now_us() - t0) / FAULT_PAGES;
	munmap(p, FAULT_PAGES * PAGE);
	return t;
}

static double fork_cycle(void)
{
	double t0 = now_us();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(0);
	if (waitpid(pid, &status, 0) < 0 || status != 0)
		return -1;
	return now_us() - t0;
}

static int measure(const char *label, long n, double (*cycle)(void))
{
	double *t = malloc(n * sizeof(*t));

	if (!t)
		return -1;
	for (long i = 0; i < n; i++) {
		if ((t[i] = cycle()) < 0) {
			fprintf(stderr, "microbench: %s failed\n", label);
			free(t);
			return -1;
		}
	}
	printf("%s", label);
	print_cycles(t, n);
	free(t);
	return 0;
}

static long free_kib(void)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0)
		return -1;
	return (long)(si.freeram * si.mem_unit / 1024);
}

/* Sleepers wait in read() on the pipe until its write end closes. */
static int wake_fd[2];

static void *sleeper(void *arg)
{
	char c;

	(void)arg;
	while (read(wake_fd[0], &c, 1) > 0)
		;
	return NULL;
}

/* Start SLEEPERS processes (threads when as_threads) and print what they
 * cost in free memory, each. */
static int sleeper_memory(const char *what, int as_threads)
{
	static pthread_t tid[SLEEPERS];
	static pid_t pid[SLEEPERS];
	long before, after;
	int i;

	if (pipe(wake_fd) < 0)
		return -1;
	/* What the rows before freed must be free again: Linux frees a dead
	 * task's stack and structures a little later (RCU, a work queue). */
	usleep(500000);
	before = free_kib();
	for (i = 0; i < SLEEPERS; i++) {
		if (as_threads) {
			if (pthread_create(&tid[i], NULL, sleeper, NULL))
				break;
		} else if ((pid[i] = fork()) == 0) {
			close(wake_fd[1]);
			sleeper(NULL);
			_exit(0);
		} else if (pid[i] < 0) {
			break;
		}
	}
	usleep(300000); /* let each sleeper reach its read() */
	after = free_kib();
	close(wake_fd[1]);
	for (int j = 0; j < i; j++)
		as_threads ? pthread_join(tid[j], NULL) : waitpid(pid[j], NULL, 0);
	close(wake_fd[0]);
	if (i < SLEEPERS) {
		fprintf(stderr, "microbench: only %d %s started\n", i, what);
		return -1;
	}
	printf("memory per sleeping %s: %ld KiB (%d of them)\n", what,
	       (before - after) / SLEEPERS, SLEEPERS);
	return 0;
}

int main(int argc, char *argv[])
{
	long n;

	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: microbench N\n");
		return 2;
	}
	if (measure("getppid", n, getppid_cycle) < 0 ||
	    measure("anonymous page fault", n, fault_cycle) < 0 ||
	    measure("fork+_exit+wait4 of a small process", n, fork_cycle) < 0 ||
	    sleeper_memory("process", 0) < 0 || sleeper_memory("thread", 1) < 0)
		return 1;
	fflush(stdout);
	return 0;
}
