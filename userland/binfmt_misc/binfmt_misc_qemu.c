/*
 * binfmt_misc_qemu - binfmt_misc's canonical use: an aarch64 program run by
 * its own name, /usr/lib/exec-tests/hello-aarch64, through Debian's qemu-user-static,
 * registered exactly as Debian registers it (test binfmt_misc_qemu;
 * bm_setup mounts the filesystem first). The package ships its entry twice:
 *
 *   /usr/lib/binfmt.d/qemu-aarch64.conf   the line systemd-binfmt writes to
 *                                         "register" at boot: flags OPF
 *   /usr/share/binfmts/qemu-aarch64       binfmt-support's description, from
 *                                         which update-binfmts --import makes
 *                                         its line: flags PF (it has no O)
 *
 * Both name the interpreter /usr/libexec/qemu-binfmt/aarch64-binfmt-P, a
 * symlink to /usr/bin/qemu-aarch64-static: Debian's qemu takes a name that
 * ends in "-binfmt-P" to mean that binfmt_misc gave it flag P's argv
 * (interpreter, the program's path, then the program's own argv[0], ...).
 *
 * Shown: the entry; the program by its own name; P (the program sees the
 * argv[0] it was given); O (a program its user may not read still runs);
 * F (the interpreter renamed or removed, or absent from a chroot: still
 * runs; without F it does not); binfmt-support's PF entry, without O.
 */
#include "bm_common.h"
#include <sys/syscall.h>

#define CONF "/usr/lib/binfmt.d/qemu-aarch64.conf"
#define BINFMTS "/usr/share/binfmts/qemu-aarch64"
#define QEMU "/usr/bin/qemu-aarch64-static"
#define QEMU_P "/usr/libexec/qemu-binfmt/aarch64-binfmt-P"

static void step(const char *what)
{
	printf("--- %s\n", what);
}

/* A whole small file, NUL-terminated, in a static buffer. */
static char *slurp(const char *path)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0) {
		printf("read %s: %s\n", path, errname(errno));
		exit(1);
	}
	buf[n] = '\0';
	return buf;
}

/*
 * What systemd-binfmt does with a binfmt.d file: each line that is not
 * empty or a comment is one write to "register" (its newline added).
 */
static void systemd_binfmt(const char *path)
{
	char *text = slurp(path), *save;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char reg[2048];

		if (line[0] == '#' || line[0] == ';')
			continue;
		printf("%s: %s\n", path, line);
		snprintf(reg, sizeof(reg), "%s\n", line);
		bm_register(reg);
	}
}

/*
 * What update-binfmts --import NAME makes of binfmt-support's description
 * (lines "key value"): ":NAME:M:OFFSET:MAGIC:MASK:INTERPRETER:" and then C,
 * P, F for "credentials yes", "preserve yes", "fix_binary yes", and a
 * newline. It has no key for O.
 */
static void update_binfmts_import(const char *path, const char *name)
{
	const char *keys[] = { "interpreter", "magic", "offset", "mask", "credentials", "preserve",
			       "fix_binary" };
	const char *val[7] = { "", "", "", "", "", "", "" };
	char *text = slurp(path), *save, reg[2048];

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (!sp)
			continue;
		*sp = '\0';
		for (int i = 0; i < 7; i++)
			if (strcmp(line, keys[i]) == 0)
				val[i] = sp + 1;
	}
	snprintf(reg, sizeof(reg), ":%s:M:%s:%s:%s:%s:%s%s%s\n", name, val[2], val[1], val[3], val[0],
		 strcmp(val[4], "yes") == 0 ? "C" : "", strcmp(val[5], "yes") == 0 ? "P" : "",
		 strcmp(val[6], "yes") == 0 ? "F" : "");
	printf("update-binfmts writes: %s", reg);
	bm_register(reg);
}

static char *const HELLO[] = { "/usr/lib/exec-tests/hello-aarch64", NULL };
static char *const ARGS[] = { "my-name", "one", "two three", NULL };

/* A chroot with nothing but the aarch64 program in it. */
static void make_jail(void)
{
	mkdir("/tmp/jail", 0755);
	copy_file("/usr/lib/exec-tests/hello-aarch64", "/tmp/jail/hello-aarch64", 0755);
}

static void check_rename(const char *from, const char *to)
{
	if (rename(from, to) != 0)
		printf("rename %s: %s\n", from, errname(errno));
}

static void debian_entry(void)
{
	step("Debian's entry, as systemd-binfmt registers it");
	systemd_binfmt(CONF);
	bm_show("qemu-aarch64");
	bm_list();

	step("the aarch64 program by its own name");
	run("/usr/lib/exec-tests/hello-aarch64", HELLO);

	step("P: the program gets the argv[0] it was given");
	run("/usr/lib/exec-tests/args-aarch64", ARGS);
	chdir("/usr/lib/exec-tests");
	run("./args-aarch64", ARGS);

	step("O: a program its user may not read (mode 0711) runs");
	copy_file("/usr/lib/exec-tests/args-aarch64", "/tmp/secret-aarch64", 0711);
	run_as("/tmp/secret-aarch64", ARGS, 1000, NULL);

	step("F: the interpreter renamed, then its symlink removed");
	check_rename(QEMU, QEMU ".moved");
	run("/usr/lib/exec-tests/hello-aarch64", HELLO);
	check_rename(QEMU ".moved", QEMU);
	if (unlink(QEMU_P) != 0)
		printf("unlink: %s\n", errname(errno));
	run("/usr/lib/exec-tests/hello-aarch64", HELLO);
	if (symlink("../../bin/qemu-aarch64-static", QEMU_P) != 0)
		printf("symlink: %s\n", errname(errno));

	step("F: in a chroot that has no qemu");
	make_jail();
	run_as("/hello-aarch64", HELLO, 0, "/tmp/jail"); /* the jail's / */
}

/* The same entry without F: the interpreter is looked up at each exec. */
static void without_f(void)
{
	step("without F: the interpreter is looked up at each exec");
	bm_clear();
	bm_register(":qemu-aarch64:M::\\x7f\\x45\\x4c\\x46\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
		    "\\x00\\x00\\x02\\x00\\xb7\\x00:\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff"
		    "\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff:" QEMU_P ":OP");
	bm_show("qemu-aarch64");
	run("/usr/lib/exec-tests/hello-aarch64", HELLO);
	run_as("/hello-aarch64", HELLO, 0, "/tmp/jail");
	check_rename(QEMU, QEMU ".moved");
	run("/usr/lib/exec-tests/hello-aarch64", HELLO);
	check_rename(QEMU ".moved", QEMU);

	step("without P: the program's argv[0] is its path");
	bm_clear();
	bm_register(":qemu-noP:M::\\x7f\\x45\\x4c\\x46\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
		    "\\x00\\x00\\x02\\x00\\xb7\\x00:\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff"
		    "\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff:" QEMU ":F");
	run("/usr/lib/exec-tests/args-aarch64", ARGS);
}

static void binfmt_support(void)
{
	step("binfmt-support's entry (update-binfmts --import): PF, no O");
	bm_clear();
	update_binfmts_import(BINFMTS, "qemu-aarch64");
	bm_show("qemu-aarch64");
	run("/usr/lib/exec-tests/hello-aarch64", HELLO);
	run("/usr/lib/exec-tests/args-aarch64", ARGS);
	printf("the unreadable program, without O: qemu must open it itself\n");
	run_as("/tmp/secret-aarch64", ARGS, 1000, NULL);
	bm_clear();
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	debian_entry();
	without_f();
	binfmt_support();
	bm_list();
	return 0;
}
