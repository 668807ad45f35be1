/*
 * modtest_permanent.c - a test module with an init function but no exit
 * function: it can never be unloaded (delete_module says EBUSY), and
 * /proc/modules shows it "[permanent],".
 */
#include <linux/module.h>

static int __init modtest_permanent_init(void)
{
	return 0;
}

module_init(modtest_permanent_init);
MODULE_LICENSE("GPL");
