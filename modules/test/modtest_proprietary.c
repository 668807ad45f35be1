/*
 * modtest_proprietary.c - a test module whose license is not
 * GPL-compatible: loading it taints the kernel ('P'), and the symbols
 * exported with EXPORT_SYMBOL_GPL do not exist for it.
 */
#include <linux/module.h>

int modtest_lib_gpl_only(void);

static int __init modtest_proprietary_init(void)
{
	return modtest_lib_gpl_only() == 42 ? 0 : -1;
}

static void __exit modtest_proprietary_exit(void)
{
}

module_init(modtest_proprietary_init);
module_exit(modtest_proprietary_exit);
MODULE_LICENSE("Proprietary");
