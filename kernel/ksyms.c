/*
 * ksyms.c - function names for backtraces. The table is generated from the
 * first link of the kernel (scripts/gen-ksyms.sh) and linked into the second;
 * in the first link it is absent, hence the weak references. Addresses in
 * the module area are a module's: the module loader keeps their names
 * (kernel/module/symbols.c).
 */
#include <kernel.h>
#include <ksyms.h>
#include <linux/module.h>
#include <vmalloc.h>

struct ksym {
	uint64_t addr;
	uint64_t name_offset;
};

extern const uint64_t ksyms_count __attribute__((weak));
extern const struct ksym ksyms_table[] __attribute__((weak));
extern const char ksyms_names[] __attribute__((weak));

/* An address in a module's code: "function [module]" (one buffer: this
 * is only for the oops report). */
static const char *module_ksym_lookup(uint64_t addr, uint64_t *offset)
{
	static char buf[128];
	const char *modname, *name;
	unsigned long off;

	name = module_address_lookup(addr, &off, &modname);
	if (!name)
		return NULL;
	snprintf(buf, sizeof(buf), "%s [%s]", name, modname);
	*offset = off;
	return buf;
}

extern char _text[], _etext[];

const char *ksym_lookup(uint64_t addr, uint64_t *offset)
{
	if (addr >= MODULES_VADDR)
		return module_ksym_lookup(addr, offset);
	if (addr < (uint64_t)_text || addr >= (uint64_t)_etext)
		return NULL; /* not code: the table has only functions */
	if (!&ksyms_count || ksyms_count == 0 || addr < ksyms_table[0].addr)
		return NULL;
	uint64_t lo = 0, hi = ksyms_count - 1;
	while (lo < hi) { /* last symbol with address <= addr */
		uint64_t mid = (lo + hi + 1) / 2;
		if (ksyms_table[mid].addr <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	*offset = addr - ksyms_table[lo].addr;
	return ksyms_names + ksyms_table[lo].name_offset;
}
