/*
 * binfmt_example.c - an executable format of our own, as a loadable
 * module: the example to start from when you write a module.
 *
 * THE FORMAT. A "RUN file" is a text file whose first line is
 *
 *	#<DEL>RUN INTERPRETER
 *
 * that is the five bytes '#', 0x7f, 'R', 'U', 'N', then blanks, then the
 * path of a program, then a newline. Running it runs the interpreter on
 * it, as "#!" does: for a file ./hello.run started as
 * execve("./hello.run", {A0, A1, ...}), the interpreter gets
 *
 *	argv = { INTERPRETER, "./hello.run", A1, ... }
 *
 * The '#' makes the first line a comment for sh, awk, perl or python, so
 * they can be the interpreter:
 *
 *	printf '#\177RUN /bin/sh\necho hello from $0\n' > hello.run
 *	chmod +x hello.run
 *	insmod /lib/modules/$(uname -r)/kernel/modules/binfmt_example.ko
 *	/do_execve ./hello.run          -> hello from ./hello.run
 *	lsmod                           -> binfmt_example  12288  0
 *	rmmod binfmt_example
 *	/do_execve ./hello.run          -> Failed to execute './hello.run',
 *	                                   Exec format error
 *
 * (Typed at busybox's prompt, ./hello.run works even without the module:
 * when execve says ENOEXEC, the shell reads the file as a script itself,
 * and to sh the first line is a comment. /do_execve shows what the
 * kernel says.)
 *
 * WHY THE 0x7f. When no handler accepts a file and its first four bytes
 * are not all printable, exec asks for a module named after bytes 2 and 3
 * (fs/exec.c, search_binary_handler): request_module("binfmt-%04x"), here
 * 'R' 0x52 and 'U' 0x55 read as a little-endian short, "binfmt-5552".
 * This module answers to that name (MODULE_ALIAS below, copied into
 * modules.alias by depmod), so the first RUN file run loads it by itself.
 * A "#!" file never triggers that: "#!/b" is printable.
 *
 * THE MODULE. module_init's function registers the format (the kernel
 * then asks load_run about every file it executes); module_exit's
 * unregisters it. .module = THIS_MODULE lets exec hold a reference on the
 * module while load_run runs, so the module cannot be unloaded under it.
 * Everything called here must be exported by the kernel
 * (kernel/module/exports.c), or the module does not load.
 */
#include <errno.h>
#include <linux/binfmts.h>
#include <linux/module.h>
#include <string.h>

#define RUN_MAGIC "#\177RUN"
#define RUN_MAGIC_LEN 5

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static int load_run(struct linux_binprm *bprm)
{
	char *p = bprm->buf + RUN_MAGIC_LEN, *end = bprm->buf + BINPRM_BUF_SIZE;
	char *interp;
	struct file *file;
	int ret;

	/* Is it ours? bprm->buf holds the file's first 256 bytes. */
	if (memcmp(bprm->buf, RUN_MAGIC, RUN_MAGIC_LEN) != 0)
		return -ENOEXEC;

	/* The interpreter: after the blanks, up to a blank or the newline,
	 * which must come within the 256 bytes. */
	while (p < end && blank(*p))
		p++;
	interp = p;
	while (p < end && !blank(*p) && *p != '\n' && *p != '\0')
		p++;
	if (p == interp || p == end || *p == '\0')
		return -ENOEXEC;
	*p = '\0';

	/* Run through a close-on-exec descriptor (execveat): the name we
	 * would pass to the interpreter will be gone. As binfmt_script. */
	if (bprm->interp_flags & BINPRM_FLAGS_PATH_INACCESSIBLE)
		return -ENOENT;

	/* The new argv, on the new stack, from the top: drop argv[0], put
	 * the file's name, then the interpreter in front of it. */
	ret = remove_arg_zero(bprm);
	if (ret)
		return ret;
	ret = copy_string_kernel(bprm->interp, bprm);
	if (ret < 0)
		return ret;
	bprm->argc++;
	ret = copy_string_kernel(interp, bprm);
	if (ret < 0)
		return ret;
	bprm->argc++;
	exec_trace_rewrite(bprm, "example");

	/* The interpreter is the file exec loads next. */
	ret = bprm_change_interp(interp, bprm);
	if (ret < 0)
		return ret;
	file = open_exec(interp);
	if (IS_ERR(file))
		return PTR_ERR(file);
	bprm->interpreter = file;
	return 0;
}

static struct linux_binfmt run_format = {
	.module = THIS_MODULE,
	.name = "example",
	.load_binary = load_run,
};

static int __init run_init(void)
{
	register_binfmt(&run_format);
	return 0;
}

static void __exit run_exit(void)
{
	unregister_binfmt(&run_format);
}

module_init(run_init);
module_exit(run_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Example executable format: files that start with #<DEL>RUN");
MODULE_ALIAS("binfmt-5552");
