/*
 * auxv.c - the auxiliary vector exec left on the stack, entry by entry, in
 * the kernel's order, and /proc/self/auxv, which must hold the same bytes.
 * Values that differ from run to run (addresses on the stack, the vDSO's)
 * are shown as the property Linux guarantees for them.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

extern void _start(void);

static const char *name(uint64_t t)
{
	static const char *names[] = {
		[AT_NULL] = "AT_NULL", [AT_EXECFD] = "AT_EXECFD", [AT_PHDR] = "AT_PHDR",
		[AT_PHENT] = "AT_PHENT", [AT_PHNUM] = "AT_PHNUM", [AT_PAGESZ] = "AT_PAGESZ",
		[AT_BASE] = "AT_BASE", [AT_FLAGS] = "AT_FLAGS", [AT_ENTRY] = "AT_ENTRY",
		[AT_UID] = "AT_UID", [AT_EUID] = "AT_EUID", [AT_GID] = "AT_GID",
		[AT_EGID] = "AT_EGID", [AT_PLATFORM] = "AT_PLATFORM", [AT_HWCAP] = "AT_HWCAP",
		[AT_CLKTCK] = "AT_CLKTCK", [AT_SECURE] = "AT_SECURE", [AT_RANDOM] = "AT_RANDOM",
		[AT_HWCAP2] = "AT_HWCAP2", [AT_EXECFN] = "AT_EXECFN",
		[AT_SYSINFO_EHDR] = "AT_SYSINFO_EHDR", [51] = "AT_MINSIGSTKSZ",
		[27] = "AT_RSEQ_FEATURE_SIZE", [28] = "AT_RSEQ_ALIGN",
	};
	return t < sizeof(names) / sizeof(names[0]) && names[t] ? names[t] : "AT_?";
}

int main(int argc, char **argv, char **envp)
{
	uint64_t *av, *p, stack_lo = (uint64_t)argv, stack_hi = (uint64_t)argv;
	char buf[1024];
	int n = 0, fd;
	ssize_t got;

	(void)argc;
	while (*envp)
		envp++;
	av = (uint64_t *)(envp + 1);
	for (p = av; p[0] != AT_NULL; p += 2)
		n++;
	stack_hi = (uint64_t)p + (1 << 20);
	printf("%d entries, then AT_NULL\n", n);
	for (p = av;; p += 2) {
		uint64_t t = p[0], v = p[1];

		printf("%-16s", name(t));
		switch (t) {
		case AT_SYSINFO_EHDR:
			printf("%s\n", (v & 0xfff) == 0 && !memcmp((void *)v, ELFMAG, SELFMAG) ?
					       "page-aligned, an ELF header" : "bad");
			break;
		case AT_ENTRY:
			printf("%s\n", v == (uint64_t)_start ? "_start" : "not _start");
			break;
		case AT_RANDOM:
			printf("%s\n", v > stack_lo && v < stack_hi ? "16 bytes on the stack" : "bad");
			break;
		case AT_EXECFN:
		case AT_PLATFORM:
			printf("\"%s\"\n", (char *)v);
			break;
		case AT_HWCAP:
		case AT_HWCAP2:
		case AT_PHDR:
		case AT_BASE:
		case AT_FLAGS:
			printf("0x%lx\n", (unsigned long)v);
			break;
		default:
			printf("%lu\n", (unsigned long)v);
		}
		if (t == AT_NULL)
			break;
	}

	mount("proc", "/proc", "proc", 0, NULL); /* may be there already */
	fd = open("/proc/self/auxv", O_RDONLY);
	if (fd < 0) {
		perror("/proc/self/auxv");
		return 1;
	}
	got = read(fd, buf, sizeof(buf));
	printf("/proc/self/auxv: %zd bytes, %s\n", got,
	       got == (n + 1) * 16 && !memcmp(buf, av, got) ? "the same as on the stack" : "different");
	close(fd);
	fd = open("/proc/self/personality", O_RDONLY);
	got = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (got >= 0) {
		buf[got] = 0;
		printf("/proc/self/personality: %s", buf);
	}
	return 0;
}
