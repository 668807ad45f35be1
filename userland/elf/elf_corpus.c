/*
 * elf_corpus.c - a corpus of malformed and edge-case ELF files, made here
 * and run one by one: what execve says (an errno), or how the process ends
 * (its output and exit status, or the signal that killed it). Each case
 * changes one thing in a small valid program, so the line it prints is
 * Linux's answer to that one field: which checks load_elf_binary makes
 * before the point of no return (an errno), which after (SIGSEGV), which
 * fields it ignores (the program runs).
 *
 * The base program is made by hand, byte by byte (no assembler needed):
 *
 *   file 0x000  ELF header          text PT_LOAD: file 0..0x300 at 0x400000, R+X
 *        0x040  program headers     data PT_LOAD: file 0x1000, 0x10 bytes, at
 *        0x200  code, then "ok\n"                 0x401000, memsz 0x2000 (bss), R+W
 *        0x1000 16 bytes of data,   PT_GNU_STACK: R+W
 *               then 0xaa to the end of the page (must read as 0: bss)
 *
 * Its code writes its message and exits with 42 + the first byte of the
 * bss: "ok" and 42 when the bss reads as zero. The interpreter used by the
 * PT_INTERP cases is the same program at 0x800000 saying "interp", exit 7.
 * The PIE variant is the same with e_type ET_DYN and addresses from 0.
 *
 *   /usr/lib/exec-tests/elf_corpus          every case, one line each, then a count
 *   /usr/lib/exec-tests/elf_corpus -leak N  (for our kernel) one quiet pass to warm up, then N
 *                        more: is free memory the same before and after?
 */
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR "/tmp/elf"
#define FILE_SIZE 0x4000
#define PHOFF 0x40
#define CODE 0x200
#define DATA 0x1000
#define INTERP_OFF 0x2000

struct elf {
	unsigned char b[FILE_SIZE];
	size_t size;
};

static Elf64_Ehdr *eh(struct elf *e) { return (Elf64_Ehdr *)e->b; }
static Elf64_Phdr *ph(struct elf *e, int i) { return (Elf64_Phdr *)(e->b + PHOFF) + i; }

/* The code: write(1, msg, len); exit(42 + *(uint8_t *)(data + 0x10)). */
static void code(struct elf *e, const char *msg, int exit_base)
{
	unsigned char *c = e->b + CODE;
	size_t n = 0, len = strlen(msg);
	int32_t rel;
	size_t msg_off = CODE + 0x60;

#define B(...)                                                            \
	do {                                                              \
		unsigned char bytes[] = { __VA_ARGS__ };                  \
		memcpy(c + n, bytes, sizeof(bytes));                       \
		n += sizeof(bytes);                                       \
	} while (0)
	B(0xb8, 1, 0, 0, 0);       /* mov $1, %eax (write) */
	B(0xbf, 1, 0, 0, 0);       /* mov $1, %edi */
	B(0x48, 0x8d, 0x35);       /* lea msg(%rip), %rsi */
	rel = (int32_t)(msg_off - (CODE + n + 4));
	memcpy(c + n, &rel, 4), n += 4;
	B(0xba, (unsigned char)len, 0, 0, 0); /* mov $len, %edx */
	B(0x0f, 0x05);             /* syscall */
	B(0x0f, 0xb6, 0x3d);       /* movzbl data+0x10(%rip), %edi */
	/* the data segment is 0x1000 above the text's start */
	rel = (int32_t)(0x1000 + 0x10 - (CODE + n + 4));
	memcpy(c + n, &rel, 4), n += 4;
	B(0x83, 0xc7, (unsigned char)exit_base); /* add $exit_base, %edi */
	B(0xb8, 60, 0, 0, 0);      /* mov $60, %eax (exit) */
	B(0x0f, 0x05);             /* syscall */
#undef B
	memcpy(e->b + msg_off, msg, len);
}

/* The valid program: ET_EXEC at base (or ET_DYN at 0). */
static void make(struct elf *e, int type, uint64_t base, const char *msg, int exit_base)
{
	memset(e, 0, sizeof(*e));
	e->size = 0x2000;
	memcpy(eh(e)->e_ident, ELFMAG, SELFMAG);
	eh(e)->e_ident[EI_CLASS] = ELFCLASS64;
	eh(e)->e_ident[EI_DATA] = ELFDATA2LSB;
	eh(e)->e_ident[EI_VERSION] = EV_CURRENT;
	eh(e)->e_type = type;
	eh(e)->e_machine = EM_X86_64;
	eh(e)->e_version = EV_CURRENT;
	eh(e)->e_entry = base + CODE;
	eh(e)->e_phoff = PHOFF;
	eh(e)->e_ehsize = sizeof(Elf64_Ehdr);
	eh(e)->e_phentsize = sizeof(Elf64_Phdr);
	eh(e)->e_phnum = 3;
	*ph(e, 0) = (Elf64_Phdr){ PT_LOAD, PF_R | PF_X, 0, base, base, 0x300, 0x300, 0x1000 };
	*ph(e, 1) = (Elf64_Phdr){ PT_LOAD, PF_R | PF_W, DATA, base + 0x1000, base + 0x1000, 0x10, 0x2000, 0x1000 };
	*ph(e, 2) = (Elf64_Phdr){ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0, 0x10 };
	code(e, msg, exit_base);
	memset(e->b + DATA, 'D', 0x10);
	memset(e->b + DATA + 0x10, 0xaa, 0x1000 - 0x10);
}

/* Add a PT_INTERP naming path (len bytes, NUL included as given). */
static void interp(struct elf *e, const char *path, size_t len)
{
	int n = eh(e)->e_phnum++;

	memmove(ph(e, 1), ph(e, 0), n * sizeof(Elf64_Phdr)); /* PT_INTERP first */
	*ph(e, 0) = (Elf64_Phdr){ PT_INTERP, PF_R, INTERP_OFF, 0, 0, len, len, 1 };
	memset(e->b + INTERP_OFF, 0, 0x1000 + 0x800);
	memcpy(e->b + INTERP_OFF, path, len);
	if (e->size < INTERP_OFF + len)
		e->size = INTERP_OFF + len;
}

static int write_file(const char *name, const void *b, size_t n, mode_t mode)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), DIR "/%s", name);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, b, n) != (ssize_t)n) {
		perror(path);
		exit(1);
	}
	close(fd);
	chmod(path, mode);
	return 0;
}

static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case ENOEXEC: return "ENOEXEC";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EIO: return "EIO";
	case ELIBBAD: return "ELIBBAD";
	case ENOMEM: return "ENOMEM";
	case E2BIG: return "E2BIG";
	case ELOOP: return "ELOOP";
	case ENOTDIR: return "ENOTDIR";
	case EFAULT: return "EFAULT";
	case ETXTBSY: return "ETXTBSY";
	case EPERM: return "EPERM";
	}
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

static int ncases, quiet;

/* Run DIR/name; print one line. */
static void run(const char *label, const char *name)
{
	char path[256], out[256], line[512];
	int fds[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	snprintf(path, sizeof(path), DIR "/%s", name);
	if (pipe(fds))
		exit(1);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		alarm(10); /* a program that loops is stopped (alarm survives exec) */
		execl(path, path, (char *)NULL);
		printf("execve %s", errname(errno));
		fflush(stdout);
		_exit(255);
	}
	close(fds[1]);
	while (got < (ssize_t)sizeof(out) - 1 && (n = read(fds[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += n;
	out[got] = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	for (char *p = out; *p; p++)
		if (*p == '\n')
			*p = ' ';
	if (WIFEXITED(status) && WEXITSTATUS(status) == 255 && !strncmp(out, "execve ", 7))
		snprintf(line, sizeof(line), "%s", out);
	else if (WIFEXITED(status))
		snprintf(line, sizeof(line), "\"%s\" exit %d", out, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(line, sizeof(line), "%s%skilled by %s", out, *out ? " " : "",
			 strsignal(WTERMSIG(status)));
	else
		snprintf(line, sizeof(line), "status %#x", status);
	if (!quiet)
		printf("%-40s %s\n", label, line);
	fflush(stdout);
	ncases++;
}

/* Write e as DIR/case and run it. */
static void try(const char *label, struct elf *e)
{
	write_file("case", e->b, e->size, 0755);
	run(label, "case");
}

/* One field of the header or of a program header set to a value. */
static void field(const char *label, int type, size_t off, int size, uint64_t value)
{
	struct elf e;

	make(&e, type, type == ET_DYN ? 0 : 0x400000, "ok\n", 42);
	memcpy(e.b + off, &value, size);
	try(label, &e);
}

#define EH(f) offsetof(Elf64_Ehdr, f), (int)sizeof(((Elf64_Ehdr *)0)->f)
#define PH(i, f) (PHOFF + (i) * sizeof(Elf64_Phdr) + offsetof(Elf64_Phdr, f)), (int)sizeof(((Elf64_Phdr *)0)->f)

static void corpus(void);

static long long free_kib(void)
{
	char line[256];
	long long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %lld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	/* The corpus's relative PT_INTERP, "tmp/elf/interp", is looked up
	 * from the working directory, as every relative path: work in /. */
	if (chdir("/") < 0)
		perror("chdir /");
	if (argc > 2 && !strcmp(argv[1], "-leak")) {
		long long before, after;
		int n = atoi(argv[2]);

		quiet = 1;
		mount("proc", "/proc", "proc", 0, NULL);
		corpus();
		before = free_kib();
		for (int i = 0; i < n; i++)
			corpus();
		after = free_kib();
		printf("free memory before and after %d runs of the corpus (%d execs): %s\n", n,
		       ncases - ncases / (n + 1), before == after ? "same" : "DIFFERENT");
		if (before != after)
			printf("  %lld KiB before, %lld KiB after\n", before, after);
		return 0;
	}
	corpus();
	printf("%d cases; the kernel is still here\n", ncases);
	return 0;
}

static void corpus(void)
{
	struct elf e, in;
	char label[64];

	mkdir("/tmp", 01777);
	mkdir(DIR, 0755);

	/* The interpreters. */
	make(&in, ET_EXEC, 0x800000, "interp\n", 7);
	write_file("interp", in.b, in.size, 0755);
	write_file("interp_noexec", in.b, in.size, 0644);
	write_file("interp_short", in.b, 20, 0755);
	write_file("script", "#!/bin/sh\necho script\n", 22, 0755);
	eh(&in)->e_machine = EM_AARCH64;
	write_file("interp_arm", in.b, in.size, 0755);
	make(&in, ET_EXEC, 0x800000, "interp\n", 7);
	eh(&in)->e_phentsize = 0;
	write_file("interp_badph", in.b, in.size, 0755);
	make(&in, ET_EXEC, 0x800000, "interp\n", 7);
	eh(&in)->e_ident[0] = 0;
	write_file("interp_nomagic", in.b, in.size, 0755);
	make(&in, ET_DYN, 0, "interp\n", 7);
	write_file("interp_pie", in.b, in.size, 0755);
	ph(&in, 0)->p_type = PT_NULL;
	ph(&in, 1)->p_type = PT_NULL;
	write_file("interp_noload", in.b, in.size, 0755);
	make(&in, ET_REL, 0x800000, "interp\n", 7);
	write_file("interp_rel", in.b, in.size, 0755);

	/* ---- the valid programs ---- */
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	try("base ET_EXEC", &e);
	make(&e, ET_DYN, 0, "ok\n", 42);
	try("base ET_DYN (static-pie kind)", &e);

	/* ---- every byte of e_ident ---- */
	for (int i = 0; i < EI_NIDENT; i++) {
		uint8_t vals[] = { 0x00, 0xff, 0x01 };
		for (unsigned v = 0; v < (i < 4 ? 1 : i < 7 ? 3 : 1); v++) {
			uint8_t val = i < 4 ? (uint8_t)(e.b[i] ^ 0x20) : i < 7 ? vals[v] : 0x5a;
			snprintf(label, sizeof(label), "e_ident[%d] = %#x", i, val);
			field(label, ET_EXEC, i, 1, val);
		}
	}
	/* ---- the other header fields ---- */
	uint16_t types[] = { ET_NONE, ET_REL, ET_CORE, 5, 0xfe00, 0xff00, 0xffff };
	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		snprintf(label, sizeof(label), "e_type = %#x", types[i]);
		field(label, ET_EXEC, EH(e_type), types[i]);
	}
	field("e_type = ET_DYN (linked at 0x400000)", ET_EXEC, EH(e_type), ET_DYN);
	field("e_type = ET_EXEC (linked at 0)", ET_DYN, EH(e_type), ET_EXEC);
	uint16_t machines[] = { EM_NONE, EM_386, EM_AARCH64, EM_X86_64 + 1, 0x3e00 };
	for (unsigned i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		snprintf(label, sizeof(label), "e_machine = %#x", machines[i]);
		field(label, ET_EXEC, EH(e_machine), machines[i]);
	}
	field("e_version = 0", ET_EXEC, EH(e_version), 0);
	field("e_version = 0xffffffff", ET_EXEC, EH(e_version), 0xffffffff);
	field("e_entry = 0", ET_EXEC, EH(e_entry), 0);
	field("e_entry = 0x400000 (the header)", ET_EXEC, EH(e_entry), 0x400000);
	field("e_entry = 0x401000 (data, no exec)", ET_EXEC, EH(e_entry), 0x401000);
	field("e_entry = past the image", ET_EXEC, EH(e_entry), 0x500000);
	field("e_entry = TASK_SIZE", ET_EXEC, EH(e_entry), 0x7ffffffff000);
	field("e_entry = kernel half", ET_EXEC, EH(e_entry), 0xffffffff81000000);
	field("e_entry = non-canonical", ET_EXEC, EH(e_entry), 0x0000900000000000);
	field("ET_DYN e_entry = 0", ET_DYN, EH(e_entry), 0);
	field("ET_DYN e_entry = huge", ET_DYN, EH(e_entry), 0xffffffff00000000);
	field("e_phoff = 0", ET_EXEC, EH(e_phoff), 0);
	field("e_phoff = 1 (unaligned)", ET_EXEC, EH(e_phoff), 1);
	field("e_phoff = past the end", ET_EXEC, EH(e_phoff), 0x10000);
	field("e_phoff = partly past the end", ET_EXEC, EH(e_phoff), 0x2000 - 100);
	field("e_phoff = 2^63", ET_EXEC, EH(e_phoff), 0x8000000000000000);
	field("e_phoff = -1", ET_EXEC, EH(e_phoff), ~0UL);
	field("e_shoff = garbage", ET_EXEC, EH(e_shoff), 0xdeadbeefcafe);
	field("e_flags = garbage", ET_EXEC, EH(e_flags), 0xffffffff);
	field("e_ehsize = 0", ET_EXEC, EH(e_ehsize), 0);
	field("e_ehsize = 0xffff", ET_EXEC, EH(e_ehsize), 0xffff);
	uint16_t phents[] = { 0, 1, 32, 55, 57, 64, 0xffff };
	for (unsigned i = 0; i < sizeof(phents) / sizeof(phents[0]); i++) {
		snprintf(label, sizeof(label), "e_phentsize = %u", phents[i]);
		field(label, ET_EXEC, EH(e_phentsize), phents[i]);
	}
	uint16_t phnums[] = { 0, 1, 2, 4, 73, 74, 0xffff };
	for (unsigned i = 0; i < sizeof(phnums) / sizeof(phnums[0]); i++) {
		snprintf(label, sizeof(label), "e_phnum = %u", phnums[i]);
		field(label, ET_EXEC, EH(e_phnum), phnums[i]);
	}
	field("e_shentsize = garbage", ET_EXEC, EH(e_shentsize), 0x1234);
	field("e_shnum = 0xffff", ET_EXEC, EH(e_shnum), 0xffff);
	field("e_shstrndx = 0xffff", ET_EXEC, EH(e_shstrndx), 0xffff);

	/* ---- the text segment's program header ---- */
	uint32_t ptypes[] = { PT_NULL, PT_DYNAMIC, PT_NOTE, PT_PHDR, PT_TLS, 0x60000000, PT_GNU_STACK };
	for (unsigned i = 0; i < sizeof(ptypes) / sizeof(ptypes[0]); i++) {
		snprintf(label, sizeof(label), "text p_type = %#x", ptypes[i]);
		field(label, ET_EXEC, PH(0, p_type), ptypes[i]);
	}
	/* Not PF_X alone: Linux makes execute-only memory with a protection
	 * key where the CPU has them (the program cannot read its message),
	 * which this kernel does not do (docs/exec.md). */
	uint32_t pflags[] = { 0, PF_R, PF_W | PF_X, PF_R | PF_W | PF_X, 0xfffffff8 | PF_R | PF_X };
	for (unsigned i = 0; i < sizeof(pflags) / sizeof(pflags[0]); i++) {
		snprintf(label, sizeof(label), "text p_flags = %#x", pflags[i]);
		field(label, ET_EXEC, PH(0, p_flags), pflags[i]);
	}
	field("text p_offset = 1 (not congruent)", ET_EXEC, PH(0, p_offset), 1);
	field("text p_offset = 0x1000 (other page)", ET_EXEC, PH(0, p_offset), 0x1000);
	field("text p_offset = past the end", ET_EXEC, PH(0, p_offset), 0x100000);
	field("text p_offset = 2^63", ET_EXEC, PH(0, p_offset), 0x8000000000000000);
	field("text p_offset = -4096", ET_EXEC, PH(0, p_offset), (uint64_t)-4096);
	field("text p_vaddr = 0", ET_EXEC, PH(0, p_vaddr), 0);
	field("text p_vaddr = 0x400001", ET_EXEC, PH(0, p_vaddr), 0x400001);
	field("text p_vaddr = 0x10000000", ET_EXEC, PH(0, p_vaddr), 0x10000000);
	field("text p_vaddr = TASK_SIZE - 0x1000", ET_EXEC, PH(0, p_vaddr), 0x7fffffffe000);
	field("text p_vaddr = TASK_SIZE", ET_EXEC, PH(0, p_vaddr), 0x7ffffffff000);
	field("text p_vaddr = non-canonical", ET_EXEC, PH(0, p_vaddr), 0x0000900000000000);
	field("text p_vaddr = kernel half", ET_EXEC, PH(0, p_vaddr), 0xffff800000000000);
	field("text p_vaddr = 0x401000 (onto data)", ET_EXEC, PH(0, p_vaddr), 0x401000);
	field("text p_paddr = garbage", ET_EXEC, PH(0, p_paddr), 0x1234567);
	field("text p_filesz = 0", ET_EXEC, PH(0, p_filesz), 0);
	field("text p_filesz = 0x200 (cuts the code)", ET_EXEC, PH(0, p_filesz), 0x200);
	field("text p_filesz = 0x301 > p_memsz", ET_EXEC, PH(0, p_filesz), 0x301);
	field("text p_filesz = past the file", ET_EXEC, PH(0, p_filesz), 0x100000);
	field("text p_memsz = 0", ET_EXEC, PH(0, p_memsz), 0);
	field("text p_memsz = 0x100000 (bss)", ET_EXEC, PH(0, p_memsz), 0x100000);
	field("text p_memsz = 2^47", ET_EXEC, PH(0, p_memsz), 0x800000000000);
	field("text p_memsz = -1", ET_EXEC, PH(0, p_memsz), ~0UL);
	uint64_t aligns[] = { 0, 1, 3, 0x10, 0x200000, 0x1000000, 0x8000000000000000 };
	for (unsigned i = 0; i < sizeof(aligns) / sizeof(aligns[0]); i++) {
		snprintf(label, sizeof(label), "text p_align = %#lx", (unsigned long)aligns[i]);
		field(label, ET_EXEC, PH(0, p_align), aligns[i]);
	}

	/* ---- the data segment and its bss ---- */
	field("data p_flags = R (bss read-only)", ET_EXEC, PH(1, p_flags), PF_R);
	field("data p_flags = 0", ET_EXEC, PH(1, p_flags), 0);
	field("data p_flags = RWX", ET_EXEC, PH(1, p_flags), PF_R | PF_W | PF_X);
	field("data p_memsz = p_filesz (no bss)", ET_EXEC, PH(1, p_memsz), 0x10);
	field("data p_memsz = 0x8 < p_filesz", ET_EXEC, PH(1, p_memsz), 0x8);
	field("data p_memsz = 64 MiB", ET_EXEC, PH(1, p_memsz), 64UL << 20);
	field("data p_memsz = 1 GiB", ET_EXEC, PH(1, p_memsz), 1UL << 30);
	field("data p_memsz = 1 TiB", ET_EXEC, PH(1, p_memsz), 1UL << 40);
	field("data p_memsz = to TASK_SIZE", ET_EXEC, PH(1, p_memsz), 0x7ffffffff000 - 0x401000);
	field("data p_filesz = 0 (all bss)", ET_EXEC, PH(1, p_filesz), 0);
	field("data p_vaddr = 0x400000 (onto text)", ET_EXEC, PH(1, p_vaddr), 0x400000);
	field("data p_vaddr = 0x400800 (overlaps text)", ET_EXEC, PH(1, p_vaddr), 0x400800);
	field("data p_vaddr = 0x300000 (below text)", ET_EXEC, PH(1, p_vaddr), 0x300000);
	field("data p_vaddr = kernel half", ET_EXEC, PH(1, p_vaddr), 0xffff800000000000);
	field("data p_offset = 0x1001 (not congruent)", ET_EXEC, PH(1, p_offset), 0x1001);
	field("data p_type = PT_NULL", ET_EXEC, PH(1, p_type), PT_NULL);
	field("PT_GNU_STACK p_flags = RWX", ET_EXEC, PH(2, p_flags), PF_R | PF_W | PF_X);
	field("PT_GNU_STACK p_flags = 0", ET_EXEC, PH(2, p_flags), 0);
	field("PT_GNU_STACK -> PT_NULL", ET_EXEC, PH(2, p_type), PT_NULL);

	/* ---- zero, one, many PT_LOADs ---- */
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	ph(&e, 0)->p_type = ph(&e, 1)->p_type = PT_NULL;
	try("ET_EXEC with no PT_LOAD", &e);
	make(&e, ET_DYN, 0, "ok\n", 42);
	ph(&e, 0)->p_type = ph(&e, 1)->p_type = PT_NULL;
	try("ET_DYN with no PT_LOAD", &e);
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	*ph(&e, 2) = *ph(&e, 0);
	try("the text segment twice", &e);
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	Elf64_Phdr t = *ph(&e, 0);
	*ph(&e, 0) = *ph(&e, 1);
	*ph(&e, 1) = t;
	try("segments out of order", &e);
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	{
		Elf64_Phdr *p = (Elf64_Phdr *)(e.b + 0x2000);
		memcpy(p, ph(&e, 0), 3 * sizeof(Elf64_Phdr));
		for (int i = 3; i < 73; i++)
			p[i] = (Elf64_Phdr){ PT_NOTE, PF_R, 0, 0, 0, 0, 0, 4 };
		eh(&e)->e_phoff = 0x2000;
		eh(&e)->e_phnum = 73;
		e.size = 0x3000;
		try("73 program headers", &e);
		eh(&e)->e_phnum = 74;
		p[73] = p[72];
		try("74 program headers", &e);
	}

	/* ---- ET_DYN ---- */
	field("ET_DYN text p_align = 0x200000", ET_DYN, PH(0, p_align), 0x200000);
	field("ET_DYN text p_align = 3", ET_DYN, PH(0, p_align), 3);
	field("ET_DYN text p_vaddr = 0x1000 (first not 0)", ET_DYN, PH(0, p_vaddr), 0x1000);
	field("ET_DYN data p_vaddr = 2^40 (a hole)", ET_DYN, PH(1, p_vaddr), 1UL << 40);
	field("ET_DYN data p_vaddr = 2^46 (overflow)", ET_DYN, PH(1, p_vaddr), 1UL << 46);
	field("ET_DYN data p_vaddr = -0x2000 (wraps)", ET_DYN, PH(1, p_vaddr), (uint64_t)-0x2000);
	field("ET_DYN text p_filesz = 0", ET_DYN, PH(0, p_filesz), 0);
	field("ET_DYN data p_memsz = 1 TiB", ET_DYN, PH(1, p_memsz), 1UL << 40);
	field("ET_DYN text p_memsz = 2^47", ET_DYN, PH(0, p_memsz), 0x800000000000);

	/* ---- PT_INTERP ---- */
	static const struct {
		const char *label, *path;
		size_t len;
	} interps[] = {
		{ "PT_INTERP an ELF program", DIR "/interp", sizeof(DIR "/interp") },
		{ "PT_INTERP a PIE", DIR "/interp_pie", sizeof(DIR "/interp_pie") },
		{ "PT_INTERP relative path", "tmp/elf/interp", sizeof("tmp/elf/interp") },
		{ "PT_INTERP missing", DIR "/missing", sizeof(DIR "/missing") },
		{ "PT_INTERP a directory", DIR, sizeof(DIR) },
		{ "PT_INTERP not executable", DIR "/interp_noexec", sizeof(DIR "/interp_noexec") },
		{ "PT_INTERP a script", DIR "/script", sizeof(DIR "/script") },
		{ "PT_INTERP for another machine", DIR "/interp_arm", sizeof(DIR "/interp_arm") },
		{ "PT_INTERP with bad e_phentsize", DIR "/interp_badph", sizeof(DIR "/interp_badph") },
		{ "PT_INTERP without ELF magic", DIR "/interp_nomagic", sizeof(DIR "/interp_nomagic") },
		{ "PT_INTERP of 20 bytes", DIR "/interp_short", sizeof(DIR "/interp_short") },
		{ "PT_INTERP with no PT_LOAD", DIR "/interp_noload", sizeof(DIR "/interp_noload") },
		{ "PT_INTERP of type ET_REL", DIR "/interp_rel", sizeof(DIR "/interp_rel") },
		{ "PT_INTERP /dev/null", "/dev/null", sizeof("/dev/null") },
		{ "PT_INTERP not NUL-terminated", DIR "/interp", sizeof(DIR "/interp") - 1 },
		{ "PT_INTERP NUL inside", DIR "/interp\0junk", sizeof(DIR "/interp\0junk") },
		{ "PT_INTERP p_filesz 1", "", 1 },
		{ "PT_INTERP empty (two NULs)", "\0", 2 },
		{ "PT_INTERP p_filesz 0", "", 0 },
		{ "PT_INTERP /", "/", 2 },
	};
	for (unsigned i = 0; i < sizeof(interps) / sizeof(interps[0]); i++) {
		make(&e, ET_EXEC, 0x400000, "ok\n", 42);
		interp(&e, interps[i].path, interps[i].len);
		try(interps[i].label, &e);
	}
	make(&e, ET_DYN, 0, "ok\n", 42);
	interp(&e, DIR "/interp", sizeof(DIR "/interp"));
	try("PIE with an ELF interpreter", &e);
	{
		static char longpath[4200];
		memset(longpath, '/', sizeof(longpath));
		make(&e, ET_EXEC, 0x400000, "ok\n", 42);
		interp(&e, longpath, 4097);
		e.b[INTERP_OFF + 4096] = 0;
		try("PT_INTERP p_filesz 4097", &e);
		make(&e, ET_EXEC, 0x400000, "ok\n", 42);
		interp(&e, longpath, 4096);
		e.b[INTERP_OFF + 4095] = 0;
		try("PT_INTERP p_filesz 4096 (////...)", &e);
	}
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	interp(&e, DIR "/interp", sizeof(DIR "/interp"));
	ph(&e, 0)->p_offset = 0x100000;
	try("PT_INTERP p_offset past the end", &e);
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	interp(&e, DIR "/interp", sizeof(DIR "/interp"));
	interp(&e, DIR "/missing", sizeof(DIR "/missing"));
	ph(&e, 1)->p_offset = INTERP_OFF + 0x800;
	memcpy(e.b + INTERP_OFF + 0x800, DIR "/interp", sizeof(DIR "/interp"));
	try("two PT_INTERPs, the first missing", &e);
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	interp(&e, DIR "/missing", sizeof(DIR "/missing"));
	interp(&e, DIR "/interp", sizeof(DIR "/interp"));
	ph(&e, 1)->p_offset = INTERP_OFF + 0x800;
	memcpy(e.b + INTERP_OFF + 0x800, DIR "/missing", sizeof(DIR "/missing"));
	try("two PT_INTERPs, the second missing", &e);
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	interp(&e, DIR "/interp", sizeof(DIR "/interp"));
	{
		Elf64_Phdr p = *ph(&e, 0);
		memmove(ph(&e, 0), ph(&e, 1), 3 * sizeof(Elf64_Phdr));
		*ph(&e, 3) = p;
	}
	try("PT_INTERP after the PT_LOADs", &e);

	/* ---- files that are barely ELF ---- */
	write_file("case", "", 0, 0755);
	run("an empty file", "case");
	write_file("case", ELFMAG, 4, 0755);
	run("only the 4 magic bytes", "case");
	make(&e, ET_EXEC, 0x400000, "ok\n", 42);
	e.size = 63;
	try("63 bytes of header", &e);
	e.size = 64;
	try("the header alone", &e);
	e.size = 0x100;
	try("header and program headers only", &e);
	e.size = 0x280;
	try("cut inside the code", &e);
	e.size = 0x1008;
	try("cut inside the data", &e);
}
