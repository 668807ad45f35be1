/*
 * execveat_leak N - prove that execveat and fexecve leak no memory, when
 * they work and when they fail.
 *
 * A round: children that fexecve /usr/lib/exec-tests/true, execveat it from a directory
 * descriptor, fexecve a "#!/usr/lib/exec-tests/true" script (its interpreter gets /dev/fd/N),
 * run a set-user-ID 1000 copy of /usr/lib/exec-tests/true (new credentials are made and
 * installed); then, in this process, execveat calls that fail: a
 * close-on-exec script (ENOENT), bad flags (EINVAL), a symlink with
 * AT_SYMLINK_NOFOLLOW (ELOOP), a file without x bits (EACCES), a bad argv
 * (EFAULT). 10 rounds warm up; free memory (sysinfo) before and after N
 * more rounds must be the same:
 *   free memory before and after N rounds of execveat and fexecve: same
 */
#include "exectest.h"
#include "leakcheck.h"

static char *argv_true[] = { "true", NULL };
static char *envp[] = { NULL };
static char **volatile bad_argv = (char **)8; /* a pointer that faults */
static int tests_fd, true_fd, script_fd, cloexec_script_fd, noexec_fd;

/* Run one exec in a child; it must exit 0. */
static void child(int dfd, const char *path, int flags)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		xexecveat(dfd, path, argv_true, envp, flags);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || status != 0) {
		say("execveat(%d, \"%s\", %d) in a child: status %d\n", dfd, path, flags, status);
		exit(1);
	}
}

static void round_of_execs(void)
{
	child(true_fd, "", AT_EMPTY_PATH);
	child(tests_fd, "true", 0);
	child(script_fd, "", AT_EMPTY_PATH);
	child(AT_FDCWD, "/tmp/leak/suid1000", 0);
	xexecveat(cloexec_script_fd, "", argv_true, envp, AT_EMPTY_PATH);
	xexecveat(true_fd, "", argv_true, envp, 0xffff);
	xexecveat(AT_FDCWD, "/tmp/leak/link", argv_true, envp, AT_SYMLINK_NOFOLLOW);
	xexecveat(noexec_fd, "", argv_true, envp, AT_EMPTY_PATH);
	xexecveat(tests_fd, "true", bad_argv, envp, 0);
}

int main(int argc, char *argv[])
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	long long before, after;

	if (n <= 0) {
		fprintf(stderr, "usage: execveat_leak N\n");
		return 2;
	}
	mount_proc();
	mkdir("/tmp/leak", 0755);
	copy_file("/usr/lib/exec-tests/true", "/tmp/leak/suid1000", 0755);
	chown("/tmp/leak/suid1000", 1000, 1000);
	chmod("/tmp/leak/suid1000", 04755);
	copy_file("/usr/lib/exec-tests/true", "/tmp/leak/noexec", 0644);
	symlink("/usr/lib/exec-tests/true", "/tmp/leak/link");
	tests_fd = open("/usr/lib/exec-tests", O_RDONLY | O_DIRECTORY);
	true_fd = open("/usr/lib/exec-tests/true", O_RDONLY);
	script_fd = open("/usr/lib/exec-tests/true_script", O_RDONLY);
	cloexec_script_fd = open("/usr/lib/exec-tests/true_script", O_RDONLY | O_CLOEXEC);
	noexec_fd = open("/tmp/leak/noexec", O_RDONLY);

	for (int i = 0; i < 10; i++)
		round_of_execs();
	before = free_kib();
	for (long i = 0; i < n; i++)
		round_of_execs();
	after = free_kib();
	report_free(before, after, n, "rounds of execveat and fexecve");
	return 0;
}
