/*
 * binfmt_misc_modprobe - request_module("binfmt-%04x") as Linux 6.1 makes
 * it (test binfmt_misc_modprobe; bm_setup mounts binfmt_misc first).
 *
 * /proc/sys/kernel/modprobe names /usr/lib/exec-tests/bm_modprobe, which logs each call
 * (argv, environment, ids, descriptors...) to /tmp/modprobe.log. For each
 * file: the exec's result, then what the helper logged, if it was run.
 *   - when it runs: nobody took the file and its first 4 bytes are not
 *     all text (tab and newline count as text); the name comes from bytes
 *     2 and 3; an empty file asks for binfmt-0000;
 *   - what it sees; what an empty or missing modprobe path does;
 *   - the helper registers a binfmt_misc entry and the exec, retried,
 *     succeeds (also when the helper then exits 1);
 *   - a request after a misc rewrite names the interpreter's bytes;
 *   - a caller killed (^C) while the helper runs stops waiting; the
 *     helper goes on alone;
 *   - a helper that is itself unknown: the requests nest until 50 are
 *     under way, the next waits 5 s and fails, and all of them unwind.
 */
#include "bm_common.h"
#include <signal.h>

static void set_modprobe(const char *path)
{
	int fd = open("/proc/sys/kernel/modprobe", O_WRONLY);

	if (fd < 0 || write(fd, path, strlen(path)) < 0)
		printf("set modprobe %s: %s\n", path, errname(errno));
	if (fd >= 0)
		close(fd);
}

static void show_modprobe(void)
{
	char buf[300];
	int fd = open("/proc/sys/kernel/modprobe", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	printf("modprobe is '%.*s'\n", n > 0 ? (int)n - 1 : 0, buf);
	if (fd >= 0)
		close(fd);
}

static void action(const char *what)
{
	put_file("/tmp/modprobe.action", what, strlen(what), 0644);
}

/* What the helper logged, if it ran. */
static void print_log(void)
{
	char buf[4096];
	int fd;
	ssize_t n;

	fd = open("/tmp/modprobe.log", O_RDONLY);
	if (fd < 0) {
		printf("(modprobe not run)\n");
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	printf("%s", buf);
	close(fd);
}

/* Run the file, then print the helper's log. */
static void try(const char *what, const char *path)
{
	char *const argv[] = { "x", "arg", NULL };

	printf("--- %s\n", what);
	unlink("/tmp/modprobe.log");
	run(path, argv);
	print_log();
}

static void file(const char *path, const char *bytes, size_t len)
{
	put_file(path, bytes, len, 0755);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	show_modprobe();
	set_modprobe("/usr/lib/exec-tests/bm_modprobe\n");
	show_modprobe();
	action("log");

	file("/tmp/bin1", "\x01\x02\x03\x04 data", 9);
	try("not text: runs", "/tmp/bin1");
	file("/tmp/bin2", "\x01\x02\x34\x12", 4);
	try("bytes 2 and 3 name it", "/tmp/bin2");
	file("/tmp/text", "abcd\x01\x02", 6);
	try("4 bytes of text: not run", "/tmp/text");
	file("/tmp/tabs", "\t\n a\x01", 5);
	try("tab, newline, space: text", "/tmp/tabs");
	file("/tmp/del", "abc\x7f", 4);
	try("DEL is not text", "/tmp/del");
	file("/tmp/high", "ab\xe9t", 4);
	try("a byte over 0x7e is not text", "/tmp/high");
	file("/tmp/empty", "", 0);
	try("an empty file", "/tmp/empty");
	file("/tmp/short", "ab", 2);
	try("a 2-byte file", "/tmp/short");
	file("/tmp/elf32", "\x7f" "ELF\x01\x01\x01", 7);
	try("a 32-bit ELF header", "/tmp/elf32");

	set_modprobe("\n");
	show_modprobe();
	try("empty modprobe path: not run", "/tmp/bin1");
	set_modprobe("/nonexistent");
	try("missing modprobe", "/tmp/bin1");
	set_modprobe("/tmp/text");
	try("modprobe not executable", "/tmp/bin1");
	set_modprobe("/usr/lib/exec-tests/bm_modprobe");

	file("/tmp/rt", "\x01\x02RT payload", 12);
	action("exit1");
	try("helper exits 1: one request, ENOEXEC", "/tmp/rt");
	action("register");
	try("helper registers an entry: the retry succeeds", "/tmp/rt");
	bm_clear();
	action("register exit1");
	try("registers, then exits 1: retried all the same", "/tmp/rt");
	bm_clear();
	action("log");

	bm_register(":t:M::BMT1::/tmp/bin2:");
	file("/tmp/prog", "BMT1", 4);
	try("after a misc rewrite: the interpreter's bytes", "/tmp/prog");
	bm_clear();

	/* The exec waits for the helper, but a signal that kills it ends the
	 * wait; the helper goes on alone. */
	action("sleep");
	printf("--- the caller is killed while modprobe runs\n");
	unlink("/tmp/modprobe.log");
	{
		char *const argv[] = { "x", NULL };
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			execve("/tmp/bin1", argv, NULL);
			printf("exec /tmp/bin1: %s\n", errname(errno));
			_exit(0);
		}
		sleep(1);
		kill(pid, SIGINT);
		waitpid(pid, &status, 0);
		printf("the caller: %s %d\n", WIFSIGNALED(status) ? "signal" : "exit",
		       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		sleep(4);
		print_log();
	}
	action("log");

	set_modprobe("/tmp/bin1");
	try("modprobe itself unknown: nested requests, all fail", "/tmp/bin2");
	set_modprobe("/sbin/modprobe");
	show_modprobe();
	printf("still here\n");
	return 0;
}
