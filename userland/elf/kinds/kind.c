/*
 * kind.c - one program built as every kind of ELF file (the Makefile's
 * KINDS: musl and glibc, static, static-pie, dynamic). Each says what the
 * kernel loaded and checks what the auxiliary vector says of it: its ELF
 * type and interpreter, AT_PHDR, AT_ENTRY, AT_BASE, where it was placed;
 * then that its thread-local variables work. No address is printed, so the
 * output is the same on every run and every kernel that loads it right.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

/* The ELF header as mapped: the linker defines it where it loaded it. */
extern const Elf64_Ehdr __ehdr_start;

static __thread int tls_data = 42;
static __thread int tls_bss;

int main(int argc, char **argv)
{
	const Elf64_Ehdr *eh = &__ehdr_start;
	const Elf64_Phdr *ph = (const void *)((const char *)eh + eh->e_phoff);
	uintptr_t here = (uintptr_t)eh, first = UINTPTR_MAX, bias;
	const char *interp = NULL;
	unsigned long at_phdr = getauxval(AT_PHDR), at_base = getauxval(AT_BASE);

	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr < first)
			first = ph[i].p_vaddr & ~0xfffUL;
	}
	bias = here - first;
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_INTERP)
			interp = (const char *)(bias + ph[i].p_vaddr);

	printf("%s (argc %d): %s, %s%s\n", argv[0], argc,
	       eh->e_type == ET_EXEC ? "ET_EXEC" : eh->e_type == ET_DYN ? "ET_DYN" : "other",
	       interp ? "interpreter " : "no interpreter", interp ? interp : "");
	printf("  load bias: %s\n", bias == 0 ? "0" : (bias & 0xfff) ? "not page-aligned" : "page-aligned, not 0");
	printf("  AT_PHDR: %s\n", at_phdr == (uintptr_t)ph ? "its program headers" : "elsewhere");
	printf("  AT_PHNUM: %s\n", getauxval(AT_PHNUM) == eh->e_phnum ? "its e_phnum" : "another");
	printf("  AT_ENTRY: %s\n", getauxval(AT_ENTRY) == bias + eh->e_entry ? "its entry point" : "elsewhere");
	if (at_base == 0)
		printf("  AT_BASE: 0\n");
	else
		printf("  AT_BASE: %s\n", (at_base & 0xfff) ? "not page-aligned" :
		       memcmp((void *)at_base, ELFMAG, SELFMAG) ? "no ELF header there" :
		       "page-aligned, an ELF header (the interpreter)");
	printf("  TLS: %d %d\n", tls_data, tls_bss);
	tls_data++, tls_bss++;
	printf("  TLS after ++: %d %d\n", tls_data, tls_bss);
	return 0;
}
