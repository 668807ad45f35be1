/*
 * exports.c - what a module may use of fs/: its EXPORT_SYMBOLs
 * (include/linux/export.h), gathered in one list as kernel/module/exports.c
 * does for the rest of the kernel.
 *
 * Two kinds of modules use these: executable formats (binfmt_script,
 * binfmt_misc, modules/binfmt_example.c), which register with exec and
 * rewrite an exec in progress, and filesystems (binfmt_misc), which
 * register a type and make inodes, dentries and super blocks. A module
 * must give back everything it registered before it goes: unregister_*
 * are exported with their register_*.
 */
#include "vfs.h"
#include <linux/binfmts.h>
#include <linux/module.h>

/* Executable formats (fs/exec.c, fs/exec_trace.c) */
EXPORT_SYMBOL(register_binfmt);
EXPORT_SYMBOL(insert_binfmt);
EXPORT_SYMBOL(unregister_binfmt);
EXPORT_SYMBOL(open_exec);
EXPORT_SYMBOL(copy_string_kernel);
EXPORT_SYMBOL(remove_arg_zero);
EXPORT_SYMBOL(bprm_change_interp);
EXPORT_SYMBOL(exec_trace_rewrite);

/* Filesystem types and super blocks (fs/super.c) */
EXPORT_SYMBOL(register_filesystem);
EXPORT_SYMBOL(unregister_filesystem);
EXPORT_SYMBOL(get_anon_dev);

/* Inodes and dentries (fs/inode.c, fs/dcache.c) */
EXPORT_SYMBOL(new_inode);
EXPORT_SYMBOL(igrab);
EXPORT_SYMBOL(inode_touch_mtime);
EXPORT_SYMBOL(iput);
EXPORT_SYMBOL(d_alloc);
EXPORT_SYMBOL(d_make_root);
EXPORT_SYMBOL(dput);
EXPORT_SYMBOL(deny_write_access);
EXPORT_SYMBOL(allow_write_access);

/* Open files (fs/open.c, fs/file_table.c, fs/read_write.c) */
EXPORT_SYMBOL(vfs_open);
EXPORT_SYMBOL(fput);
EXPORT_SYMBOL(kernel_read);
EXPORT_SYMBOL(generic_file_llseek);
EXPORT_SYMBOL(noop_llseek);
EXPORT_SYMBOL(copy_to_iter);
EXPORT_SYMBOL(copy_from_iter);
