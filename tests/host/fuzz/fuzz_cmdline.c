/*
 * fuzz_cmdline.c - the kernel command line parser (kernel/cmdline.c).
 *
 * The input is the command line a boot loader hands over (at most
 * BOOT_CMDLINE_MAX bytes, NUL-terminated, as multiboot.c copies it). The
 * parser is included whole, so that its static state can be reset before
 * each run, as a fresh boot would have it. Checked after each run: init's
 * path, argv and environment are NUL-terminated arrays of strings that
 * lie in the parser's copy of the line, within their limits, each
 * environment word has a '=', and the switches have sane values.
 */
#include "../../../kernel/cmdline.c"
#include "host.h"

/* What the parser sets elsewhere in the kernel. */
bool cmdline_quiet;
int console_loglevel = 7;
int watchdog_thresh = 10;
int setup_max_cpus = 8;
bool ignore_rlimit_data;
static const char *profile_arg;
void profile_setup(const char *value) { profile_arg = value; }
int randomize_va_space = 2;
static bool trace_on;
void exec_trace_set(bool on) { trace_on = on; }
static const char *lsm_list;
void security_set_lsm_list(const char *list) { lsm_list = list; }

static void reset(void)
{
	init_path = "/init";
	nr_args = 1;
	nr_envs = 2;
	init_envp[0] = "HOME=/";
	init_envp[1] = "TERM=linux";
	for (int i = 2; i < MAX_INIT_ENVS + 3; i++)
		init_envp[i] = NULL;
	for (int i = 0; i < MAX_INIT_ARGS + 2; i++)
		init_argv[i] = NULL;
	cmdline_quiet = cmdline_strace = trace_on = false;
	lsm_list = NULL;
	console_loglevel = 7;
	watchdog_thresh = 10;
	setup_max_cpus = 8;
	ignore_rlimit_data = false;
	profile_arg = NULL;
	randomize_va_space = 2;
}

/* Is s a string inside the parser's copy of the line (or a literal)? */
static void check_string(const char *s)
{
	CHECK(s);
	CHECK(strlen(s) < BOOT_CMDLINE_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[BOOT_CMDLINE_MAX];
	size_t n = size < sizeof(line) - 1 ? size : sizeof(line) - 1;

	memcpy(line, data, n);
	line[n] = '\0';
	reset();
	cmdline_parse(line);

	check_string(init_path);
	CHECK(init_argv[0] == init_path);
	CHECK(nr_args >= 1 && nr_args <= MAX_INIT_ARGS);
	for (int i = 0; i < nr_args; i++)
		check_string(init_argv[i]);
	CHECK(init_argv[nr_args] == NULL);
	CHECK(nr_envs >= 2 && nr_envs <= MAX_INIT_ENVS);
	for (int i = 0; i < nr_envs; i++) {
		check_string(init_envp[i]);
		CHECK(strchr(init_envp[i], '='));
	}
	CHECK(init_envp[nr_envs] == NULL);
	CHECK(console_loglevel >= 0 && console_loglevel < 1000);
	if (profile_arg)
		check_string(profile_arg);
	if (lsm_list)
		check_string(lsm_list);
	CHECK(watchdog_thresh >= 0 && watchdog_thresh < 10000);
	CHECK(setup_max_cpus >= 0 && setup_max_cpus < 10000);
	return 0;
}
