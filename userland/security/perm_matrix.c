/*
 * perm_matrix - the permission matrix: as uid 1000 (gid 1000, no other
 * group), every privileged operation Linux refuses, one a line, with its
 * result: EPERM, EACCES, ... or "ok" (a few rows show what the user may
 * do, next to what it may not). Expected output from Linux.
 *
 * Run after /usr/lib/exec-tests/bm_setup (binfmt_misc mounted, as a Debian system has it).
 * Root prepares files in /tmp/m (root's and uid 1001's) and in the sticky
 * /tmp, and starts two sleeping processes, one root's, one uid 1001's, as
 * targets for kill and prlimit. A child then becomes uid 1000 and tries
 * each row. At the end root checks that the targets, and init, are alive.
 */
#include "exectest.h"
#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <sys/fsuid.h>
#include <sys/time.h>

static int rows;
static pid_t root_pid, other_pid; /* the targets: root's and uid 1001's */

/* One row: what was tried, and the result of the call. */
static void row(const char *what, long r)
{
	rows++;
	say("%-58s %s\n", what, r < 0 ? ename(errno) : "ok");
}

/* An open(2) row: the descriptor is closed again. */
static void row_open(const char *what, const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	row(what, fd);
	if (fd >= 0)
		close(fd);
}

static pid_t sleeper(uid_t uid)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (uid)
			become(uid, uid, 0, NULL);
		setpgid(0, 0);
		for (;;)
			pause();
	}
	return pid;
}

static int alive(pid_t pid)
{
	return kill(pid, 0) == 0;
}

static int as_user(void *unused)
{
	struct rlimit rl;
	char buf[256], what[128];
	struct timeval tv[2] = { { 0, 0 }, { 0, 0 } };
	DIR *d;
	int fd;

	(void)unused;
	become(1000, 1000, 0, NULL);

	say("-- other users' files, by their modes --\n");
	row_open("open root's 0600 file for reading", "/tmp/m/root600", O_RDONLY);
	row_open("open root's 0644 file for reading", "/tmp/m/root644", O_RDONLY);
	row_open("open root's 0644 file for writing", "/tmp/m/root644", O_WRONLY);
	row_open("open root's 0644 file with O_TRUNC", "/tmp/m/root644", O_RDONLY | O_TRUNC);
	row_open("open uid 1001's 0600 file for reading", "/tmp/m/u1001_600", O_RDONLY);
	row_open("open uid 1001's 0660 file, group 1000, for writing", "/tmp/m/g1000_660", O_WRONLY);
	row("truncate root's 0644 file", truncate("/tmp/m/root644", 0));
	row("access root's 0600 file, R_OK", access("/tmp/m/root600", R_OK));
	row_open("create a file in root's 0755 directory", "/tmp/m/new", O_WRONLY | O_CREAT);
	row("mkdir in root's 0755 directory", mkdir("/tmp/m/newdir", 0755));
	row("unlink root's file in root's 0755 directory", unlink("/tmp/m/root644"));
	row("rename root's file in root's 0755 directory", rename("/tmp/m/root644", "/tmp/m/x"));
	row("opendir root's 0700 directory", (d = opendir("/tmp/m/root700")) ? 0 : -1);
	if (d)
		closedir(d);
	row("stat a file in root's 0700 directory", stat("/tmp/m/root700/f", &(struct stat){ 0 }));
	row("utimes(NULL) of root's 0644 file", utimes("/tmp/m/root644", NULL));
	row("utimes(times) of root's 0644 file", utimes("/tmp/m/root644", tv));
	row("utimes(NULL) of root's 0666 file", utimes("/tmp/m/root666", NULL));
	row("utimes(times) of root's 0666 file", utimes("/tmp/m/root666", tv));
	say("-- the sticky /tmp --\n");
	row("unlink root's 0666 file in /tmp", unlink("/tmp/root_in_tmp"));
	row("rename root's 0666 file in /tmp", rename("/tmp/root_in_tmp", "/tmp/mine_now"));
	row("rmdir root's empty 0777 directory in /tmp", rmdir("/tmp/root_dir_in_tmp"));
	row_open("create my own file in /tmp", "/tmp/mine", O_WRONLY | O_CREAT);
	row("unlink my own file in /tmp", unlink("/tmp/mine"));
	say("-- owners and modes --\n");
	row("chown root's file to uid 1000", chown("/tmp/m/root644", 1000, -1));
	row("chown root's file to uid 0 (its owner)", chown("/tmp/m/root644", 0, -1));
	row("chgrp root's file to gid 1000", chown("/tmp/m/root644", -1, 1000));
	row_open("create /tmp/m1000/mine", "/tmp/m1000/mine", O_WRONLY | O_CREAT);
	row("chown my file to uid 0", chown("/tmp/m1000/mine", 0, -1));
	row("chown my file to uid 1001", chown("/tmp/m1000/mine", 1001, -1));
	row("chgrp my file to gid 0 (not my group)", chown("/tmp/m1000/mine", -1, 0));
	row("chgrp my file to gid 1000", chown("/tmp/m1000/mine", -1, 1000));
	row("chmod root's file", chmod("/tmp/m/root644", 0777));
	row("chmod uid 1001's file", chmod("/tmp/m/u1001_600", 0777));
	row("chmod my file 04755", chmod("/tmp/m1000/mine", 04755));
	say("-- devices --\n");
	row("mknod a character device (1,3) in /tmp", mknod("/tmp/null1000", S_IFCHR | 0666, makedev(1, 3)));
	row("mknod a block device in /tmp", mknod("/tmp/blk1000", S_IFBLK | 0666, makedev(7, 0)));
	row("mknod a FIFO in /tmp", mknod("/tmp/fifo1000", S_IFIFO | 0666, 0));
	row_open("open /dev/console (0600 root) for writing", "/dev/console", O_WRONLY);
	row_open("open /dev/null (0666) for writing", "/dev/null", O_WRONLY);
	say("-- processes --\n");
	row("kill(1, SIGTERM)", kill(1, SIGTERM));
	row("kill(1, SIGKILL)", kill(1, SIGKILL));
	row("kill(1, 0)", kill(1, 0));
	row("kill(root's process, SIGKILL)", kill(root_pid, SIGKILL));
	row("kill(uid 1001's process, SIGTERM)", kill(other_pid, SIGTERM));
	row("kill(uid 1001's process, 0)", kill(other_pid, 0));
	row("kill(-(root's process group), SIGKILL)", kill(-root_pid, SIGKILL));
	row("kill(-1, SIGKILL): nobody else's dies", kill(-1, SIGKILL));
	row("kill(my own pid, 0)", kill(getpid(), 0));
	row("prlimit(1, RLIMIT_NOFILE) read", prlimit(1, RLIMIT_NOFILE, NULL, &rl));
	rl.rlim_cur = rl.rlim_max = 64;
	row("prlimit(root's process, RLIMIT_NOFILE) set", prlimit(root_pid, RLIMIT_NOFILE, &rl, NULL));
	row("prlimit(uid 1001's process, RLIMIT_NOFILE) set",
	    prlimit(other_pid, RLIMIT_NOFILE, &rl, NULL));
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_max += 1;
	row("raise my hard RLIMIT_NOFILE", setrlimit(RLIMIT_NOFILE, &rl));
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_max -= 1;
	row("lower my hard RLIMIT_NOFILE", setrlimit(RLIMIT_NOFILE, &rl));
	rl.rlim_max += 1;
	row("raise it back", setrlimit(RLIMIT_NOFILE, &rl));
	snprintf(what, sizeof(what), "/proc/%d/maps", root_pid);
	row_open("open /proc/1/maps", "/proc/1/maps", O_RDONLY);
	row_open("open /proc/ROOTPID/maps", what, O_RDONLY);
	row_open("open /proc/1/environ", "/proc/1/environ", O_RDONLY);
	row("readlink /proc/1/exe", readlink("/proc/1/exe", buf, sizeof(buf)));
	row("readlink /proc/1/cwd", readlink("/proc/1/cwd", buf, sizeof(buf)));
	row("readlink /proc/1/root", readlink("/proc/1/root", buf, sizeof(buf)));
	row("opendir /proc/1/fd", (d = opendir("/proc/1/fd")) ? 0 : -1);
	if (d)
		closedir(d);
	row_open("open /proc/1/exe", "/proc/1/exe", O_RDONLY);
	row_open("open /proc/1/status", "/proc/1/status", O_RDONLY);
	row_open("open /proc/1/cmdline", "/proc/1/cmdline", O_RDONLY);
	row_open("open /proc/1/comm for writing", "/proc/1/comm", O_WRONLY);
	row_open("open /proc/self/maps", "/proc/self/maps", O_RDONLY);
	row("readlink /proc/self/exe", readlink("/proc/self/exe", buf, sizeof(buf)));
	fd = open("/proc/1/stat", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		char *p = n > 0 ? (buf[n] = '\0', strrchr(buf, ')')) : NULL;
		unsigned long v[30] = { 0 };
		/* Fields 26 to 28 (start_code, end_code, start_stack) are hidden. */
		if (p && sscanf(p + 4, "%*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
				"%*d %*d %*u %*u %*d %*u %lu %lu %lu", &v[0], &v[1], &v[2]) == 3)
			say("%-58s %lu %lu %lu\n", "/proc/1/stat start_code end_code start_stack", v[0],
			    v[1], v[2]);
		close(fd);
	}
	say("-- identity --\n");
	row("setuid(0)", setuid(0));
	row("seteuid(0)", seteuid(0));
	row("setresuid(-1, -1, 0)", setresuid(-1, -1, 0));
	row("setreuid(0, -1)", setreuid(0, -1));
	row("setgid(0)", setgid(0));
	row("setresgid(-1, 0, -1)", setresgid(-1, 0, -1));
	row("setgroups(0, NULL)", setgroups(0, NULL));
	row("setuid(1000) (my own uid)", setuid(1000));
	snprintf(what, sizeof(what), "setfsuid(0), then setfsuid(-1) says %d",
		 (setfsuid(0), setfsuid(-1)));
	row(what, 0);
	row("prctl(PR_CAPBSET_DROP, CAP_KILL)", prctl(PR_CAPBSET_DROP, 5, 0, 0, 0));
	row("prctl(PR_CAP_AMBIENT_RAISE, CAP_KILL)", prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, 5, 0, 0));
	say("-- the system --\n");
	row("mount tmpfs on /tmp", mount("tmpfs", "/tmp", "tmpfs", 0, NULL));
	row("umount /proc", umount("/proc"));
	row("umount2(/nonexistent)", umount2("/nonexistent", 0));
	row("chroot(/tmp)", chroot("/tmp"));
	row("reboot(RB_POWER_OFF)", reboot(RB_POWER_OFF));
	row("sethostname", sethostname("x", 1));
	row("setdomainname", setdomainname("x", 1));
	row_open("open /proc/sys/kernel/hostname for writing", "/proc/sys/kernel/hostname", O_WRONLY);
	row_open("open /proc/sys/kernel/domainname for writing", "/proc/sys/kernel/domainname", O_WRONLY);
	row_open("open /proc/sys/kernel/hostname for reading", "/proc/sys/kernel/hostname", O_RDONLY);
	row_open("open /proc/sys/kernel/modprobe for writing", "/proc/sys/kernel/modprobe", O_WRONLY);
	row_open("open /proc/sys/fs/binfmt_misc/register for writing",
		 "/proc/sys/fs/binfmt_misc/register", O_WRONLY);
	row_open("open /proc/sys/fs/binfmt_misc/status for writing",
		 "/proc/sys/fs/binfmt_misc/status", O_WRONLY);
	row("umount /proc/sys/fs/binfmt_misc", umount("/proc/sys/fs/binfmt_misc"));
	{
		int p[2];
		if (pipe(p) == 0) {
			row("F_SETPIPE_SZ of 2 MiB (over pipe-max-size)", fcntl(p[0], F_SETPIPE_SZ, 2 << 20));
			close(p[0]);
			close(p[1]);
		}
	}
	say("%d rows\n", rows);
	return 0;
}

int main(void)
{
	int status;

	mount_proc();
	mkdir("/tmp/m", 0755);
	write_file("/tmp/m/root600", "secret\n", 0600);
	write_file("/tmp/m/root644", "public\n", 0644);
	write_file("/tmp/m/root666", "anyone\n", 0666);
	write_file("/tmp/m/u1001_600", "1001's\n", 0600);
	chown("/tmp/m/u1001_600", 1001, 1001);
	write_file("/tmp/m/g1000_660", "group 1000's\n", 0660);
	chown("/tmp/m/g1000_660", 0, 1000);
	mkdir("/tmp/m/root700", 0700);
	write_file("/tmp/m/root700/f", "hidden\n", 0644);
	mkdir("/tmp/m1000", 0755);
	chown("/tmp/m1000", 1000, 1000);
	write_file("/tmp/root_in_tmp", "root's\n", 0666);
	mkdir("/tmp/root_dir_in_tmp", 0777);
	chmod("/tmp/root_dir_in_tmp", 0777);

	root_pid = sleeper(0);
	other_pid = sleeper(1001);
	run_case("as uid 1000:", as_user, NULL);
	say("after: init %s, root's process %s, uid 1001's process %s\n",
	    alive(1) ? "alive" : "dead", alive(root_pid) ? "alive" : "dead",
	    alive(other_pid) ? "alive" : "dead");
	kill(root_pid, SIGKILL);
	kill(other_pid, SIGKILL);
	waitpid(root_pid, &status, 0);
	waitpid(other_pid, &status, 0);
	return 0;
}
