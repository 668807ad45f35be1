/*
 * lsm_execguard - the example security module (security/execguard.c) at
 * work, on a kernel booted with lsm=execguard: a path prefix written to
 * /proc/sys/kernel/execguard/deny makes exec of the files under it fail
 * with EACCES (a script's interpreter too), for root and everyone;
 * only root with CAP_MAC_ADMIN may change the list. The module logs each
 * refusal and each exec (the test's .kgrep checks those kernel lines).
 *
 *   lsm_execguard off   on a kernel booted without lsm=execguard (or on
 *                       Linux): the module's files are not there.
 */
#include "exectest.h"

#define DENY "/proc/sys/kernel/execguard/deny"
#define LOG "/proc/sys/kernel/execguard/log"

static char *envp[] = { "PROBE=brief", NULL };

static int do_exec(void *arg)
{
	char *argv[] = { arg, NULL };

	execve(arg, argv, envp);
	return -errno;
}

static int do_exec_1000(void *arg)
{
	become(1000, 1000, 0, NULL);
	return do_exec(arg);
}

static void show(const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (n < 0) {
		say("  read %s: %s\n", path, ename(errno));
	} else {
		buf[n] = '\0';
		say("  %s: \"%s\"\n", path, buf);
	}
	if (fd >= 0)
		close(fd);
}

static long put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	long r;

	if (fd < 0)
		return -1;
	r = write(fd, text, strlen(text));
	close(fd);
	return r;
}

static int write_as_1000(void *unused)
{
	(void)unused;
	become(1000, 1000, 0, NULL);
	say("  as uid 1000, write %s: %s\n", DENY, res(put(DENY, "/\n")));
	return 0;
}

/* Root without CAP_MAC_ADMIN: the file opens (root's permissions), the
 * module refuses the write. */
static int write_without_cap(void *unused)
{
	struct { unsigned version; int pid; } h = { 0x20080522, 0 };
	struct { unsigned eff, prm, inh; } d[2] = { { ~0u, ~0u, 0 }, { ~0u & ~(1u << 1), ~0u, 0 } };

	(void)unused;
	if (syscall(SYS_capset, &h, d) < 0) /* CAP_MAC_ADMIN is 33: bit 1 of the second word */
		say("  capset: %s\n", ename(errno));
	say("  as root without CAP_MAC_ADMIN, write %s: %s\n", DENY, res(put(DENY, "/\n")));
	return 0;
}

int main(int argc, char *argv[])
{
	mount_proc();
	if (argc > 1 && !strcmp(argv[1], "off")) {
		say("without lsm=execguard:\n");
		show(DENY);
		return 0;
	}
	mkdir("/tmp/g", 0755);
	mkdir("/tmp/g/ok", 0755);
	mkdir("/tmp/g/denied", 0755);
	mkdir("/tmp/g/deniedx", 0755);
	copy_file("/usr/lib/exec-tests/execprobe", "/tmp/g/ok/prog", 0755);
	copy_file("/usr/lib/exec-tests/execprobe", "/tmp/g/denied/prog", 0755);
	copy_file("/usr/lib/exec-tests/execprobe", "/tmp/g/denied/interp", 0755);
	copy_file("/usr/lib/exec-tests/execprobe", "/tmp/g/deniedx/prog", 0755);
	write_file("/tmp/g/ok/script", "#!/tmp/g/denied/interp\n", 0755);

	say("the module's files, as booted:\n");
	show(DENY);
	show(LOG);
	say("  write \"/tmp/g/denied\" to deny: %s\n", res(put(DENY, "/tmp/g/denied")));
	show(DENY);
	run_case("root runs /tmp/g/denied/prog", do_exec, "/tmp/g/denied/prog");
	run_case("root runs /tmp/g/deniedx/prog: a prefix is whole components", do_exec,
		 "/tmp/g/deniedx/prog");
	run_case("root runs /tmp/g/ok/script, whose interpreter is /tmp/g/denied/interp", do_exec,
		 "/tmp/g/ok/script");
	run_case("uid 1000 runs /tmp/g/ok/prog", do_exec_1000, "/tmp/g/ok/prog");
	run_case("uid 1000 runs /tmp/g/denied/prog", do_exec_1000, "/tmp/g/denied/prog");
	run_case("uid 1000 may not change the list", write_as_1000, NULL);
	run_case("nor may root without CAP_MAC_ADMIN", write_without_cap, NULL);
	say("  write \"\\n\" to deny: %s\n", res(put(DENY, "\n")));
	show(DENY);
	run_case("root runs /tmp/g/denied/prog", do_exec, "/tmp/g/denied/prog");
	say("  write \"0\" to log: %s\n", res(put(LOG, "0\n")));
	show(LOG);
	say("  write \"2\" to log: %s\n", res(put(LOG, "2\n")));
	return 0;
}
