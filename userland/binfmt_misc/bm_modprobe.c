/*
 * bm_modprobe - a stand-in for modprobe, for the request_module tests: the
 * kernel runs it (through /proc/sys/kernel/modprobe) when exec finds no
 * handler for a file that does not look like text. It appends what it was
 * given to /tmp/modprobe.log: argv, the environment, ids, session, working
 * directory, umask, which descriptors were open, the signal mask.
 *
 * What else it does is read from /tmp/modprobe.action:
 *   register   register the binfmt_misc entry "retry" for files starting
 *              "\x01\x02RT", so that the retried exec finds a handler
 *   exit1      exit with status 1 (after registering, if both are named)
 *   sleep      sleep 3 seconds, then log "slept"
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char *argv[])
{
	char fds[64] = "", action[64] = "", cwd[256];
	sigset_t blocked;
	mode_t mask = umask(0);
	FILE *log;
	int fd;

	/* Before anything is opened: what the kernel left open. */
	for (fd = 0; fd < 8; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			snprintf(fds + strlen(fds), sizeof(fds) - strlen(fds), " %d", fd);
	sigprocmask(SIG_BLOCK, NULL, &blocked);

	log = fopen("/tmp/modprobe.log", "a");
	if (!log)
		return 2;
	fprintf(log, "modprobe: argv");
	for (int i = 0; i < argc; i++)
		fprintf(log, " '%s'", argv[i]);
	fprintf(log, "\nmodprobe: env");
	for (char **e = environ; *e; e++)
		fprintf(log, " '%s'", *e);
	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "?");
	fprintf(log, "\nmodprobe: uid %d gid %d euid %d sid %d pgrp %d cwd %s umask %03o\n", getuid(),
		getgid(), geteuid(), getsid(0), getpgrp(), cwd, mask);
	fprintf(log, "modprobe: fds open:%s; signals blocked: %s\n", fds[0] ? fds : " none",
		sigisemptyset(&blocked) ? "none" : "some");
	fclose(log);

	fd = open("/tmp/modprobe.action", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, action, sizeof(action) - 1);

		action[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	if (strstr(action, "register")) {
		static const char entry[] = ":retry:M::\\x01\\x02RT::/usr/lib/exec-tests/bm_interp:";

		fd = open("/proc/sys/fs/binfmt_misc/register", O_WRONLY);
		if (fd >= 0) {
			if (write(fd, entry, sizeof(entry) - 1) < 0)
				return 3;
			close(fd);
		}
	}
	if (strstr(action, "sleep")) {
		sleep(3);
		log = fopen("/tmp/modprobe.log", "a");
		if (log) {
			fprintf(log, "modprobe: slept\n");
			fclose(log);
		}
	}
	return strstr(action, "exit1") ? 1 : 0;
}
