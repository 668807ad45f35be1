/*
 * symbols.c - the symbols modules may use, and the names of the
 * functions inside modules.
 *
 * Exported symbols: the kernel's table is made at link time from every
 * EXPORT_SYMBOL (include/linux/export.h): linker.ld sorts its entries by
 * name, so it is searched by halves. Each loaded module adds its own
 * table (its __ksymtab section), searched entry by entry. A symbol found
 * in a module makes the new module a user of that module (main.c's
 * ref_module), which then cannot be unloaded first.
 *
 * Function names: for backtraces through module code, the loader keeps a
 * copy of each module's function symbols (module_keep_kallsyms), and
 * kernel/ksyms.c asks module_address_lookup for addresses in the module
 * area; an oops then names "function [module]".
 */
#include <mm.h>
#include <vmalloc.h>

#include "internal.h"

extern const struct kernel_symbol __start___ksymtab[], __stop___ksymtab[];
extern const struct kernel_symbol __start___ksymtab_gpl[], __stop___ksymtab_gpl[];

/* name in a table sorted by name, or NULL. */
static const struct kernel_symbol *bsearch_symbol(const char *name, const struct kernel_symbol *first,
						  const struct kernel_symbol *end)
{
	while (first < end) {
		const struct kernel_symbol *mid = first + (end - first) / 2;
		int cmp = strcmp(name, mid->name);

		if (cmp == 0)
			return mid;
		if (cmp < 0)
			end = mid;
		else
			first = mid + 1;
	}
	return NULL;
}

/* name in an unsorted table (a module's), or NULL. */
static const struct kernel_symbol *scan_symbol(const char *name, const struct kernel_symbol *syms,
					       unsigned int num)
{
	for (unsigned int i = 0; i < num; i++)
		if (strcmp(name, syms[i].name) == 0)
			return &syms[i];
	return NULL;
}

const struct kernel_symbol *find_symbol(const char *name, bool gpl_ok, struct module **owner)
{
	const struct kernel_symbol *ks;

	*owner = NULL;
	ks = bsearch_symbol(name, __start___ksymtab, __stop___ksymtab);
	if (!ks && gpl_ok)
		ks = bsearch_symbol(name, __start___ksymtab_gpl, __stop___ksymtab_gpl);
	if (ks)
		return ks;
	for (struct module *mod = modules; mod; mod = mod->next) {
		if (mod->state == MODULE_STATE_UNFORMED)
			continue;
		ks = scan_symbol(name, mod->syms, mod->num_syms);
		if (!ks && gpl_ok)
			ks = scan_symbol(name, mod->gpl_syms, mod->num_gpl_syms);
		if (ks) {
			*owner = mod;
			return ks;
		}
	}
	return NULL;
}

/* ---- function names, for backtraces ------------------------------------ */

int module_keep_kallsyms(struct module *mod, const struct load_info *info)
{
	const Elf64_Shdr *symsec = &info->sechdrs[info->index.sym];
	const Elf64_Sym *sym = (const Elf64_Sym *)((char *)info->hdr + symsec->sh_offset);
	unsigned int num = symsec->sh_size / sizeof(Elf64_Sym), n = 0;
	size_t strsize = 0;
	struct mod_kallsyms *ks = &mod->kallsyms;

	/* Every function in memory, init code too: its entries are never
	 * looked at once the init memory is freed (see below). */
	for (unsigned int pass = 0; pass < 2; pass++) {
		for (unsigned int i = 1; i < num; i++) {
			const char *name = info->strtab + sym[i].st_name;
			unsigned int shndx = sym[i].st_shndx;

			if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC || shndx == SHN_UNDEF ||
			    shndx >= info->hdr->e_shnum || info->sec_offset[shndx] == ~0UL)
				continue;
			if (pass == 0) {
				n++;
				strsize += strlen(name) + 1;
				continue;
			}
			ks->addr[ks->num] = sym[i].st_value;
			ks->name[ks->num] = strsize;
			memcpy(ks->strtab + strsize, name, strlen(name) + 1);
			strsize += strlen(name) + 1;
			ks->num++;
		}
		if (pass == 0) {
			if (n == 0)
				return 0;
			ks->addr = kmalloc(n * sizeof(*ks->addr));
			ks->name = kmalloc(n * sizeof(*ks->name));
			ks->strtab = kmalloc(strsize);
			if (!ks->addr || !ks->name || !ks->strtab) {
				module_free_kallsyms(mod);
				return -ENOMEM;
			}
			strsize = 0;
		}
	}
	return 0;
}

void module_free_kallsyms(struct module *mod)
{
	kfree(mod->kallsyms.addr);
	kfree(mod->kallsyms.name);
	kfree(mod->kallsyms.strtab);
	memset(&mod->kallsyms, 0, sizeof(mod->kallsyms));
}

/* Whether addr is in the code of layout l (the init layout has no base
 * once freed). */
static bool within_text(unsigned long addr, const struct module_layout *l)
{
	unsigned long base = (unsigned long)l->base;

	return base && addr >= base && addr < base + l->text_size;
}

const char *module_address_lookup(unsigned long addr, unsigned long *offset, const char **modname)
{
	for (struct module *mod = modules; mod; mod = mod->next) {
		const struct mod_kallsyms *ks = &mod->kallsyms;
		long best = -1;

		if (!within_text(addr, &mod->core_layout) && !within_text(addr, &mod->init_layout))
			continue;
		for (unsigned int i = 0; i < ks->num; i++)
			if (ks->addr[i] <= addr && (best < 0 || ks->addr[i] > ks->addr[best]))
				best = i;
		*modname = mod->name;
		if (best < 0)
			return NULL;
		*offset = addr - ks->addr[best];
		return ks->strtab + ks->name[best];
	}
	return NULL;
}
