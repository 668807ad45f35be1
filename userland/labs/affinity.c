/*
 * affinity - the user side of lab 01 (labs/01-syscall): calls
 * sched_getaffinity(2) directly, with syscall(2), so that what is printed
 * is the kernel's answer (the C library's wrapper changes the return
 * value), and checks it the way a test must: the return value, the mask,
 * and the errno of each kind of bad argument.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void show(const char *what, long ret)
{
	if (ret < 0)
		printf("%s: -1 %s\n", what, strerror(errno));
	else
		printf("%s: %ld\n", what, ret);
}

int main(void)
{
	unsigned long mask[16];
	long ret;

	memset(mask, 0xff, sizeof(mask));
	ret = syscall(SYS_sched_getaffinity, 0, sizeof(mask), mask);
	show("sched_getaffinity(0, 128, mask)", ret);
	if (ret > 0) {
		printf("mask[0] = %#lx\n", mask[0]);
		/* Bytes past the returned size are not written. */
		printf("mask[%ld] untouched: %s\n", ret / 8,
		       mask[ret / 8] == ~0UL ? "yes" : "no");
	}
	ret = syscall(SYS_sched_getaffinity, getpid(), 8, mask);
	show("sched_getaffinity(getpid(), 8, mask)", ret);
	show("len 0", syscall(SYS_sched_getaffinity, 0, 0, mask));
	show("len 4", syscall(SYS_sched_getaffinity, 0, 4, mask));
	show("len 12", syscall(SYS_sched_getaffinity, 0, 12, mask));
	show("pid 99999", syscall(SYS_sched_getaffinity, 99999, 8, mask));
	show("pid -1", syscall(SYS_sched_getaffinity, -1, 8, mask));
	show("mask NULL", syscall(SYS_sched_getaffinity, 0, 8, NULL));
	show("mask at 8", syscall(SYS_sched_getaffinity, 0, 8, (void *)8));
	/* The C library's own use of it: how many CPUs are online. */
	printf("sysconf(_SC_NPROCESSORS_ONLN) = %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	return 0;
}
