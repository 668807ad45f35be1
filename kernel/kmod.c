/*
 * kmod.c - request_module: the kernel asks user space for a module, by
 * running modprobe through the usermode helper (kernel/umh.c).
 *
 * exec calls request_module("binfmt-%04x", ...) when no format handler
 * took a file that does not look like text (fs/exec.c), and mount
 * request_module("fs-%s", ...) for a filesystem type nobody registered
 * (fs/super.c, get_fs_type). As in Linux 6.1:
 *   - the program is modprobe_path, /proc/sys/kernel/modprobe, by default
 *     "/sbin/modprobe"; an empty path turns requests off (ENOENT);
 *   - it runs as  MODPROBE -q -- NAME  with the environment
 *     HOME=/, TERM=linux, PATH=/sbin:/usr/sbin:/bin:/usr/bin,
 *     and the caller waits until it has exited (a SIGKILL ends the wait);
 *   - at most 50 requests run at once (a helper's own exec may request
 *     a module too); the 51st waits up to 5 seconds for one of them to
 *     end, then fails with ETIME.
 * modprobe loads the module (kernel/module/) that answers to the name
 * (MODULE_ALIAS, listed in modules.alias), and the caller looks again.
 */
#include <errno.h>
#include <kernel.h>
#include <linux/kmod.h>
#include <linux/umh.h>
#include <proc_fs.h>
#include <sched.h>
#include <string.h>
#include <x86.h>

#define MAX_KMOD_CONCURRENT 50
#define MAX_KMOD_ALL_BUSY_TIMEOUT 5 /* seconds */

char modprobe_path[KMOD_PATH_LEN] = "/sbin/modprobe";

/* Requests that may still start; 0: wait for one to end. */
static int kmod_concurrent_max = MAX_KMOD_CONCURRENT;

static int call_modprobe(const char *module_name, int wait)
{
	static char *const envp[] = {
		"HOME=/",
		"TERM=linux",
		"PATH=/sbin:/usr/sbin:/bin:/usr/bin",
		NULL,
	};
	char *argv[] = { modprobe_path, "-q", "--", (char *)module_name, NULL };

	return call_usermodehelper(modprobe_path, argv, envp, wait | UMH_KILLABLE);
}

/* Wait until a request may start: 0, or -ETIME after 5 seconds. */
static int kmod_throttle(const char *module_name)
{
	uint64_t deadline = jiffies + MAX_KMOD_ALL_BUSY_TIMEOUT * HZ;
	uint64_t irq;
	int ret = 0;

	if (kmod_concurrent_max > 0)
		return 0;
	pr_warn("request_module: kmod_concurrent_max (0) close to 0 (max_modprobes: %d), "
		"for module %s, throttling...\n", MAX_KMOD_CONCURRENT, module_name);
	irq = irq_save();
	while (kmod_concurrent_max == 0) {
		if (jiffies >= deadline || fatal_signal_pending(current)) {
			ret = -ETIME;
			break;
		}
		current->wake_at = deadline;
		sleep_on(&kmod_concurrent_max);
	}
	current->wake_at = 0;
	irq_restore(irq);
	if (ret)
		pr_warn("request_module: modprobe %s cannot be processed, kmod busy with %d "
			"threads for more than %d seconds now\n", module_name, MAX_KMOD_CONCURRENT,
			MAX_KMOD_ALL_BUSY_TIMEOUT);
	return ret;
}

int request_module(const char *fmt, ...)
{
	char module_name[MODULE_NAME_LEN];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vsnprintf(module_name, sizeof(module_name), fmt, ap);
	va_end(ap);
	if (ret >= (int)sizeof(module_name))
		return -ENAMETOOLONG;
	if (!modprobe_path[0])
		return -ENOENT;

	ret = kmod_throttle(module_name);
	if (ret)
		return ret;
	kmod_concurrent_max--;
	ret = call_modprobe(module_name, UMH_WAIT_PROC);
	kmod_concurrent_max++;
	wakeup(&kmod_concurrent_max);
	return ret;
}

/* ---- /proc/sys/kernel/modprobe (Linux: proc_dostring) ---- */

static int show_modprobe(struct seq_file *m)
{
	seq_printf(m, "%s\n", modprobe_path);
	return 0;
}

/* The new path: the bytes up to the first newline or NUL, at most 255. */
static int write_modprobe(const char *buf, size_t count)
{
	size_t len = 0;

	while (len < count && len < KMOD_PATH_LEN - 1 && buf[len] && buf[len] != '\n')
		len++;
	memcpy(modprobe_path, buf, len);
	modprobe_path[len] = '\0';
	return 0;
}

void kmod_init(void)
{
	proc_create("sys/kernel/modprobe", 0644, show_modprobe, write_modprobe);
}
