/*
 * binfmt_script.c - the "#!" handler: runs a script by running its
 * interpreter instead.
 *
 * One entry in the registry of fs/exec.c, answering as every handler does
 * (include/linux/binfmts.h, struct linux_binfmt). load_script looks at
 * bprm->buf, the first BINPRM_BUF_SIZE (256) bytes of the file: not a
 * "#!" file, or a "#!" line it refuses (see below), is -ENOEXEC; an
 * interpreter that cannot be opened (ENOENT, EACCES, ELOOP, ETXTBSY...) or
 * strings that do not fit (E2BIG) fail the exec; otherwise it rewrites the
 * exec: new argv strings on the new stack, bprm->interp naming the
 * interpreter and bprm->interpreter its open file, and exec_binprm runs the
 * search again on it (a script too, up to five rewrites). It never
 * reaches the point of no return: the handler that loads the final
 * program does.
 *
 * THE ARGV THE INTERPRETER RECEIVES. For a file ./script that starts with
 *
 *	#!INTERP ARG
 *
 * and is run as execve("./script", {A0, A1, A2}, envp):
 *
 *	argv[0] = INTERP       the name exactly as written after "#!"
 *	argv[1] = ARG          only if the line has one: everything after the
 *	                       blanks that follow INTERP, as ONE string
 *	argv[2] = "./script"   the name the script is being run as: execve's
 *	                       first argument for the first script, the
 *	                       previous interpreter's name for a script that
 *	                       is itself an interpreter (bprm->interp)
 *	argv[3] = A1, argv[4] = A2, ...
 *
 * A0 is gone (the interpreter never sees it); envp is unchanged; AT_EXECFN
 * and the process name still come from "./script" (bprm->filename never
 * changes). An empty argv behaves as {""}: its "" is what is dropped.
 *
 * THE "#!" LINE, as Linux 6.1 reads it (the rules are repeated next to the
 * code that applies them):
 *   - only space and tab are blanks; a CR, a form feed... are part of the
 *     name or the argument ("#!/bin/sh\r" names "/bin/sh\r");
 *   - the line ends at the first newline, or at the first NUL;
 *   - blanks after "#!" are skipped; the interpreter runs to the next blank
 *     (or the end of the line); the rest, without its blanks at both ends,
 *     is the one argument ("#!/i  a  b \n" gives "a  b");
 *   - a line that does not end within the 256 bytes is accepted only when
 *     a blank or a NUL follows the interpreter's name inside them, so that
 *     the name is known to be whole; the argument may then be cut short.
 *     Otherwise ENOEXEC ("the interpreter's name might have been cut").
 *   - "#!" followed by nothing but blanks up to a newline: ENOEXEC.
 *
 * How the article's 3.18 differed: docs/exec.md, section 11.
 */
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <linux/module.h>
#include <string.h>

static int load_script(struct linux_binprm *bprm);

static struct linux_binfmt script_format = {
	.module = THIS_MODULE,
	.name = "script",
	.load_binary = load_script,
};

/*
 * Built in (the default), it runs at boot as a core initcall, as in Linux
 * (before binfmt_elf's: the Makefile links it first). Built as a module
 * (make MODULES=y), it runs when binfmt_script.ko is loaded. Linux asks
 * for no module by name when a "#!" file finds no handler: its first four
 * bytes are printable (search_binary_handler), so, as Linux's Kconfig
 * warns, a system whose scripts must run loads this module early.
 */
static int __init init_script_binfmt(void)
{
	register_binfmt(&script_format);
	return 0;
}

static void __exit exit_script_binfmt(void)
{
	unregister_binfmt(&script_format);
}

core_initcall(init_script_binfmt);
module_exit(exit_script_binfmt);
MODULE_LICENSE("GPL");

/* LAB 02: BEGIN load_script and its helpers */
/* Only these two are blanks in a "#!" line. */
static bool spacetab(char c)
{
	return c == ' ' || c == '\t';
}

/* The first byte in [first, last] that is not a blank, or NULL. */
static char *next_non_spacetab(char *first, const char *last)
{
	for (; first <= last; first++)
		if (!spacetab(*first))
			return first;
	return NULL;
}

/* The first blank or NUL in [first, last]: where a name ends. Or NULL. */
static char *next_terminator(char *first, const char *last)
{
	for (; first <= last; first++)
		if (spacetab(*first) || *first == '\0')
			return first;
	return NULL;
}

/* The first newline in buf[0..n), stopping at a NUL (Linux's strnchr). */
static char *find_newline(char *buf, size_t n)
{
	for (size_t i = 0; i < n && buf[i] != '\0'; i++)
		if (buf[i] == '\n')
			return buf + i;
	return NULL;
}

static int load_script(struct linux_binprm *bprm)
{
	char *buf_end = bprm->buf + BINPRM_BUF_SIZE - 1; /* its last byte */
	char *i_end, *i_name, *i_sep, *i_arg;
	struct file *file;
	int retval;

	/* ---- Is it ours? ---- */
	if (bprm->buf[0] != '#' || bprm->buf[1] != '!')
		return -ENOEXEC;

	/*
	 * ---- Where the line ends. ----
	 * At the first newline, if one comes before the first NUL. If none
	 * does, the line may go on past the 256 bytes we have. It is still
	 * run if a blank or a NUL follows the name in the buffer: the name is
	 * then whole, and at worst the argument is cut at the buffer's end.
	 * A short file without a newline passes too: its buffer is padded
	 * with NULs. What fails is a name that reaches the last byte, and a
	 * buffer of blanks only.
	 */
	i_end = find_newline(bprm->buf, BINPRM_BUF_SIZE);
	if (!i_end) {
		i_end = next_non_spacetab(bprm->buf + 2, buf_end);
		if (!i_end)
			return -ENOEXEC; /* nothing but blanks */
		if (!next_terminator(i_end, buf_end))
			return -ENOEXEC; /* the name may have been cut */
		i_end = buf_end;
	}

	/* Blanks at the end of the line belong to nothing. ('!' stops this.) */
	while (spacetab(i_end[-1]))
		i_end--;

	/* ---- The interpreter: from the first non-blank to a terminator. ---- */
	i_name = next_non_spacetab(bprm->buf + 2, i_end);
	if (!i_name || i_name == i_end)
		return -ENOEXEC; /* "#!" and blanks: no interpreter named */

	/*
	 * ---- The optional argument: the rest of the line, as one string. ----
	 * Only if the name ended on a blank (not on a NUL or the line's end).
	 * Without a newline, i_end is the buffer's last byte, and trailing
	 * blanks followed by NUL padding give an empty argument, as in Linux.
	 */
	i_arg = NULL;
	i_sep = next_terminator(i_name, i_end);
	if (i_sep && *i_sep != '\0')
		i_arg = next_non_spacetab(i_sep, i_end);

	/*
	 * execveat through a close-on-exec descriptor: the /dev/fd/N name we
	 * would hand to the interpreter will be closed by then.
	 */
	if (bprm->interp_flags & BINPRM_FLAGS_PATH_INACCESSIBLE)
		return -ENOENT;

	/*
	 * ---- Rewrite argv, on the new stack. ----
	 * The strings sit from bprm->p upwards: argv[0] lowest. So: drop
	 * argv[0], then push, each under the last, the script's name, the
	 * argument, and the interpreter, which thereby becomes argv[0].
	 */
	retval = remove_arg_zero(bprm);
	if (retval)
		return retval;
	retval = copy_string_kernel(bprm->interp, bprm);
	if (retval < 0)
		return retval;
	bprm->argc++;
	*i_end = '\0'; /* the line's end is the argument's (or the name's) end */
	if (i_arg) {
		*i_sep = '\0'; /* the name's end */
		retval = copy_string_kernel(i_arg, bprm);
		if (retval < 0)
			return retval;
		bprm->argc++;
	}
	retval = copy_string_kernel(i_name, bprm);
	if (retval < 0)
		return retval;
	bprm->argc++;
	exec_trace_rewrite(bprm, "script");

	/*
	 * ---- The interpreter becomes the file to load. ----
	 * bprm->interp names it from now on; bprm->filename stays the
	 * script's. It is looked up like any execve name, from the working
	 * directory. exec_binprm takes it from bprm->interpreter.
	 */
	retval = bprm_change_interp(i_name, bprm);
	if (retval < 0)
		return retval;
	file = open_exec(i_name);
	if (IS_ERR(file))
		return PTR_ERR(file);
	bprm->interpreter = file;
	return 0;
}
/* LAB 02: ELSE
static int load_script(struct linux_binprm *bprm)
{
	(void)bprm;
	return -ENOEXEC;
}
   LAB 02: END */
