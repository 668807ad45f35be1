/*
 * bm_common.h - what the binfmt_misc test programs share (each includes it:
 * the files of userland/binfmt_misc/ are built one program a file).
 */
#pragma GCC diagnostic ignored "-Wunused-function"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BM_DIR "/proc/sys/fs/binfmt_misc"

/* The errno's name, so that the output does not depend on the C library. */
static const char *errname(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ 0, "ok" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { E2BIG, "E2BIG" },
		{ ENOEXEC, "ENOEXEC" }, { EBADF, "EBADF" }, { EACCES, "EACCES" },
		{ EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
		{ EINVAL, "EINVAL" }, { ETXTBSY, "ETXTBSY" }, { ENAMETOOLONG, "ENAMETOOLONG" },
		{ ELOOP, "ELOOP" }, { ENOMEM, "ENOMEM" }, { ESPIPE, "ESPIPE" }, { EROFS, "EROFS" },
		{ ENXIO, "ENXIO" }, { EXDEV, "EXDEV" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	};
	static char other[32];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(other, sizeof(other), "errno %d", e);
	return other;
}

/* Write len bytes of s to a file of BM_DIR in one write: 0 or errno. */
static int bm_write_len(const char *file, const char *s, size_t len)
{
	char path[512];
	int fd, err = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", BM_DIR, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = write(fd, s, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = -1;
	close(fd);
	return err;
}

static int bm_write(const char *file, const char *s)
{
	return bm_write_len(file, s, strlen(s));
}

/* Register an entry; say so if it fails. */
static int bm_register(const char *s)
{
	int err = bm_write("register", s);

	if (err)
		printf("register '%s': %s\n", s, errname(err));
	return err;
}

/* An entry file's text, each line prefixed with "  ". */
static void bm_show(const char *name)
{
	char path[512], buf[4096];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", BM_DIR, name);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("  %s: %s\n", name, errname(errno));
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0) {
		printf("  %s: read: %s\n", name, errname(errno));
		return;
	}
	buf[n] = '\0';
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		printf("  %s\n", line);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "entries: a b c", sorted, without register and status. */
static void bm_list(void)
{
	char *names[64];
	int n = 0;
	DIR *d = opendir(BM_DIR);
	struct dirent *de;

	if (!d) {
		printf("entries: %s\n", errname(errno));
		return;
	}
	while ((de = readdir(d)) && n < 64) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, "register") == 0 || strcmp(de->d_name, "status") == 0)
			continue;
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	printf("entries:");
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

/* Remove every entry. */
static void bm_clear(void)
{
	int err = bm_write("status", "-1");

	if (err)
		printf("status -1: %s\n", errname(err));
}

/* Write a file with the given bytes and mode. */
static void put_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		printf("put_file %s: %s\n", path, errname(errno));
	if (fd >= 0)
		close(fd);
	chmod(path, mode);
}

/* Copy a file (a program), with the given mode. */
static void copy_file(const char *from, const char *to, mode_t mode)
{
	static char buf[1 << 16];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	unlink(to);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (in < 0 || out < 0) {
		printf("copy %s %s: %s\n", from, to, errname(errno));
		return;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			break;
	close(in);
	close(out);
	chmod(to, mode);
}

/*
 * Run path with argv (environment BM=1) in a child, as uid (if not 0), in
 * the root root (if not NULL); wait, and report: the child's output comes
 * first, then "exec PATH: ERRNO" if execve failed (the child then exits
 * 127) or "exit N" / "signal N" if it did not exit 0.
 */
static void run_as(const char *path, char *const argv[], uid_t uid, const char *root)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		static char *const envp[] = { "BM=1", NULL };

		if (root && (chroot(root) != 0 || chdir("/") != 0)) {
			printf("chroot %s: %s\n", root, errname(errno));
			_exit(1);
		}
		if (uid && (setgid(uid) != 0 || setuid(uid) != 0)) {
			printf("setuid: %s\n", errname(errno));
			_exit(1);
		}
		execve(path, argv, envp);
		printf("exec %s: %s\n", path, errname(errno));
		fflush(stdout);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 127)
		printf("exit %d\n", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("signal %d\n", WTERMSIG(status));
}

/* run_as, as root in this root. */
static void run(const char *path, char *const argv[])
{
	run_as(path, argv, 0, NULL);
}

/* The lines of /proc/mounts that name binfmt_misc, each as "mounts: LINE". */
static void bm_show_mounts(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "binfmt"))
			printf("mounts: %s", line);
	if (f)
		fclose(f);
}
