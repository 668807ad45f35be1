/*
 * ioperm_cpus - I/O port permissions belong to a thread, and each CPU's
 * TSS holds those of the thread it runs. A process on CPU 0 is given port
 * 0x80 (ioperm) and sleeps there; CPU 0 idles with that bitmap still in
 * its TSS. CPU 1 then switches to a process without ports. A third
 * process, also without ports, then runs on CPU 0 and tries the port: it
 * must get SIGSEGV, as every process without permission does. (A kernel
 * that remembered "some port allowed" once for all CPUs instead of per
 * CPU forgot CPU 0's bitmap after CPU 1's switch, and let it through.)
 *
 * Needs root (CAP_SYS_RAWIO) and 2 CPUs.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cpus.h"

#define ROUNDS 20
#define PORT 0x80 /* POST codes: harmless to read */

/* Fork a child pinned to cpu that runs fn and exits with its result. */
static pid_t spawn_on(int cpu, int (*fn)(int), int arg)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (pin_to(cpu) < 0)
			_exit(100);
		_exit(fn(arg));
	}
	return pid;
}

/* Given the port, use it once, then sleep on CPU 0 until told to go. */
static int holder(int fd)
{
	if (ioperm(PORT, 1, 1) < 0)
		return 101;
	(void)inb(PORT);
	if (write(fd, "r", 1) != 1) /* ready: the parent may go on */
		return 102;
	pause(); /* killed by the parent */
	return 0;
}

/* Without permission: the port must fault. */
static int prober(int unused)
{
	(void)unused;
	(void)inb(PORT);
	return 0; /* got through */
}

/* One round: how the port-less process on CPU 0 ended. */
static const char *round_once(void)
{
	int ready[2], status;
	char c;

	if (pipe(ready) < 0) {
		perror("pipe");
		exit(1);
	}
	pid_t h = spawn_on(0, holder, ready[1]);
	if (read(ready[0], &c, 1) != 1)
		return "holder failed";
	usleep(2000); /* CPU 1 (us) sleeps and wakes: a switch there */
	pid_t p = spawn_on(0, prober, 0);
	waitpid(p, &status, 0);
	kill(h, SIGKILL);
	waitpid(h, NULL, 0);
	close(ready[0]);
	close(ready[1]);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
		return "SIGSEGV";
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return "the port was read";
	return "something else";
}

int main(void)
{
	const char *first = NULL;
	int same = 0;

	if (cpus_allowed() < 2) {
		printf("ioperm_cpus: needs 2 CPUs, has %d\n", cpus_allowed());
		return 1;
	}
	pin_to(1);
	for (int r = 0; r < ROUNDS; r++) {
		const char *got = round_once();
		if (!first)
			first = got;
		same += got == first;
	}
	printf("ioperm_cpus: %d rounds, a process without ports on CPU 0 after one with port 0x80: "
	       "%s (%d of %d)\n",
	       ROUNDS, first, same, ROUNDS);
	return 0;
}
