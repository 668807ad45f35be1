/*
 * caps - the capability calls, against Linux: capget and capset (the
 * versions, the rules of capset), prctl's bounding set (PR_CAPBSET_READ,
 * PR_CAPBSET_DROP), ambient set (PR_CAP_AMBIENT), PR_SET_KEEPCAPS and
 * PR_SET_NO_NEW_PRIVS; and what exec makes of a dropped bounding set.
 */
#include "exectest.h"
#include <sys/fsuid.h>
#include <sys/prctl.h>

#define V1 0x19980330
#define V3 0x20080522
#define CAP_CHOWN 0
#define CAP_KILL 5
#define CAP_SETPCAP 8
#define CAP_NET_RAW 13
#define CAP_SYS_ADMIN 21

struct cap_header {
	unsigned version;
	int pid;
};
struct cap_data {
	unsigned effective, permitted, inheritable;
};

static long capget(unsigned version, int pid, struct cap_data *d, struct cap_header *out)
{
	struct cap_header h = { version, pid };
	long r = syscall(SYS_capget, &h, d);

	if (out)
		*out = h;
	return r;
}

static long capset(unsigned e0, unsigned p0, unsigned i0, unsigned e1, unsigned p1, unsigned i1)
{
	struct cap_header h = { V3, 0 };
	struct cap_data d[2] = { { e0, p0, i0 }, { e1, p1, i1 } };

	return syscall(SYS_capset, &h, d);
}

static void show(const char *who)
{
	struct cap_data d[2] = { 0 };
	long r = capget(V3, 0, d, NULL);

	say("%s: capget %s: eff %08x%08x prm %08x%08x inh %08x%08x\n", who, res(r), d[1].effective,
	    d[0].effective, d[1].permitted, d[0].permitted, d[1].inheritable, d[0].inheritable);
}

static int as_root(void *unused)
{
	struct cap_data d[2] = { 0 };
	struct cap_header h;
	char *argv[] = { "/usr/lib/exec-tests/execprobe", NULL }, *envp[] = { "PROBE=creds", NULL };

	(void)unused;
	show("root");
	say("capget version 1: %s, ", res(capget(V1, 0, d, NULL)));
	say("second word untouched: %08x\n", d[1].effective);
	say("capget bad version: %s, ", res(capget(0x12345678, 0, d, &h)));
	say("header now %08x\n", h.version);
	say("capget bad version, NULL data: %s\n", res(syscall(SYS_capget, &(struct cap_header){ 1, 0 }, NULL)));
	say("capget of pid 1: %s\n", res(capget(V3, 1, d, NULL)));
	say("capget of pid -1: %s\n", res(capget(V3, -1, d, NULL)));
	say("capget of pid 99999: %s\n", res(capget(V3, 99999, d, NULL)));
	say("capset of pid 1: %s\n", res(syscall(SYS_capset, &(struct cap_header){ V3, 1 }, d)));
	say("PR_CAPBSET_READ CAP_SYS_ADMIN: %s\n", res(prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN)));
	say("PR_CAPBSET_READ 41: %s\n", res(prctl(PR_CAPBSET_READ, 41)));
	say("PR_CAPBSET_DROP CAP_NET_RAW: %s\n", res(prctl(PR_CAPBSET_DROP, CAP_NET_RAW)));
	say("PR_CAPBSET_READ CAP_NET_RAW: %s\n", res(prctl(PR_CAPBSET_READ, CAP_NET_RAW)));
	say("PR_CAP_AMBIENT_RAISE CAP_KILL, not inheritable: %s\n",
	    res(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_KILL, 0, 0)));
	say("capset inheritable CAP_KILL: %s\n", res(capset(~0u, ~0u, 1u << CAP_KILL, 0x1ff, 0x1ff, 0)));
	show("root");
	say("PR_CAP_AMBIENT_RAISE CAP_KILL: %s\n", res(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_KILL, 0, 0)));
	say("PR_CAP_AMBIENT_IS_SET CAP_KILL: %s\n", res(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_KILL, 0, 0)));
	say("PR_CAP_AMBIENT with arg4 set: %s\n", res(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_KILL, 1, 0)));
	say("PR_CAP_AMBIENT 9: %s\n", res(prctl(PR_CAP_AMBIENT, 9, CAP_KILL, 0, 0)));
	say("capset dropping CAP_KILL from permitted: %s\n",
	    res(capset(~0u & ~(1u << CAP_KILL), ~0u & ~(1u << CAP_KILL), 1u << CAP_KILL, 0x1ff, 0x1ff, 0)));
	say("PR_CAP_AMBIENT_IS_SET CAP_KILL after: %s\n", res(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_KILL, 0, 0)));
	say("capset raising CAP_KILL back: %s\n", res(capset(~0u, ~0u, 0, 0x1ff, 0x1ff, 0)));
	say("capset effective beyond permitted: %s\n",
	    res(capset(~0u, ~0u & ~(1u << CAP_CHOWN), 0, 0x1ff, 0x1ff, 0)));
	show("root");
	say("PR_GET_KEEPCAPS %d; PR_SET_KEEPCAPS 2: %s\n", prctl(PR_GET_KEEPCAPS), res(prctl(PR_SET_KEEPCAPS, 2)));
	say("PR_SET_NO_NEW_PRIVS 1 with arg3: %s\n", res(prctl(PR_SET_NO_NEW_PRIVS, 1, 1, 0, 0)));
	say("PR_SET_NO_NEW_PRIVS 2: %s\n", res(prctl(PR_SET_NO_NEW_PRIVS, 2, 0, 0, 0)));
	say("PR_GET_NO_NEW_PRIVS: %d\n", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	say("exec with CAP_NET_RAW out of the bounding set and CAP_CHOWN out of permitted:\n");
	execve(argv[0], argv, envp);
	return -errno;
}

static int as_user(void *unused)
{
	(void)unused;
	become(1000, 1000, 0, NULL);
	show("uid 1000");
	say("PR_CAPBSET_DROP CAP_KILL: %s\n", res(prctl(PR_CAPBSET_DROP, CAP_KILL)));
	say("capset inheritable CAP_KILL: %s\n", res(capset(0, 0, 1u << CAP_KILL, 0, 0, 0)));
	say("capset permitted CAP_KILL: %s\n", res(capset(0, 1u << CAP_KILL, 0, 0, 0, 0)));
	say("capset all empty: %s\n", res(capset(0, 0, 0, 0, 0, 0)));
	return 0;
}

/* Root, setuid(1000) with and without PR_SET_KEEPCAPS. */
static int keepcaps(void *arg)
{
	prctl(PR_SET_KEEPCAPS, arg != NULL);
	setresuid(1000, 1000, 1000);
	show(arg ? "setuid(1000) after PR_SET_KEEPCAPS 1" : "setuid(1000)");
	say("  PR_GET_KEEPCAPS %d\n", prctl(PR_GET_KEEPCAPS));
	setresuid(-1, 0, -1);
	show("  seteuid(0) back");
	return 0;
}

/* setfsuid: the file system capabilities follow the fsuid. */
static int fsuid(void *unused)
{
	(void)unused;
	say("setfsuid(1000) says %d\n", setfsuid(1000));
	show("  fsuid 1000");
	say("setfsuid(0) says %d\n", setfsuid(0));
	show("  fsuid 0");
	return 0;
}

int main(void)
{
	mount_proc();
	run_case("as root", as_root, NULL);
	run_case("as uid 1000", as_user, NULL);
	run_case("keepcaps", keepcaps, NULL);
	run_case("keepcaps", keepcaps, "1");
	run_case("setfsuid", fsuid, NULL);
	return 0;
}
