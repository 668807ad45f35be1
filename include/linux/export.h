/*
 * linux/export.h - EXPORT_SYMBOL: which kernel symbols modules may use.
 *
 * A loadable module is linked into the kernel at run time, and it may only
 * use the functions and variables the kernel (or another module) exports.
 * EXPORT_SYMBOL(name), written after the definition of name, adds one
 * entry to a table the module loader searches (kernel/module/symbols.c):
 *
 *	int register_binfmt(struct linux_binfmt *fmt) { ... }
 *	EXPORT_SYMBOL(register_binfmt);
 *
 * Each entry is a struct kernel_symbol in a section of its own called
 * "___ksymtab+NAME". linker.ld gathers them, sorted by section name, that
 * is by symbol name, between __start___ksymtab and __stop___ksymtab, so
 * the loader can search the kernel's table by halves. In a module, the
 * module linker script (scripts/module.lds) gathers them into the
 * module's own __ksymtab section, which the loader reads when the module
 * is loaded: a module can export symbols to the modules loaded after it.
 *
 * EXPORT_SYMBOL_GPL exports only to modules whose MODULE_LICENSE is
 * GPL-compatible; for the others the symbol does not exist (insmod says
 * "Unknown symbol", as in Linux).
 *
 * Linux 6.1 stores 32-bit offsets (PREL32) rather than pointers to save
 * room; this table keeps plain pointers, which are easier to read.
 */
#pragma once

struct kernel_symbol {
	unsigned long value;    /* the symbol's address */
	const char *name;
};

#define __EXPORT_SYMBOL(sym, sec)                                              \
	extern typeof(sym) sym;                                                \
	static const char __kstrtab_##sym[]                                    \
		__attribute__((section("__ksymtab_strings"), used, aligned(1))) = #sym; \
	static const struct kernel_symbol __ksymtab_##sym                      \
		__attribute__((section("___ksymtab" sec "+" #sym), used)) =    \
		{ (unsigned long)&sym, __kstrtab_##sym }

#define EXPORT_SYMBOL(sym) __EXPORT_SYMBOL(sym, "")
#define EXPORT_SYMBOL_GPL(sym) __EXPORT_SYMBOL(sym, "_gpl")
