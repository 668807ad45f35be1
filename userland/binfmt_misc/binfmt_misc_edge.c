/*
 * binfmt_misc_edge - binfmt_misc at its edges, against Linux 6.1 (test
 * binfmt_misc_edge; bm_setup mounts the filesystem first):
 *
 *   1. E entries and names: several dots, a dot in a directory, a name
 *      that ends in a dot, a symlink (the name used counts, not the
 *      target's), execveat's /dev/fd/N/NAME and its AT_EMPTY_PATH;
 *   2. M entries at the end of the 256 bytes exec reads: offset + size of
 *      exactly 256 is allowed and matches, 257 is not;
 *   3. an interpreter that, while it runs through an entry, removes that
 *      entry and registers another (its F file then stays closed to
 *      writers, as any running program's);
 *   4. a relative interpreter: looked up from the working directory at
 *      each exec, or, with F, once at registration.
 *
 * It is also its own interpreter: run with argv[1] a /tmp/rN program, it
 * does step 3's work (see interp_mode).
 */
#include "bm_common.h"
#include <sys/syscall.h>

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

static void step(const char *what)
{
	printf("--- %s\n", what);
}

static void reg(const char *s)
{
	printf("register %s: %s\n", s, errname(bm_write("register", s)));
}

static char *const ARGV[] = { "arg0", "x", NULL };

/* execveat(dirfd, name, flags) in a child, reported as run() does. */
static void run_at(int dirfd, const char *name, int flags)
{
	int status;

	fflush(stdout);
	if (fork() == 0) {
		static char *const envp[] = { "BM=1", NULL };

		syscall(SYS_execveat, dirfd, name, ARGV, envp, flags);
		printf("execveat '%s': %s\n", name, errname(errno));
		fflush(stdout);
		_exit(127);
	}
	wait(&status);
}

static void extensions(void)
{
	int dfd, fd;

	step("E: the extension is what follows the name's last dot");
	mkdir("/tmp/e", 0755);
	mkdir("/tmp/e/d.c", 0755);
	put_file("/tmp/e/a.b.c", "text\n", 5, 0755);
	put_file("/tmp/e/a.c.b", "text\n", 5, 0755);
	put_file("/tmp/e/d.c/prog", "text\n", 5, 0755);
	put_file("/tmp/e/x.", "text\n", 5, 0755);
	put_file("/tmp/e/.c", "text\n", 5, 0755);
	symlink("a.c.b", "/tmp/e/link.c");
	symlink("a.b.c", "/tmp/e/plain");
	reg(":dots:E::b.c::/usr/lib/exec-tests/bm_interp:");
	reg(":ext:E::c::/usr/lib/exec-tests/bm_interp:");
	bm_show("dots");
	const char *names[] = { "/tmp/e/a.b.c", "/tmp/e/a.c.b", "/tmp/e/d.c/prog", "/tmp/e/x.",
				"/tmp/e/.c",    "/tmp/e/link.c", "/tmp/e/plain" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		run(names[i], ARGV);
	chdir("/tmp/e");
	run("a.b.c", ARGV);
	run("d.c/prog", ARGV);
	chdir("/");

	step("E: execveat names the program /dev/fd/N/NAME");
	dfd = open("/tmp/e", O_RDONLY | O_DIRECTORY);
	run_at(dfd, "a.b.c", 0);
	fd = open("/tmp/e/a.b.c", O_RDONLY);
	run_at(fd, "", AT_EMPTY_PATH);
	close(fd);
	close(dfd);
	bm_clear();
}

/* A file of size bytes, all 'A', with magic (len bytes) written at off. */
static void magic_file(const char *path, size_t size, size_t off, const char *magic, size_t len)
{
	char buf[512];

	memset(buf, 'A', size);
	if (off + len <= size)
		memcpy(buf + off, magic, len);
	put_file(path, buf, size, 0755);
}

static void buffer_end(void)
{
	char s[1024];

	step("M: magic up to the end of the 256 bytes exec reads");
	reg(":m252:M:252:WXYZ::/usr/lib/exec-tests/bm_interp:");
	reg(":m253:M:253:WXYZ::/usr/lib/exec-tests/bm_interp:");
	reg(":m255:M:255:\\x01::/usr/lib/exec-tests/bm_interp:");
	reg(":m256:M:256:\\x01::/usr/lib/exec-tests/bm_interp:");
	snprintf(s, sizeof(s), ":all:M::%0256d::/usr/lib/exec-tests/bm_interp:", 0);
	printf("register 256 bytes of magic at 0: %s\n", errname(bm_write("register", s)));
	snprintf(s, sizeof(s), ":over:M::%0257d::/usr/lib/exec-tests/bm_interp:", 0);
	printf("register 257 bytes of magic at 0: %s\n", errname(bm_write("register", s)));
	snprintf(s, sizeof(s), ":over:M:1:%0256d::/usr/lib/exec-tests/bm_interp:", 0);
	printf("register 256 bytes of magic at 1: %s\n", errname(bm_write("register", s)));
	bm_list();
	bm_show("m252");
	magic_file("/tmp/w252", 300, 252, "WXYZ", 4);
	magic_file("/tmp/w253", 300, 253, "WXYZ", 4);
	magic_file("/tmp/wshort", 254, 252, "WX", 2);
	magic_file("/tmp/x255", 256, 255, "\x01", 1);
	run("/tmp/w252", ARGV);
	run("/tmp/w253", ARGV);
	printf("WX at 252, then the end of the file: zeros, no match\n");
	run("/tmp/wshort", ARGV);
	reg(":wx00:M:252:WX\\x00\\x00::/usr/lib/exec-tests/bm_interp:");
	run("/tmp/wshort", ARGV);
	run("/tmp/x255", ARGV);
	bm_clear();

	step("M: 256 bytes of magic at offset 0");
	snprintf(s, sizeof(s), ":all:M::%0256d::/usr/lib/exec-tests/bm_interp:", 0);
	bm_write("register", s);
	memset(s, '0', 256);
	put_file("/tmp/zeros", s, 256, 0755);
	run("/tmp/zeros", ARGV);
	s[255] = '1';
	put_file("/tmp/zeros1", s, 256, 0755);
	run("/tmp/zeros1", ARGV);
	bm_clear();
}

/*
 * Step 3's interpreter, run through entry rN for the program /tmp/rN: it
 * removes the entry it runs by, registers r2 for /tmp/r2, and runs it.
 */
static int interp_mode(char *prog)
{
	char self[256];
	ssize_t n;
	int fd;

	printf("interpreter for %s: ", prog);
	bm_list();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	printf("its exe: %s\n", self);
	printf("remove the entry it runs by: %s\n", errname(bm_write(prog + 5, "-1")));
	fd = open(self, O_WRONLY);
	printf("open its exe for writing: %s\n", fd < 0 ? errname(errno) : "ok");
	reg(":r2:M::BMR2::/usr/lib/exec-tests/bm_interp:");
	bm_list();
	fflush(stdout);
	execve("/tmp/r2", (char *const[]){ "r2", "from the interpreter", NULL }, (char *const[]){ NULL });
	printf("exec /tmp/r2: %s\n", errname(errno));
	return 1;
}

static void while_running(void)
{
	step("the interpreter removes its entry and registers another");
	put_file("/tmp/r1", "BMR1\n", 5, 0755);
	put_file("/tmp/r2", "BMR2\n", 5, 0755);
	reg(":r1:M::BMR1::/usr/lib/exec-tests/binfmt_misc_edge:");
	run("/tmp/r1", ARGV);
	printf("after: ");
	bm_list();
	run("/tmp/r1", ARGV);
	bm_clear();

	step("the same with F: the interpreter renamed, its entry removed");
	copy_file("/usr/lib/exec-tests/binfmt_misc_edge", "/tmp/fint", 0755);
	reg(":r1:M::BMR1::/tmp/fint:F");
	rename("/tmp/fint", "/tmp/fint.moved");
	run("/tmp/r1", ARGV);
	int fd = open("/tmp/fint.moved", O_WRONLY);
	printf("after: open the interpreter for writing: %s\n", fd < 0 ? errname(errno) : "ok");
	if (fd >= 0)
		close(fd);
	bm_clear();
}

static void relative(void)
{
	step("a relative interpreter: from the working directory, at each exec");
	put_file("/tmp/rel", "BMRL\n", 5, 0755);
	reg(":rel:M::BMRL::bm_interp:");
	chdir("/");
	run("/tmp/rel", ARGV);
	chdir("/tmp");
	run("/tmp/rel", ARGV);
	bm_clear();
	step("a relative interpreter with F: from where it was registered");
	chdir("/");
	reg(":rel:M::BMRL::bm_interp:F");
	chdir("/tmp");
	run("/tmp/rel", ARGV);
	chdir("/");
	bm_clear();
}

static void proc_sys(void)
{
	step("/proc/sys has no name it does not know");
	printf("create /proc/sys/fs/x: %s\n",
	       open("/proc/sys/fs/x", O_WRONLY | O_CREAT, 0644) < 0 ? errname(errno) : "ok");
	printf("mkdir /proc/sys/fs/x: %s\n", mkdir("/proc/sys/fs/x", 0755) < 0 ? errname(errno) : "ok");
	printf("create /proc/x: %s\n", open("/proc/x", O_WRONLY | O_CREAT, 0644) < 0 ? errname(errno) : "ok");
}

int main(int argc, char *argv[])
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 2 && strncmp(argv[1], "/tmp/r", 6) == 0)
		return interp_mode(argv[1]);
	extensions();
	buffer_end();
	while_running();
	relative();
	proc_sys();
	return 0;
}
