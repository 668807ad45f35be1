/*
 * procfs.c - /proc/modules and /proc/sys/kernel/tainted.
 *
 * /proc/modules has one line per module, newest first, in Linux 6.1's
 * form, which lsmod and modprobe read:
 *
 *	binfmt_example 16384 0 - Live 0xffffffffc0002000
 *	modtest_lib 12288 1 modtest_user, Live 0xffffffffc0000000 (O)
 *
 * name, bytes of memory, references, the modules that use it ("-" if
 * none; "[permanent]," if it can never be unloaded), its state (Live,
 * Loading while its init runs, Unloading), its address (zeros for a
 * reader without privilege, as Linux's kptr_restrict hides it), and its
 * taint letters if any.
 */
#include <cred.h>
#include <proc_fs.h>
#include <sched.h>

#include "internal.h"

static int show_modules(struct seq_file *m)
{
	bool show_addr = capable(CAP_SYSLOG); /* Linux's kptr_restrict rule */

	for (struct module *mod = modules; mod; mod = mod->next) {
		bool printed = false;
		char taints[8];

		if (mod->state == MODULE_STATE_UNFORMED)
			continue;
		seq_printf(m, "%s %u %d ", mod->name, mod->init_layout.size + mod->core_layout.size,
			   module_refcount(mod));
		for (struct module_use *u = mod->source_list; u; u = u->next_source) {
			seq_printf(m, "%s,", u->source->name);
			printed = true;
		}
		if (mod->init && !mod->exit) {
			seq_puts(m, "[permanent],");
			printed = true;
		}
		if (!printed)
			seq_puts(m, "-");
		seq_printf(m, " %s", mod->state == MODULE_STATE_GOING ? "Unloading" :
				     mod->state == MODULE_STATE_COMING ? "Loading" : "Live");
		seq_printf(m, " 0x%016lx", show_addr ? (unsigned long)mod->core_layout.base : 0UL);
		module_taint_letters(mod, taints);
		if (taints[0])
			seq_printf(m, " (%s)", taints);
		seq_putc(m, '\n');
	}
	return 0;
}

static int show_tainted(struct seq_file *m)
{
	seq_printf(m, "%lu\n", tainted_mask);
	return 0;
}

/* Root may add taint bits (a number); they are never cleared. */
static int write_tainted(const char *buf, size_t count)
{
	unsigned long v = 0;
	size_t i = 0;

	while (i < count && buf[i] >= '0' && buf[i] <= '9')
		v = v * 10 + (buf[i++] - '0');
	if (i == 0 || (i < count && buf[i] != '\n'))
		return -EINVAL;
	tainted_mask |= v;
	return 0;
}

void proc_modules_init(void)
{
	proc_create("modules", 0444, show_modules, NULL);
	proc_create("sys/kernel/tainted", 0644, show_tainted, write_tainted);
}
