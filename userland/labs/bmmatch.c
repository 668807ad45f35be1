/*
 * bmmatch - the matching test of lab 04 (labs/04-binfmt_misc): which
 * registered entry, if any, runs a file. Run after /usr/lib/exec-tests/bm_setup (binfmt_misc
 * mounted). Entries are registered, files made, and each file is run in a
 * child; the interpreter is /usr/lib/exec-tests/echoargs, which prints its argv, so the
 * output shows which entry matched and how argv was rewritten (or the
 * errno: ENOEXEC when no entry matches). The files are plain data: no
 * "#!" line and no ELF header, so only binfmt_misc can run them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BM "/proc/sys/fs/binfmt_misc/"

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		printf("write %s to %s: %s\n", text, path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void make(const char *path, const char *bytes, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);

	if (fd < 0 || write(fd, bytes, n) != (ssize_t)n)
		printf("make %s: %s\n", path, strerror(errno));
	close(fd);
}

static void run(const char *path)
{
	char *argv[] = { "zero", "x", NULL };
	char *envp[] = { NULL };
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execve(path, argv, envp);
		printf("exec %s: %s\n", path, errno == ENOEXEC ? "ENOEXEC" : strerror(errno));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
}

int main(void)
{
	mkdir("/tmp/l4", 0755);
	mkdir("/tmp/l4/d.lab", 0755);
	make("/tmp/l4/magic", "LAB4 data", 9);
	make("/tmp/l4/other", "BAL4 data", 9);
	make("/tmp/l4/offset", "....MID.", 8);
	make("/tmp/l4/maskA", "OA", 2);
	make("/tmp/l4/maskB", "PA", 2);
	make("/tmp/l4/maskC", "\x0fZ", 2);
	make("/tmp/l4/maskD", "\x0eZ", 2);
	make("/tmp/l4/prog.lab", "data", 4);
	make("/tmp/l4/prog.labx", "data", 4);
	make("/tmp/l4/d.lab/prog", "data", 4);

	puts("--- magic at offset 0");
	put(BM "register", ":magic:M::LAB4::/usr/lib/exec-tests/echoargs:");
	run("/tmp/l4/magic");
	run("/tmp/l4/other");
	puts("--- magic at offset 4");
	put(BM "register", ":offset:M:4:MID::/usr/lib/exec-tests/echoargs:");
	run("/tmp/l4/offset");
	puts("--- magic with a mask: \\x40A under \\xf0\\xff");
	put(BM "register", ":mask:M::\\x40A:\\xf0\\xff:/usr/lib/exec-tests/echoargs:");
	run("/tmp/l4/maskA");
	run("/tmp/l4/maskB");
	/* Magic is not masked: \x0f matches \xff under \x0f, because
	 * (file ^ magic) & mask is 0; (file & mask) == magic would be false. */
	puts("--- a mask that clears bits of magic: \\xffZ under \\x0f\\xff");
	put(BM "register", ":maskw:M::\\xffZ:\\x0f\\xff:/usr/lib/exec-tests/echoargs:");
	run("/tmp/l4/maskC");
	run("/tmp/l4/maskD");
	puts("--- an extension");
	put(BM "register", ":ext:E::lab::/usr/lib/exec-tests/echoargs:P");
	run("/tmp/l4/prog.lab");
	run("/tmp/l4/prog.labx");
	run("/tmp/l4/d.lab/prog");
	puts("--- a disabled entry is not used");
	put(BM "ext", "0");
	run("/tmp/l4/prog.lab");
	put(BM "ext", "1");
	puts("--- two entries match: the newest wins");
	put(BM "register", ":newer:M::LAB::/usr/lib/exec-tests/echoargs:P");
	run("/tmp/l4/magic");
	puts("--- removed");
	put(BM "newer", "-1");
	put(BM "magic", "-1");
	put(BM "mask", "-1");
	put(BM "maskw", "-1");
	run("/tmp/l4/magic");
	put(BM "offset", "-1");
	put(BM "ext", "-1");
	return 0;
}
