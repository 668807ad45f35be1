/*
 * relocate.c - patching a module's code and data with the addresses it
 * could not know when it was compiled (Linux: arch/x86/kernel/module.c,
 * apply_relocate_add).
 *
 * The compiler leaves a hole (zeros) wherever an instruction or a datum
 * needs an address that is only known at link time: a call to printk, a
 * load of a static variable, a function pointer in a struct. For each
 * hole the object file has a relocation (a SHT_RELA section per section
 * with holes): where the hole is (r_offset), which symbol it needs
 * (r_info's upper half), a constant to add (r_addend), and how to fill it
 * (r_info's type). With S the symbol's address (simplify_symbols made
 * every symbol value an address), A the addend and P the hole's own
 * address, the types GCC emits for -mcmodel=kernel code are:
 *
 *   R_X86_64_64     8 bytes  S + A       a pointer in data
 *   R_X86_64_32S    4 bytes  S + A       an absolute address in an
 *                                        instruction, sign-extended by
 *                                        the CPU: must lie in the top
 *                                        2 GiB (mov $sym, %rax)
 *   R_X86_64_32     4 bytes  S + A       the same, zero-extended: must
 *                                        lie in the low 4 GiB (never, for
 *                                        kernel addresses: refused)
 *   R_X86_64_PC32   4 bytes  S + A - P   a displacement from the hole,
 *                                        e.g. sym(%rip); A is -4 so that
 *                                        it counts from the next
 *                                        instruction
 *   R_X86_64_PLT32  4 bytes  S + A - P   a call or jmp: the same as PC32
 *                                        here (no PLT in the kernel)
 *   R_X86_64_PC64   8 bytes  S + A - P
 *   R_X86_64_NONE   nothing
 *
 * A 32-bit hole is filled only if the value fits (Linux checks the
 * absolute ones; the PC-relative ones always fit there, as they do here,
 * because modules sit within 2 GiB of the kernel: include/vmalloc.h). Any
 * other type (GOTPCREL from -fPIC code, TLS...) is refused with ENOEXEC,
 * as are a hole outside its section, a symbol index outside the symbol
 * table, and a hole that is not zero (a relocation applied twice).
 */
#include "internal.h"

#define R_X86_64_NONE 0
#define R_X86_64_64 1
#define R_X86_64_PC32 2
#define R_X86_64_PLT32 4
#define R_X86_64_32 10
#define R_X86_64_32S 11
#define R_X86_64_PC64 24

/* How many bytes a relocation of this type fills; 0 for NONE, -1 for a
 * type this loader does not know. */
static int reloc_size(unsigned int type)
{
	switch (type) {
	case R_X86_64_NONE:
		return 0;
	case R_X86_64_32:
	case R_X86_64_32S:
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		return 4;
	case R_X86_64_64:
	case R_X86_64_PC64:
		return 8;
	default:
		return -1;
	}
}

/* The value to write for one relocation: S + A, or S + A - P for the
 * PC-relative types. false if it does not fit in its hole. */
static bool reloc_value(unsigned int type, uint64_t s_plus_a, uint64_t p, uint64_t *val)
{
	uint64_t v = s_plus_a;

	switch (type) {
	case R_X86_64_32:
		*val = v;
		return v == (uint32_t)v;
	case R_X86_64_32S:
		*val = v;
		return (int64_t)v == (int32_t)v;
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		v -= p;
		*val = v;
		return (int64_t)v == (int32_t)v;
	case R_X86_64_PC64:
		*val = v - p;
		return true;
	default: /* R_X86_64_64 */
		*val = v;
		return true;
	}
}

int apply_relocate_add(struct load_info *info, unsigned int relsec, struct module *me)
{
	const Elf64_Shdr *rsec = &info->sechdrs[relsec];
	const Elf64_Shdr *target = &info->sechdrs[rsec->sh_info];
	const Elf64_Shdr *symsec = &info->sechdrs[info->index.sym];
	const Elf64_Rela *rel = (const Elf64_Rela *)((char *)info->hdr + rsec->sh_offset);
	const Elf64_Sym *syms = (const Elf64_Sym *)((char *)info->hdr + symsec->sh_offset);
	uint64_t nsyms = symsec->sh_size / sizeof(Elf64_Sym);

	for (uint64_t i = 0; i < rsec->sh_size / sizeof(*rel); i++) {
		uint64_t symidx = ELF64_R_SYM(rel[i].r_info);
		unsigned int type = ELF64_R_TYPE(rel[i].r_info);
		int size = reloc_size(type);
		uint64_t val, zero = 0;
		unsigned char *loc;

		if (size < 0) {
			pr_err("%s: Unknown rela relocation: %u\n", me->name, type);
			return -ENOEXEC;
		}
		if (size == 0)
			continue;
		if (symidx >= nsyms || rel[i].r_offset > target->sh_size ||
		    target->sh_size - rel[i].r_offset < (uint64_t)size) {
			pr_err("%s: relocation %lu of section %u is out of range\n", me->name,
			       (unsigned long)i, rsec->sh_info);
			return -ENOEXEC;
		}
		loc = (unsigned char *)target->sh_addr + rel[i].r_offset;     /* P */
		if (!reloc_value(type, syms[symidx].st_value + rel[i].r_addend, /* S + A */
				 (uint64_t)loc, &val)) {
			pr_err("overflow in relocation type %u val %lx\n", type, (unsigned long)val);
			pr_err("`%s' likely not compiled with -mcmodel=kernel\n", me->name);
			return -ENOEXEC;
		}
		if (memcmp(loc, &zero, size)) {
			pr_err("x86/modules: Invalid relocation target, existing value is nonzero for type %u, loc %p, val %lx\n",
			       type, loc, (unsigned long)val);
			return -ENOEXEC;
		}
		memcpy(loc, &val, size); /* little-endian: the low bytes */
	}
	return 0;
}
