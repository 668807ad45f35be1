/*
 * sysrq - writes its argument to /proc/sysrq-trigger, as
 * "echo c > /proc/sysrq-trigger" does: 'c' makes the kernel crash on
 * purpose (to see its oops report), 'o' powers off, 'b' reboots.
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
		fprintf(stderr, "usage: sysrq KEY\n");
		return 2;
	}
	if (mount("proc", "/proc", "proc", 0, NULL) && errno != EBUSY)
		printf("mount /proc: %s\n", strerror(errno));
	int fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (fd < 0 || write(fd, argv[1], 1) != 1) {
		printf("/proc/sysrq-trigger: %s\n", strerror(errno));
		return 1;
	}
	printf("still running after sysrq %c\n", argv[1][0]);
	return 0;
}
