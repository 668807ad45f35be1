/*
 * map_files - mappings of /dev/zero and /proc/PID/map_files: a private
 * mapping of /dev/zero is anonymous memory that /proc shows with its
 * file, a shared one is shared anonymous memory ("/dev/zero (deleted)");
 * map_files has a link per file-backed area, named START-END exactly
 * (any other spelling is ENOENT), its mode telling how the file was
 * opened; reading the link is for those who may look into the process,
 * following it for CAP_SYS_ADMIN only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>

#define PAGE 4096UL

static char *link_name(void *p, unsigned long len, const char *fmt)
{
	static char name[128];
	snprintf(name, sizeof(name), fmt, (unsigned long)p, (unsigned long)p + len);
	return name;
}

static void show_link(const char *what, void *p, unsigned long len)
{
	char *name = link_name(p, len, "/proc/self/map_files/%lx-%lx"), target[256];
	struct stat st;
	ssize_t n = readlink(name, target, sizeof(target) - 1);

	if (n < 0) {
		printf("%-28s readlink: %s\n", what, strerror(errno));
		return;
	}
	target[n] = 0;
	lstat(name, &st);
	printf("%-28s -> %s (mode %o, size %ld)\n", what, target, (unsigned)st.st_mode,
	       (long)st.st_size);
}

/* The perms and name of the maps line of the area at p. */
static void show_maps_line(const char *what, void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long s;
		char perms[8], name[256] = "";
		if (sscanf(line, "%lx-%*x %7s %*s %*s %*s %255[^\n]", &s, perms, name) >= 2 &&
		    s == (unsigned long)p)
			printf("%-28s maps: %s %s\n", what, perms, name);
	}
	if (f)
		fclose(f);
}

static void bad_names(void *p)
{
	static const char *const fmts[] = {
		"/proc/self/map_files/ %lx-%lx", "/proc/self/map_files/%lx -%lx",
		"/proc/self/map_files/%lx- %lx", "/proc/self/map_files/%lx-%lx ",
		"/proc/self/map_files/0%lx-%lx", "/proc/self/map_files/%lx-0%lx",
		"/proc/self/map_files/10000000000000000%lx-%lx", "/proc/self/map_files/%LX-%LX",
		"/proc/self/map_files/%lx-%lx/x",
	};
	char buf[64];
	for (unsigned i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		errno = 0;
		ssize_t n = readlink(link_name(p, PAGE, fmts[i]), buf, sizeof(buf));
		printf("bad name %u: %s\n", i, n < 0 ? strerror(errno) : "found");
	}
}

/* Does readdir of map_files list the area at p? */
static void listed(const char *what, void *p, unsigned long len)
{
	DIR *d = opendir("/proc/self/map_files");
	struct dirent *e;
	char *want = link_name(p, len, "%lx-%lx");
	int found = 0;
	while (d && (e = readdir(d)))
		if (!strcmp(e->d_name, want))
			found = e->d_type == DT_LNK ? 1 : 2;
	if (d)
		closedir(d);
	printf("%-28s listed: %s\n", what, found == 1 ? "yes, a link" : found ? "not a link" : "no");
}

/* uid 1000 reads its own links but may not follow them. */
static void as_other_user(void *p)
{
	if (fork() == 0) {
		setgid(1000);
		setuid(1000);
		char *name = link_name(p, PAGE, "/proc/self/map_files/%lx-%lx"), buf[64];
		ssize_t n = readlink(name, buf, sizeof(buf));
		printf("uid 1000 readlink: %s\n", n < 0 ? strerror(errno) : "ok");
		int fd = open(name, O_RDONLY);
		printf("uid 1000 open via link: %s\n", fd < 0 ? strerror(errno) : "opened");
		_exit(0);
	}
	wait(NULL);
}

int main(void)
{
	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there already */
	if (access("/dev/zero", F_OK))
		mknod("/dev/zero", S_IFCHR | 0666, makedev(1, 5));
	if (access("/dev/null", F_OK))
		mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3));
	int zero = open("/dev/zero", O_RDONLY), zero_rw = open("/dev/zero", O_RDWR);
	char *priv = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE, zero, 0);
	char *rw = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, zero, 0);
	char *shared = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, zero_rw, 0);

	printf("private PROT_NONE: %s\n", priv == MAP_FAILED ? strerror(errno) : "mapped");
	printf("shared writable, read-only fd: %s\n",
	       mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, zero, 0) == MAP_FAILED ? strerror(errno) : "mapped");
	printf("/dev/null: %s\n", mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, open("/dev/null", O_RDONLY), 0) ==
		MAP_FAILED ? strerror(errno) : "mapped");
	rw[0] = 'a';
	shared[0] = 's';
	if (fork() == 0) {
		rw[0] = 'b';
		shared[0] = 'S';
		_exit(0);
	}
	wait(NULL);
	printf("after the child wrote: private %c %d, shared %c\n", rw[0], rw[PAGE], shared[0]);
	show_maps_line("private /dev/zero", priv);
	show_maps_line("shared /dev/zero", shared);
	show_link("private /dev/zero", priv, PAGE);
	show_link("private rw /dev/zero", rw, 2 * PAGE);
	show_link("shared /dev/zero", shared, PAGE);

	int f = open("/tmp/map_files_test", O_CREAT | O_RDWR | O_TRUNC, 0644);
	write(f, "file contents\n", 14);
	char *file = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, f, 0);
	show_link("shared file, O_RDWR", file, PAGE);
	listed("shared file", file, PAGE);
	listed("private /dev/zero", priv, PAGE);
	show_link("half of an area", rw, PAGE);
	char *anon = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	show_link("anonymous", anon, PAGE);
	listed("anonymous", anon, PAGE);
	bad_names(priv);

	char buf[32] = "";
	int via = open(link_name(file, PAGE, "/proc/self/map_files/%lx-%lx"), O_RDONLY);
	read(via, buf, 13);
	printf("root opens via the link: %s\n", via < 0 ? strerror(errno) : buf);
	as_other_user(file);
	unlink("/tmp/map_files_test");
	return 0;
}
