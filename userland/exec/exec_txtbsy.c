/*
 * exec_txtbsy - a running program cannot be opened for writing (ETXTBSY),
 * and it can again once the program has exited. Works on a copy of itself
 * in /tmp, so that the file's whole life can be watched.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void try_write_open(const char *when, const char *path)
{
	int fd = open(path, O_WRONLY);
	printf("open for writing %s: %s\n", when, fd >= 0 ? "ok" : strerror(errno));
	if (fd >= 0)
		close(fd);
}

static int copy_file(const char *from, const char *to)
{
	char buf[4096];
	ssize_t n;
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);

	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return -1;
	close(in);
	close(out);
	return 0;
}

int main(int argc, char *argv[])
{
	const char *copy = "/tmp/txtbsy_copy";
	struct timespec ts = { 0, 100 * 1000000L };
	int status;

	if (argc > 1 && !strcmp(argv[1], "child")) {
		pause();
		return 0;
	}
	if (copy_file(argv[0], copy)) {
		perror("copy");
		return 1;
	}
	try_write_open("before it runs", copy);
	pid_t pid = fork();
	if (pid == 0) {
		execl(copy, copy, "child", (char *)NULL);
		_exit(127);
	}
	nanosleep(&ts, NULL);
	try_write_open("while it runs", copy);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	try_write_open("after it exited", copy);
	unlink(copy);
	return 0;
}
