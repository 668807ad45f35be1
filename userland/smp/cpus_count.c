/*
 * cpus_count - every way a program counts the CPUs, which must all give
 * what QEMU's -smp gave (the case's smp key): the C library's sysconf and
 * get_nprocs, sched_getaffinity's mask, the "processor" lines of
 * /proc/cpuinfo, the cpuN lines of /proc/stat, busybox nproc. Then the
 * same once pinned to CPU 0: what counts the online CPUs must not change,
 * what counts the affinity mask must.
 *
 * Also built with glibc (cpus_count-glibc): musl 1.2.3's sysconf counts
 * the affinity mask, glibc's reads /sys/devices/system/cpu/online, else
 * /proc/stat. (There is no sysfs here, and init does not mount Linux's,
 * so /sys/devices/system/cpu/online is not looked at.)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cpus.h"
#include "exectest.h"

#ifdef __GLIBC__
#define LIBC "glibc"
#else
#define LIBC "musl"
#endif

/* The lines of path that start with prefix followed by a digit. */
static int count_lines(const char *path, const char *prefix)
{
	char line[512];
	size_t n = strlen(prefix);
	int count = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, prefix, n) && line[n] >= '0' && line[n] <= '9')
			count++;
	fclose(f);
	return count;
}

/* /proc/cpuinfo: how many "processor : N" lines, and whether N counts
 * 0, 1, 2... in order. */
static void cpuinfo(void)
{
	char line[512];
	int count = 0, in_order = 1, n;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f) {
		printf("/proc/cpuinfo: cannot open\n");
		return;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "processor : %d", &n) == 1 ||
		    sscanf(line, "processor\t: %d", &n) == 1) {
			in_order &= n == count;
			count++;
		}
	fclose(f);
	printf("/proc/cpuinfo: %d processor lines, numbered 0 to %d%s\n", count, count - 1,
	       in_order ? "" : " (NOT in order)");
}

/* What busybox nproc prints, its one line. */
static void nproc(void)
{
	char out[64] = "";
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe(fd) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		execl("/bin/nproc", "nproc", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	n = read(fd[0], out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = 0;
	close(fd[0]);
	waitpid(pid, &status, 0);
	out[strcspn(out, "\n")] = 0;
	printf("busybox nproc: %s\n", out);
}

static void counts(void)
{
	printf("sysconf(_SC_NPROCESSORS_ONLN): %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	printf("sysconf(_SC_NPROCESSORS_CONF): %ld\n", sysconf(_SC_NPROCESSORS_CONF));
	printf("get_nprocs: %d, get_nprocs_conf: %d\n", get_nprocs(), get_nprocs_conf());
	printf("sched_getaffinity: CPU_COUNT %d\n", cpus_allowed());
	printf("/proc/stat: %d cpuN lines\n", count_lines("/proc/stat", "cpu"));
	nproc();
}

int main(void)
{
	mount_proc(); /* init mounts it only for make run's shell */
	printf("cpus_count (%s)\n", LIBC);
	counts();
	cpuinfo();
	if (pin_to(0) < 0) {
		perror("sched_setaffinity");
		return 1;
	}
	printf("pinned to CPU 0:\n");
	counts();
	return 0;
}
