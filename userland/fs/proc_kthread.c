/*
 * proc_kthread - pid 2, kthreadd, as /proc and the process calls show it,
 * compared with Linux: the kernel thread's stat fields and flags, its
 * status lines, no command line, memory, executable or files, and every
 * signal ignored (kill succeeds for root and changes nothing).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case ESRCH: return "ESRCH";
	default: return "E?";
	}
}

/* Fields 1 to 9 of /proc/2/stat and how many there are. */
static void show_stat(const char *when)
{
	char buf[1024], comm[32], state;
	int pid, ppid, pgrp, sid, tty, tpgid, n = 0;
	unsigned int flags;
	FILE *f = fopen("/proc/2/stat", "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		printf("%s: /proc/2/stat: %s\n", when, errname(errno));
		return;
	}
	fclose(f);
	sscanf(buf, "%d %31s %c %d %d %d %d %d %u", &pid, comm, &state, &ppid, &pgrp, &sid, &tty, &tpgid, &flags);
	for (char *p = strrchr(buf, ')'); p && *p; p++)
		n += *p == ' ';
	printf("%s: pid %d comm %s state %c ppid %d pgrp %d sid %d tty %d tpgid %d flags %#x, %d fields\n",
	       when, pid, comm, state, ppid, pgrp, sid, tty, tpgid, flags, n + 1);
}

static void show_status(void)
{
	static const char *const keep[] = { "Name:", "State:", "Tgid:", "Pid:", "PPid:", "Uid:", "Gid:",
					    "FDSize:", "Threads:", "VmSize:", "VmRSS:", NULL };
	char line[256];
	FILE *f = fopen("/proc/2/status", "r");

	while (f && fgets(line, sizeof(line), f))
		for (int i = 0; keep[i]; i++)
			if (!strncmp(line, keep[i], strlen(keep[i])))
				printf("status: %s", line);
	if (f)
		fclose(f);
}

static void show_size(const char *file)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/2/%s", file);
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("%s: open: %s\n", file, errname(errno));
		return;
	}
	ssize_t n = read(fd, buf, sizeof(buf));
	printf("%s: read %zd%s\n", file, n, n < 0 ? errname(errno) : "");
	close(fd);
}

static void show_fd_dir(void)
{
	DIR *d = opendir("/proc/2/fd");
	struct dirent *e;
	int n = 0;

	if (!d) {
		printf("fd: opendir: %s\n", errname(errno));
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	printf("fd: %d entries\n", n);
}

static void signals(void)
{
	static const int sigs[] = { SIGTERM, SIGSTOP, SIGKILL, SIGCONT, 0 };
	for (int i = 0; i < 5; i++)
		printf("kill(2, %d): %s\n", sigs[i], kill(2, sigs[i]) < 0 ? errname(errno) : "0");
	pid_t pid = fork();
	if (pid == 0) {
		setuid(1000);
		printf("user 1000: kill(2, SIGTERM): %s\n", kill(2, SIGTERM) < 0 ? errname(errno) : "0");
		printf("user 1000: kill(2, 0): %s\n", kill(2, 0) < 0 ? errname(errno) : "0");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

int main(void)
{
	char buf[256];

	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there */
	show_stat("at start");
	show_status();
	show_size("cmdline");
	show_size("environ");
	show_size("maps");
	show_size("statm");
	show_fd_dir();
	ssize_t n = readlink("/proc/2/exe", buf, sizeof(buf));
	printf("exe: %s\n", n < 0 ? errname(errno) : "a file");
	printf("getpgid(2) %d getsid(2) %d\n", getpgid(2), getsid(2));
	signals();
	usleep(100000);
	show_stat("after the signals");
	return 0;
}
