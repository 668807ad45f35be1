/*
 * execveat - every case of execveat(2) (Linux 3.19 and later): what the
 * new program sees (argv, AT_EXECFN, /proc/self/exe, comm; /usr/lib/exec-tests/execprobe
 * prints them) when it is reached through a directory descriptor, an
 * O_PATH descriptor, AT_EMPTY_PATH, symlinks and scripts, and every error.
 * Cases in the spirit of Linux's tools/testing/selftests/exec/execveat.c.
 *
 * The files live in /tmp/x: probe (a copy of /usr/lib/exec-tests/execprobe), link -> probe,
 * script ("#!/usr/lib/exec-tests/execprobe"), rscript ("#!/usr/lib/exec-tests/readscript", which opens the name
 * it is given), a FIFO, a file without x bits. The descriptors are opened
 * in a fixed order, so their numbers (in the /dev/fd/N names) are the
 * same on every kernel.
 */
#include "exectest.h"

static char *argv_probe[] = { "probe", "one", NULL };
static char *envp[] = { "HOME=/", NULL };

struct at {
	int dfd;
	const char *path;
	int flags;
	char **argv;
};

static int do_at(void *arg)
{
	struct at *a = arg;

	return xexecveat(a->dfd, a->path, a->argv ? a->argv : argv_probe, envp, a->flags);
}

/* Open a file; stop the test if it cannot be. */
static int xopen(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0) {
		say("open %s: %s\n", path, ename(errno));
		exit(1);
	}
	return fd;
}

static void at(const char *title, int dfd, const char *path, int flags)
{
	struct at a = { dfd, path, flags, NULL };

	run_case(title, do_at, &a);
}

int main(void)
{
	int dfd, pdfd, ffd, pfd, cfd, lfd, sfd, scfd, cdfd, nfd, rfd, gfd, ofd, pipefd[2];

	mount_proc();
	mkdir("/tmp/x", 0755);
	mkdir("/tmp/x/sub", 0755);
	copy_file("/usr/lib/exec-tests/execprobe", "/tmp/x/probe", 0755);
	copy_file("/usr/lib/exec-tests/execprobe", "/tmp/x/gone", 0755);
	copy_file("/usr/lib/exec-tests/execprobe", "/tmp/x/old", 0755);
	copy_file("/usr/lib/exec-tests/execprobe", "/tmp/x/noexec", 0644);
	symlink("probe", "/tmp/x/link");
	symlink("/tmp/x", "/tmp/dirlink");
	write_file("/tmp/x/script", "#!/usr/lib/exec-tests/execprobe\n", 0755);
	write_file("/tmp/x/script_arg", "#!/usr/lib/exec-tests/execprobe -a -b\n", 0755);
	write_file("/tmp/x/rscript", "#!/usr/lib/exec-tests/readscript\nthe second line of rscript\n", 0755);
	mkfifo("/tmp/x/fifo", 0755);
	chdir("/tmp/x");

	dfd = xopen("/tmp/x", O_RDONLY | O_DIRECTORY);                    /* 3 */
	pdfd = xopen("/tmp/x", O_PATH | O_DIRECTORY);                     /* 4 */
	ffd = xopen("/tmp/x/probe", O_RDONLY);                            /* 5 */
	pfd = xopen("/tmp/x/probe", O_PATH);                              /* 6 */
	cfd = xopen("/tmp/x/probe", O_RDONLY | O_CLOEXEC);                /* 7 */
	lfd = xopen("/tmp/x/link", O_PATH | O_NOFOLLOW);                  /* 8 */
	sfd = xopen("/tmp/x/script", O_RDONLY);                           /* 9 */
	scfd = xopen("/tmp/x/script", O_RDONLY | O_CLOEXEC);              /* 10 */
	cdfd = xopen("/tmp/x", O_RDONLY | O_DIRECTORY | O_CLOEXEC);       /* 11 */
	nfd = xopen("/tmp/x/noexec", O_RDONLY);                           /* 12 */
	rfd = xopen("/tmp/x/rscript", O_RDONLY);                          /* 13 */
	gfd = xopen("/tmp/x/gone", O_RDONLY);                             /* 14 */
	ofd = xopen("/tmp/x/old", O_RDONLY);                              /* 15 */
	if (pipe(pipefd) < 0)                                             /* 16, 17 */
		return 1;
	unlink("/tmp/x/gone");
	rename("/tmp/x/old", "/tmp/x/new");

	say("== what the program sees ==\n");
	at("execveat(dir fd 3, \"probe\", 0)", dfd, "probe", 0);
	at("execveat(O_PATH dir fd 4, \"probe\", 0)", pdfd, "probe", 0);
	at("execveat(AT_FDCWD, \"probe\", 0)", AT_FDCWD, "probe", 0);
	at("execveat(99, \"/tmp/x/probe\", 0): an absolute name ignores the fd", 99, "/tmp/x/probe", 0);
	at("execveat(fd 5, \"\", AT_EMPTY_PATH)", ffd, "", AT_EMPTY_PATH);
	at("execveat(O_PATH fd 6, \"\", AT_EMPTY_PATH)", pfd, "", AT_EMPTY_PATH);
	at("execveat(O_CLOEXEC fd 7, \"\", AT_EMPTY_PATH): an ELF file runs", cfd, "", AT_EMPTY_PATH);
	at("execveat(fd 5, \"\", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)", ffd, "",
	   AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	at("execveat(dir fd 3, \"link\", 0): the symlink is followed", dfd, "link", 0);
	at("execveat(dir fd 3, \"sub/../probe\", 0)", dfd, "sub/../probe", 0);
	at("execveat(AT_FDCWD, \"/tmp/dirlink/probe\", AT_SYMLINK_NOFOLLOW): only the last "
	   "component counts", AT_FDCWD, "/tmp/dirlink/probe", AT_SYMLINK_NOFOLLOW);
	at("execveat(O_CLOEXEC dir fd 11, \"probe\", 0): an ELF file runs", cdfd, "probe", 0);
	at("execveat(fd 14 of an unlinked file, \"\", AT_EMPTY_PATH)", gfd, "", AT_EMPTY_PATH);
	at("execveat(fd 15 of a renamed file, \"\", AT_EMPTY_PATH)", ofd, "", AT_EMPTY_PATH);
	say("== scripts: the interpreter gets the /dev/fd name ==\n");
	at("execveat(dir fd 3, \"script\", 0)", dfd, "script", 0);
	at("execveat(dir fd 3, \"script_arg\", 0)", dfd, "script_arg", 0);
	at("execveat(fd 9, \"\", AT_EMPTY_PATH)", sfd, "", AT_EMPTY_PATH);
	at("execveat(fd 13, \"\", AT_EMPTY_PATH): the interpreter opens /dev/fd/13", rfd, "",
	   AT_EMPTY_PATH);
	at("execveat(dir fd 3, \"rscript\", 0): the interpreter opens /dev/fd/3/rscript", dfd,
	   "rscript", 0);
	unlink("/tmp/x/rscript");
	at("... the same script, unlinked, through its fd 13", rfd, "", AT_EMPTY_PATH);

	say("== errors ==\n");
	at("execveat(fd 5, \"\", 0xffff)", ffd, "", 0xffff);
	at("execveat(fd 5, \"\", -1)", ffd, "", -1);
	at("execveat(fd 5, \"\", 0): an empty name needs AT_EMPTY_PATH", ffd, "", 0);
	at("execveat(fd 5, NULL, AT_EMPTY_PATH)", ffd, NULL, AT_EMPTY_PATH);
	at("execveat(99, \"\", AT_EMPTY_PATH)", 99, "", AT_EMPTY_PATH);
	at("execveat(-1, \"\", AT_EMPTY_PATH)", -1, "", AT_EMPTY_PATH);
	at("execveat(99, \"probe\", 0)", 99, "probe", 0);
	at("execveat(fd 5 of a file, \"probe\", 0)", ffd, "probe", 0);
	at("execveat(dir fd 3, \"\", AT_EMPTY_PATH): a directory", dfd, "", AT_EMPTY_PATH);
	at("execveat(AT_FDCWD, \"\", AT_EMPTY_PATH): the working directory", AT_FDCWD, "",
	   AT_EMPTY_PATH);
	at("execveat(AT_FDCWD, \"\", 0)", AT_FDCWD, "", 0);
	at("execveat(dir fd 3, \"nosuch\", 0)", dfd, "nosuch", 0);
	at("execveat(dir fd 3, \"probe/\", 0)", dfd, "probe/", 0);
	at("execveat(dir fd 3, \"link\", AT_SYMLINK_NOFOLLOW)", dfd, "link", AT_SYMLINK_NOFOLLOW);
	at("execveat(AT_FDCWD, \"/tmp/x/link\", AT_SYMLINK_NOFOLLOW)", AT_FDCWD, "/tmp/x/link",
	   AT_SYMLINK_NOFOLLOW);
	at("execveat(O_PATH|O_NOFOLLOW fd 8 of the symlink, \"\", AT_EMPTY_PATH)", lfd, "",
	   AT_EMPTY_PATH);
	at("execveat(dir fd 3, \"fifo\", 0)", dfd, "fifo", 0);
	at("execveat(pipe fd 16, \"\", AT_EMPTY_PATH)", pipefd[0], "", AT_EMPTY_PATH);
	at("execveat(dir fd 3, \"noexec\", 0): mode 0644", dfd, "noexec", 0);
	at("execveat(fd 12 of it, \"\", AT_EMPTY_PATH)", nfd, "", AT_EMPTY_PATH);
	at("execveat(O_CLOEXEC fd 10 of a script, \"\", AT_EMPTY_PATH)", scfd, "", AT_EMPTY_PATH);
	at("execveat(O_CLOEXEC dir fd 11, \"script\", 0)", cdfd, "script", 0);
	{
		struct at a = { ffd, "", 0xffff, (char **)8 };
		run_case("execveat(fd 5, \"\", 0xffff) with a bad argv: the strings are copied first",
			 do_at, &a);
	}
	return 0;
}
