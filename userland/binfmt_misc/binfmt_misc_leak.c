/*
 * binfmt_misc_leak N - free memory is the same before and after N cycles
 * of binfmt_misc use (test binfmt_misc_leak, ours only: Linux's free
 * memory moves from boot to boot). Each cycle:
 *   - registers an entry, with no flags, P, O, F or POCF in turn;
 *   - runs a program through it (fork, exec, wait; output to /dev/null);
 *   - fails an exec after the misc rewrite (a missing interpreter);
 *   - runs an unknown binary, so that request_module runs the helper
 *     (/proc/sys/kernel/modprobe is /usr/lib/exec-tests/bm_interp here: it has no output);
 *   - removes the entry, by its file or by status, one cycle in two with
 *     the entry's file still open.
 * 10 cycles warm up first.
 */
#include "bm_common.h"
#include "leakcheck.h"

static const char *flags[] = { "", "P", "O", "F", "POCF" };

static void cycle(int i)
{
	char entry[64], *const argv[] = { "x", NULL };
	int fd = -1, status;
	pid_t pid;

	snprintf(entry, sizeof(entry), ":leak:M::BMT1::/usr/lib/exec-tests/bm_interp:%s", flags[i % 5]);
	bm_register(entry);
	bm_register(":gone:M::BMT2::/nonexistent:");
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execve("/tmp/prog", argv, NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		printf("cycle %d: status 0x%x\n", i, status);
	if (execve("/tmp/prog2", argv, NULL) == 0 || errno != ENOENT)
		printf("cycle %d: exec through a missing interpreter: %s\n", i, errname(errno));
	if (execve("/tmp/unknown", argv, NULL) == 0 || errno != ENOEXEC)
		printf("cycle %d: exec of an unknown binary: %s\n", i, errname(errno));
	if (i % 2)
		fd = open(BM_DIR "/leak", O_RDONLY);
	if (i % 3)
		bm_write("leak", "-1");
	bm_clear();
	if (fd >= 0)
		close(fd);
}

int main(int argc, char *argv[])
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	long long before, after;
	int fd;

	if (n <= 0) {
		fprintf(stderr, "usage: binfmt_misc_leak N\n");
		return 2;
	}
	put_file("/tmp/prog", "BMT1", 4, 0755);
	put_file("/tmp/prog2", "BMT2", 4, 0755);
	put_file("/tmp/unknown", "\x01\x02\x03\x04", 4, 0755);
	fd = open("/proc/sys/kernel/modprobe", O_WRONLY);
	if (fd < 0 || write(fd, "/usr/lib/exec-tests/bm_interp", 10) != 10)
		printf("modprobe: %s\n", errname(errno));
	close(fd);
	for (int i = 0; i < 10; i++)
		cycle(i);
	before = free_kib();
	for (long i = 0; i < n; i++)
		cycle(i);
	after = free_kib();
	return report_free(before, after, n, "binfmt_misc cycles");
}
