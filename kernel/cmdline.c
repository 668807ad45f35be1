/*
 * cmdline.c - the kernel command line, read the way Linux reads it.
 *
 * Words are separated by blanks; double quotes group. The kernel takes the
 * words it knows (init=, rdinit=, console=, quiet, strace, ...). Each other
 * word goes to init: "name=value" into its environment, anything else into
 * its argv, except that a word whose name holds a '.' is a module parameter
 * and is dropped. After "--" every word goes to init's argv as it is.
 * init also gets HOME=/ and TERM=linux, and its own path as argv[0].
 *
 * One difference: Linux runs the initramfs's /init (or rdinit=) and ignores
 * init= when it has an initramfs; here init= and rdinit= both choose the
 * program, because that is the boot contract in README.md.
 */
#include <boot.h>
#include <cmdline.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <log_buf.h>
#include <profile.h>
#include <security.h>
#include <smp.h>
#include <string.h>
#include <vm.h>

const char *init_path = "/init";
char *init_argv[MAX_INIT_ARGS + 2];
char *init_envp[MAX_INIT_ENVS + 3] = { "HOME=/", "TERM=linux" };
bool cmdline_strace;

static int nr_args = 1, nr_envs = 2;

/* Linux parameters we accept and have no use for. */
static const char *const ignored[] = {
	"console", "root", "ro", "rw", "rootfstype", "loglevel", "panic",
	"nokaslr", "earlyprintk", "debug", "ignore_loglevel", "nosmp",
	"noapic", "acpi", "mem", "nomodeset", "printk.time",
};

static bool param_is(const char *word, size_t namelen, const char *name)
{
	return strlen(name) == namelen && !strncmp(word, name, namelen);
}

static bool has_dot(const char *word, size_t namelen)
{
	for (size_t i = 0; i < namelen; i++)
		if (word[i] == '.')
			return true;
	return false;
}

static void add_arg(char *word)
{
	if (nr_args < MAX_INIT_ARGS)
		init_argv[nr_args++] = word;
	else
		pr_warn("Too many boot init args, '%s' dropped\n", word);
}

static void add_env(char *word)
{
	size_t namelen = strchr(word, '=') - word;

	/* A later word with the same name replaces the earlier one. */
	for (int i = 0; i < nr_envs; i++) {
		if (!strncmp(init_envp[i], word, namelen + 1)) {
			init_envp[i] = word;
			return;
		}
	}
	if (nr_envs < MAX_INIT_ENVS)
		init_envp[nr_envs++] = word;
	else
		pr_warn("Too many boot env vars, '%s' dropped\n", word);
}

/* The decimal number value starts with (0 if none); the digits stop
 * counting once it reaches cap. */
static int leading_number(const char *value, int cap)
{
	int n = 0;

	for (const char *p = value; *p >= '0' && *p <= '9' && n < cap; p++)
		n = n * 10 + (*p - '0');
	return n;
}

static void handle_word(char *word)
{
	char *eq = strchr(word, '=');
	size_t namelen = eq ? (size_t)(eq - word) : strlen(word);
	char *value = eq ? eq + 1 : NULL;

	if ((param_is(word, namelen, "init") || param_is(word, namelen, "rdinit")) && value) {
		init_path = value;
		nr_args = 1; /* as Linux: the words collected so far are dropped */
		return;
	}
	if (param_is(word, namelen, "quiet")) {
		cmdline_quiet = true;
		console_loglevel = 4; /* Linux's CONSOLE_LOGLEVEL_QUIET */
		return;
	}
	if (param_is(word, namelen, "watchdog_thresh") && value) {
		watchdog_thresh = leading_number(value, 1000);
		return;
	}
	if (param_is(word, namelen, "loglevel") && value && value[0] >= '0' && value[0] <= '9') {
		console_loglevel = leading_number(value, 100);
		return;
	}
	if (param_is(word, namelen, "nosmp")) { /* arch/x86/kernel/smpboot.c */
		setup_max_cpus = 0;
		return;
	}
	if (param_is(word, namelen, "maxcpus") && value) {
		setup_max_cpus = leading_number(value, 1000);
		return;
	}
	if (param_is(word, namelen, "strace")) {
		cmdline_strace = true;
		return;
	}
	if (param_is(word, namelen, "norandmaps")) { /* randomize_va_space = 0 */
		randomize_va_space = 0;
		return;
	}
	if (param_is(word, namelen, "ignore_rlimit_data")) { /* mm/mmap.c */
		ignore_rlimit_data = !value || (value[0] != '0' && value[0] != 'n' && value[0] != 'N');
		return;
	}
	if (param_is(word, namelen, "exectrace")) { /* fs/exec_trace.c */
		exec_trace_set(true);
		return;
	}
	if (param_is(word, namelen, "profile") && value) { /* kernel/profile.c */
		profile_setup(value);
		return;
	}
	if (param_is(word, namelen, "lsm") && value) { /* security/security.c */
		security_set_lsm_list(value);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ignored); i++)
		if (param_is(word, namelen, ignored[i]))
			return;
	if (has_dot(word, namelen))
		return; /* "unused module parameter" */
	if (eq)
		add_env(word);
	else
		add_arg(word);
}

/* Cut the next word off *line (quotes removed); NULL at the end. */
static char *next_word(char **line)
{
	char *s = *line, *out, *word;
	bool quoted = false;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s)
		return NULL;
	word = out = s;
	for (; *s; s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (!quoted && (*s == ' ' || *s == '\t' || *s == '\n')) {
			s++;
			break;
		}
		*out++ = *s;
	}
	*out = '\0';
	*line = s;
	return word;
}

void cmdline_parse(const char *cmdline)
{
	static char copy[BOOT_CMDLINE_MAX]; /* the words point into it */
	char *line = copy, *word;
	bool after_dashes = false;

	strlcpy(copy, cmdline, sizeof(copy));
	while ((word = next_word(&line))) {
		if (after_dashes)
			add_arg(word);
		else if (!strcmp(word, "--"))
			after_dashes = true;
		else
			handle_word(word);
	}
	init_argv[0] = (char *)init_path;
	init_argv[nr_args] = NULL;
	init_envp[nr_envs] = NULL;
}
