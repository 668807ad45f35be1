/*
 * exports.c - what a module may use of the kernel: every EXPORT_SYMBOL
 * (include/linux/export.h) of the kernel proper, gathered in one list.
 *
 * Linux writes EXPORT_SYMBOL right after each function it exports, all
 * over the tree; here they are kept together, so that the whole interface
 * the kernel offers its modules can be read at once. Anything not listed
 * does not exist for a module: loading one that uses it fails with
 * "Unknown symbol" (ENOENT). Export a function only if a module can use
 * it safely: nothing here may keep a pointer into a module after the
 * module is gone (that is what the unregister_* functions are for).
 */
#include <fs.h>
#include <kernel.h>
#include <linux/binfmts.h>
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

/* Memory (mm/kmalloc.c) */
EXPORT_SYMBOL(kmalloc);
EXPORT_SYMBOL(kzalloc);
EXPORT_SYMBOL(kfree);

/* Modules themselves (kernel/module/main.c) */
EXPORT_SYMBOL(try_module_get);
EXPORT_SYMBOL(__module_get);
EXPORT_SYMBOL(module_put);
EXPORT_SYMBOL(module_refcount);

/* Executable formats (fs/exec.c, fs/exec_trace.c): what a binfmt handler
 * needs to register itself and to rewrite an exec. */
EXPORT_SYMBOL(register_binfmt);
EXPORT_SYMBOL(insert_binfmt);
EXPORT_SYMBOL(unregister_binfmt);
EXPORT_SYMBOL(open_exec);
EXPORT_SYMBOL(copy_string_kernel);
EXPORT_SYMBOL(remove_arg_zero);
EXPORT_SYMBOL(bprm_change_interp);
EXPORT_SYMBOL(exec_trace_rewrite);

/* Files (fs/) */
EXPORT_SYMBOL(kernel_read);
EXPORT_SYMBOL(fput);
