/*
 * exec_setid - the credentials a program gets from exec: set-user-ID and
 * set-group-ID programs (getresuid, getresgid, capabilities, AT_SECURE,
 * dumpable, the parent-death signal, RLIMIT_STACK), run by uid 1000 and by
 * root; what does not raise privileges (a set-user-ID script, a nosuid
 * mount, no_new_privs, set-group-ID without group execute); capabilities
 * of root and non-root, ambient ones included; and the set-user-ID bit
 * cleared by a write, a truncate or a chown.
 *
 * Root prepares /tmp/s with copies of /usr/lib/exec-tests/execprobe (PROBE=creds prints the
 * ids, groups and capability sets of /proc/self/status, AT_SECURE,
 * dumpable...). Each case runs in a child.
 */
#include "exectest.h"
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>

/* From <linux/capability.h>, which musl-gcc does not see. */
#define _LINUX_CAPABILITY_VERSION_3 0x20080522
#define CAP_KILL 5
#define CAP_NET_BIND_SERVICE 10
struct cap_header {
	unsigned version;
	int pid;
};
struct cap_data {
	unsigned effective, permitted, inheritable;
};

static char *envp[] = { "PROBE=creds", NULL };

struct scase {
	const char *path;
	void (*setup)(void); /* in the child, before the exec */
};

static int do_exec(void *arg)
{
	struct scase *c = arg;
	char *argv[] = { (char *)c->path, NULL };

	if (c->setup)
		c->setup();
	execve(c->path, argv, envp);
	return -errno;
}

static void run(const char *title, const char *path, void (*setup)(void))
{
	struct scase c = { path, setup };

	run_case(title, do_exec, &c);
}

static void user1000(void) { become(1000, 1000, 0, NULL); }

static void user1000_nnp(void)
{
	user1000();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		say("  PR_SET_NO_NEW_PRIVS: %s\n", ename(errno));
}

/* no_new_privs is kept across fork too: set it, then exec in a grandchild. */
static void user1000_nnp_fork(void)
{
	int status;
	pid_t pid;

	user1000_nnp();
	pid = fork();
	if (pid > 0) {
		waitpid(pid, &status, 0);
		_exit(0);
	}
}

static void user1000_pdeath_stack(void)
{
	struct rlimit rl = { 16 << 20, RLIM_INFINITY };

	user1000();
	prctl(PR_SET_PDEATHSIG, SIGUSR1);
	setrlimit(RLIMIT_STACK, &rl);
}

/* Real uid 1000 with effective (and saved) uid 0. */
static void euid0(void)
{
	setresgid(1000, 1000, 1000);
	setresuid(1000, 0, 0);
}

/* A shared fs_struct (CLONE_FS, as a thread would share it): an exec
 * that may not raise privileges. The child execs while the parent waits. */
static void shared_fs(void)
{
	int status;
	pid_t pid;

	user1000();
	pid = syscall(SYS_clone, CLONE_FS | SIGCHLD, 0, 0, 0, 0);
	if (pid > 0) {
		waitpid(pid, &status, 0);
		_exit(0);
	}
}

/* Keep CAP_KILL and CAP_NET_BIND_SERVICE through setresuid to 1000, then
 * make CAP_KILL ambient: an ordinary program gets it. */
static void ambient(void)
{
	struct cap_header h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct cap_data d[2] = { 0 };
	unsigned caps = 1u << CAP_KILL | 1u << CAP_NET_BIND_SERVICE;

	prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
	become(1000, 1000, 0, NULL);
	/* The permitted set stayed (KEEPCAPS), the effective one is empty. */
	d[0].effective = d[0].permitted = d[0].inheritable = caps;
	if (syscall(SYS_capset, &h, d) < 0)
		say("  capset: %s\n", ename(errno));
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_KILL, 0, 0) < 0)
		say("  PR_CAP_AMBIENT_RAISE: %s\n", ename(errno));
	say("  before exec: PR_CAP_AMBIENT_IS_SET(CAP_KILL) %d, KEEPCAPS %d\n",
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_KILL, 0, 0), prctl(PR_GET_KEEPCAPS));
}

static void groups_10_20(void)
{
	gid_t g[] = { 20, 10, 1000 };

	setgroups(3, g);
	setresgid(1000, 1000, 1000);
	setresuid(1000, 1000, 1000);
}

static void prog(const char *path, uid_t uid, gid_t gid, mode_t mode)
{
	copy_file("/usr/lib/exec-tests/execprobe", path, 0700);
	chown(path, uid, gid);
	chmod(path, mode);
}

static void show_mode(const char *what, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		say("  %s: stat: %s\n", what, ename(errno));
	else
		say("  %s: mode %04o, owner %u:%u\n", what, st.st_mode & 07777, st.st_uid, st.st_gid);
}

/* ---- the set-user-ID bit of a file that changes ----------------------------- */

static int do_writes(void *unused)
{
	const char *f = "/tmp/s/w/mine";
	int fd;

	(void)unused;
	/* Root writes: the bits stay (CAP_FSETID). */
	prog("/tmp/s/w/root", 0, 50, 06755);
	fd = open("/tmp/s/w/root", O_WRONLY | O_APPEND);
	write(fd, "x", 1);
	close(fd);
	show_mode("root wrote root's 06755 file", "/tmp/s/w/root");
	chown("/tmp/s/w/root", 0, 0);
	show_mode("root chowned it to 0:0 (no change of owner)", "/tmp/s/w/root");
	prog("/tmp/s/w/sgid_nogx", 0, 50, 02745);
	chown("/tmp/s/w/sgid_nogx", 1000, -1);
	show_mode("root chowned a 02745 file to 1000", "/tmp/s/w/sgid_nogx");

	become(1000, 1000, 0, NULL);
	prog(f, 1000, 1000, 0755);
	say("  chmod 04755 by its owner: %s\n", res(chmod(f, 04755)));
	show_mode("uid 1000's file", f);
	fd = open(f, O_WRONLY | O_APPEND);
	write(fd, "x", 1);
	close(fd);
	show_mode("after its owner wrote to it", f);
	chmod(f, 06755);
	show_mode("chmod 06755 by its owner", f);
	say("  truncate: %s\n", res(truncate(f, 100000)));
	show_mode("after a truncate", f);
	chmod(f, 04755);
	say("  chown(-1, -1) by its owner: %s\n", res(chown(f, -1, -1)));
	show_mode("after chown(-1, -1)", f);
	chmod(f, 02755);
	say("  chown(-1, 1000) by its owner: %s\n", res(chown(f, -1, 1000)));
	show_mode("after chown(-1, 1000)", f);
	say("  chown(-1, 50) by its owner, not in group 50: %s\n", res(chown(f, -1, 50)));
	return 0;
}

/* ---- dumpable after setuid, and PR_SET_DUMPABLE -------------------------------- */

static int do_dumpable(void *unused)
{
	(void)unused;
	say("  root: PR_GET_DUMPABLE %d\n", prctl(PR_GET_DUMPABLE));
	setresuid(0, 1000, 0);
	say("  seteuid(1000): PR_GET_DUMPABLE %d\n", prctl(PR_GET_DUMPABLE));
	setresuid(0, 0, 0);
	say("  PR_SET_DUMPABLE 1: %s\n", res(prctl(PR_SET_DUMPABLE, 1)));
	say("  PR_GET_DUMPABLE %d\n", prctl(PR_GET_DUMPABLE));
	say("  PR_SET_DUMPABLE 2: %s\n", res(prctl(PR_SET_DUMPABLE, 2)));
	become(1000, 1000, 0, NULL);
	say("  setuid(1000) and co: PR_GET_DUMPABLE %d\n", prctl(PR_GET_DUMPABLE));
	{
		char *argv[] = { "/tmp/s/plain", NULL };
		char *e[] = { "PROBE=brief", NULL };
		execve(argv[0], argv, e);
	}
	return -errno;
}

int main(void)
{
	mount_proc();
	mkdir("/tmp/s", 0755);
	prog("/tmp/s/plain", 0, 0, 0755);
	prog("/tmp/s/suid_root", 0, 0, 04755);
	prog("/tmp/s/sgid50", 0, 50, 02755);
	prog("/tmp/s/sgid50_nogx", 0, 50, 02745);
	prog("/tmp/s/suid_sgid", 0, 50, 06755);
	prog("/tmp/s/suid1000", 1000, 1000, 04755);
	prog("/tmp/s/suid1001", 1001, 1001, 04755);
	prog("/tmp/s/suid_root_0711", 0, 0, 04711);
	write_file("/tmp/s/suid_script", "#!/usr/lib/exec-tests/execprobe\n", 04755);
	write_file("/tmp/s/script_of_suid", "#!/tmp/s/suid_root\n", 0755);
	mkdir("/tmp/s/nosuid", 0755);
	if (mount("tmpfs", "/tmp/s/nosuid", "tmpfs", MS_NOSUID, NULL) < 0)
		say("mount nosuid: %s\n", ename(errno));
	prog("/tmp/s/nosuid/suid_root", 0, 0, 04755);
	mkdir("/tmp/s/w", 0777);
	chmod("/tmp/s/w", 0777);

	say("== uid 1000 runs ==\n");
	run("a plain program", "/tmp/s/plain", user1000);
	run("a set-user-ID root program", "/tmp/s/suid_root", user1000);
	run("a set-group-ID program (group 50)", "/tmp/s/sgid50", user1000);
	run("set-group-ID without group execute: not set-group-ID", "/tmp/s/sgid50_nogx", user1000);
	run("set-user-ID and set-group-ID", "/tmp/s/suid_sgid", user1000);
	run("set-user-ID root, mode 04711: unreadable, so not dumpable either",
	    "/tmp/s/suid_root_0711", user1000);
	run("a set-user-ID script: the bit of a script counts for nothing", "/tmp/s/suid_script",
	    user1000);
	run("a script whose interpreter is set-user-ID root", "/tmp/s/script_of_suid", user1000);
	run("a set-user-ID root program on a nosuid mount", "/tmp/s/nosuid/suid_root", user1000);
	run("a set-user-ID root program under no_new_privs", "/tmp/s/suid_root", user1000_nnp);
	run("... no_new_privs is kept across fork", "/tmp/s/suid_root", user1000_nnp_fork);
	run("a set-user-ID root program with a shared fs_struct (CLONE_FS)", "/tmp/s/suid_root",
	    shared_fs);
	run("a set-user-ID root program after PR_SET_PDEATHSIG and a 16 MiB RLIMIT_STACK",
	    "/tmp/s/suid_root", user1000_pdeath_stack);
	run("a plain program after PR_SET_PDEATHSIG and a 16 MiB RLIMIT_STACK", "/tmp/s/plain",
	    user1000_pdeath_stack);
	run("a plain program, with supplementary groups 20, 10, 1000", "/tmp/s/plain", groups_10_20);
	run("a plain program with CAP_KILL ambient", "/tmp/s/plain", ambient);
	run("a set-user-ID 1001 program with CAP_KILL ambient: set-user-ID clears it",
	    "/tmp/s/suid1001", ambient);
	say("== root runs ==\n");
	run("a plain program", "/tmp/s/plain", NULL);
	run("a set-user-ID root program", "/tmp/s/suid_root", NULL);
	run("a set-user-ID 1000 program", "/tmp/s/suid1000", NULL);
	run("a set-group-ID program (group 50)", "/tmp/s/sgid50", NULL);
	run("with real uid 1000, effective 0: a plain program", "/tmp/s/plain", euid0);
	say("== changes ==\n");
	run_case("set-user-ID cleared by a change of the file", do_writes, NULL);
	run_case("dumpable and set*id", do_dumpable, NULL);
	umount("/tmp/s/nosuid");
	return 0;
}
