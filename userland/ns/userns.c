/*
 * userns - user and cgroup namespaces, compared with Linux: unshare and
 * clone with CLONE_NEWUSER as root and as uid 1000, the ids before and
 * after the maps are written, the rules and errors of uid_map, gid_map
 * and setgroups, the capabilities a new namespace gives (and where they
 * count: sethostname in a UTS namespace the new user namespace owns, not
 * in the initial one), setns into a user namespace, the nesting limit,
 * the nsfs ioctls, and /proc/PID/cgroup with CLONE_NEWCGROUP. Each part
 * runs in a child of its own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NS_GET_USERNS 0xb701
#define NS_GET_PARENT 0xb702
#define NS_GET_NSTYPE 0xb703
#define NS_GET_OWNER_UID 0xb704

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case ENOSPC: return "ENOSPC";
	case EUSERS: return "EUSERS";
	case EBADF: return "EBADF";
	case ESPIPE: return "ESPIPE";
	default: {
		static char buf[16];
		snprintf(buf, sizeof(buf), "errno %d", e);
		return buf;
	}
	}
}

static void result(const char *what, long r)
{
	printf("%s: %s\n", what, r < 0 ? errname(errno) : "ok");
}

/* Write text to path (one write): "ok" or the error. */
static void write_file(const char *what, const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	long r = fd < 0 ? -1 : write(fd, text, strlen(text));

	result(what, r);
	if (fd >= 0)
		close(fd);
}

/* A file's text, its lines indented. */
static void show_file(const char *what, const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY);
	long n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (n < 0) {
		printf("%s: %s\n", what, errname(errno));
	} else {
		buf[n] = 0;
		printf("%s: [%s]\n", what, buf);
	}
	if (fd >= 0)
		close(fd);
}

/* One line of /proc/self/status that starts with key. */
static void show_status(const char *key)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			printf("  %s", line);
	if (f)
		fclose(f);
}

static void show_ids(const char *when)
{
	printf("%s: uid %d euid %d gid %d egid %d\n", when, (int)getuid(), (int)geteuid(), (int)getgid(),
	       (int)getegid());
}

static void become_1000(void)
{
	if (setgroups(0, NULL) || setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000)) {
		perror("become 1000");
		exit(1);
	}
	/* Dumpable again, as a process that never was root: its /proc
	 * files are its own (writable: uid_map). */
	prctl(PR_SET_DUMPABLE, 1);
}

/* Do the two links name the same namespace? */
static const char *same_ns(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb))
		return "cannot stat";
	return sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev ? "same" : "different";
}

static void run(const char *name, void (*part)(void))
{
	pid_t pid;
	int status;

	printf("--- %s\n", name);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		part();
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("%s: child status %#x\n", name, status);
}

/* ---- the parts ---- */

static void root_unshare(void)
{
	int init_user = open("/proc/self/ns/user", O_RDONLY);

	show_ids("root before");
	write_file("the initial namespace's uid_map", "/proc/self/uid_map", "0 0 1");
	result("unshare(CLONE_NEWUSER)", unshare(CLONE_NEWUSER));
	printf("user namespace vs the initial: %s\n", same_ns("/proc/self/ns/user", "/proc/1/ns/user"));
	show_ids("unmapped");
	show_status("Uid:");
	show_status("CapEff:");
	show_file("uid_map", "/proc/self/uid_map");
	show_file("setgroups", "/proc/self/setgroups");
	write_file("uid_map 0 0 1", "/proc/self/uid_map", "0 0 1\n");
	write_file("uid_map again", "/proc/self/uid_map", "0 0 1\n");
	write_file("gid_map 0 0 1 (setgroups allowed)", "/proc/self/gid_map", "0 0 1\n");
	show_ids("mapped");
	show_file("uid_map", "/proc/self/uid_map");
	show_file("initial uid_map", "/proc/1/uid_map");
	result("setns to the initial (no caps there)", setns(init_user, CLONE_NEWUSER));
	result("sethostname (initial UTS)", sethostname("x", 1));
	result("mount proc (initial mount ns)", mount("proc", "/proc", "proc", 0, NULL));
}

static void user_unshare(void)
{
	become_1000();
	show_ids("1000 before");
	show_status("CapEff:");
	result("unshare(CLONE_NEWUTS)", unshare(CLONE_NEWUTS));
	result("unshare(CLONE_NEWUSER)", unshare(CLONE_NEWUSER));
	show_ids("unmapped");
	show_status("CapEff:");
	result("sethostname (UTS of the initial user ns)", sethostname("x", 1));
	{
		int fd = open("/proc/self/uid_map", O_WRONLY);
		result("uid_map, pwrite", pwrite(fd, "0 1000 1", 8, 1));
		lseek(fd, 1, SEEK_SET);
		result("uid_map at offset 1", write(fd, "0 1000 1", 8));
		close(fd);
	}
	write_file("uid_map 0 0 1 (not mine)", "/proc/self/uid_map", "0 0 1");
	write_file("uid_map 0 1000 2", "/proc/self/uid_map", "0 1000 2");
	write_file("uid_map junk", "/proc/self/uid_map", "0 1000 x");
	write_file("uid_map count 0", "/proc/self/uid_map", "0 1000 0");
	write_file("uid_map overlap", "/proc/self/uid_map", "0 1000 1\n0 1001 1\n");
	write_file("uid_map empty line", "/proc/self/uid_map", "\n");
	write_file("gid_map before deny", "/proc/self/gid_map", "0 1000 1");
	write_file("setgroups junk", "/proc/self/setgroups", "maybe");
	write_file("setgroups deny", "/proc/self/setgroups", "deny");
	write_file("setgroups allow after deny", "/proc/self/setgroups", "allow");
	write_file("uid_map 0 1000 1", "/proc/self/uid_map", "0 1000 1");
	write_file("gid_map 0 1000 1", "/proc/self/gid_map", "0 1000 1");
	write_file("setgroups deny after gid_map", "/proc/self/setgroups", "deny");
	show_ids("mapped");
	show_status("Uid:");
	show_status("Gid:");
	show_file("uid_map", "/proc/self/uid_map");
	show_file("gid_map", "/proc/self/gid_map");
	show_file("setgroups", "/proc/self/setgroups");
	result("setgroups(2) after deny", setgroups(0, NULL));
	{
		struct stat st;
		int fd = open("/tmp/userns-file", O_CREAT | O_WRONLY, 0644);
		stat("/", &st);
		printf("owner of / (unmapped root): %d %d\n", (int)st.st_uid, (int)st.st_gid);
		fstat(fd, &st);
		printf("owner of a new file: %d %d\n", (int)st.st_uid, (int)st.st_gid);
		result("fchown to 0 0", fchown(fd, 0, 0));
		result("fchown to 5 (unmapped)", fchown(fd, 5, -1));
		close(fd);
		unlink("/tmp/userns-file");
	}
	{
		int q = msgget(IPC_PRIVATE, 0600);
		struct msqid_ds ds;
		msgctl(q, IPC_STAT, &ds);
		printf("message queue: uid %d cuid %d gid %d\n", (int)ds.msg_perm.uid, (int)ds.msg_perm.cuid,
		       (int)ds.msg_perm.gid);
		ds.msg_perm.uid = 5;
		result("IPC_SET to uid 5 (unmapped)", msgctl(q, IPC_SET, &ds));
		ds.msg_perm.uid = 0;
		result("IPC_SET to uid 0", msgctl(q, IPC_SET, &ds));
		msgctl(q, IPC_RMID, NULL);
	}
	result("prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN)", prctl(PR_CAPBSET_DROP, 21, 0, 0, 0));
	result("setuid(0)", setuid(0));
	result("setuid(5) (unmapped)", setuid(5));
}

static void user_uts(void)
{
	char name[65] = "";

	become_1000();
	result("unshare(CLONE_NEWUSER|CLONE_NEWUTS)", unshare(CLONE_NEWUSER | CLONE_NEWUTS));
	result("sethostname", sethostname("inner", 5));
	gethostname(name, sizeof(name));
	printf("hostname: %s\n", name);
	result("unshare(CLONE_NEWUTS) again", unshare(CLONE_NEWUTS));
	result("unshare(CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWIPC|CLONE_NEWNET|CLONE_NEWCGROUP)",
	       unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWCGROUP));
	result("unshare(CLONE_NEWUSER) below", unshare(CLONE_NEWUSER));
	result("sethostname (UTS owned by the parent user ns)", sethostname("y", 1));
}

static void *sleeper(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

static void unshare_rules(void)
{
	pthread_t t;

	become_1000();
	result("unshare(CLONE_NEWUTS) as 1000", unshare(CLONE_NEWUTS));
	result("unshare(CLONE_NEWCGROUP) as 1000", unshare(CLONE_NEWCGROUP));
	result("clone(CLONE_NEWUSER|CLONE_FS)", syscall(SYS_clone, CLONE_NEWUSER | CLONE_FS | SIGCHLD, 0, 0, 0, 0));
	result("clone(CLONE_NEWUSER|CLONE_THREAD...)",
	       syscall(SYS_clone, CLONE_NEWUSER | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM, 0, 0, 0, 0));
	pthread_create(&t, NULL, sleeper, NULL);
	result("unshare(CLONE_NEWUSER) with two threads", unshare(CLONE_NEWUSER));
}

static void clone_child_part(void)
{
	show_ids("clone child");
	show_status("CapEff:");
	result("sethostname in its new UTS", sethostname("c", 1));
}

/* The child prints after its parent's line (on several CPUs they raced). */
static void clone_newuser(void)
{
	int status, printed[2];
	pid_t pid;
	char c;

	become_1000();
	pipe(printed);
	pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWUTS | CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		read(printed[0], &c, 1);
		clone_child_part();
		fflush(stdout);
		_exit(0);
	}
	result("clone(CLONE_NEWUSER|CLONE_NEWUTS|CLONE_NEWNET) as 1000", pid);
	write(printed[1], "p", 1);
	waitpid(pid, &status, 0);
	printf("child exited %d\n", WEXITSTATUS(status));
}

/* A child in a new user namespace that waits; its pid. */
static pid_t child_in_userns(int *ready)
{
	int p[2];
	pid_t pid;
	char c;

	pipe(p);
	pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		close(p[0]);
		write(p[1], "x", 1);
		pause();
		_exit(0);
	}
	close(p[1]);
	read(p[0], &c, 1);
	*ready = p[0];
	return pid;
}

static void setns_rules(void)
{
	int self_fd = open("/proc/self/ns/user", O_RDONLY), ready, fd, uts;
	char path[64], child_user[64];
	pid_t pid = child_in_userns(&ready);

	snprintf(child_user, sizeof(child_user), "/proc/%d/ns/user", (int)pid);
	fd = open(child_user, O_RDONLY);
	result("setns to its own user ns", setns(self_fd, CLONE_NEWUSER));
	result("setns with the wrong type", setns(fd, CLONE_NEWUTS));
	/* The parent writes the child's map. */
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
	write_file("parent writes the child's uid_map 0 0 4294967295", path, "0 0 4294967295");
	show_file("child's uid_map as the parent reads it", path);
	if (fork() == 0) {
		become_1000();
		result("setns as 1000 into root's child user ns", setns(fd, CLONE_NEWUSER));
		_exit(0);
	}
	wait(NULL);
	uts = open("/proc/self/ns/uts", O_RDONLY);
	result("setns into the child's user ns", setns(fd, 0));
	printf("now in the child's: %s\n", same_ns("/proc/self/ns/user", child_user));
	show_ids("after setns");
	show_status("CapEff:");
	result("setns back to the initial UTS (owned above)", setns(uts, CLONE_NEWUTS));
	result("setns back to the initial user ns", setns(self_fd, CLONE_NEWUSER));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* What a container runtime does as an ordinary user: its own user, mount
 * and pid namespaces, /proc and /tmp mounted there. */
static void container(void)
{
	pid_t pid;

	become_1000();
	result("unshare(CLONE_NEWUSER|CLONE_NEWNS|CLONE_NEWPID)", unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID));
	write_file("setgroups deny", "/proc/self/setgroups", "deny");
	write_file("uid_map 0 1000 1", "/proc/self/uid_map", "0 1000 1");
	write_file("gid_map 0 1000 1", "/proc/self/gid_map", "0 1000 1");
	pid = fork();
	if (pid == 0) {
		printf("pid in the new namespace: %d\n", (int)getpid());
		result("mount proc", mount("proc", "/proc", "proc", 0, NULL));
		show_status("Pid:");
		show_status("Uid:");
		result("mount tmpfs", mount("none", "/tmp", "tmpfs", 0, NULL));
		result("umount the new tmpfs", umount("/tmp"));
		result("mount ramfs", mount("none", "/tmp", "ramfs", 0, NULL));
		result("umount it", umount("/tmp"));
		result("mount binfmt_misc", mount("none", "/tmp", "binfmt_misc", 0, NULL));
		result("umount the new proc", umount("/proc"));
		result("umount the copied proc (locked)", umount("/proc"));
		result("remount / read-only", mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY, NULL));
		result("chroot(\"/\")", chroot("/"));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void nesting(void)
{
	int n = 0;

	/* Each level maps root to its parent's root: the next creator needs
	 * ids in its parent. */
	while (unshare(CLONE_NEWUSER) == 0) {
		int fd = open("/proc/self/uid_map", O_WRONLY);
		if (write(fd, "0 0 1", 5) != 5)
			break;
		close(fd);
		fd = open("/proc/self/setgroups", O_WRONLY);
		write(fd, "deny", 4);
		close(fd);
		fd = open("/proc/self/gid_map", O_WRONLY);
		if (write(fd, "0 0 1", 5) != 5)
			break;
		close(fd);
		n++;
	}
	printf("nested user namespaces: %d, then %s\n", n, errname(errno));
	show_ids("at the bottom");
}

/* Are two descriptors of one namespace? */
static const char *same_fd(int a, int b)
{
	struct stat sa, sb;

	if (fstat(a, &sa) || fstat(b, &sb))
		return "cannot stat";
	return sa.st_ino == sb.st_ino ? "same" : "different";
}

static void ioctls(void)
{
	int init_user = open("/proc/self/ns/user", O_RDONLY), ready, child, parent, uts, owner;
	unsigned uid = 12345;
	char path[64];
	pid_t pid = child_in_userns(&ready);

	result("NS_GET_PARENT of the initial", ioctl(init_user, NS_GET_PARENT));
	result("NS_GET_USERNS of the initial", ioctl(init_user, NS_GET_USERNS));
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	child = open(path, O_RDONLY);
	parent = ioctl(child, NS_GET_PARENT);
	result("NS_GET_PARENT of a child's", parent);
	printf("its parent and the initial: %s\n", same_fd(parent, init_user));
	owner = ioctl(child, NS_GET_USERNS);
	result("NS_GET_USERNS of a child's (its parent)", owner);
	printf("that and the initial: %s\n", same_fd(owner, init_user));
	result("NS_GET_OWNER_UID of the child's", ioctl(child, NS_GET_OWNER_UID, &uid));
	printf("owner uid: %u\n", uid);
	printf("NS_GET_NSTYPE: %#x\n", ioctl(child, NS_GET_NSTYPE));
	snprintf(path, sizeof(path), "/proc/%d/ns/uts", (int)pid);
	uts = open(path, O_RDONLY);
	owner = ioctl(uts, NS_GET_USERNS);
	printf("owner of the child's (shared) UTS and the initial: %s\n", same_fd(owner, init_user));
	result("NS_GET_OWNER_UID of a UTS ns", ioctl(uts, NS_GET_OWNER_UID, &uid));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	/* From inside: what is above the caller's namespace is out of reach. */
	become_1000();
	unshare(CLONE_NEWUSER | CLONE_NEWUTS);
	uts = open("/proc/self/ns/uts", O_RDONLY);
	owner = ioctl(uts, NS_GET_USERNS);
	result("NS_GET_USERNS of the new UTS", owner);
	printf("its owner and ours: %s\n", same_fd(owner, open("/proc/self/ns/user", O_RDONLY)));
	result("NS_GET_PARENT of ours", ioctl(owner, NS_GET_PARENT));
	result("NS_GET_OWNER_UID", ioctl(owner, NS_GET_OWNER_UID, &uid));
	printf("owner uid as seen inside (unmapped): %u\n", uid);
	result("NS_GET_USERNS of the initial (from below)", ioctl(init_user, NS_GET_USERNS));
}

static void cgroup(void)
{
	char before[64] = "", after[64] = "";

	show_file("/proc/self/cgroup", "/proc/self/cgroup");
	readlink("/proc/self/ns/cgroup", before, sizeof(before) - 1);
	printf("initial cgroup ns: %s\n", before);
	result("unshare(CLONE_NEWCGROUP)", unshare(CLONE_NEWCGROUP));
	readlink("/proc/self/ns/cgroup", after, sizeof(after) - 1);
	printf("link changed: %s\n", strcmp(before, after) ? "yes" : "no");
	show_file("/proc/self/cgroup in it", "/proc/self/cgroup");
	result("setns back to the initial", setns(open("/proc/1/ns/cgroup", O_RDONLY), CLONE_NEWCGROUP));
	become_1000();
	result("unshare(CLONE_NEWUSER|CLONE_NEWCGROUP) as 1000", unshare(CLONE_NEWUSER | CLONE_NEWCGROUP));
	show_file("/proc/self/cgroup", "/proc/self/cgroup");
	result("setns to the initial cgroup ns from there", setns(open("/proc/1/ns/cgroup", O_RDONLY), 0));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access("/proc/self", F_OK)) {
		mkdir("/proc", 0555);
		mount("proc", "/proc", "proc", 0, NULL);
	}
	run("root unshares", root_unshare);
	run("1000 unshares", user_unshare);
	run("1000: user and UTS", user_uts);
	run("unshare rules", unshare_rules);
	run("clone", clone_newuser);
	run("setns", setns_rules);
	run("container", container);
	run("nesting", nesting);
	run("ioctls", ioctls);
	run("cgroup", cgroup);
	return 0;
}
