/*
 * mkhello-aarch64 [--argv] OUT - write a tiny static aarch64 Linux program
 * without a cross compiler: the ELF header, one PT_LOAD, and instructions
 * encoded by hand. Run on the build host; qemu-aarch64-static runs the
 * result on x86-64 (directly, or through binfmt_misc).
 *
 * Without --argv, /usr/lib/exec-tests/hello-aarch64: it prints "hello from aarch64", exit 0.
 *
 *	_start:	movz x0, #1          // fd 1
 *		adr  x1, msg
 *		movz x2, #len
 *		movz x8, #64         // write
 *		svc  #0
 *		movz x0, #0          // status 0
 *		movz x8, #93         // exit
 *		svc  #0
 *	msg:	.ascii "hello from aarch64\n"
 *
 * With --argv, /usr/lib/exec-tests/args-aarch64: one line "aarch64 argv: ARG" for each of its
 * arguments, argv[0] first, so that a test sees the argv the emulated
 * program ends up with (binfmt_misc's P flag and qemu's -binfmt-P name).
 *
 *	_start:	ldr  x19, [sp]       // argc
 *		add  x20, sp, #8     // &argv[0]
 *	next:	cbz  x19, done
 *		ldr  x1, [x20], #8   // the next argument
 *		movz x2, #0
 *	len:	ldrb w3, [x1, x2]    // strlen
 *		cbz  w3, print
 *		add  x2, x2, #1
 *		b    len
 *	print:	mov  x21, x1
 *		mov  x22, x2
 *		write(1, prefix, plen); write(1, x21, x22); write(1, "\n", 1)
 *		sub  x19, x19, #1
 *		b    next
 *	done:	exit(0)
 *	prefix:	.ascii "aarch64 argv: "
 *	nl:	.ascii "\n"
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define BASE 0x400000

/* The A64 encodings used (Arm ARM, "A64 base instructions"). */
static uint32_t movz(int rd, unsigned imm) { return 0xd2800000u | imm << 5 | rd; }
/* adr rd, . + off (bytes) */
static uint32_t adr(int rd, unsigned off) { return 0x10000000u | (off & 3) << 29 | (off >> 2) << 5 | rd; }
/* b . + n instructions; cbz xt/wt, . + n instructions */
static uint32_t b(int n) { return 0x14000000u | ((uint32_t)n & 0x3ffffff); }
static uint32_t cbz64(int rt, int n) { return 0xb4000000u | ((uint32_t)n & 0x7ffff) << 5 | rt; }
static uint32_t cbz32(int rt, int n) { return 0x34000000u | ((uint32_t)n & 0x7ffff) << 5 | rt; }
/* mov xd, xm (orr xd, xzr, xm) */
static uint32_t mov(int rd, int rm) { return 0xaa0003e0u | rm << 16 | rd; }
/* add/sub xd, xn, #imm (xn 31 is sp) */
static uint32_t addi(int rd, int rn, unsigned imm) { return 0x91000000u | imm << 10 | rn << 5 | rd; }
static uint32_t subi(int rd, int rn, unsigned imm) { return 0xd1000000u | imm << 10 | rn << 5 | rd; }
#define SVC0 0xd4000001u
#define LDR_X19_SP 0xf94003f3u          /* ldr x19, [sp] */
#define LDR_X1_X20_POST8 0xf8408681u    /* ldr x1, [x20], #8 */
#define LDRB_W3_X1_X2 0x38626823u       /* ldrb w3, [x1, x2] */
#define SP 31

static const char hello_msg[] = "hello from aarch64\n";
static const char prefix[] = "aarch64 argv: ";

/* The program's code and data, in buf; returns its size. */
static size_t hello(uint8_t *buf)
{
	unsigned len = sizeof(hello_msg) - 1;
	uint32_t code[] = {
		movz(0, 1), adr(1, 7 * 4), movz(2, len), movz(8, 64), SVC0,
		movz(0, 0), movz(8, 93), SVC0,
	};

	memcpy(buf, code, sizeof(code));
	memcpy(buf + sizeof(code), hello_msg, len);
	return sizeof(code) + len;
}

static size_t show_argv(uint8_t *buf)
{
	unsigned plen = sizeof(prefix) - 1;
	enum { NEXT = 2, LEN = 5, PRINT = 9, DONE = 28, DATA = 31 };
	uint32_t code[] = {
		/*  0 */ LDR_X19_SP, addi(20, SP, 8),
		/*  2 */ cbz64(19, DONE - 2), LDR_X1_X20_POST8, movz(2, 0),
		/*  5 */ LDRB_W3_X1_X2, cbz32(3, PRINT - 6), addi(2, 2, 1), b(LEN - 8),
		/*  9 */ mov(21, 1), mov(22, 2),
		/* 11 */ movz(0, 1), adr(1, (DATA - 12) * 4), movz(2, plen), movz(8, 64), SVC0,
		/* 16 */ mov(1, 21), mov(2, 22), movz(0, 1), movz(8, 64), SVC0,
		/* 21 */ movz(0, 1), adr(1, (DATA - 22) * 4 + plen), movz(2, 1), movz(8, 64), SVC0,
		/* 26 */ subi(19, 19, 1), b(NEXT - 27),
		/* 28 */ movz(0, 0), movz(8, 93), SVC0,
	};
	_Static_assert(sizeof(code) == DATA * 4, "the data follows the code");

	memcpy(buf, code, sizeof(code));
	memcpy(buf + sizeof(code), prefix, plen);
	buf[sizeof(code) + plen] = '\n';
	return sizeof(code) + plen + 1;
}

int main(int argc, char *argv[])
{
	int want_argv = argc == 3 && strcmp(argv[1], "--argv") == 0;
	size_t code_off = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
	uint8_t body[512];
	size_t size;
	FILE *f;

	if ((argc != 2 && !want_argv) || !(f = fopen(argv[argc - 1], "wb"))) {
		fprintf(stderr, "usage: mkhello-aarch64 [--argv] OUT\n");
		return 2;
	}
	size = code_off + (want_argv ? show_argv(body) : hello(body));

	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_EXEC,
		.e_machine = EM_AARCH64,
		.e_version = EV_CURRENT,
		.e_entry = BASE + code_off,
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 1,
	};
	Elf64_Phdr ph = {
		.p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0,
		.p_vaddr = BASE, .p_paddr = BASE, .p_filesz = size, .p_memsz = size, .p_align = 0x10000,
	};

	fwrite(&eh, sizeof(eh), 1, f);
	fwrite(&ph, sizeof(ph), 1, f);
	fwrite(body, size - code_off, 1, f);
	return fclose(f) != 0;
}
