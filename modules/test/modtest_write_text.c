/*
 * modtest_write_text.c - a test module that writes into its own code:
 * module text is read-only (kernel/module/main.c, W^X), so its init
 * oopses on a write fault (error code 0x3: present, write) instead of
 * changing the instruction.
 */
#include <linux/module.h>

void modtest_write_text_target(void)
{
}

static int __init modtest_write_text_init(void)
{
	*(volatile unsigned char *)modtest_write_text_target = 0xc3;
	return 0;
}

module_init(modtest_write_text_init);
MODULE_LICENSE("GPL");
