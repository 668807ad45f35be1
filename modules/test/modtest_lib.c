/*
 * modtest_lib.c - a test module that exports symbols for other modules
 * (modtest_user needs it, so it is listed in modtest_user's depends= and
 * in modules.dep; while modtest_user is loaded it cannot be unloaded).
 */
#include <linux/module.h>

int modtest_lib_calls;

int modtest_lib_add(int a, int b)
{
	modtest_lib_calls++;
	return a + b;
}
EXPORT_SYMBOL(modtest_lib_add);
EXPORT_SYMBOL(modtest_lib_calls);

/* Only for modules with a GPL-compatible license. */
int modtest_lib_gpl_only(void)
{
	return 42;
}
EXPORT_SYMBOL_GPL(modtest_lib_gpl_only);

static int __init modtest_lib_init(void)
{
	return 0;
}

static void __exit modtest_lib_exit(void)
{
}

module_init(modtest_lib_init);
module_exit(modtest_lib_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("test: exports symbols to other modules");
