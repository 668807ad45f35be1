/*
 * fexecve - fexecve(3) as the C library does it: execveat(fd, "", argv,
 * envp, AT_EMPTY_PATH). Built twice from this one source: /usr/lib/exec-tests/fexecve with
 * musl, /usr/lib/exec-tests/fexecve-glibc with glibc (gcc -static). Runs an ELF file through
 * a plain, an O_PATH and a close-on-exec descriptor; a "#!" script, which
 * its interpreter gets as /dev/fd/N (and can open: readscript reads it,
 * even after it was unlinked); and fails as Linux does for a close-on-exec
 * script (ENOENT), a file without x bits and a directory (EACCES), and a
 * bad descriptor (the C libraries differ: glibc checks for EINVAL itself,
 * musl leaves it to the kernel, EBADF).
 */
#include "exectest.h"

#ifdef __GLIBC__
#define LIBC "glibc"
#else
#define LIBC "musl"
#endif

static char *argv_probe[] = { "fexecve-argv0", "one", NULL };
static char *envp[] = { "HOME=/", NULL };

static int do_fexecve(void *arg)
{
	fexecve(*(int *)arg, argv_probe, envp);
	return -errno;
}

static void fx(const char *title, const char *path, int flags)
{
	int fd = path ? open(path, flags) : -1;

	if (path && fd < 0) {
		say("open %s: %s\n", path, ename(errno));
		return;
	}
	say("fexecve (%s) of %s, fd %d%s%s\n", LIBC, path ? path : "nothing", fd,
	    (flags & O_CLOEXEC) ? ", O_CLOEXEC" : "", (flags & O_PATH) ? ", O_PATH" : "");
	run_case(title, do_fexecve, &fd);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char dir[32], script[64], rscript[64], noexec[64];

	mount_proc();
	snprintf(dir, sizeof(dir), "/tmp/fexecve_%s", LIBC);
	snprintf(script, sizeof(script), "%s/script", dir);
	snprintf(rscript, sizeof(rscript), "%s/rscript", dir);
	snprintf(noexec, sizeof(noexec), "%s/noexec", dir);
	mkdir(dir, 0755);
	write_file(script, "#!/usr/lib/exec-tests/execprobe\n", 0755);
	write_file(rscript, "#!/usr/lib/exec-tests/readscript\nthe second line of rscript\n", 0755);
	copy_file("/usr/lib/exec-tests/execprobe", noexec, 0644);

	fx("  an ELF file:", "/usr/lib/exec-tests/execprobe", O_RDONLY);
	fx("  an ELF file, O_PATH:", "/usr/lib/exec-tests/execprobe", O_PATH);
	fx("  an ELF file, close-on-exec: it runs", "/usr/lib/exec-tests/execprobe", O_RDONLY | O_CLOEXEC);
	fx("  a script: its interpreter gets /dev/fd/N", script, O_RDONLY);
	fx("  a script that its interpreter reads through /dev/fd/N:", rscript, O_RDONLY);
	fx("  a close-on-exec script: /dev/fd/N would be closed", script, O_RDONLY | O_CLOEXEC);
	fx("  a file without x bits:", noexec, O_RDONLY);
	fx("  a directory:", dir, O_RDONLY | O_DIRECTORY);
	fx("  no descriptor (-1):", NULL, 0);
	{
		int fd = open(rscript, O_RDONLY);

		unlink(rscript);
		say("fexecve (%s) of %s after unlink, fd %d\n", LIBC, rscript, fd);
		run_case("  the interpreter still reads it through /dev/fd/N:", do_fexecve, &fd);
		close(fd);
	}
	return 0;
}
