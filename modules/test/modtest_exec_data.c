/*
 * modtest_exec_data.c - a test module that jumps into its own data: module
 * data is not executable (kernel/module/main.c, W^X), so its init oopses
 * on an instruction fetch (error code 0x11: present, instruction fetch)
 * instead of running the byte there (a ret).
 */
#include <linux/module.h>

unsigned char modtest_exec_data_code[] = { 0xc3 }; /* ret */

static int __init modtest_exec_data_init(void)
{
	((void (*)(void))(void *)modtest_exec_data_code)();
	return 0;
}

module_init(modtest_exec_data_init);
MODULE_LICENSE("GPL");
