/*
 * module_leak - 500 rounds of loading and unloading modules, and of loads
 * that fail at each step of the loader; free memory (MemFree of
 * /proc/meminfo) must be the same before and after
 * (tests/cases/modules/module_leak).
 * Ten rounds first, so that what stays for good (the module area's page
 * tables) is there before the first figure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static char dir[128];

static long load(const char *name)
{
	char path[256];
	long ret;
	int fd;

	snprintf(path, sizeof(path), "%s/%s.ko", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	ret = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return ret < 0 ? -errno : 0;
}

static long unload(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) < 0 ? -errno : 0;
}

/* One round: loads that work, and loads that fail, each in its own way. */
static int round_trip(void)
{
	static const struct { const char *name; long want; } fails[] = {
		{ "test/modtest_reloc32", -ENOEXEC },   /* relocation overflow */
		{ "test/modtest_gotpcrel", -ENOEXEC },  /* unknown relocation */
		{ "test/modtest_undefined", -ENOENT },  /* unknown symbol */
		{ "test/modtest_dup", -ENOEXEC },       /* duplicate export */
		{ "test/modtest_init_fail", -ENODEV },  /* init failed */
		{ "test/modtest_user", -ENOENT },       /* modtest_lib not loaded */
	};

	for (size_t i = 0; i < sizeof(fails) / sizeof(fails[0]); i++)
		if (load(fails[i].name) != fails[i].want) {
			printf("%s: unexpected result\n", fails[i].name);
			return -1;
		}
	if (load("binfmt_example") || load("test/modtest_relocs") || load("test/modtest_lib") ||
	    load("test/modtest_user") || load("test/modtest_lib") != -EEXIST ||
	    unload("modtest_lib") != -EAGAIN || unload("modtest_user") || unload("modtest_lib") ||
	    unload("modtest_relocs") || unload("binfmt_example")) {
		printf("load or unload: unexpected result\n");
		return -1;
	}
	return 0;
}

static long mem_free_kib(void)
{
	char line[128];
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

int main(void)
{
	struct utsname u;
	long before, after;

	mount("proc", "/proc", "proc", 0, NULL);
	uname(&u);
	snprintf(dir, sizeof(dir), "/lib/modules/%s/kernel/modules", u.release);
	for (int i = 0; i < 10; i++)
		if (round_trip())
			return 1;
	before = mem_free_kib();
	for (int i = 0; i < 500; i++)
		if (round_trip())
			return 1;
	after = mem_free_kib();
	if (before == after)
		printf("free memory before and after 500 rounds of module loads: same\n");
	else
		printf("free memory before and after 500 rounds of module loads: %ld kB, %ld kB\n",
		       before, after);
	return 0;
}
