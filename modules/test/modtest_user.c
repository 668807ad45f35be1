/*
 * modtest_user.c - a test module that uses symbols of modtest_lib: it
 * cannot load before modtest_lib ("Unknown symbol", ENOENT), and holds a
 * reference on it while loaded.
 */
#include <errno.h>
#include <linux/module.h>

int modtest_lib_add(int a, int b);
int modtest_lib_gpl_only(void);
extern int modtest_lib_calls;

/* A pointer to another module's function, filled in by a relocation. */
static int (*add)(int, int) = modtest_lib_add;

static int __init modtest_user_init(void)
{
	if (add(2, 3) != 5 || modtest_lib_gpl_only() != 42 || modtest_lib_calls != 1)
		return -EINVAL;
	return 0;
}

static void __exit modtest_user_exit(void)
{
}

module_init(modtest_user_init);
module_exit(modtest_user_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("test: uses symbols of modtest_lib");
