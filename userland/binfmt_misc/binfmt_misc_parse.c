/*
 * binfmt_misc_parse - the registration language of binfmt_misc and the
 * files of its filesystem, against Linux 6.1 (test binfmt_misc_parse; run
 * after bm_setup has mounted the filesystem).
 *
 *   names, offsets, magic, flags: registrations by field, well-formed
 *      ones (the text of the entry file each makes) and malformed ones
 *      (each write gets Linux's errno, and the list of entries is
 *      unchanged after it); lab 04 grades each group on its own;
 *   status: the status file and an entry's file: reading, enabling,
 *      disabling, removing, bad values, a removed entry's open file;
 *   files: the files themselves: modes, inode numbers, the filesystem
 *      type, the mount, and a user who is not root.
 *
 * With no argument every section runs, in that order; arguments name the
 * sections to run.
 */
#include "bm_common.h"
#include <sys/mount.h>
#include <sys/statfs.h>

/* Register, show the entry's text, remove it. */
static void good(const char *name, const char *s, size_t len)
{
	int err = bm_write_len("register", s, len);

	printf("%s: %s\n", name, errname(err));
	if (err)
		return;
	bm_show(name);
	err = bm_write(name, "-1");
	if (err)
		printf("  remove: %s\n", errname(err));
}

static int nbad;
#define KEEP ":keep:M::KEEP::/usr/lib/exec-tests/bm_interp:"

/*
 * A registration that must fail: its errno, and the entries after it.
 * One that was wrongly accepted is removed before the next, so that one
 * mistake shows as one line.
 */
static void bad_len(const char *what, const char *s, size_t len)
{
	int err = bm_write_len("register", s, len);

	printf("bad %2d %-36s %s; ", ++nbad, what, errname(err));
	bm_list();
	if (!err) {
		bm_clear();
		bm_register(KEEP);
	}
}

static void bad(const char *what, const char *s)
{
	bad_len(what, s, strlen(s));
}

#define GOOD(name, text) good(name, text, strlen(text))

/* A group of strings: its title, and the entry "keep" that its refused
 * registrations must leave alone. */
static void group(const char *title)
{
	printf("--- %s (refused ones must leave the entries as they are: keep)\n", title);
	nbad = 0;
	bm_register(KEEP);
	bm_list();
}

/* The write's length, the name, the delimiters, names already taken. */
static void names(void)
{
	static char buf[2100], longname[300];

	group("length, name and delimiters");
	GOOD("a b", ":a b:M::ab::/bin/x:");
	GOOD("n15", "xn15xMxxabxxinterpx");
	good("n16", "\0n16\0M\0\0ab\0\0/bin/x\0", 19);
	memset(longname, 'n', 255);
	snprintf(buf, sizeof(buf), ":%.255s:M::ab::/bin/x:", longname);
	printf("255-byte name: %s\n", errname(bm_write("register", buf)));
	printf("  remove it: %s\n", errname(bm_write(longname, "-1")));
	bad_len("0 bytes", "", 0);
	bad("10 bytes", ":a:M::ab::");
	memset(buf, 'x', sizeof(buf));
	memcpy(buf, ":a:M::ab::/bin/", 15);
	memcpy(buf + 1919, ":", 2);
	bad_len("1921 bytes", buf, 1921);
	bad("empty name", "::M::ab::/bin/x:");
	bad("name .", ":.:M::ab::/bin/x:");
	bad("name ..", ":..:M::ab::/bin/x:");
	bad("name a/b", ":a/b:M::ab::/bin/x:");
	bad_len("NUL in name", ":a\0b:M::ab::/bin/x:", 19);
	bad("delimiters only", "::::::::::::");
	bad("no last delimiter", ":a:M::ab::/bin/x");
	bad("one delimiter more", ":a:M::ab::/bin/x::");
	bad("name taken", ":keep:M::ab::/bin/x:");
	bad("name taken, other type", ":keep:E::ab::/bin/x:");
	bad("name status", ":status:M::ab::/bin/x:");
	bad("name register", ":register:M::ab::/bin/x:");
	memset(buf, 'n', sizeof(buf));
	buf[0] = ':';
	snprintf(buf + 257, sizeof(buf) - 257, ":M::ab::/bin/x:");
	bad("256-byte name", buf);
	bad_len("bad buffer", (const char *)1, 20);
	bm_clear();
}

/* The type, and the offset as kstrtoint reads it. */
static void offsets(void)
{
	group("type and offset");
	GOOD("m1", ":m1:M::BMT1::/usr/lib/exec-tests/bm_interp:");
	GOOD("m4", "|m4|M|+8|AB\\x00C|\\xffA\\x00x|/usr/lib/exec-tests/bm_interp|P\n");
	GOOD("m5", ":m5:M:1\n:ab::/bin/x:");
	GOOD("m8", ":m8:M:007:\\x7F\\X41\\xAb::/bin/x:");
	GOOD("m9", ":m9:M:-0:ab::/bin/x:C");
	GOOD("m17", ":m17:M:255:\\x7f::/bin/x:");
	bad("type X", ":a:X::ab::/bin/x:");
	bad("type m", ":a:m::ab::/bin/x:");
	bad("type MM", ":a:MM::ab::/bin/x:");
	bad("no type", ":a:::ab::/bin/x:");
	bad("offset -1", ":a:M:-1:ab::/bin/x:");
	bad("offset x", ":a:M:x:ab::/bin/x:");
	bad("offset 0x10", ":a:M:0x10:ab::/bin/x:");
	bad("offset ' 1'", ":a:M: 1:ab::/bin/x:");
	bad("offset '1 '", ":a:M:1 :ab::/bin/x:");
	bad("offset '+'", ":a:M:+:ab::/bin/x:");
	bad("offset 2147483648", ":a:M:2147483648:ab::/bin/x:");
	bad("offset 20 digits", ":a:M:99999999999999999999:ab::/bin/x:");
	bad("offset 255 + 2 bytes", ":a:M:255:ab::/bin/x:");
	bad("offset 256", ":a:M:256:a::/bin/x:");
	bm_clear();
}

/* Magic and mask: escapes, NULs, lengths. */
static void magic(void)
{
	static char buf[600], big[300];

	group("magic and mask");
	GOOD("m2", ":m2:M:4:\\x7fELF\\x02:\\xff\\xff\\xdf\\xff\\xfe:/usr/lib/exec-tests/bm_interp:POCF");
	GOOD("m6", ":m6:M::a\\qb\\::/bin/x:");
	GOOD("m7", ":m7:M::\\\\x41::/bin/x:");
	good("m11", ":m11:M::ab\0cd:xy\0zz:/bin/x:", 27);
	/* the longest magic: 256 bytes at offset 0 */
	memset(big, 'z', 257);
	snprintf(buf, sizeof(buf), ":m18:M::%.256s::/bin/x:", big);
	GOOD("m18", buf);
	bad("empty magic", ":a:M:::x:/bin/x:");
	bad("magic \\x4", ":a:M::\\x4::/bin/x:");
	bad("magic \\xg1", ":a:M::\\xg1::/bin/x:");
	bad("magic ends in \\x", ":a:M::ab\\x::/bin/x:");
	bad("mask \\xzz", ":a:M::ab:\\xzz:/bin/x:");
	bad("mask longer", ":a:M::ab:abc:/bin/x:");
	bad("mask shorter", ":a:M::abc:ab:/bin/x:");
	bad("mask 1 byte for 2", ":a:M::ab:\\xff:/bin/x:");
	bad_len("mask NUL-cut", ":a:M::ab:x\0y:/bin/x:", 20);
	snprintf(buf, sizeof(buf), ":a:M::%.257s::/bin/x:", big);
	bad("257-byte magic", buf);
	bm_clear();
}

/* The interpreter, the flags, what may follow them; extensions. */
static void flags(void)
{
	static char buf[600];

	group("interpreter, flags and extension");
	GOOD("e3", ":e3:E::bmx::/usr/lib/exec-tests/bm_interp:\n");
	GOOD("m10", ":m10:M::ab::/bin/x:PPOOPF");
	GOOD("m12", ":m12:M::ab::/bin/my interp:");
	GOOD("e13", ":e13:E:junk:tar.gz:junk:/bin/x:O");
	bad("empty interpreter", ":a:M::ab:::");
	bad("flag X", ":a:M::ab::/bin/x:X");
	bad("flag p", ":a:M::ab::/bin/x:p");
	bad("two newlines", ":a:M::ab::/bin/x:P\n\n");
	bad("flag after newline", ":a:M::ab::/bin/x:\nP");
	bad("space after flags", ":a:M::ab::/bin/x: ");
	bad("CR after flags", ":a:M::ab::/bin/x:\r\n");
	bad("empty extension", ":a:E::::/bin/x:");
	bad("extension a/b", ":a:E::a/b::/bin/x:");
	bad("E without mask field", ":a:E::ext:/bin/x:");
	bad("F, interpreter missing", ":a:M::ab::/nonexistent:F");
	bad("F, interpreter a directory", ":a:M::ab::/tmp:F");
	put_file("/tmp/noexec", "#!/bin/x\n", 9, 0644);
	bad("F, interpreter not executable", ":a:M::ab::/tmp/noexec:F");
	bad("F, relative, missing", ":a:M::ab::nonexistent:F");
	bad("name taken, F missing", ":keep:M::ab::/nonexistent:F");
	memset(buf, 'n', sizeof(buf));
	buf[0] = ':';
	memcpy(buf + 257, ":M::ab::/nonexistent:F", 23);
	bad("256-byte name, F missing", buf);
	bm_clear();
}

static void status_and_entries(void)
{
	int fd;

	printf("--- status\n");
	bm_register(":s1:M::BMT1::/usr/lib/exec-tests/bm_interp:");
	bm_show("status");
	const char *values[] = { "0", "1", "0\n", "1\n", "2", "10", " 1", "1 ", "1\n\n", "-1 ",
				 "0000", "+1", "", "-0" };
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		int err = bm_write("status", values[i]);
		char shown[16];
		char *p = shown;

		for (const char *v = values[i]; *v; v++) {
			if (*v == '\n') {
				*p++ = '\\';
				*p++ = 'n';
			} else {
				*p++ = *v;
			}
		}
		*p = '\0';
		printf("status <- '%s': %s; ", shown, errname(err));
		fflush(stdout);
		bm_show("status");
	}
	bm_write("status", "1");
	bm_list();
	printf("status <- -1: %s; ", errname(bm_write("status", "-1\n")));
	bm_list();

	printf("--- an entry's file\n");
	bm_register(":x:M::BMT1::/usr/lib/exec-tests/bm_interp:");
	bm_register(":y:E::bmy::/usr/lib/exec-tests/bm_interp:P");
	const char *cmds[] = { "0", "1", "3", "-", "00", "-1\n" };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		int err = bm_write("x", cmds[i]);

		printf("x <- '%c%c': %s\n", cmds[i][0], cmds[i][1] == '\n' ? '$' : cmds[i][1] ? cmds[i][1] : ' ',
		       errname(err));
		bm_show("x");
	}
	bm_list();
	/* A removed entry's file, still open. */
	fd = open(BM_DIR "/y", O_RDWR);
	printf("y <- -1: %s\n", errname(bm_write("y", "-1")));
	bm_list();
	{
		char buf[256];
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

		buf[n > 0 ? n : 0] = '\0';
		printf("read the removed y: %zd '%.8s'\n", n, buf);
		printf("write 0 to the removed y: %zd\n", write(fd, "0", 1));
		printf("write -1 to the removed y: %zd\n", write(fd, "-1", 2));
		n = write(fd, "7", 1);
		printf("write 7 to the removed y: %zd %s\n", n, errname(n < 0 ? errno : 0));
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
		printf("read it again: %zd '%.9s'\n", n, buf);
		close(fd);
	}
	printf("open the removed y: %s\n", open(BM_DIR "/y", O_RDONLY) < 0 ? errname(errno) : "ok");
	bm_register(":y:E::bmy::/usr/lib/exec-tests/bm_interp:");
	printf("y registered again: ");
	bm_list();
	bm_clear();
}

static void files(void)
{
	struct stat st;
	struct statfs sfs;
	char buf[64];
	int fd;
	const char *names[] = { "", "/status", "/register", "/e" };

	printf("--- the files\n");
	bm_register(":e:M::BMT1::/usr/lib/exec-tests/bm_interp:");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[64];

		snprintf(path, sizeof(path), "%s%s", BM_DIR, names[i]);
		if (stat(path, &st) < 0) {
			printf("stat %s: %s\n", path, errname(errno));
			continue;
		}
		printf("%s: mode %o links %lu uid %u gid %u size %lld", path, st.st_mode,
		       (unsigned long)st.st_nlink, st.st_uid, st.st_gid, (long long)st.st_size);
		if (i < 3)
			printf(" ino %lu", (unsigned long)st.st_ino);
		printf("\n");
	}
	statfs(BM_DIR, &sfs);
	printf("statfs: type 0x%lx bsize %ld namelen %ld\n", (unsigned long)sfs.f_type,
	       (long)sfs.f_bsize, (long)sfs.f_namelen);

	fd = open(BM_DIR "/register", O_RDONLY);
	printf("open register for reading: %s\n", fd < 0 ? errname(errno) : "ok");
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf));

		printf("read register: %zd %s\n", n, errname(n < 0 ? errno : 0));
		printf("lseek register 5: %lld\n", (long long)lseek(fd, 5, SEEK_SET));
		close(fd);
	}
	fd = open(BM_DIR "/status", O_RDONLY);
	printf("read status in pieces:");
	for (;;) {
		ssize_t n = read(fd, buf, 3);

		if (n <= 0)
			break;
		printf(" '%.*s'", buf[n - 1] == '\n' ? (int)n - 1 : (int)n, buf);
	}
	printf("\n");
	{
		off_t off = lseek(fd, 2, SEEK_SET);
		ssize_t n = read(fd, buf, 3);

		printf("lseek status 2: %lld, then '%.*s'\n", (long long)off, n > 0 ? (int)n : 0, buf);
	}
	close(fd);
	printf("create a file: %s\n",
	       open(BM_DIR "/new", O_WRONLY | O_CREAT, 0644) < 0 ? errname(errno) : "ok");
	printf("unlink an entry: %s\n", unlink(BM_DIR "/e") < 0 ? errname(errno) : "ok");
	printf("mkdir: %s\n", mkdir(BM_DIR "/d", 0755) < 0 ? errname(errno) : "ok");

	/* A second mount shows the same entries. */
	mkdir("/tmp/bm2", 0755);
	printf("second mount: %s; ",
	       mount("none", "/tmp/bm2", "binfmt_misc", 0, NULL) < 0 ? errname(errno) : "ok");
	printf("/tmp/bm2/e: %s\n", access("/tmp/bm2/e", F_OK) < 0 ? errname(errno) : "there");
	umount("/tmp/bm2");
	bm_show_mounts();

	/* Not root: the files are root's. */
	fflush(stdout);
	if (fork() == 0) {
		if (setgid(1000) || setuid(1000))
			printf("setuid: %s\n", errname(errno));
		printf("uid 1000, register: %s\n", errname(bm_write("register", ":u:M::ab::/bin/x:")));
		printf("uid 1000, status <- 0: %s\n", errname(bm_write("status", "0")));
		printf("uid 1000, e <- 0: %s\n", errname(bm_write("e", "0")));
		printf("uid 1000 reads status and e:\n");
		bm_show("status");
		bm_show("e");
		fflush(stdout);
		_exit(0);
	}
	wait(NULL);
	bm_clear();
}

static const struct {
	const char *name;
	void (*run)(void);
} sections[] = {
	{ "names", names },   { "offsets", offsets }, { "magic", magic },
	{ "flags", flags },   { "status", status_and_entries }, { "files", files },
};

/* binfmt_misc_parse [SECTION...]: the named sections, or all of them. */
int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		int wanted = argc < 2;

		for (int a = 1; a < argc; a++)
			wanted |= strcmp(argv[a], sections[i].name) == 0;
		if (wanted)
			sections[i].run();
	}
	return 0;
}
