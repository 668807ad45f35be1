/*
 * timens - time namespaces, compared with Linux: unshare(CLONE_NEWTIME)
 * makes the namespace of the caller's children, /proc/PID/timens_offsets
 * sets its offsets until a task enters it, and a task in it sees the
 * monotonic and boot-time clocks moved (system call and vDSO alike),
 * /proc/uptime and /proc/stat's btime with them, and absolute sleeps on
 * its own time. Times are printed as differences, rounded to seconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x80
#endif
#define MONO_OFF 86400L
#define BOOT_OFF 172800L

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case ERANGE: return "ERANGE";
	case EUSERS: return "EUSERS";
	default: {
		static char buf[16];
		snprintf(buf, sizeof(buf), "errno %d", e);
		return buf;
	}
	}
}

#define CHECK(what, call) printf("%s: %s\n", what, (call) < 0 ? errname(errno) : "0")

static long sec_of(clockid_t c, int raw)
{
	struct timespec ts;

	if (raw)
		syscall(SYS_clock_gettime, c, &ts);
	else
		clock_gettime(c, &ts);
	return ts.tv_sec;
}

static void link_of(const char *name, char *buf, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/ns/%s", name);
	n = readlink(path, buf, size - 1);
	buf[n < 0 ? 0 : n] = 0;
}

static void show_file(const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	buf[n < 0 ? 0 : n] = 0;
	printf("%s:\n%s", path, buf);
	if (fd >= 0)
		close(fd);
}

static void write_offsets(const char *what, const char *text)
{
	int fd = open("/proc/self/timens_offsets", O_WRONLY);
	ssize_t n = write(fd, text, strlen(text));

	printf("write %s: %s\n", what, n < 0 ? errname(errno) : n == (ssize_t)strlen(text) ? "all" : "part");
	close(fd);
}

/* The number after key at the start of a line of file (the first line's
 * first for ""). */
static long field(const char *file, const char *key)
{
	char line[512];
	long v = 0;
	FILE *f = fopen(file, "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			v = strtol(line + strlen(key), NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

/* What a task in the namespace sees, against the host's values. */
static void show_clocks(const char *who, long mono, long boot, long real, long up, long btime)
{
	for (int raw = 0; raw < 2; raw++) {
		printf("%s (%s): monotonic %+ld, boottime %+ld, realtime %+ld\n", who, raw ? "syscall" : "vDSO",
		       (sec_of(CLOCK_MONOTONIC, raw) - mono + 2) / 10 * 10,
		       (sec_of(CLOCK_BOOTTIME, raw) - boot + 2) / 10 * 10,
		       (sec_of(CLOCK_REALTIME, raw) - real + 2) / 10 * 10);
	}
	printf("%s: /proc/uptime %+ld, btime %+ld\n", who, (field("/proc/uptime", "") - up + 2) / 10 * 10,
	       field("/proc/stat", "btime") - btime);
}

static void *thread_fn(void *arg) { return arg; }

int main(void)
{
	char time_link[64], child_link[64], new_link[64], buf[64];
	long mono = sec_of(CLOCK_MONOTONIC, 1), boot = sec_of(CLOCK_BOOTTIME, 1);
	long real = sec_of(CLOCK_REALTIME, 1), up, btime;
	int initial_fd, child_fd, st;
	pthread_t th;

	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there */
	up = field("/proc/uptime", "");
	btime = field("/proc/stat", "btime");
	link_of("time", time_link, sizeof(time_link));
	link_of("time_for_children", child_link, sizeof(child_link));
	printf("time: %s, time_for_children: %s\n", time_link, child_link);
	show_file("/proc/self/timens_offsets");
	write_offsets("in the initial namespace", "monotonic 1 0");
	initial_fd = open("/proc/self/ns/time", O_RDONLY);

	CHECK("unshare(CLONE_NEWTIME)", unshare(CLONE_NEWTIME));
	link_of("time", buf, sizeof(buf));
	printf("time unchanged: %s\n", strcmp(buf, time_link) ? "no" : "yes");
	link_of("time_for_children", new_link, sizeof(new_link));
	printf("time_for_children new: %s\n", strcmp(new_link, child_link) ? "yes" : "no");
	child_fd = open("/proc/self/ns/time_for_children", O_RDONLY);
	write_offsets("realtime", "realtime 1 0");
	write_offsets("2 0 0 (CLOCK_PROCESS_CPUTIME_ID)", "2 0 0");
	write_offsets("a second of nanoseconds", "monotonic 1 1000000000");
	write_offsets("negative nanoseconds", "monotonic 1 -1");
	write_offsets("before the clock's zero", "boottime -100000000 0");
	write_offsets("two clocks", "monotonic 86400 0\n7 172800 5\n");
	write_offsets("three lines", "monotonic 86400 0\nboottime 172800 5\nmonotonic 5 0\n");
	show_file("/proc/self/timens_offsets");
	show_clocks("the caller", mono, boot, real, up, btime);
	errno = pthread_create(&th, NULL, thread_fn, NULL);
	printf("pthread_create: %s\n", errno ? errname(errno) : "0");
	if (!errno)
		pthread_join(th, NULL);
	pid_t pid = vfork();
	if (pid == 0)
		_exit(0);
	printf("vfork: %s\n", pid < 0 ? errname(errno) : "0");
	if (pid > 0)
		waitpid(pid, NULL, 0);

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		link_of("time", buf, sizeof(buf));
		printf("child's time is the parent's time_for_children: %s\n", strcmp(buf, new_link) ? "no" : "yes");
		show_clocks("the child", mono + MONO_OFF, boot + BOOT_OFF, real, up + BOOT_OFF, btime - BOOT_OFF);
		struct timespec t0, t1, until;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		until = t0;
		until.tv_nsec = 0;
		until.tv_sec += 1;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("the child: an absolute sleep on its monotonic clock ends in time: %s\n",
		       t1.tv_sec - t0.tv_sec <= 2 && t1.tv_sec >= until.tv_sec ? "yes" : "no");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	write_offsets("after a task entered", "monotonic 1 0");

	CHECK("setns(time_for_children, CLONE_NEWTIME)", setns(child_fd, CLONE_NEWTIME));
	show_clocks("the caller after setns", mono + MONO_OFF, boot + BOOT_OFF, real, up + BOOT_OFF, btime - BOOT_OFF);
	pthread_create(&th, NULL, thread_fn, NULL);
	pthread_join(th, NULL); /* the thread is gone, but it came */
	CHECK("setns(initial, 0) back", setns(initial_fd, 0));
	show_clocks("the caller back", mono, boot, real, up, btime);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setuid(1000);
		CHECK("user 1000: unshare(CLONE_NEWTIME)", unshare(CLONE_NEWTIME));
		CHECK("user 1000: setns(time_for_children)", setns(child_fd, CLONE_NEWTIME));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return 0;
}
