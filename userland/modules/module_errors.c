/*
 * module_errors - the errors of init_module, finit_module and
 * delete_module that need no loadable module, so that Linux gives the
 * very same answers (tests/cases/modules/module_errors): images that are not a
 * module, descriptors that cannot be read, bad flags and pointers, names
 * not loaded, and a caller that is not root.
 *
 * Each line: the call as it was made, and the errno name it failed with
 * (or "ok").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MODULE_INIT_COMPRESSED_FILE 4

static const char *errname(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ENOEXEC, "ENOEXEC" },
		{ EBADF, "EBADF" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
		{ EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ EINVAL, "EINVAL" }, { ETXTBSY, "ETXTBSY" }, { EFBIG, "EFBIG" },
		{ ENOSYS, "ENOSYS" }, { EOPNOTSUPP, "EOPNOTSUPP" }, { EBADMSG, "EBADMSG" },
		{ ENOKEY, "ENOKEY" }, { EKEYREJECTED, "EKEYREJECTED" },
	};
	static char buf[32];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

static void report(const char *what, long ret)
{
	printf("%-52s %s\n", what, ret == 0 ? "ok" : errname(errno));
	fflush(stdout);
}

static long init_module(const void *image, unsigned long len, const char *args)
{
	return syscall(SYS_init_module, image, len, args);
}

static long finit_module(int fd, const char *args, int flags)
{
	return syscall(SYS_finit_module, fd, args, flags);
}

static long delete_module(const char *name, unsigned flags)
{
	return syscall(SYS_delete_module, name, flags);
}

/* A file of the given bytes; its descriptor, open for reading. */
static int make_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		perror(path);
		exit(1);
	}
	close(fd);
	return open(path, O_RDONLY);
}

/* The first bytes of an x86-64 ELF relocatable object, with its section
 * headers said to lie far past the end of the file. */
static void elf_rel_header(unsigned char *h, size_t len)
{
	memset(h, 0, len);
	memcpy(h, "\177ELF\2\1\1", 7);
	h[16] = 1;                      /* e_type ET_REL */
	h[18] = 62;                     /* e_machine EM_X86_64 */
	h[20] = 1;                      /* e_version */
	h[40] = 0x00; h[41] = 0x10;     /* e_shoff 0x1000 */
	h[52] = 64;                     /* e_ehsize */
	h[58] = 64;                     /* e_shentsize */
	h[60] = 3;                      /* e_shnum */
	h[62] = 2;                      /* e_shstrndx */
}

int main(void)
{
	static unsigned char image[4096], garbage[256];
	char big[200];
	int fd, dirfd, wfd, pathfd;
	struct stat st;
	char *exe;

	for (size_t i = 0; i < sizeof(garbage); i++)
		garbage[i] = (unsigned char)(i * 7 + 1);

	/* ---- init_module: the image in user memory ---- */
	report("init_module(NULL, 0)", init_module(NULL, 0, ""));
	report("init_module(image, 63): shorter than an ELF header", init_module(garbage, 63, ""));
	report("init_module(NULL, 64)", init_module(NULL, 64, ""));
	report("init_module(garbage, 256)", init_module(garbage, 256, ""));
	elf_rel_header(image, 64);
	report("init_module(ELF header, sections past the end)", init_module(image, 64, ""));
	elf_rel_header(image, sizeof(image));
	image[18] = 3; /* EM_386 */
	report("init_module(ELF for i386)", init_module(image, sizeof(image), ""));
	fd = open("/usr/lib/exec-tests/hello", O_RDONLY);
	fstat(fd, &st);
	exe = malloc(st.st_size);
	read(fd, exe, st.st_size);
	close(fd);
	report("init_module(/usr/lib/exec-tests/hello, an executable)", init_module(exe, st.st_size, ""));
	report("init_module(garbage, 256, args NULL)", init_module(garbage, 256, NULL));
	report("init_module(garbage, 1 TiB)", init_module(garbage, 1UL << 40, ""));

	/* ---- finit_module: the image in a file ---- */
	report("finit_module(-1)", finit_module(-1, "", 0));
	report("finit_module(99): not open", finit_module(99, "", 0));
	fd = make_file("/tmp/garbage.ko", garbage, sizeof(garbage));
	report("finit_module(garbage file, flags 8)", finit_module(fd, "", 8));
	report("finit_module(-1, flags 8)", finit_module(-1, "", 8));
	report("finit_module(garbage file)", finit_module(fd, "", 0));
	report("finit_module(garbage file, args NULL)", finit_module(fd, NULL, 0));
	report("finit_module(garbage file, COMPRESSED_FILE)",
	       finit_module(fd, "", MODULE_INIT_COMPRESSED_FILE));
	report("finit_module(/usr/lib/exec-tests/hello, an executable)",
	       finit_module(open("/usr/lib/exec-tests/hello", O_RDONLY), "", 0));
	close(fd);
	fd = make_file("/tmp/empty.ko", "", 0);
	report("finit_module(empty file)", finit_module(fd, "", 0));
	close(fd);
	dirfd = open("/tmp", O_RDONLY | O_DIRECTORY);
	report("finit_module(a directory)", finit_module(dirfd, "", 0));
	close(dirfd);
	wfd = open("/tmp/garbage.ko", O_WRONLY);
	report("finit_module(file open for writing only)", finit_module(wfd, "", 0));
	fd = open("/tmp/garbage.ko", O_RDONLY);
	report("finit_module(file someone has open for writing)", finit_module(fd, "", 0));
	close(wfd);
	report("finit_module(the same, once it is closed)", finit_module(fd, "", 0));
	close(fd);
	pathfd = open("/tmp/garbage.ko", O_PATH);
	report("finit_module(O_PATH descriptor)", finit_module(pathfd, "", 0));
	close(pathfd);
	fd = open("/dev/null", O_RDONLY);
	report("finit_module(/dev/null)", finit_module(fd, "", 0));
	close(fd);

	/* ---- delete_module ---- */
	report("delete_module(\"no_such_module\")", delete_module("no_such_module", O_NONBLOCK));
	report("delete_module(\"\")", delete_module("", O_NONBLOCK));
	report("delete_module(NULL)", delete_module(NULL, O_NONBLOCK));
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	report("delete_module(199 bytes of name)", delete_module(big, O_NONBLOCK));
	report("delete_module(\"no_such_module\", flags 0)", delete_module("no_such_module", 0));

	/* ---- not root ---- */
	if (setuid(1000) != 0) {
		perror("setuid");
		return 1;
	}
	fd = open("/tmp/garbage.ko", O_RDONLY);
	report("uid 1000: init_module(garbage, 256)", init_module(garbage, 256, ""));
	report("uid 1000: init_module(NULL, 0)", init_module(NULL, 0, ""));
	report("uid 1000: finit_module(garbage file)", finit_module(fd, "", 0));
	report("uid 1000: finit_module(-1, flags 8)", finit_module(-1, "", 8));
	report("uid 1000: delete_module(\"no_such_module\")", delete_module("no_such_module", O_NONBLOCK));
	report("uid 1000: delete_module(NULL)", delete_module(NULL, O_NONBLOCK));
	return 0;
}
