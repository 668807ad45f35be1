/*
 * modtest_init_fail.c - a test module whose init fails with -ENODEV, as
 * a driver does when its device is absent: the load fails with that
 * errno, and the module is gone again.
 */
#include <errno.h>
#include <linux/module.h>

static int __init modtest_init_fail_init(void)
{
	return -ENODEV;
}

static void __exit modtest_init_fail_exit(void)
{
}

module_init(modtest_init_fail_init);
module_exit(modtest_init_fail_exit);
MODULE_LICENSE("GPL");
