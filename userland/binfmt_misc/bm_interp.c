/*
 * bm_interp - an interpreter for the binfmt_misc tests: prints what exec
 * gave it, in lines that are the same on Linux and on our kernel:
 *
 *   bm_interp: argv[0] = '/usr/lib/exec-tests/bm_interp'     each argument
 *   bm_interp: AT_FLAGS 0x1               (1: binfmt_misc 'P')
 *   bm_interp: AT_EXECFD 3: 'BMT1' /tmp/a (binfmt_misc 'O': the fd, the
 *                                          first bytes read through it,
 *                                          where /proc/self/fd/N points)
 *   bm_interp: AT_EXECFN '/tmp/a' comm 'a' exe /usr/lib/exec-tests/bm_interp
 *   bm_interp: fds 0 1 2 3                the descriptors open
 *
 * /proc must be mounted for the fd and exe links ("?" otherwise).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef AT_EXECFD
#define AT_EXECFD 2
#endif

static void link_of(const char *path, char *buf, size_t size)
{
	ssize_t n = readlink(path, buf, size - 1);

	if (n < 0)
		n = snprintf(buf, size, "?");
	buf[n] = '\0';
}

int main(int argc, char *argv[])
{
	char comm[17] = "", exe[256], path[64], target[256];
	unsigned long execfd;

	for (int i = 0; i < argc; i++)
		printf("bm_interp: argv[%d] = '%s'\n", i, argv[i]);
	printf("bm_interp: AT_FLAGS 0x%lx\n", getauxval(AT_FLAGS));
	execfd = getauxval(AT_EXECFD);
	if (execfd) {
		char head[5] = "";
		ssize_t n = pread((int)execfd, head, 4, 0);

		snprintf(path, sizeof(path), "/proc/self/fd/%lu", execfd);
		link_of(path, target, sizeof(target));
		printf("bm_interp: AT_EXECFD %lu: '%s' %s, close-on-exec %d\n", execfd,
		       n > 0 ? head : "(unreadable)", target, fcntl((int)execfd, F_GETFD) & FD_CLOEXEC);
	}
	prctl(PR_GET_NAME, comm);
	link_of("/proc/self/exe", exe, sizeof(exe));
	printf("bm_interp: AT_EXECFN '%s' comm '%s' exe %s\n", (char *)getauxval(AT_EXECFN), comm, exe);
	printf("bm_interp: fds");
	for (int fd = 0; fd < 16; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			printf(" %d", fd);
	printf("\n");
	return 0;
}
