/*
 * smp_exec_proc - a process that execs over and over on CPU 1 while CPU 0
 * reads everything /proc shows of its memory: maps, smaps, smaps_rollup,
 * status, stat, statm, cmdline, environ, auxv, the map_files directory and
 * a link in it, and mem at the address of the first area. The kernel
 * builds the new address space of an exec while the other CPU looks into
 * it (on Linux always; here without the big kernel lock): every read must
 * succeed, or fail only as the process ended (ENOENT, ESRCH) or as the
 * area it named went (mem: EIO, a link: ENOENT).
 *
 *   smp_exec_proc            the test: the chain's parent, and the reader
 *   smp_exec_proc chain N    one generation of the chain: exec the next
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cpus.h"
#include "exectest.h"

#define SELF "/usr/lib/exec-tests/smp_exec_proc"
#define EXECS 200

static const char *const files[] = { "maps", "smaps", "smaps_rollup", "status", "stat",
				     "statm", "cmdline", "environ", "auxv" };

static int unexpected; /* reads that failed otherwise than the rules allow */

static void note(const char *what, int err, int allowed)
{
	if (err == ENOENT || err == ESRCH || err == allowed)
		return;
	if (unexpected++ < 5)
		printf("proc: %s: %s\n", what, ename(err));
}

/* Read all of /proc/pid/name; its first 64 bytes stay in head. */
static void read_file(pid_t pid, const char *name, char *head)
{
	char path[64], buf[4096];
	ssize_t n, total = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		note(name, errno, 0);
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (head && total == 0) {
			size_t keep = n < 64 ? (size_t)n : 63;

			memcpy(head, buf, keep);
			head[keep] = '\0';
		}
		total += n;
	}
	if (n < 0)
		note(name, errno, 0);
	close(fd);
}

/* mem at the first area's start (from the head of maps), and map_files. */
static void read_mem_and_links(pid_t pid, const char *maps_head)
{
	char path[320], target[256], buf[16];
	unsigned long start = strtoul(maps_head, NULL, 16);
	struct dirent *e;
	DIR *d;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (start && pread(fd, buf, sizeof(buf), (off_t)start) < 0)
			note("mem", errno, EIO);
		close(fd);
	} else {
		note("mem (open)", errno, 0);
	}
	snprintf(path, sizeof(path), "/proc/%d/map_files", (int)pid);
	d = opendir(path);
	if (!d) {
		note("map_files", errno, 0);
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/map_files/%s", (int)pid, e->d_name);
		if (readlink(path, target, sizeof(target)) < 0)
			note("map_files link", errno, 0);
		break;
	}
	closedir(d);
}

/* Read pid's files round after round until it has exited: the rounds. */
static int read_until_gone(pid_t pid, int *status)
{
	int rounds = 0;
	char maps_head[64];

	while (waitpid(pid, status, WNOHANG) == 0) {
		maps_head[0] = '\0';
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			read_file(pid, files[i], i == 0 ? maps_head : NULL);
		read_mem_and_links(pid, maps_head);
		rounds++;
	}
	return rounds;
}

static void chain(int left)
{
	char next[16];

	if (left == 0)
		exit(0);
	snprintf(next, sizeof(next), "%d", left - 1);
	execl(SELF, SELF, "chain", next, (char *)NULL);
	exit(1);
}

int main(int argc, char **argv)
{
	int status, rounds;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "chain"))
		chain(atoi(argv[2]));
	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_proc();
	if (cpus_allowed() < 2) {
		printf("smp_exec_proc: needs 2 CPUs\n");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		char n[16];

		pin_to(1);
		snprintf(n, sizeof(n), "%d", EXECS);
		execl(SELF, SELF, "chain", n, (char *)NULL);
		_exit(1);
	}
	pin_to(0);
	rounds = read_until_gone(pid, &status);
	printf("proc: %d execs on CPU 1 while CPU 0 read its memory's /proc files: exit status %d, "
	       "%s, %d unexpected errors\n", EXECS, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
	       rounds > 0 ? "read while it ran" : "NOT READ", unexpected);
	return 0;
}
