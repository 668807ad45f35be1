/*
 * linux/module.h - loadable kernel modules: what a module's source uses,
 * and what the rest of the kernel knows of modules.
 *
 * A module is an ELF relocatable object (NAME.ko) that the kernel links
 * into itself at run time (kernel/module/, docs/modules.md). Its source
 * looks like this:
 *
 *	#include <linux/module.h>
 *
 *	static int __init hello_init(void)
 *	{
 *		pr_info("hello\n");
 *		return 0;               // or -errno: the load fails
 *	}
 *	static void __exit hello_exit(void) { }
 *
 *	module_init(hello_init);        // run when loaded
 *	module_exit(hello_exit);        // run when unloaded
 *	MODULE_LICENSE("GPL");
 *	MODULE_ALIAS("binfmt-5552");    // modprobe also finds it by this name
 *
 * The same file can also be built into the kernel (Linux's tristate
 * options; here fs/binfmt_script.c, see the Makefile's MODULES=y): then
 * MODULE is not defined, the macros below turn into nothing, and the
 * kernel calls the init function itself at boot.
 *
 * The build (scripts/modpost.sh) adds to each module a struct module,
 * __this_module, in section .gnu.linkonce.this_module, holding its name
 * and its init and exit functions, and a few .modinfo strings: name=,
 * vermagic=, depends=. The loader uses that struct module in place, in
 * the module's memory, and fills in the rest.
 */
#pragma once
#include <kernel.h>
#include <linux/export.h>
#include <linux/init.h>

#define MODULE_NAME_LEN (64 - sizeof(unsigned long)) /* 56, with the NUL */

/*
 * The kernel's version magic: a module is loaded only if its vermagic=
 * string is exactly this (Linux: UTS_RELEASE, then SMP, preempt,
 * mod_unload, modversions...). UTS_RELEASE comes from the Makefile.
 */
#define VERMAGIC_STRING UTS_RELEASE " mod_unload "

enum module_state {
	MODULE_STATE_LIVE,      /* initialized: in normal use */
	MODULE_STATE_COMING,    /* linked, its init function is running */
	MODULE_STATE_GOING,     /* being removed: try_module_get fails */
	MODULE_STATE_UNFORMED,  /* still being loaded: invisible */
};

/* One part of a module's memory: its code, then its read-only data, then
 * its writable data, each part starting on a page of its own. */
struct module_layout {
	void *base;
	unsigned int size;      /* bytes, a whole number of pages */
	unsigned int text_size; /* [base, base + text_size): read-only, executable */
	unsigned int ro_size;   /* [.., base + ro_size): read-only; the rest read-write */
};

/* "source uses target": source needs symbols of target (Linux's
 * module_use). On both modules' lists; target's reference count holds
 * one reference for it. */
struct module_use {
	struct module *source, *target;
	struct module_use *next_source; /* in target->source_list */
	struct module_use *next_target; /* in source->target_list */
};

struct module {
	/* ---- set by the build, in the .ko (scripts/modpost.sh) ---- */
	char name[MODULE_NAME_LEN];
	int (*init)(void);
	void (*exit)(void);

	/* ---- set by the loader ---- */
	enum module_state state;
	struct module *next;            /* the list of modules, newest first */
	int refcnt;                     /* try_module_get's references */
	struct module_use *source_list; /* modules that use this one */
	struct module_use *target_list; /* modules this one uses */
	struct module_layout core_layout; /* kept while loaded */
	struct module_layout init_layout; /* __init code and data: freed after init */
	/* What it exports (its __ksymtab and __ksymtab_gpl). */
	const struct kernel_symbol *syms, *gpl_syms;
	unsigned int num_syms, num_gpl_syms;
	unsigned long taints;           /* TAINT_* bits, as 1UL << n */
	char *args;                     /* the options it was loaded with */
	/* Its function symbols, for backtraces: a copy of the .ko's symbol
	 * table (only the functions) and string table. */
	struct mod_kallsyms {
		unsigned long *addr;
		unsigned int *name;     /* offsets into strtab */
		unsigned int num;
		char *strtab;
	} kallsyms;
};

/* The kernel's taint flags (Linux's TAINT_*), bit numbers: what
 * /proc/sys/kernel/tainted shows, and the letters of /proc/modules. */
#define TAINT_PROPRIETARY_MODULE 0      /* 'P': a license that is not GPL */
#define TAINT_FORCED_MODULE 1           /* 'F' */
#define TAINT_OOT_MODULE 12             /* 'O': built out of tree */

#ifdef MODULE
extern struct module __this_module;
#define THIS_MODULE (&__this_module)
#else
#define THIS_MODULE ((struct module *)0)
#endif

/*
 * References. A module cannot be unloaded while its reference count is
 * not zero (delete_module says EAGAIN, Linux's EWOULDBLOCK). Code that is
 * about to call into a module through a pointer (a binary format's
 * load_binary, a filesystem's mount) takes a reference first:
 * try_module_get fails once the module is being removed. NULL, the
 * kernel itself, always succeeds.
 */
bool try_module_get(struct module *mod);
void __module_get(struct module *mod); /* when a reference is already held */
void module_put(struct module *mod);
int module_refcount(struct module *mod);

/* The module whose memory holds addr, and the name of the function it
 * is in (for backtraces); NULL if none. */
const char *module_address_lookup(unsigned long addr, unsigned long *offset,
				  const char **modname);
/* Registers /proc/modules and /proc/sys/kernel/tainted (at boot). */
void proc_modules_init(void);

/* ---- what a module's source writes ---- */

#ifdef MODULE
/* __init code and data are freed once the init function has returned. */
#define __init __attribute__((section(".init.text"), cold))
#define __initdata __attribute__((section(".init.data")))
#define __exit __attribute__((section(".exit.text"), cold))
/* The loader calls init_module and cleanup_module, the names the build's
 * struct module refers to; these make them other names of fn. */
#define module_init(fn)                                                        \
	static inline int (*__inittest(void))(void) { return fn; }             \
	int init_module(void) __attribute__((copy(fn), alias(#fn)))
#define module_exit(fn)                                                        \
	static inline void (*__exittest(void))(void) { return fn; }            \
	void cleanup_module(void) __attribute__((copy(fn), alias(#fn)))
/* A string "tag=value" in the module's .modinfo section. */
#define MODULE_INFO(tag, info)                                                 \
	static const char __UNIQUE_ID(tag)[]                                   \
		__attribute__((section(".modinfo"), used, aligned(1))) = #tag "=" info
/* A module has no levels: each initcall is its init function. */
#define core_initcall(fn) module_init(fn)
#define postcore_initcall(fn) module_init(fn)
#define arch_initcall(fn) module_init(fn)
#define subsys_initcall(fn) module_init(fn)
#define fs_initcall(fn) module_init(fn)
#define device_initcall(fn) module_init(fn)
#define late_initcall(fn) module_init(fn)
#else
/* Built into the kernel: the init function is an initcall of level
 * device (include/linux/init.h), never unloaded, so the exit function is
 * not kept, and neither is .modinfo. */
#define __init
#define __initdata
#define __exit
#define module_init(fn) device_initcall(fn)
#define module_exit(fn)                                                        \
	static void (*const __module_exit_unused)(void) __attribute__((unused)) = fn
#define MODULE_INFO(tag, info)                                                 \
	static const char __UNIQUE_ID(tag)[] __attribute__((unused)) = #tag "=" info
#endif

#define __PASTE2(a, b) a##b
#define __PASTE(a, b) __PASTE2(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__modinfo_, prefix), __COUNTER__)

#define MODULE_LICENSE(_license) MODULE_INFO(license, _license)
#define MODULE_ALIAS(_alias) MODULE_INFO(alias, _alias)
#define MODULE_AUTHOR(_author) MODULE_INFO(author, _author)
#define MODULE_DESCRIPTION(_text) MODULE_INFO(description, _text)
/* The name mount -t NAME asks modprobe for: request_module("fs-NAME"). */
#define MODULE_ALIAS_FS(name) MODULE_ALIAS("fs-" name)
