/*
 * linux/init.h - initcalls: how a part built into the kernel gets started
 * at boot without kernel/main.c naming it. A file says
 *
 *     core_initcall(init_elf_binfmt);
 *
 * and the linker gathers the pointer into .initcallN.init (linker.ld);
 * kernel_main's do_initcalls calls them all, level by level in the order
 * below, and within a level in link order (the Makefile's order of the
 * objects, which follows Linux's Makefiles where it matters: the formats
 * register "#!" scripts before ELF).
 *
 * The levels are Linux's. Built as a module (MODULE defined), each of
 * these means module_init (include/linux/module.h): the function runs
 * when the module is loaded.
 */
#pragma once

typedef int (*initcall_t)(void);

#ifndef MODULE
#define __define_initcall(fn, level)                                           \
	static initcall_t __initcall_##fn##level                               \
		__attribute__((used, section(".initcall" #level ".init"))) = fn

#define core_initcall(fn) __define_initcall(fn, 1)     /* the formats' registry */
#define postcore_initcall(fn) __define_initcall(fn, 2)
#define arch_initcall(fn) __define_initcall(fn, 3)
#define subsys_initcall(fn) __define_initcall(fn, 4)
#define fs_initcall(fn) __define_initcall(fn, 5)       /* file systems */
#define device_initcall(fn) __define_initcall(fn, 6)   /* a built-in module_init */
#define late_initcall(fn) __define_initcall(fn, 7)
#endif

/* Call every initcall once, in order (kernel/main.c). An error is not
 * fatal: that part of the kernel is simply missing, as in Linux. */
void do_initcalls(void);
