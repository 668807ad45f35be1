/*
 * bm_setup - make binfmt_misc usable, as a Debian system does at boot:
 * /proc mounted, the binfmt_misc module loaded if the kernel has it as a
 * module, and the filesystem mounted on /proc/sys/fs/binfmt_misc with
 * nosuid,nodev,noexec (Debian's mount unit and binfmt-support use these).
 *
 * Debian's Linux builds binfmt_misc as a module: the initramfs then holds
 * /lib/modules/VERSION/kernel/fs/binfmt_misc.ko (scripts/mkinitramfs.sh
 * copies it when the oracle's kernel was fetched), loaded here with
 * finit_module. Our kernel has it built in: there the load fails, and
 * nothing is printed either way. Only a failed mount is reported.
 *
 * The binfmt_misc tests run it first: "/usr/lib/exec-tests/bm_setup ; /usr/lib/exec-tests/binfmt_misc_parse".
 *
 * bm_setup FILE... then does what systemd-binfmt does next at boot with
 * the binfmt.d files (e.g. /usr/lib/binfmt.d/qemu-aarch64.conf, which
 * Debian's qemu-user-static installs): each line that is not empty or a
 * comment ('#', ';') is written to "register", one write a line, its
 * newline included. A refused line is reported with its errno.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BM_DIR "/proc/sys/fs/binfmt_misc"

/* finit_module of the first /lib/modules/VERSION/kernel/fs/binfmt_misc.ko. */
static void load_module(void)
{
	DIR *d = opendir("/lib/modules");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[512];
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/lib/modules/%s/kernel/fs/binfmt_misc.ko", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		syscall(SYS_finit_module, fd, "", 0);
		close(fd);
		break;
	}
	closedir(d);
}

/* The lines of a binfmt.d file, each written to "register". */
static int apply(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	int ret = 0;

	if (!f) {
		printf("bm_setup: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		int fd;

		if (line[0] == '#' || line[0] == ';' || line[0] == '\n')
			continue;
		fd = open(BM_DIR "/register", O_WRONLY);
		if (fd < 0 || write(fd, line, strlen(line)) < 0) {
			printf("bm_setup: %s: register: %s\n", path, strerror(errno));
			ret = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	fclose(f);
	return ret;
}

int main(int argc, char *argv[])
{
	int ret = 0;

	if (access("/proc/self", F_OK) != 0 && mount("proc", "/proc", "proc", 0, NULL) != 0) {
		printf("bm_setup: mount proc: %s\n", strerror(errno));
		return 1;
	}
	load_module();
	if (mount("binfmt_misc", BM_DIR, "binfmt_misc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
		printf("bm_setup: mount binfmt_misc: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 1; i < argc; i++)
		ret |= apply(argv[i]);
	return ret;
}
