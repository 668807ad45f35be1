/*
 * exec_trace_switch - turns the exec trace on and off at run time through
 * /proc/sys/fs/exectrace (our kernel only: Linux has no exec trace), and
 * runs a program in between, so that a test can look for its trace.
 *   exec_trace_switch PROGRAM
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

static int set_trace(const char *value)
{
	int fd = open("/proc/sys/fs/exectrace", O_WRONLY);
	if (fd < 0 || write(fd, value, 1) != 1) {
		printf("/proc/sys/fs/exectrace: %s\n", strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

static void show_trace_state(void)
{
	char c = '?';
	int fd = open("/proc/sys/fs/exectrace", O_RDONLY);
	if (fd >= 0 && read(fd, &c, 1) == 1)
		printf("exectrace is %c\n", c);
	if (fd >= 0)
		close(fd);
}

static void run(char *prog)
{
	char *argv[] = { prog, NULL };
	pid_t pid = fork();
	if (pid == 0) {
		execv(prog, argv);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

int main(int argc, char *argv[])
{
	if (argc < 2)
		return 2;
	if (mount("proc", "/proc", "proc", 0, NULL) && errno != EBUSY)
		printf("mount /proc: %s\n", strerror(errno));
	show_trace_state();
	if (set_trace("1"))
		return 1;
	show_trace_state();
	run(argv[1]);
	set_trace("0");
	show_trace_state();
	run(argv[1]);
	return 0;
}
