/*
 * exports.c - what a module may use of the kernel: every EXPORT_SYMBOL
 * (include/linux/export.h) of kernel/, lib/ and mm/, gathered in one list
 * (fs/exports.c has those of fs/).
 *
 * Linux writes EXPORT_SYMBOL right after each function it exports, all
 * over the tree; here they are kept together, so that the whole interface
 * the kernel offers its modules can be read at once. Anything not listed
 * does not exist for a module: loading one that uses it fails with
 * "Unknown symbol" (ENOENT). Export a function only if a module can use
 * it safely: nothing here may keep a pointer into a module after the
 * module is gone (that is what the unregister_* functions are for).
 */
#include <kernel.h>
#include <linux/module.h>
#include <mm.h>
#include <string.h>

/* printk and friends (kernel/printk.c, kernel/string.c) */
EXPORT_SYMBOL(printk);
EXPORT_SYMBOL(vprintk);
EXPORT_SYMBOL(snprintf);
EXPORT_SYMBOL(vsnprintf);
EXPORT_SYMBOL(panic);

/* The C string functions (kernel/string.c); the compiler itself may call
 * memcpy, memset and memmove for struct copies. */
EXPORT_SYMBOL(memcpy);
EXPORT_SYMBOL(memmove);
EXPORT_SYMBOL(memset);
EXPORT_SYMBOL(memcmp);
EXPORT_SYMBOL(strlen);
EXPORT_SYMBOL(strnlen);
EXPORT_SYMBOL(strcmp);
EXPORT_SYMBOL(strncmp);
EXPORT_SYMBOL(strchr);
EXPORT_SYMBOL(strrchr);
EXPORT_SYMBOL(strlcpy);
EXPORT_SYMBOL(strdup_k);

/* Text to integers, strictly (lib/kstrtox.c) */
EXPORT_SYMBOL(kstrtoull);
EXPORT_SYMBOL(kstrtoll);
EXPORT_SYMBOL(kstrtoint);
EXPORT_SYMBOL(kstrtouint);

/* The stack protector's canary and its alarm (kernel/stackprotector.c):
 * modules are compiled with -fstack-protector-strong too. */
extern uint64_t __stack_chk_guard;
void __stack_chk_fail(void);
EXPORT_SYMBOL(__stack_chk_guard);
EXPORT_SYMBOL(__stack_chk_fail);

/* Memory (mm/kmalloc.c, mm/page_alloc.c) */
EXPORT_SYMBOL(kmalloc);
EXPORT_SYMBOL(kzalloc);
EXPORT_SYMBOL(kfree);
EXPORT_SYMBOL(alloc_page);
EXPORT_SYMBOL(free_page);

/* Modules themselves (kernel/module/main.c) */
EXPORT_SYMBOL(try_module_get);
EXPORT_SYMBOL(__module_get);
EXPORT_SYMBOL(module_put);
EXPORT_SYMBOL(module_refcount);
