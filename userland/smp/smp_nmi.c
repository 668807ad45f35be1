/*
 * smp_nmi - NMIs that strike anywhere. Writing 'l' to /proc/sysrq-trigger
 * asks every CPU for its backtrace, and the kernel asks the other CPUs by
 * NMI, which arrives even with interrupts off. Meanwhile a thread pinned
 * to CPU 1 makes system calls and page faults in a loop, so that some
 * NMIs land in the kernel's entry and exit code, in the instructions
 * that run with the user's GS base, or (at syscall entry) on the user's
 * stack. The thread must go on with its registers and memory intact, and
 * every write must succeed.
 *
 *   smp_nmi [REQUESTS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "cpus.h"

static atomic_int stop;

/* CPU 1's count on the NMI: line of /proc/interrupts, -1 if none. */
static long nmis_of_cpu1(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[1024];
	long cpu0, cpu1 = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " NMI: %ld %ld", &cpu0, &cpu1) == 2)
			break;
	if (f)
		fclose(f);
	return cpu1;
}
static atomic_long rounds;

struct result {
	int pin_error;
	long wrong; /* rounds whose sums came out wrong */
};

/* One round: system calls whose results fold into a sum kept in
 * registers, and a fresh page faulted in and checked. */
static long one_round(long ppid)
{
	unsigned long sum = 0;

	for (int i = 0; i < 64; i++)
		sum = sum * 31 + (unsigned long)syscall(SYS_getppid);
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memset(p, 0x5a, 4096);
	long bad = p[0] != 0x5a || p[4095] != 0x5a;
	munmap(p, 4096);
	unsigned long want = 0;
	for (int i = 0; i < 64; i++)
		want = want * 31 + (unsigned long)ppid;
	return bad || sum != want;
}

/*
 * After a request, let the worker finish a round (at most 10 ms): the
 * writes, one after the other, could otherwise keep CPU 1 out of the
 * kernel all along (here every system call takes the big kernel lock,
 * which CPU 0 takes again at once), and the NMIs would strike only its
 * user code and its wait for the lock.
 */
static void let_worker_run(void)
{
	long seen = atomic_load(&rounds);
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (atomic_load(&rounds) == seen &&
	       (t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 10000000L);
}

static void *worker(void *arg)
{
	struct result *r = arg;
	long ppid = getppid();

	if (pin_to(1) < 0) {
		r->pin_error = errno;
		atomic_store(&rounds, -1);
		return NULL;
	}
	while (!atomic_load(&stop)) {
		r->wrong += one_round(ppid);
		atomic_fetch_add(&rounds, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int requests = argc > 1 ? atoi(argv[1]) : 200, written = 0;
	struct result r = { 0, 0 };
	pthread_t t;

	if (pin_to(0) < 0 || pthread_create(&t, NULL, worker, &r) != 0) {
		printf("nmi: cannot pin to CPU 0 or start the worker: %s\n", strerror(errno));
		return 1;
	}
	while (atomic_load(&rounds) == 0) /* the worker runs on CPU 1 */
		;
	if (access("/proc/self", F_OK) != 0) /* init may not have mounted it */
		mount("proc", "/proc", "proc", 0, NULL);
	int fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (fd < 0) {
		printf("nmi: /proc/sysrq-trigger: %s\n", strerror(errno));
		return 1;
	}
	long nmis = nmis_of_cpu1(), before = atomic_load(&rounds);
	for (int i = 0; i < requests; i++) {
		written += write(fd, "l", 1) == 1;
		let_worker_run();
	}
	long during = atomic_load(&rounds) - before;
	nmis = nmis_of_cpu1() - nmis;
	close(fd);
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	if (r.pin_error) {
		printf("nmi: cannot pin to CPU 1: %s\n", strerror(r.pin_error));
		return 1;
	}
	printf("nmi: %d backtrace requests (sysrq l), %d written whole\n", requests, written);
	printf("nmi: CPU 1's count on the NMI line of /proc/interrupts grew by at least %d: %s\n",
	       requests, nmis >= requests ? "yes" : "no");
	printf("nmi: the thread on CPU 1 went on with system calls and faults: %s; %ld rounds wrong\n",
	       during > 0 ? "yes" : "no", r.wrong);
	return 0;
}
