/*
 * profile_check - the kernel profiler, booted with profile=2, as a user
 * sees it (docs/measuring.md): /proc/profile in Linux's binary format,
 * its reset, and util-linux's readprofile naming the kernel's functions.
 *
 * The map of symbols must be the running kernel's: /boot/System.map is
 * ours (the build puts it there). Debian's Linux ships no usable one
 * (its System.map says to install the -dbg package), so when the map does
 * not fit /proc/profile and /proc/kallsyms can be read, a map is made from
 * kallsyms' text symbols, which readprofile reads just as well. Every
 * line printed is the same on both kernels.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MADE_MAP "/tmp/System.map"

/* The whole of /proc/profile as 32-bit words; *n gets their number. */
static unsigned int *read_profile(size_t *n)
{
	int fd = open("/proc/profile", O_RDONLY);
	off_t len;
	unsigned int *buf;

	if (fd < 0 || (len = lseek(fd, 0, SEEK_END)) <= 0 || lseek(fd, 0, SEEK_SET) != 0)
		return NULL;
	buf = malloc(len);
	if (!buf || read(fd, buf, len) != len) {
		close(fd);
		free(buf);
		return NULL;
	}
	close(fd);
	*n = len / sizeof(*buf);
	return buf;
}

static unsigned long sum_counters(void)
{
	size_t n;
	unsigned int *buf = read_profile(&n);
	unsigned long sum = 0;

	for (size_t i = 1; buf && i < n; i++)
		sum += buf[i];
	free(buf);
	return sum;
}

/* The addresses of _stext and _etext in a map ("ADDR TYPE NAME" lines). */
static int map_text(const char *path, unsigned long long *stext, unsigned long long *etext)
{
	char line[512], type[8], name[256];
	unsigned long long addr;
	FILE *f = fopen(path, "r");

	*stext = *etext = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %7s %255s", &addr, type, name) == 3) {
			if (!strcmp(name, "_stext"))
				*stext = addr;
			else if (!strcmp(name, "_etext"))
				*etext = addr;
		}
	fclose(f);
	return *stext && *etext > *stext ? 0 : -1;
}

/* Does the map at path describe the kernel that made this profile? */
static int map_fits(const char *path, unsigned int step, size_t words)
{
	unsigned long long stext, etext;

	return map_text(path, &stext, &etext) == 0 && (etext - stext) / step + 1 == words;
}

/* A map from /proc/kallsyms: its core-kernel text symbols, _stext to
 * _etext, in address order (sort(1) would do; a few lines of C do too). */
static int map_from_kallsyms(void)
{
	return system("grep -v '\\[' /proc/kallsyms | grep ' [tTwW] ' | sort > " MADE_MAP);
}

/* Run readprofile -m map; count the functions it names, and its total line. */
static void run_readprofile(const char *map)
{
	char cmd[256], line[512], name[256];
	unsigned int count;
	int functions = 0, total = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "/usr/sbin/readprofile -m %s", map);
	if (!(p = popen(cmd, "r"))) {
		printf("readprofile: %s\n", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "%u %255s", &count, name) != 2)
			continue;
		if (!strcmp(name, "total"))
			total = 1;
		else if (strcmp(name, "*unknown*") && count > 0)
			functions++;
	}
	printf("readprofile exits with %d\n", WEXITSTATUS(pclose(p)));
	printf("readprofile names kernel functions: %s\n", functions > 0 ? "yes" : "no");
	printf("readprofile prints its total: %s\n", total ? "yes" : "no");
}

/* Kernel work for the profiler to see. */
static void busy_kernel(void)
{
	char buf[4096];
	int fd = open("/proc/self/maps", O_RDONLY);

	for (int i = 0; i < 200 && fd >= 0; i++) {
		lseek(fd, 0, SEEK_SET);
		while (read(fd, buf, sizeof(buf)) > 0)
			;
	}
	close(fd);
}

static void write_words(size_t len)
{
	int fd = open("/proc/profile", O_WRONLY);
	int zero = 0;

	printf("write of %zu bytes: ", len);
	if (fd < 0)
		printf("open: %s\n", strerror(errno));
	else if (write(fd, &zero, len) < 0)
		printf("%s\n", strerror(errno));
	else
		printf("ok\n");
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	struct stat st;
	size_t words;

	mount("proc", "/proc", "proc", 0, NULL); /* init does not, for tests */
	unsigned int *buf = read_profile(&words);

	if (!buf || stat("/proc/profile", &st) < 0) {
		printf("/proc/profile: %s\n", strerror(errno));
		return 1;
	}
	printf("/proc/profile: mode %o, size %s\n", st.st_mode & 07777,
	       st.st_size == (off_t)(words * 4) ? "as read" : "differs from what is read");
	printf("step (first word): %u\n", buf[0]);
	const char *map = "/boot/System.map";
	if (!map_fits(map, buf[0], words) && map_from_kallsyms() == 0)
		map = MADE_MAP;
	printf("a map of the running kernel fits the profile: %s\n",
	       map_fits(map, buf[0], words) ? "yes" : "no");

	for (int i = 0; i < 100 && sum_counters() < 20; i++)
		busy_kernel();
	printf("kernel ticks counted: %s\n", sum_counters() >= 20 ? "20 or more" : "fewer than 20");
	run_readprofile(map);

	write_words(sizeof(int));
	write_words(1);
	printf("after the reset: %s\n", sum_counters() < 20 ? "fewer than 20" : "20 or more");
	if (setuid(1000) == 0)
		write_words(1);
	free(buf);
	return 0;
}
