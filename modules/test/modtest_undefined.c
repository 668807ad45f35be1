/*
 * modtest_undefined.c - a test module that calls a kernel function the
 * kernel does not export (nr_free_pages, mm/page_alloc.c): the loader
 * says "Unknown symbol nr_free_pages" and the load fails with ENOENT.
 */
#include <linux/module.h>
#include <mm.h>

static int __init modtest_undefined_init(void)
{
	return nr_free_pages() ? 0 : -1;
}

module_init(modtest_undefined_init);
MODULE_LICENSE("GPL");
