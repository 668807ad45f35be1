/*
 * mkhello-aarch64 OUT - write a tiny static aarch64 Linux program that
 * prints "hello from aarch64" and exits 0, without a cross compiler: the
 * ELF header, one PT_LOAD and eight instructions, encoded by hand. Run on
 * the build host; qemu-aarch64-static runs the result on x86-64.
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
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define BASE 0x400000
static const char msg[] = "hello from aarch64\n";

static uint32_t movz(int rd, unsigned imm) { return 0xd2800000u | imm << 5 | rd; }
/* adr rd, . + off */
static uint32_t adr(int rd, unsigned off) { return 0x10000000u | (off & 3) << 29 | (off >> 2) << 5 | rd; }
#define SVC0 0xd4000001u

int main(int argc, char *argv[])
{
	unsigned len = sizeof(msg) - 1;
	uint32_t code[] = {
		movz(0, 1), adr(1, 7 * 4), movz(2, len), movz(8, 64), SVC0,
		movz(0, 0), movz(8, 93), SVC0,
	};
	size_t code_off = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
	size_t size = code_off + sizeof(code) + len;
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
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "wb"))) {
		fprintf(stderr, "usage: mkhello-aarch64 OUT\n");
		return 2;
	}
	fwrite(&eh, sizeof(eh), 1, f);
	fwrite(&ph, sizeof(ph), 1, f);
	fwrite(code, sizeof(code), 1, f);
	fwrite(msg, len, 1, f);
	return fclose(f) != 0;
}
