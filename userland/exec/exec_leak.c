/*
 * exec_leak N - prove that failed execs leak no memory, whichever step
 * they fail at.
 *
 * In this one process (no fork), runs N rounds of execve calls that all
 * fail: a missing file, a device, an empty file, a string too long, a bad
 * pointer inside argv, a missing interpreter (after the argv rewrite), and
 * ./wrapper6 (six rewrites, then ELOOP). 10 rounds warm up first; free
 * memory (sysinfo) is compared before and after the N rounds:
 *   free memory before and after N rounds of failed execs: same
 * Run from /usr/lib/exec-tests (init's working directory for a test), where
 * the wrapper scripts are.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "leakcheck.h"
#include <unistd.h>

static char *big;

static void round_of_failures(void)
{
	char *argv[] = { "x", NULL };
	char *big_argv[] = { "/usr/lib/exec-tests/true", big, NULL };
	char *bad_argv[] = { "/usr/lib/exec-tests/true", (char *)1, NULL };

	syscall(SYS_execve, "/no/such/file", argv, NULL);
	syscall(SYS_execve, "/dev/null", argv, NULL);
	syscall(SYS_execve, "/tmp/exec_leak.empty", argv, NULL);
	syscall(SYS_execve, "/usr/lib/exec-tests/true", big_argv, NULL);
	syscall(SYS_execve, "/usr/lib/exec-tests/true", bad_argv, NULL);
	syscall(SYS_execve, "/tmp/exec_leak.noint", argv, NULL);
	syscall(SYS_execve, "./wrapper6", argv, NULL);
}

int main(int argc, char *argv[])
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	long long before, after;
	int fd;

	if (n <= 0) {
		fprintf(stderr, "usage: exec_leak N\n");
		return 2;
	}
	big = malloc(131073);
	memset(big, 'x', 131072);
	big[131072] = '\0';
	fd = open("/tmp/exec_leak.empty", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	close(fd);
	fd = open("/tmp/exec_leak.noint", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (write(fd, "#!/no/such/interpreter\n", 23) != 23)
		return 1;
	close(fd);

	for (int i = 0; i < 10; i++)
		round_of_failures();
	before = free_kib();
	for (long i = 0; i < n; i++)
		round_of_failures();
	after = free_kib();
	int leaked = report_free(before, after, n, "rounds of failed execs");
	unlink("/tmp/exec_leak.empty");
	unlink("/tmp/exec_leak.noint");
	return leaked;
}
