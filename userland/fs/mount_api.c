/*
 * mount_api - the new mount API (fsopen, fsconfig, fsmount, move_mount),
 * compared with Linux: a tmpfs and a proc made in steps, then the errors
 * of each call and the messages fsconfig leaves for read(2); proc's
 * hidepid= and subset=pid, by fsconfig and by mount(2). Runs as root.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* include/uapi/linux/mount.h (musl has no kernel headers). */
#define FSOPEN_CLOEXEC 1
#define FSMOUNT_CLOEXEC 1
#define FSCONFIG_SET_FLAG 0
#define FSCONFIG_SET_STRING 1
#define FSCONFIG_SET_BINARY 2
#define FSCONFIG_CMD_CREATE 6
#define MOUNT_ATTR_NOSUID 0x2
#define MOUNT_ATTR_NODEV 0x4
#define MOUNT_ATTR_NOEXEC 0x8
#define MOUNT_ATTR_IDMAP 0x100000
#define MOVE_MOUNT_F_EMPTY_PATH 0x4
#define FSCONFIG_CMD_RECONFIGURE 7
#define FSPICK_CLOEXEC 1
#define OPEN_TREE_CLONE 1
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#ifndef SYS_fspick
#define SYS_fspick 433
#endif

static int fsopen_(const char *name, unsigned flags) { return syscall(SYS_fsopen, name, flags); }
static int fsconfig_(int fd, unsigned cmd, const char *key, const void *val, int aux)
{
	return syscall(SYS_fsconfig, fd, cmd, key, val, aux);
}
static int fsmount_(int fd, unsigned flags, unsigned attr) { return syscall(SYS_fsmount, fd, flags, attr); }
static int fspick_(int dfd, const char *path, unsigned flags) { return syscall(SYS_fspick, dfd, path, flags); }
static int open_tree_(int dfd, const char *path, unsigned flags) { return syscall(SYS_open_tree, dfd, path, flags); }
static int move_mount_(int fd, const char *from, int tfd, const char *to, unsigned flags)
{
	return syscall(SYS_move_mount, fd, from, tfd, to, flags);
}

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EBADF: return "EBADF";
	case EBUSY: return "EBUSY";
	case ENOTDIR: return "ENOTDIR";
	case EINVAL: return "EINVAL";
	case ENODEV: return "ENODEV";
	case ELOOP: return "ELOOP";
	case ENODATA: return "ENODATA";
	case EMSGSIZE: return "EMSGSIZE";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EROFS: return "EROFS";
	default: return "E?";
	}
}

static void show(const char *what, long rv)
{
	printf("%s: %s\n", what, rv < 0 ? errname(errno) : "ok");
}

/* Every message the context holds, one read each. */
static void show_log(int fd)
{
	char buf[512];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		printf("  log: [%s]\n", buf);
	}
	printf("  then: %s\n", errname(errno));
}

/* The line of /proc/mounts for mount point dir, without its device. */
static void show_mount(const char *dir)
{
	char line[512];
	FILE *f = fopen("/proc/self/mounts", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');
		if (sp && !strncmp(sp + 1, dir, strlen(dir)) && sp[1 + strlen(dir)] == ' ') {
			printf("  mounts: %s", sp + 1);
			found = 1;
		}
	}
	if (!found)
		printf("  mounts: no %s\n", dir);
	if (f)
		fclose(f);
}

static void happy_tmpfs(void)
{
	int fd = fsopen_("tmpfs", FSOPEN_CLOEXEC);
	show("fsopen(tmpfs)", fd);
	show("fsconfig mode=700", fsconfig_(fd, FSCONFIG_SET_STRING, "mode", "700", 0));
	show("fsconfig source=api", fsconfig_(fd, FSCONFIG_SET_STRING, "source", "api", 0));
	show("fsconfig ro flag", fsconfig_(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	show("fsconfig rw flag", fsconfig_(fd, FSCONFIG_SET_FLAG, "rw", NULL, 0));
	show("fsmount before create", fsmount_(fd, 0, 0));
	show("CMD_CREATE", fsconfig_(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	show("CMD_CREATE again", fsconfig_(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	int mfd = fsmount_(fd, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV | MOUNT_ATTR_NOSUID);
	show("fsmount", mfd);
	show("fsmount again", fsmount_(fd, 0, 0));
	show_mount("/mnt");
	show("openat(mfd, file, O_CREAT)", openat(mfd, "file", O_CREAT | O_WRONLY, 0600));
	mkdir("/mnt", 0755);
	show("move_mount to /mnt", move_mount_(mfd, "", AT_FDCWD, "/mnt", MOVE_MOUNT_F_EMPTY_PATH));
	show_mount("/mnt");
	struct stat st;
	show("stat /mnt/file", stat("/mnt/file", &st));
	stat("/mnt", &st);
	printf("  /mnt mode %o\n", st.st_mode & 07777);
	show("move_mount again", move_mount_(mfd, "", AT_FDCWD, "/mnt", MOVE_MOUNT_F_EMPTY_PATH));
	mkdir("/tmp/moved", 0755);
	show("move_mount /mnt to /tmp/moved", move_mount_(AT_FDCWD, "/mnt", AT_FDCWD, "/tmp/moved", 0));
	show_mount("/mnt");
	show_mount("/tmp/moved");
	show("stat /tmp/moved/file", stat("/tmp/moved/file", &st));
	show("move_mount into itself", move_mount_(AT_FDCWD, "/tmp/moved", AT_FDCWD, "/tmp/moved", 0));
	show("umount /tmp/moved", umount("/tmp/moved"));
	show_log(fd);
	close(mfd);
	close(fd);
}

/* fsmount's descriptor closed before move_mount: the mount is gone. */
static void unattached(void)
{
	int fd = fsopen_("tmpfs", 0);
	fsconfig_(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0);
	int mfd = fsmount_(fd, 0, 0);
	show("fsmount (never attached)", mfd);
	close(mfd);
	close(fd);
	show("move_mount of a closed fd", move_mount_(mfd, "", AT_FDCWD, "/mnt", MOVE_MOUNT_F_EMPTY_PATH));
}

static void errors(void)
{
	int fd;

	show("fsopen(nosuchfs)", fsopen_("nosuchfs", 0));
	show("fsopen(tmpfs, 2)", fsopen_("tmpfs", 2));
	fd = fsopen_("tmpfs", 0);
	show("fsconfig bad cmd", fsconfig_(fd, 99, "x", NULL, 0));
	show("fsconfig SET_FLAG with value", fsconfig_(fd, FSCONFIG_SET_FLAG, "ro", "x", 0));
	show("fsconfig SET_STRING no value", fsconfig_(fd, FSCONFIG_SET_STRING, "mode", NULL, 0));
	show("fsconfig SET_BINARY aux 0", fsconfig_(fd, FSCONFIG_SET_BINARY, "mode", "x", 0));
	show("fsconfig CMD_CREATE with key", fsconfig_(fd, FSCONFIG_CMD_CREATE, "x", NULL, 0));
	show("fsconfig on /dev/null", fsconfig_(open("/dev/null", O_RDONLY), FSCONFIG_SET_FLAG, "ro", NULL, 0));
	show("fsconfig on fd 999", fsconfig_(999, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	show("fsconfig fd -1", fsconfig_(-1, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	show("tmpfs unknown key", fsconfig_(fd, FSCONFIG_SET_STRING, "nosuch", "1", 0));
	show("tmpfs mode=abc", fsconfig_(fd, FSCONFIG_SET_STRING, "mode", "abc", 0));
	show("tmpfs mode as flag", fsconfig_(fd, FSCONFIG_SET_FLAG, "mode", NULL, 0));
	show("tmpfs size=12q", fsconfig_(fd, FSCONFIG_SET_STRING, "size", "12q", 0));
	show("tmpfs inode64=1", fsconfig_(fd, FSCONFIG_SET_STRING, "inode64", "1", 0));
	show("tmpfs source as flag", fsconfig_(fd, FSCONFIG_SET_FLAG, "source", NULL, 0));
	show("tmpfs source=a", fsconfig_(fd, FSCONFIG_SET_STRING, "source", "a", 0));
	show("tmpfs source=b", fsconfig_(fd, FSCONFIG_SET_STRING, "source", "b", 0));
	show_log(fd);
	char small[4];
	fsconfig_(fd, FSCONFIG_SET_STRING, "nosuch", "1", 0);
	show("read into 4 bytes", read(fd, small, sizeof(small)));
	show("fsmount flags 2", fsmount_(fd, 2, 0));
	show("fsmount atime 0x30", fsmount_(fd, 0, 0x30));
	show("fsmount IDMAP", fsmount_(fd, 0, MOUNT_ATTR_IDMAP));
	show("move_mount bad flags", move_mount_(fd, "", AT_FDCWD, "/mnt", 0x1000));
	show("move_mount of a non-mount", move_mount_(AT_FDCWD, "/tmp", AT_FDCWD, "/mnt", 0));
	show("move_mount of /", move_mount_(AT_FDCWD, "/", AT_FDCWD, "/mnt", 0));
	show("move_mount to nowhere", move_mount_(AT_FDCWD, "/proc", AT_FDCWD, "/nonexistent", 0));
	close(fd);
	printf("ten messages kept:\n");
	fd = fsopen_("proc", 0);
	for (int i = 0; i < 10; i++) {
		char key[16];
		snprintf(key, sizeof(key), "k%d", i);
		fsconfig_(fd, FSCONFIG_SET_FLAG, key, NULL, 0);
	}
	show_log(fd);
	close(fd);
}

static void proc_options(void)
{
	int hidepid = 2;
	int fd = fsopen_("proc", 0);

	show("proc hidepid binary", fsconfig_(fd, FSCONFIG_SET_BINARY, "hidepid", &hidepid, sizeof(hidepid)));
	show("proc hidepid=2", fsconfig_(fd, FSCONFIG_SET_STRING, "hidepid", "2", 0));
	show("proc hidepid=invisible", fsconfig_(fd, FSCONFIG_SET_STRING, "hidepid", "invisible", 0));
	show("proc hidepid=3", fsconfig_(fd, FSCONFIG_SET_STRING, "hidepid", "3", 0));
	show("proc hidepid=bogus", fsconfig_(fd, FSCONFIG_SET_STRING, "hidepid", "bogus", 0));
	show("proc subset=sys", fsconfig_(fd, FSCONFIG_SET_STRING, "subset", "sys", 0));
	show("proc gid=x", fsconfig_(fd, FSCONFIG_SET_STRING, "gid", "x", 0));
	show("proc gid=5", fsconfig_(fd, FSCONFIG_SET_STRING, "gid", "5", 0));
	show("proc subset=pid", fsconfig_(fd, FSCONFIG_SET_STRING, "subset", "pid", 0));
	show("proc nosuch", fsconfig_(fd, FSCONFIG_SET_FLAG, "nosuch", NULL, 0));
	show_log(fd);
	show("CMD_CREATE", fsconfig_(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	int mfd = fsmount_(fd, 0, MOUNT_ATTR_NOEXEC);
	mkdir("/tmp/p", 0755);
	show("move_mount to /tmp/p", move_mount_(mfd, "", AT_FDCWD, "/tmp/p", MOVE_MOUNT_F_EMPTY_PATH));
	show_mount("/tmp/p");
	struct stat st;
	show("subset=pid: stat /tmp/p/1", stat("/tmp/p/1", &st));
	show("subset=pid: stat /tmp/p/self", stat("/tmp/p/self", &st));
	show("subset=pid: stat /tmp/p/meminfo", stat("/tmp/p/meminfo", &st));
	show("subset=pid: stat /tmp/p/sys", stat("/tmp/p/sys", &st));
	umount("/tmp/p");
	close(mfd);
	close(fd);

	mkdir("/tmp/q", 0755);
	show("mount(2) proc hidepid=bogus", mount("proc", "/tmp/q", "proc", 0, "hidepid=bogus"));
	show("mount(2) proc nosuch", mount("proc", "/tmp/q", "proc", 0, "nosuch"));
	show("mount(2) proc hidepid=invisible,gid=7", mount("proc", "/tmp/q", "proc", 0, "hidepid=invisible,gid=7"));
	show_mount("/tmp/q");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		setgid(1000);
		setuid(1000);
		struct stat s2;
		show("uid 1000, hidepid=2: stat /tmp/q/1", stat("/tmp/q/1", &s2));
		show("uid 1000, hidepid=2: stat /tmp/q/self", stat("/tmp/q/self", &s2));
		DIR *d = opendir("/tmp/q");
		int pids = 0;
		for (struct dirent *e; d && (e = readdir(d));)
			pids += e->d_name[0] >= '1' && e->d_name[0] <= '9' && atoi(e->d_name) != getpid();
		printf("uid 1000, hidepid=2: other processes listed: %d\n", pids);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	show("root, hidepid=2: stat /tmp/q/1", stat("/tmp/q/1", &st));
	umount("/tmp/q");
	show("mount(2) proc hidepid=ptraceable,subset=pid", mount("proc", "/tmp/q", "proc", 0, "hidepid=ptraceable,subset=pid"));
	show_mount("/tmp/q");
	umount("/tmp/q");
	show("mount(2) proc hidepid=1", mount("proc", "/tmp/q", "proc", 0, "hidepid=1"));
	show_mount("/tmp/q");
	fflush(stdout);
	if ((pid = fork()) == 0) {
		setgid(1000);
		setuid(1000);
		struct stat s2;
		show("uid 1000, hidepid=1: stat /tmp/q/1", stat("/tmp/q/1", &s2));
		show("uid 1000, hidepid=1: stat /tmp/q/1/status", stat("/tmp/q/1/status", &s2));
		show("uid 1000, hidepid=1: open /tmp/q/1", open("/tmp/q/1", O_RDONLY | O_DIRECTORY));
		show("uid 1000, hidepid=1: stat /tmp/q/self/status", stat("/tmp/q/self/status", &s2));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	umount("/tmp/q");
}

/* fspick: reconfigure what is mounted, as a remount. */
static void fspick_case(void)
{
	mkdir("/tmp/r", 0755);
	mount("none", "/tmp/r", "tmpfs", 0, NULL);
	show("fspick(/tmp) not a mount", fspick_(AT_FDCWD, "/tmp", 0));
	show("fspick bad flags", fspick_(AT_FDCWD, "/tmp/r", 16));
	int fd = fspick_(AT_FDCWD, "/tmp/r", FSPICK_CLOEXEC);
	show("fspick(/tmp/r)", fd);
	show("CMD_CREATE on it", fsconfig_(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	show("fsmount on it", fsmount_(fd, 0, 0));
	show("ro", fsconfig_(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	show("CMD_RECONFIGURE", fsconfig_(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0));
	show_mount("/tmp/r");
	show("creat in it", open("/tmp/r/f", O_CREAT | O_WRONLY, 0600));
	show("rw", fsconfig_(fd, FSCONFIG_SET_FLAG, "rw", NULL, 0));
	show("CMD_RECONFIGURE", fsconfig_(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0));
	show_mount("/tmp/r");
	show("creat in it", open("/tmp/r/f", O_CREAT | O_WRONLY, 0600));
	show("dirsync", fsconfig_(fd, FSCONFIG_SET_FLAG, "dirsync", NULL, 0));
	show("CMD_RECONFIGURE with dirsync", fsconfig_(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0));
	show("then a parameter", fsconfig_(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	show_log(fd);
	close(fd);

	mkdir("/tmp/s", 0755);
	mount("proc", "/tmp/s", "proc", 0, "gid=3");
	fd = fspick_(AT_FDCWD, "/tmp/s", 0);
	show("fspick(/tmp/s)", fd);
	show("hidepid=invisible", fsconfig_(fd, FSCONFIG_SET_STRING, "hidepid", "invisible", 0));
	show("CMD_RECONFIGURE", fsconfig_(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0));
	show_mount("/tmp/s");
	show("subset=pid", fsconfig_(fd, FSCONFIG_SET_STRING, "subset", "pid", 0));
	show("CMD_RECONFIGURE", fsconfig_(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0));
	show_mount("/tmp/s");
	show("umount while picked", umount("/tmp/s"));
	close(fd);
}

/* open_tree: a copy of a mount to put elsewhere, or a handle on one. */
static void open_tree_case(void)
{
	struct stat st;

	mkdir("/tmp/t", 0755);
	mkdir("/tmp/t2", 0755);
	mkdir("/tmp/t3", 0755);
	mkdir("/tmp/u", 0755);
	mount("proc", "/tmp/t", "proc", 0, "hidepid=2");
	show("open_tree bad flags", open_tree_(AT_FDCWD, "/tmp/t", 4));
	show("open_tree AT_RECURSIVE alone", open_tree_(AT_FDCWD, "/tmp/t", AT_RECURSIVE));
	int fd = open_tree_(AT_FDCWD, "/tmp/t", OPEN_TREE_CLONE | O_CLOEXEC);
	show("open_tree(/tmp/t, CLONE)", fd);
	show_mount("/tmp/t2");
	show("move_mount the copy to /tmp/t2", move_mount_(fd, "", AT_FDCWD, "/tmp/t2", MOVE_MOUNT_F_EMPTY_PATH));
	show_mount("/tmp/t");
	show_mount("/tmp/t2");
	show("stat /tmp/t2/self/status", stat("/tmp/t2/self/status", &st));
	show("stat /tmp/t2/meminfo", stat("/tmp/t2/meminfo", &st));
	close(fd);
	umount("/tmp/t2");
	umount("/tmp/t");
	mount("src", "/tmp/u", "tmpfs", 0, "mode=750");
	fd = open_tree_(AT_FDCWD, "/tmp/u", 0);
	show("open_tree(/tmp/u)", fd);
	show("fstat it", fstat(fd, &st));
	printf("  mode %o\n", st.st_mode & 07777);
	show("move_mount it to /tmp/t3", move_mount_(fd, "", AT_FDCWD, "/tmp/t3", MOVE_MOUNT_F_EMPTY_PATH));
	show_mount("/tmp/u");
	show_mount("/tmp/t3");
	close(fd);
	umount("/tmp/t3");
}

static void unprivileged(void)
{
	setuid(1000);
	show("fsopen as uid 1000", fsopen_("tmpfs", 0));
	show("fsmount as uid 1000", fsmount_(3, 0, 0));
	show("move_mount as uid 1000", move_mount_(AT_FDCWD, "/proc", AT_FDCWD, "/mnt", 0));
	show("fspick as uid 1000", fspick_(AT_FDCWD, "/proc", 0));
	show("open_tree CLONE as uid 1000", open_tree_(AT_FDCWD, "/proc", OPEN_TREE_CLONE));
	show("open_tree as uid 1000", open_tree_(AT_FDCWD, "/proc", 0));
}

static void in_child(void (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

int main(void)
{
	if (access("/proc/self", F_OK)) {
		mkdir("/proc", 0555);
		mount("proc", "/proc", "proc", 0, NULL);
	}
	/* Our own mount namespace: what we mount goes with us. */
	unshare(CLONE_NEWNS);
	mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	in_child(happy_tmpfs);
	in_child(unattached);
	in_child(errors);
	in_child(proc_options);
	in_child(fspick_case);
	in_child(open_tree_case);
	in_child(unprivileged);
	return 0;
}
