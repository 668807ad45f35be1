/*
 * exec_script - how the kernel reads a "#!" line, case by case.
 *
 *   /usr/lib/exec-tests/exec_script
 *	Works in /tmp. First the 27 cases of Linux's selftest
 *	tools/testing/selftests/exec/binfmt_script.py, rebuilt in C with the
 *	same line shapes (sizes around the 256-byte buffer, leading blanks,
 *	long paths split into NAME_MAX pieces); then cases of our own: a
 *	script that names itself, a missing interpreter, a directory as
 *	interpreter, a script without execute permission, an empty file, a
 *	CR in the name, blanks inside the argument, a NUL in the line, nested
 *	scripts, an empty argv, files open for writing.
 *
 * Each script is written at run time and run with fork + execve. Its
 * interpreter is a copy of this program (or /usr/lib/exec-tests/exec_script itself): with
 * EXEC_SCRIPT_INTERP=1 in its environment it only prints the argv it got,
 * long strings shortened, and exits 0. A failed execve is reported by its
 * errno's name. So each case gives deterministic lines, the same with any
 * C library, and Linux's output is the expected one.
 *
 * Where the selftest says "ok" for a good script, the interpreter ran; a
 * bad script must fail (the selftest's shell then runs it as a shell
 * script, which we do not do: we print the errno).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE 256      /* BINPRM_BUF_SIZE */
#define NAME_MAX_ 255 /* getconf NAME_MAX */
#define SELF "/usr/lib/exec-tests/exec_script"

static char *self_image; /* this program's bytes, to copy as an interpreter */
static size_t self_size;
static int test_num;

/* ---- The interpreter side. ---- */

/* Print s in quotes; a long one as its start, "...", its end and length. */
static void show(const char *label, const char *s)
{
	size_t len = strlen(s);

	if (len <= 60)
		printf("  %s = '%s'\n", label, s);
	else
		printf("  %s = '%.24s...%s' (%zu bytes)\n", label, s, s + len - 24, len);
}

static int interpreter_main(int argc, char *argv[])
{
	char label[32];

	printf("  interpreter ran, argc %d\n", argc);
	for (int i = 0; i < argc; i++) {
		snprintf(label, sizeof(label), "argv[%d]", i);
		show(label, argv[i]);
	}
	return 0;
}

/* ---- Helpers. ---- */

static const char *errno_name(int e)
{
	switch (e) {
	case 0: return "success";
	case ENOENT: return "ENOENT";
	case E2BIG: return "E2BIG";
	case ENOEXEC: return "ENOEXEC";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case ETXTBSY: return "ETXTBSY";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ELOOP: return "ELOOP";
	default: return "other errno";
	}
}

static void die(const char *what)
{
	printf("exec_script: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Write a file of len bytes with the given mode (replacing an old one). */
static void write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		die(path);
	if (len && write(fd, data, len) != (ssize_t)len)
		die("write");
	if (fchmod(fd, mode) < 0)
		die("fchmod");
	close(fd);
}

/*
 * Run path with argv (NULL: {path}) and an environment that makes our
 * interpreter talk. Returns the child's errno if execve failed, 0 if the
 * interpreter ran and exited 0, -1 for anything else (reported).
 */
static int run(const char *path, char *const argv[])
{
	char *const default_argv[] = { (char *)path, NULL };
	char *const envp[] = { "EXEC_SCRIPT_INTERP=1", NULL };
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execve(path, argv ? argv : default_argv, envp);
		_exit(errno);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	printf("  killed by signal %d\n", WTERMSIG(status));
	return -1;
}

/* mkdir -p for a relative path ("./a/b"). */
static void make_dirs(const char *dirpath)
{
	char *p = strdup(dirpath);

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST)
				die(p);
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
}

/* Remove path, then each parent directory up to (not including) the first
 * component, as the selftest's clean-up does. */
static void remove_path(const char *path)
{
	char *p = strdup(path);
	char *slash;

	unlink(p);
	while ((slash = strrchr(p, '/')) && strchr(p, '/') != slash) {
		*slash = '\0';
		rmdir(p);
	}
	free(p);
}

/* ---- The selftest's cases. ---- */

struct shape {
	const char *name;
	int size;           /* bytes of the line, "#!" included, newline not */
	int good;           /* the interpreter should run */
	const char *leading; /* blanks before the path */
	const char *root;   /* start of the path */
	const char *target; /* end of the path: the interpreter's name */
	char fill;          /* what fills the path up to size */
	const char *arg;    /* after the path */
	const char *newline;
};

/*
 * Build the script as binfmt_script.py's test() does: the path is root,
 * then fill bytes (a '/' every NAME_MAX bytes, so no component is too
 * long), then target, such that the line has exactly size bytes.
 */
static void test(struct shape t)
{
	const char *hashbang = "#!";
	char middle[2048] = "", dirpath[2048], binary[2048], script[300];
	char buf[4096];
	int remaining, err;
	size_t m = 0;

	test_num++;
	remaining = t.size - (int)(strlen(hashbang) + strlen(t.leading) + strlen(t.root) +
				   strlen(t.target) + strlen(t.arg));
	while (remaining >= NAME_MAX_) {
		memset(middle + m, t.fill, NAME_MAX_ - 1);
		m += NAME_MAX_ - 1;
		middle[m++] = '/';
		remaining -= NAME_MAX_;
	}
	if (remaining > 0) {
		memset(middle + m, t.fill, remaining);
		m += remaining;
	}
	middle[m] = '\0';

	snprintf(dirpath, sizeof(dirpath), "%s%s", t.root, middle);
	snprintf(binary, sizeof(binary), "%s%s", dirpath, t.target);
	if (*t.target) {
		make_dirs(dirpath);
		write_file(binary, self_image, self_size, 0755);
	}

	snprintf(buf, sizeof(buf), "%s%s%s%s%s%s%s", hashbang, t.leading, t.root, middle,
		 t.target, t.arg, t.newline);
	if (*t.newline)
		strcat(buf, "echo this is not really perl\n");
	snprintf(script, sizeof(script), "./binfmt_script-%s", t.name);
	write_file(script, buf, strlen(buf), 0755);

	err = run(script, NULL);
	if (err == 0)
		printf("%sok %d - binfmt_script %s (%s)\n", t.good ? "" : "not ", test_num,
		       t.name, t.good ? "successful good exec"
				      : "succeeded when it should have failed");
	else
		printf("%sok %d - binfmt_script %s (%s: %s)\n", t.good ? "not " : "", test_num,
		       t.name, t.good ? "failed when it should have succeeded"
				      : "correctly failed bad exec",
		       errno_name(err));

	unlink(script);
	if (*t.target)
		remove_path(binary);
}

/* Defaults of the selftest's test(); a case overrides some of them. */
#pragma GCC diagnostic ignored "-Woverride-init"
#define T(...) test((struct shape){ .good = 1, .leading = "", .root = "./", .target = "/perl", \
				    .fill = 'A', .arg = "", .newline = "\n", __VA_ARGS__ })

static void selftest(void)
{
	printf("TAP version 1.3\n1..27\n");
	/* Should fail (8). */
	T(.name = "too-big", .size = SIZE + 80, .good = 0);
	T(.name = "exact", .size = SIZE, .good = 0);
	T(.name = "exact-space", .size = SIZE, .good = 0, .leading = " ");
	T(.name = "whitespace-too-big", .size = SIZE + 71, .good = 0, .root = "", .fill = ' ',
	  .target = "");
	T(.name = "truncated", .size = SIZE + 17, .good = 0,
	  .leading = "                   "); /* 19 blanks */
	T(.name = "empty", .size = 2, .good = 0, .root = "", .fill = 'A', .target = "",
	  .newline = "");
	T(.name = "spaces", .size = SIZE - 1, .good = 0, .root = "", .fill = ' ', .target = "",
	  .newline = "");
	T(.name = "newline-prefix", .size = SIZE - 1, .good = 0, .leading = "\n", .root = "",
	  .fill = ' ', .target = "");
	/* Should run (19). */
	T(.name = "test.pl", .size = 439, .leading = " ",
	  .root = "./nix/store/bwav8kz8b3y471wjsybgzw84mrh4js9-perl-5.28.1/bin",
	  .arg = " -I/nix/store/x6yyav38jgr924nkna62q3pkp0dgmzlx-perl5.28.1-File-Slurp-9999.25"
		 "/lib/perl5/site_perl -I/nix/store/ha8v67sl8dac92r9z07vzr4gv1y9nwqz-perl5.28.1"
		 "-Net-DBus-1.1.0/lib/perl5/site_perl -I/nix/store/dcrkvnjmwh69ljsvpbdjjdnqgwx90a9d"
		 "-perl5.28.1-XML-Parser-2.44/lib/perl5/site_perl -I/nix/store/rmji88k2zz7h4zg97385b"
		 "ygcydrf2q8h-perl5.28.1-XML-Twig-3.52/lib/perl5/site_perl");
	T(.name = "one-under", .size = SIZE - 1);
	T(.name = "two-under", .size = SIZE - 2);
	T(.name = "exact-trunc-whitespace", .size = SIZE, .arg = " ");
	T(.name = "exact-trunc-arg", .size = SIZE, .arg = " f");
	T(.name = "one-under-full-arg", .size = SIZE - 1, .arg = " f");
	T(.name = "one-under-no-nl", .size = SIZE - 1, .newline = "");
	T(.name = "half-under-no-nl", .size = SIZE / 2, .newline = "");
	T(.name = "one-under-trunc-arg", .size = SIZE - 1, .arg = " ");
	T(.name = "one-under-leading", .size = SIZE - 1, .leading = " ");
	T(.name = "one-under-leading-trunc-arg", .size = SIZE - 1, .leading = " ", .arg = " ");
	T(.name = "two-under-no-nl", .size = SIZE - 2, .newline = "");
	T(.name = "two-under-trunc-arg", .size = SIZE - 2, .arg = " ");
	T(.name = "two-under-leading", .size = SIZE - 2, .leading = " ");
	T(.name = "two-under-leading-trunc-arg", .size = SIZE - 2, .leading = " ", .arg = " ");
	/* The selftest reuses these four names for the half-size buffer. */
	T(.name = "two-under-no-nl", .size = SIZE / 2, .newline = "");
	T(.name = "two-under-trunc-arg", .size = SIZE / 2, .arg = " ");
	T(.name = "two-under-leading", .size = SIZE / 2, .leading = " ");
	T(.name = "two-under-lead-trunc-arg", .size = SIZE / 2, .leading = " ", .arg = " ");
}

/* ---- Our own cases: one script each, its first bytes given exactly. ---- */

static void one(const char *title, const char *path, const char *data, size_t len, mode_t mode,
		char *const argv[])
{
	int err;

	printf("%s\n", title);
	write_file(path, data, len, mode);
	err = run(path, argv);
	if (err > 0)
		printf("  execve: %s\n", errno_name(err));
}

#define ONE(title, data, mode) one(title, "./s", data, sizeof(data) - 1, mode, NULL)

static void more(void)
{
	char *const args[] = { "zero", "one", "two", NULL };
	char *const no_args[] = { NULL };
	int fd, err;

	printf("# more cases\n");
	one("a script that names itself", "./self", "#!./self\n", 9, 0755, NULL);
	unlink("./self");
	ONE("a missing interpreter", "#!./no-such-interpreter\n", 0755);
	ONE("a directory as interpreter", "#!/tmp\n", 0755);
	ONE("a script without execute permission", "#!" SELF "\n", 0644);
	ONE("an empty executable file", "", 0755);
	ONE("a CR before the newline is part of the name", "#!" SELF "\r\n", 0755);
	ONE("blanks inside the argument stay, blanks around it go",
	    "#!" SELF "  a  b \t \n", 0755);
	ONE("tabs separate as spaces do", "#!\t" SELF "\t-x\ty\n", 0755);
	ONE("trailing blanks and no newline give an empty argument", "#!" SELF "  ", 0755);
	ONE("the same with a newline gives no argument", "#!" SELF "  \n", 0755);
	ONE("a NUL ends the line", "#!" SELF " foo\0bar\n", 0755);
	ONE("#! and a newline only", "#!\n\n", 0755);
	ONE("#! and blanks, then a newline", "#!  \t \nexit 0\n", 0755);
	ONE("a CR alone after the name", "#!" SELF "\r", 0755);

	printf("argv[0] is replaced, the other arguments follow the script's name\n");
	write_file("./s", "#!" SELF " opt\n", strlen("#!" SELF " opt\n"), 0755);
	run("./s", args);
	printf("an empty argv: the interpreter still gets the script's name\n");
	run("./s", no_args);

	printf("a script as interpreter of a script\n");
	write_file("./inner", "#!" SELF " inner-arg\n", strlen("#!" SELF " inner-arg\n"), 0755);
	write_file("./s", "#!./inner outer-arg\n", strlen("#!./inner outer-arg\n"), 0755);
	run("./s", args);

	printf("an interpreter without execute permission\n");
	write_file("./inner", "#!" SELF "\n", strlen("#!" SELF "\n"), 0644);
	err = run("./s", NULL);
	printf("  execve: %s\n", errno_name(err));
	unlink("./inner");

	printf("a script open for writing\n");
	write_file("./s", "#!" SELF "\n", strlen("#!" SELF "\n"), 0755);
	fd = open("./s", O_WRONLY);
	err = run("./s", NULL);
	printf("  execve: %s\n", errno_name(err));
	close(fd);

	printf("an interpreter open for writing\n");
	write_file("./interp", self_image, self_size, 0755);
	write_file("./s", "#!./interp\n", strlen("#!./interp\n"), 0755);
	fd = open("./interp", O_WRONLY);
	err = run("./s", NULL);
	printf("  execve: %s\n", errno_name(err));
	close(fd);
	printf("the same after close\n");
	run("./s", NULL);
	unlink("./interp");
	unlink("./s");
}

int main(int argc, char *argv[])
{
	struct stat st;
	int fd;

	if (getenv("EXEC_SCRIPT_INTERP"))
		return interpreter_main(argc, argv);

	fd = open(SELF, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		die(SELF);
	self_size = st.st_size;
	self_image = malloc(self_size);
	if (!self_image || read(fd, self_image, self_size) != (ssize_t)self_size)
		die("read " SELF);
	close(fd);
	if (chdir("/tmp") < 0)
		die("chdir /tmp");

	selftest();
	more();
	printf("exec_script: done\n");
	return 0;
}
