/*
 * misaligned - system calls whose structures sit at odd addresses work as
 * on Linux: poll's pollfd array, capget's and capset's header. The kernel
 * reached their fields through misaligned struct pointers, undefined
 * behaviour that the sanitized kernel (make SANITIZE=ubsan) reported when
 * sysfuzz did it; this test then fails on a UBSAN line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Linux's capget/capset structures (linux/capability.h). */
#define _LINUX_CAPABILITY_VERSION_3 0x20080522
struct __user_cap_header_struct {
	uint32_t version;
	int pid;
};
struct __user_cap_data_struct {
	uint32_t effective, permitted, inheritable;
};

static char raw[256] __attribute__((aligned(16)));

int main(void)
{
	int p[2];

	if (pipe(p))
		return 1;
	struct pollfd pfd = { .fd = p[1], .events = POLLOUT };
	memcpy(raw + 3, &pfd, sizeof(pfd));
	printf("poll, pollfd at an odd address: %d\n", poll((struct pollfd *)(raw + 3), 1, 0));
	memcpy(&pfd, raw + 3, sizeof(pfd));
	printf("revents: %#x\n", pfd.revents);

	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	memcpy(raw + 33, &hdr, sizeof(hdr));
	long r = syscall(SYS_capget, raw + 33, data);
	printf("capget, header at an odd address: %ld, effective %#x\n", r, r ? 0 : data[0].effective);
	hdr.version = 0x12345678;
	memcpy(raw + 65, &hdr, sizeof(hdr));
	r = syscall(SYS_capget, raw + 65, NULL);
	memcpy(&hdr, raw + 65, sizeof(hdr));
	printf("capget, bad version: %s, version now %#x\n", r ? strerror(errno) : "0", hdr.version);
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	memcpy(raw + 97, &hdr, sizeof(hdr));
	r = syscall(SYS_capset, raw + 97, data);
	printf("capset, header at an odd address: %s\n", r ? strerror(errno) : "0");
	return 0;
}
