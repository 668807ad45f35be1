/*
 * internal.h - what the files of the module loader share.
 *
 *   main.c      init_module, finit_module, delete_module: checking the
 *               .ko, placing its sections, linking it, running its init;
 *               unloading; reference counts
 *   relocate.c  the x86-64 relocations (Linux: arch/x86/kernel/module.c)
 *   symbols.c   the tables of exported symbols and their search; the
 *               modules' function names for backtraces
 *   procfs.c    /proc/modules and /proc/sys/kernel/tainted
 *   exports.c   what kernel/ and mm/ export to modules (fs/exports.c: fs/)
 */
#pragma once
#include <elf.h>
#include <errno.h>
#include <kernel.h>
#include <linux/module.h>
#include <string.h>

/* Section and symbol definitions of relocatable objects (the ELF gABI and
 * its x86-64 supplement), beyond what exec needs (include/elf.h). */
#define ET_REL 1

typedef struct {
	Elf64_Word sh_name;     /* offset in the section name table */
	Elf64_Word sh_type;
	Elf64_Xword sh_flags;
	Elf64_Addr sh_addr;     /* the loader writes the final address here */
	Elf64_Off sh_offset;
	Elf64_Xword sh_size;
	Elf64_Word sh_link;
	Elf64_Word sh_info;
	Elf64_Xword sh_addralign;
	Elf64_Xword sh_entsize;
} Elf64_Shdr;

#define SHT_NULL 0
#define SHT_PROGBITS 1
#define SHT_SYMTAB 2
#define SHT_STRTAB 3
#define SHT_RELA 4
#define SHT_NOBITS 8
#define SHT_REL 9

#define SHF_WRITE 0x1
#define SHF_ALLOC 0x2
#define SHF_EXECINSTR 0x4

#define SHN_UNDEF 0
#define SHN_LORESERVE 0xff00
#define SHN_ABS 0xfff1
#define SHN_COMMON 0xfff2

typedef struct {
	Elf64_Word st_name;
	unsigned char st_info;  /* binding << 4 | type */
	unsigned char st_other;
	Elf64_Half st_shndx;    /* its section, or SHN_UNDEF/ABS/COMMON */
	Elf64_Addr st_value;    /* offset in its section; the loader makes it an address */
	Elf64_Xword st_size;
} Elf64_Sym;

#define ELF64_ST_BIND(i) ((i) >> 4)
#define ELF64_ST_TYPE(i) ((i) & 0xf)
#define STB_LOCAL 0
#define STB_GLOBAL 1
#define STB_WEAK 2
#define STT_FUNC 2
#define STT_SECTION 3

typedef struct {
	Elf64_Addr r_offset;    /* where, in the target section */
	Elf64_Xword r_info;     /* symbol index << 32 | type */
	int64_t r_addend;
} Elf64_Rela;

#define ELF64_R_SYM(i) ((i) >> 32)
#define ELF64_R_TYPE(i) ((i) & 0xffffffff)

/* Everything the loader learns about the .ko being loaded. */
struct load_info {
	const char *name;       /* the module's name (.modinfo name=) */
	Elf64_Ehdr *hdr;        /* the image: a vmalloc'd copy of the file */
	unsigned long len;
	Elf64_Shdr *sechdrs;
	char *secstrings;       /* section names */
	char *strtab;           /* symbol names */
	struct {
		unsigned int sym, str, mod, info, ksymtab, ksymtab_gpl;
	} index;                /* section numbers; 0: absent */
	struct module *mod;     /* __this_module: in the image, then in place */
	/* Where each section goes: an offset in the core or init layout. */
	unsigned long *sec_offset;
	bool *sec_init;
};

/* relocate.c: apply the SHT_RELA section relsec to its target section.
 * 0, or -ENOEXEC for a type it does not know or a value that does not
 * fit (the log says which). */
int apply_relocate_add(struct load_info *info, unsigned int relsec, struct module *me);

/* symbols.c */
struct module;
/* The address of an exported symbol for mod (GPL-only ones only if mod's
 * license allows), and the module that exports it (NULL: the kernel). */
const struct kernel_symbol *find_symbol(const char *name, bool gpl_ok, struct module **owner);
/* Keep mod's function symbols for backtraces (after relocation: st_value
 * is then an address). -ENOMEM. */
int module_keep_kallsyms(struct module *mod, const struct load_info *info);
void module_free_kallsyms(struct module *mod);

/* main.c */
extern struct module *modules;          /* every module, newest first */
extern unsigned long tainted_mask;      /* the kernel's taint bits */
/* "PO" style letters of a module's taints into buf (at least 8 bytes). */
void module_taint_letters(const struct module *mod, char *buf);
