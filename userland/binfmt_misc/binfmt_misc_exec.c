/*
 * binfmt_misc_exec - running files through binfmt_misc entries, against
 * Linux 6.1 (test binfmt_misc_exec; bm_setup mounts the filesystem first).
 * The interpreter is /usr/lib/exec-tests/bm_interp, which prints its argv and auxv.
 *
 *   1. the argv the interpreter gets, without and with P; O (AT_EXECFD),
 *      C; F (the interpreter renamed, removed, kept from writers);
 *   2. M with offset and mask, E by extension, precedence over ELF and
 *      "#!", which entry wins when two match, disabled entries and status;
 *   3. chains (misc -> script -> ELF, misc -> misc) and the depth limit
 *      shared with "#!" (five rewrites run, the sixth is ELOOP);
 *   4. execs that fail after a misc rewrite: the caller goes on.
 */
#include "bm_common.h"

static char *const ARGS[] = { "zero", "one", "two", NULL };

static void step(const char *what)
{
	printf("--- %s\n", what);
}

/* The argv, O, P and C cases on /tmp/prog ("BMT1..."). */
static void flags(void)
{
	step("no flags: argv[0] is dropped");
	put_file("/tmp/prog", "BMT1 a program\n", 15, 0755);
	bm_register(":t:M::BMT1::/usr/lib/exec-tests/bm_interp:");
	run("/tmp/prog", ARGS);
	bm_clear();

	step("P: argv[0] is kept, AT_FLAGS 1");
	bm_register(":t:M::BMT1::/usr/lib/exec-tests/bm_interp:P");
	run("/tmp/prog", ARGS);
	bm_clear();

	step("O: the program as a descriptor, even without read permission");
	put_file("/tmp/prog", "BMT1 a program\n", 15, 0711);
	bm_register(":t:M::BMT1::/usr/lib/exec-tests/bm_interp:O");
	run("/tmp/prog", ARGS);
	bm_clear();

	step("without O, an unreadable program still runs");
	bm_register(":t:M::BMT1::/usr/lib/exec-tests/bm_interp:");
	run("/tmp/prog", ARGS);
	bm_clear();

	step("C implies O");
	bm_register(":t:M::BMT1::/usr/lib/exec-tests/bm_interp:C");
	run("/tmp/prog", ARGS);
	bm_clear();

	step("POCF together, a relative name");
	put_file("/tmp/prog", "BMT1 a program\n", 15, 0755);
	chdir("/tmp");
	bm_register(":t:M::BMT1::/usr/lib/exec-tests/bm_interp:POCF");
	run("prog", ARGS);
	chdir("/");
	bm_clear();

	step("an empty argv");
	bm_register(":t:M::BMT1::/usr/lib/exec-tests/bm_interp:");
	{
		char *const none[] = { NULL };

		run("/tmp/prog", none);
	}
	bm_clear();
}

/* F: the interpreter is opened at registration. */
static void fixed(void)
{
	int fd;

	step("F: the interpreter is opened when registered");
	copy_file("/usr/lib/exec-tests/bm_interp", "/tmp/interp", 0755);
	bm_register(":f:M::BMT1::/tmp/interp:F");
	bm_register(":n:M::BMT2::/tmp/interp:");
	put_file("/tmp/prog2", "BMT2 another\n", 13, 0755);
	fd = open("/tmp/interp", O_WRONLY);
	printf("open the interpreter for writing: %s\n", fd < 0 ? errname(errno) : "ok");
	if (fd >= 0)
		close(fd);
	rename("/tmp/interp", "/tmp/interp.moved");
	printf("renamed: F entry\n");
	run("/tmp/prog", ARGS);
	printf("renamed: entry without F\n");
	run("/tmp/prog2", ARGS);
	unlink("/tmp/interp.moved");
	printf("removed: F entry\n");
	run("/tmp/prog", ARGS);
	bm_clear();

	step("F entry removed: the interpreter may be written again");
	copy_file("/usr/lib/exec-tests/bm_interp", "/tmp/interp", 0755);
	bm_register(":f:M::BMT1::/tmp/interp:F");
	bm_write("f", "-1");
	fd = open("/tmp/interp", O_WRONLY);
	printf("open the interpreter for writing: %s\n", fd < 0 ? errname(errno) : "ok");
	if (fd >= 0)
		close(fd);
	step("F refused (name taken): the interpreter may be written again");
	bm_register(":f:M::BMT1::/tmp/interp:");
	bm_write("register", ":f:M::BMT1::/tmp/interp:F");
	fd = open("/tmp/interp", O_WRONLY);
	printf("open the interpreter for writing: %s\n", fd < 0 ? errname(errno) : "ok");
	if (fd >= 0)
		close(fd);
	bm_clear();
}

static void matching(void)
{
	char *const one[] = { "x", NULL };

	step("M with an offset and a mask");
	bm_register(":m:M:4:\\x01\\x02:\\xff\\x0f:/usr/lib/exec-tests/bm_interp:");
	put_file("/tmp/m1", "abcd\x01\x02rest", 10, 0755);
	put_file("/tmp/m2", "abcd\x01\xf2rest", 10, 0755);
	put_file("/tmp/m3", "abcd\x01\x03rest", 10, 0755);
	run("/tmp/m1", one);
	run("/tmp/m2", one);
	run("/tmp/m3", one);
	bm_clear();

	step("magic past the end of the file matches zeros");
	bm_register(":z:M:2:ZZ\\x00\\x00::/usr/lib/exec-tests/bm_interp:");
	put_file("/tmp/zz", "..ZZ", 4, 0755);
	run("/tmp/zz", one);
	bm_clear();

	step("E: the extension of the name");
	bm_register(":e:E::bmx::/usr/lib/exec-tests/bm_interp:");
	put_file("/tmp/file.bmx", "anything\n", 9, 0755);
	put_file("/tmp/file.bmx.not", "anything\n", 9, 0755);
	put_file("/tmp/file.BMX", "anything\n", 9, 0755);
	mkdir("/tmp/dir.bmx", 0755);
	put_file("/tmp/dir.bmx/file", "anything\n", 9, 0755);
	put_file("/tmp/.bmx", "anything\n", 9, 0755);
	run("/tmp/file.bmx", one);
	run("/tmp/file.bmx.not", one);
	run("/tmp/file.BMX", one);
	run("/tmp/dir.bmx/file", one);
	run("/tmp/.bmx", one);
	bm_clear();

	step("in front of ELF");
	bm_register(":elf:M::\\x7fELF\\x02::/usr/lib/exec-tests/bm_interp:");
	run("/usr/lib/exec-tests/hello", one);
	bm_write("elf", "0");
	run("/usr/lib/exec-tests/hello", one);
	bm_clear();

	step("in front of #!");
	bm_register(":sh:M::#!::/usr/lib/exec-tests/bm_interp:");
	run("/usr/lib/exec-tests/wrapper", one);
	bm_write("status", "0");
	printf("status disabled:\n");
	run("/usr/lib/exec-tests/wrapper", one);
	bm_write("status", "1");
	bm_clear();

	step("two entries match: the newest wins");
	bm_register(":old:M::BMT1::/usr/lib/exec-tests/bm_interp:P");
	bm_register(":new:M::BMT::/usr/lib/exec-tests/bm_interp:");
	run("/tmp/prog", one);
	bm_write("new", "0");
	printf("newest disabled:\n");
	run("/tmp/prog", one);
	bm_write("new", "1");
	bm_write("old", "-1");
	bm_register(":old:M::BMT1::/usr/lib/exec-tests/bm_interp:P");
	printf("old registered again, now the newest:\n");
	run("/tmp/prog", one);
	bm_clear();
}

static void chains(void)
{
	char *const one[] = { "x", "1", NULL };
	char magic[64], entry[128], file[32], next[32];

	step("misc -> script -> ELF");
	put_file("/tmp/script", "#!/usr/lib/exec-tests/bm_interp -s\n", 16, 0755);
	bm_register(":t:M::BMT1::/tmp/script:");
	run("/tmp/prog", one);
	bm_clear();

	step("misc -> misc -> ELF");
	put_file("/tmp/stage2", "BMT2 stage 2\n", 13, 0755);
	bm_register(":a:M::BMT1::/tmp/stage2:");
	bm_register(":b:M::BMT2::/usr/lib/exec-tests/bm_interp:P");
	run("/tmp/prog", one);
	bm_clear();

	step("O, then another rewrite: ENOEXEC");
	bm_register(":t:M::BMT1::/tmp/script:O");
	run("/tmp/prog", one);
	bm_clear();

	step("depth: five rewrites run, the sixth is ELOOP");
	/* /tmp/cN starts "BMCN" and entry cN runs /tmp/c(N+1); c6 is ELF. */
	for (int n = 0; n <= 5; n++) {
		snprintf(file, sizeof(file), "/tmp/c%d", n);
		snprintf(magic, sizeof(magic), "BMC%d\n", n);
		put_file(file, magic, 5, 0755);
		snprintf(next, sizeof(next), "/tmp/c%d", n + 1);
		snprintf(entry, sizeof(entry), ":c%d:M::BMC%d::%s:", n, n, next);
		bm_register(entry);
	}
	copy_file("/usr/lib/exec-tests/bm_interp", "/tmp/c6", 0755);
	run("/tmp/c1", one);
	run("/tmp/c0", one);
	bm_clear();

	step("depth, misc and #! mixed: ELOOP");
	put_file("/tmp/s1", "#!/tmp/s2\n", 10, 0755);
	put_file("/tmp/s2", "BMS2", 4, 0755);
	put_file("/tmp/s3", "#!/tmp/s4\n", 10, 0755);
	put_file("/tmp/s4", "BMS4", 4, 0755);
	put_file("/tmp/s5", "#!/tmp/s6\n", 10, 0755);
	put_file("/tmp/s6", "#!/usr/lib/exec-tests/bm_interp\n", 13, 0755);
	bm_register(":s2:M::BMS2::/tmp/s3:");
	bm_register(":s4:M::BMS4::/tmp/s5:");
	run("/tmp/s2", one);
	run("/tmp/s1", one);
	bm_clear();
}

static void failures(void)
{
	char *const one[] = { "x", NULL };

	step("failed execs after a misc rewrite: the caller goes on");
	bm_register(":t1:M::BMT1::/nonexistent:");
	run("/tmp/prog", one);
	bm_clear();
	put_file("/tmp/noexec", "\x7f" "ELF", 4, 0644);
	bm_register(":t1:M::BMT1::/tmp/noexec:");
	run("/tmp/prog", one);
	bm_clear();
	bm_register(":t1:M::BMT1::/tmp:");
	run("/tmp/prog", one);
	bm_clear();
	put_file("/tmp/text", "plain text\n", 11, 0755);
	bm_register(":t1:M::BMT1::/tmp/text:");
	run("/tmp/prog", one);
	bm_clear();
	bm_register(":t1:M::BMT1::relative/interp:");
	run("/tmp/prog", one);
	bm_clear();
	/* Nearly all the room for strings taken: the interpreter's name does
	 * not fit any more. */
	{
		static char big[2 * 1024 * 1024];
		char *argv[3] = { "x", big, NULL };
		int lo = 1000, hi = sizeof(big) - 1, fit = 0;

		memset(big, 'a', sizeof(big) - 1);
		bm_register(":t1:M::BMT1::/usr/lib/exec-tests/bm_interp:");
		/* The longest argument with which the exec still gets past
		 * copy_strings: E2BIG from the misc rewrite right above it. */
		while (lo <= hi) {
			int mid = (lo + hi) / 2;
			pid_t pid;
			int status;

			big[mid] = '\0';
			pid = fork();
			if (pid == 0) {
				execve("/tmp/noexec-none", argv, NULL);
				_exit(errno == E2BIG ? 1 : 0);
			}
			waitpid(pid, &status, 0);
			big[mid] = 'a';
			if (WEXITSTATUS(status) == 0) {
				fit = mid;
				lo = mid + 1;
			} else {
				hi = mid - 1;
			}
		}
		big[fit] = '\0';
		fflush(stdout);
		if (fork() == 0) {
			execve("/tmp/prog", argv, NULL);
			printf("exec with the longest argument: %s\n", errname(errno));
			_exit(0);
		}
		wait(NULL);
		bm_clear();
	}
	printf("still here\n");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	flags();
	fixed();
	matching();
	chains();
	failures();
	return 0;
}
