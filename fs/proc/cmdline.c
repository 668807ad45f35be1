/*
 * fs/proc/cmdline.c - /proc/cmdline: the kernel's command line, as the boot
 * loader gave it (kernel/multiboot.c: without QEMU's leading file name).
 */
#include "internal.h"
#include <boot.h>
#include <linux/init.h>

static int show_cmdline(struct seq_file *m)
{
	seq_printf(m, "%s\n", boot_info.cmdline);
	return 0;
}

static int proc_cmdline_init(void)
{
	proc_create("cmdline", 0444, show_cmdline, NULL);
	return 0;
}
fs_initcall(proc_cmdline_init);
