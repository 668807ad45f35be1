/*
 * argmax - the limits test of lab 03 (labs/03-stack): how much argv and
 * envp may hold. Each line execs /usr/lib/exec-tests/true in a child with strings of a given
 * size and says "ok" (the exec worked: /usr/lib/exec-tests/true exited 0) or the errno:
 *   - one string may take 128 KiB with its NUL (MAX_ARG_STRLEN), not a
 *     byte more, in argv as in envp;
 *   - all of them, with their pointers, a quarter of RLIMIT_STACK (2 MiB
 *     of the default 8 MiB), and never more than 6 MiB;
 *   - under a smaller RLIMIT_STACK, a quarter of that, but at least
 *     128 KiB (ARG_MAX).
 * The exact byte of the 2 MiB limit is exec_limits's business; here the
 * sizes are well inside or well outside each limit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define KIB 1024L

static char *block(long len) /* a string of len bytes with its NUL */
{
	char *s = malloc(len);

	memset(s, 'x', len - 1);
	s[len - 1] = '\0';
	return s;
}

/* exec /usr/lib/exec-tests/true with n copies of a len-byte string in argv (or envp). */
static void try(const char *what, long n, long len, int in_env, long stack)
{
	char **strs = calloc(n + 2, sizeof(char *));
	char *s = block(len), *none[] = { NULL };
	int status, fds[2];
	pid_t pid;

	strs[0] = "/usr/lib/exec-tests/true";
	for (long i = 0; i < n; i++)
		strs[i + (in_env ? 0 : 1)] = s;
	if (in_env)
		strs[n] = NULL;
	pipe(fds);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "/usr/lib/exec-tests/true", NULL };
		int err;

		if (stack) {
			struct rlimit r = { stack, stack };
			setrlimit(RLIMIT_STACK, &r);
		}
		if (in_env)
			execve("/usr/lib/exec-tests/true", argv, strs);
		else
			execve("/usr/lib/exec-tests/true", strs, none);
		err = errno;
		write(fds[1], &err, sizeof(err));
		_exit(1);
	}
	close(fds[1]);
	int err = 0;
	read(fds[0], &err, sizeof(err));
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (err)
		printf("%s: %s\n", what, err == E2BIG ? "E2BIG" : strerror(err));
	else
		printf("%s: %s\n", what, WIFEXITED(status) && !WEXITSTATUS(status) ? "ok" : "killed");
	free(s);
	free(strs);
}

int main(void)
{
	try("argv[1] of 128 KiB with its NUL", 1, 128 * KIB, 0, 0);
	try("argv[1] of 128 KiB + 1", 1, 128 * KIB + 1, 0, 0);
	try("envp[0] of 128 KiB with its NUL", 1, 128 * KIB, 1, 0);
	try("envp[0] of 128 KiB + 1", 1, 128 * KIB + 1, 1, 0);
	try("argv of 400 strings of 4 KiB (1.6 MiB)", 400, 4 * KIB, 0, 0);
	try("argv of 600 strings of 4 KiB (2.4 MiB)", 600, 4 * KIB, 0, 0);
	try("envp of 600 strings of 4 KiB (2.4 MiB)", 600, 4 * KIB, 1, 0);
	try("argv of 1.6 MiB under a 4 MiB stack limit", 400, 4 * KIB, 0, 4096 * KIB);
	try("argv of 900 KiB under a 4 MiB stack limit", 225, 4 * KIB, 0, 4096 * KIB);
	try("argv of 100 KiB under a 256 KiB stack limit (ARG_MAX)", 25, 4 * KIB, 0, 256 * KIB);
	try("argv of 200 KiB under a 256 KiB stack limit", 50, 4 * KIB, 0, 256 * KIB);
	try("argv of 7 MiB under a 64 MiB stack limit (6 MiB at most)", 1792, 4 * KIB, 0, 65536 * KIB);
	try("argv of 5 MiB under a 64 MiB stack limit", 1280, 4 * KIB, 0, 65536 * KIB);
	return 0;
}
