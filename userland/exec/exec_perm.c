/*
 * exec_perm - the permissions execve checks, for uid 1000 and for root:
 * the x bit of the class that applies (owner, group by the supplementary
 * groups too, others), search permission on every directory of the path,
 * noexec mounts, and what read permission changes: an ELF file runs
 * without it (and its process is then not dumpable), a script's
 * interpreter starts but cannot read the script.
 *
 * Root prepares /tmp/p (its files are root's unless said), then each case
 * runs in a child that may become uid 1000 (gid 1000, and group 50 when
 * said). /usr/lib/exec-tests/execprobe copies print one line when they run (PROBE=brief);
 * /usr/lib/exec-tests/readscript copies of scripts say whether they could read the script.
 */
#include "exectest.h"

#define NOBODY ((uid_t)-1)

struct pcase {
	uid_t uid;              /* NOBODY: stay root */
	gid_t group;            /* a supplementary group, or 0 */
	const char *path;
};

static char *envp[] = { "PROBE=brief", NULL };

static int do_exec(void *arg)
{
	struct pcase *c = arg;
	char *argv[] = { (char *)c->path, NULL };

	if (c->uid != NOBODY)
		become(c->uid, c->uid, c->group ? 1 : 0, &c->group);
	execve(c->path, argv, envp);
	return -errno;
}

static void as(uid_t uid, gid_t group, const char *title, const char *path)
{
	struct pcase c = { uid, group, path };
	char t[256];

	snprintf(t, sizeof(t), "%s %s: %s", uid == NOBODY ? "root" : "uid 1000", path, title);
	run_case(t, do_exec, &c);
}

/* A copy of /usr/lib/exec-tests/execprobe with the given owner, group and mode. */
static void prog(const char *path, uid_t uid, gid_t gid, mode_t mode)
{
	copy_file("/usr/lib/exec-tests/execprobe", path, 0700);
	chown(path, uid, gid);
	chmod(path, mode);
}

static void script(const char *path, const char *text, uid_t uid, mode_t mode)
{
	write_file(path, text, 0700);
	chown(path, uid, uid);
	chmod(path, mode);
}

int main(void)
{
	mount_proc();
	mkdir("/tmp/p", 0755);
	prog("/tmp/p/x755", 0, 0, 0755);
	prog("/tmp/p/x111", 0, 0, 0111);
	prog("/tmp/p/x644", 0, 0, 0644);
	prog("/tmp/p/x700", 0, 0, 0700);
	prog("/tmp/p/g1000_070", 0, 1000, 0070);
	prog("/tmp/p/g1000_707", 0, 1000, 0707);
	prog("/tmp/p/u1000_075", 1000, 0, 0075);
	prog("/tmp/p/g50_750", 0, 50, 0750);
	prog("/tmp/p/u1000_100", 1000, 1000, 0100);
	prog("/tmp/p/x000", 0, 0, 0000);
	mkdir("/tmp/p/closed", 0700);
	prog("/tmp/p/closed/x755", 0, 0, 0755);
	mkdir("/tmp/p/searchonly", 0711);
	prog("/tmp/p/searchonly/x755", 0, 0, 0755);
	mkdir("/tmp/p/readonly", 0744);
	prog("/tmp/p/readonly/x755", 0, 0, 0755);
	script("/tmp/p/s755", "#!/usr/lib/exec-tests/readscript\nthe script's second line\n", 0, 0755);
	script("/tmp/p/s711", "#!/usr/lib/exec-tests/readscript\nthe script's second line\n", 0, 0711);
	script("/tmp/p/s644", "#!/usr/lib/exec-tests/readscript\nthe script's second line\n", 0, 0644);
	script("/tmp/p/s_badinterp", "#!/tmp/p/x644\n", 0, 0755);
	script("/tmp/p/s_closedinterp", "#!/tmp/p/closed/x755\n", 0, 0755);
	mkdir("/tmp/p/noexec", 0755);
	if (mount("tmpfs", "/tmp/p/noexec", "tmpfs", MS_NOEXEC, NULL) < 0)
		say("mount noexec: %s\n", ename(errno));
	prog("/tmp/p/noexec/x755", 0, 0, 0755);
	script("/tmp/p/s_noexecinterp", "#!/tmp/p/noexec/x755\n", 0, 0755);

	say("== the x bit of the class that applies ==\n");
	as(1000, 0, "mode 0755", "/tmp/p/x755");
	as(1000, 0, "mode 0111: runs without read permission, and is not dumpable", "/tmp/p/x111");
	as(1000, 0, "mode 0644", "/tmp/p/x644");
	as(1000, 0, "mode 0700, root's", "/tmp/p/x700");
	as(1000, 0, "mode 0070, group 1000", "/tmp/p/g1000_070");
	as(1000, 0, "mode 0707, group 1000: the group's bits apply, not the others'", "/tmp/p/g1000_707");
	as(1000, 0, "mode 0075, owner 1000: the owner's bits apply", "/tmp/p/u1000_075");
	as(1000, 0, "mode 0750, group 50, not a member", "/tmp/p/g50_750");
	as(1000, 50, "mode 0750, group 50, a supplementary group", "/tmp/p/g50_750");
	as(1000, 0, "mode 0100, owner 1000", "/tmp/p/u1000_100");
	say("== search permission on the way ==\n");
	as(1000, 0, "in a directory of mode 0700", "/tmp/p/closed/x755");
	as(1000, 0, "in a directory of mode 0711", "/tmp/p/searchonly/x755");
	as(1000, 0, "in a directory of mode 0744", "/tmp/p/readonly/x755");
	say("== noexec ==\n");
	as(1000, 0, "on a noexec mount", "/tmp/p/noexec/x755");
	as(NOBODY, 0, "on a noexec mount", "/tmp/p/noexec/x755");
	say("== scripts ==\n");
	as(1000, 0, "mode 0755", "/tmp/p/s755");
	as(1000, 0, "mode 0711: the interpreter runs but cannot read it", "/tmp/p/s711");
	as(1000, 0, "mode 0644", "/tmp/p/s644");
	as(1000, 0, "its interpreter has mode 0644", "/tmp/p/s_badinterp");
	as(1000, 0, "its interpreter is in a directory of mode 0700", "/tmp/p/s_closedinterp");
	as(1000, 0, "its interpreter is on a noexec mount", "/tmp/p/s_noexecinterp");
	as(NOBODY, 0, "mode 0711", "/tmp/p/s711");
	say("== root: one x bit is enough, none is not ==\n");
	as(NOBODY, 0, "mode 0644", "/tmp/p/x644");
	as(NOBODY, 0, "mode 0000", "/tmp/p/x000");
	as(NOBODY, 0, "mode 0100, owner 1000", "/tmp/p/u1000_100");
	as(NOBODY, 0, "mode 0111", "/tmp/p/x111");
	as(NOBODY, 0, "in a directory of mode 0700", "/tmp/p/closed/x755");
	say("== not regular files ==\n");
	as(1000, 0, "a directory", "/tmp/p");
	as(NOBODY, 0, "a directory", "/tmp/p");
	as(NOBODY, 0, "a device", "/dev/null");
	umount("/tmp/p/noexec");
	return 0;
}
