/*
 * lkdtm - crash the kernel on purpose: writes its argument (EXEC_DATA,
 * ACCESS_USERSPACE, EXHAUST_STACK ...: see drivers/misc/lkdtm.c) to
 * /proc/provoke-crash, as "echo EXEC_DATA > .../provoke-crash" does on
 * Linux. The protection under test must stop the kernel with an oops.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	if (argc < 2 || !argv[1][0]) {
		fprintf(stderr, "usage: lkdtm CRASHTYPE\n");
		return 2;
	}
	if (mount("proc", "/proc", "proc", 0, NULL) && errno != EBUSY)
		printf("mount /proc: %s\n", strerror(errno));
	int fd = open("/proc/provoke-crash", O_WRONLY);
	size_t len = strlen(argv[1]);
	if (fd < 0 || write(fd, argv[1], len) != (ssize_t)len) {
		printf("/proc/provoke-crash: %s\n", strerror(errno));
		return 1;
	}
	printf("still running after %s\n", argv[1]);
	return 0;
}
