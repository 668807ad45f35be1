/*
 * fuzz_script.c - the "#!" line parser (fs/binfmt_script.c).
 *
 * The input is the start of a file: its first BINPRM_BUF_SIZE bytes go to
 * bprm->buf, the rest zero, as prepare_binprm reads them. The handler is
 * included whole and called through the format it registers; exec's
 * helpers are stand-ins that record what the handler asks. Checked: the
 * answer is 0, -ENOEXEC or another -errno; on 0, the interpreter's name
 * has no blank or newline in it (it may be empty: "#!" and NULs, which
 * open_exec refuses as Linux does), the optional argument has no newline
 * and starts with no blank (it may be empty, or end with blanks, when the
 * line has no newline: Linux's rules), both came from the
 * buffer, argv grew by the interpreter, the argument and the script's
 * name, and the interpreter's file is set. Nothing leaks.
 */
#include "../../../fs/binfmt_script.c"
#include "host.h"
#include <mm.h>

static struct linux_binfmt *fmt;
void register_binfmt(struct linux_binfmt *f) { fmt = f; }

static struct linux_binprm *cur;
static const char *strings[4];
static int nstrings;
static struct file *fake_file = (struct file *)0x1000;

/* In the buffer, or one of the names exec handed over. */
static bool from_bprm(const struct linux_binprm *b, const char *s)
{
	return (s >= b->buf && s < b->buf + BINPRM_BUF_SIZE) || s == b->interp || s == b->filename;
}

int remove_arg_zero(struct linux_binprm *b)
{
	CHECK(b == cur);
	if (b->argc)
		b->argc--;
	return 0;
}

int copy_string_kernel(const char *arg, struct linux_binprm *b)
{
	CHECK(b == cur && from_bprm(b, arg));
	CHECK(strlen(arg) < BINPRM_BUF_SIZE || arg == b->filename);
	CHECK(nstrings < 4);
	strings[nstrings++] = arg;
	return 0;
}

int bprm_change_interp(const char *interp, struct linux_binprm *b)
{
	CHECK(b == cur && from_bprm(b, interp));
	if (b->interp != b->filename)
		kfree((char *)b->interp);
	b->interp = strdup_k(interp);
	return b->interp ? 0 : -ENOMEM;
}

struct file *open_exec(const char *name)
{
	return name[0] == 'x' ? ERR_PTR(-ENOENT) : fake_file;
}

void exec_trace_rewrite(struct linux_binprm *b, const char *who) { (void)b, (void)who; }

static bool blank(char c) { return c == ' ' || c == '\t'; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct linux_binprm *b;
	long allocs = host_allocs;
	int ret;

	if (!fmt)
		init_script_binfmt();
	b = calloc(1, sizeof(*b)); /* buf ends the struct: ASan guards its end */
	b->filename = b->interp = "/tmp/script";
	b->argc = size ? data[0] % 3 : 1; /* argv's size does not matter, only 0 or not */
	memcpy(b->buf, data, size < BINPRM_BUF_SIZE ? size : BINPRM_BUF_SIZE);
	cur = b;
	nstrings = 0;
	int argc = b->argc;

	ret = fmt->load_binary(b);
	CHECK(ret <= 0 && ret >= -4095);
	if (ret == 0) {
		CHECK(b->interpreter == fake_file);
		CHECK(nstrings == 2 || nstrings == 3);
		CHECK(b->argc == (argc ? argc - 1 : 0) + nstrings);
		const char *name = strings[nstrings - 1];
		CHECK(!strcmp(name, b->interp));
		for (const char *p = name; *p; p++)
			CHECK(!blank(*p) && *p != '\n');
		if (nstrings == 3) {
			const char *arg = strings[1];
			size_t n = strlen(arg);
			CHECK(!(n && blank(arg[0])) && !strchr(arg, '\n'));
		}
		CHECK(strings[0] == b->filename);
	} else {
		CHECK(b->interpreter == NULL);
	}
	if (b->interp != b->filename)
		kfree((char *)b->interp);
	free(b);
	CHECK(host_allocs == allocs);
	return 0;
}
