/*
 * unreached.c - kernel functions that the parsers' files call on paths the
 * fuzzers do not take (binfmt_misc's filesystem and exec path, ...). They
 * are weak: a harness that needs one defines its own. Reaching one aborts,
 * which libFuzzer reports as a crash. Compiled without the kernel's
 * headers: only the names matter to the linker.
 */
void abort(void) __attribute__((noreturn));

#define UNREACHED(name) __attribute__((weak)) void name(void) { abort(); }

UNREACHED(register_filesystem)
UNREACHED(insert_binfmt)
UNREACHED(register_binfmt)
UNREACHED(d_make_root)
UNREACHED(d_alloc)
UNREACHED(d_add)
UNREACHED(get_anon_dev)
UNREACHED(new_inode)
UNREACHED(iput)
UNREACHED(igrab)
UNREACHED(dput)
UNREACHED(inode_touch_mtime)
UNREACHED(copy_to_iter)
UNREACHED(copy_from_iter)
UNREACHED(open_exec)
UNREACHED(alloc_page)
UNREACHED(free_page)
UNREACHED(remove_arg_zero)
UNREACHED(copy_string_kernel)
UNREACHED(exec_trace_rewrite)
UNREACHED(bprm_change_interp)
UNREACHED(generic_file_llseek)
UNREACHED(noop_llseek)
UNREACHED(allow_write_access)
UNREACHED(deny_write_access)
UNREACHED(fput)
UNREACHED(vfs_open)
UNREACHED(security_set_lsm_list)
