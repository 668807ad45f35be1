/*
 * modtest_gotpcrel.c - a test module with a relocation type the loader
 * does not know: R_X86_64_REX_GOTPCRELX (42), what position-independent
 * code uses to reach a symbol through a global offset table, which the
 * kernel does not have. "Unknown rela relocation: 42", ENOEXEC.
 */
#include <linux/module.h>

static int __init modtest_gotpcrel_init(void)
{
	int *p;

	__asm__("movq printk@GOTPCREL(%%rip), %0" : "=r"(p));
	return p ? 0 : -1;
}

module_init(modtest_gotpcrel_init);
MODULE_LICENSE("GPL");
