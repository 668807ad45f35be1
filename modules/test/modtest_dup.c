/*
 * modtest_dup.c - a test module that exports a name the kernel exports
 * already (strlen): loading it fails with ENOEXEC ("exports duplicate
 * symbol strlen (owned by kernel)"), as two definitions of one exported
 * name would make every later user ambiguous.
 */
#include <linux/module.h>
#include <string.h>

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}
EXPORT_SYMBOL(strlen);

MODULE_LICENSE("GPL");
