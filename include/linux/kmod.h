/*
 * linux/kmod.h - asking user space for a kernel module (kernel/kmod.c).
 *
 * request_module("binfmt-%04x", ...) runs the program named in
 * /proc/sys/kernel/modprobe (default /sbin/modprobe) as
 *	modprobe -q -- NAME
 * through the usermode helper and waits for it. busybox's modprobe then
 * finds the module by that name in /lib/modules/$(uname -r)/modules.alias
 * and loads it (kernel/module/); the helper may also be any program that
 * does what a module would have done from user space (register a
 * binfmt_misc entry, for example). Either way the caller then looks again.
 */
#pragma once
#include <kernel.h>
#include <linux/module.h> /* MODULE_NAME_LEN */

#define KMOD_PATH_LEN 256

/* The modprobe program; "" turns requests off (they fail with ENOENT). */
extern char modprobe_path[KMOD_PATH_LEN];

/*
 * Ask for a module named by fmt and wait for modprobe to finish. Returns
 * what call_usermodehelper returns (0 or a positive wait status when the
 * helper ran, -errno when it could not be run), -ENOENT when modprobe_path
 * is empty, -ENAMETOOLONG for a name of MODULE_NAME_LEN bytes or more,
 * -ETIME when 50 requests are already under way and none ends within 5 s.
 */
int request_module(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void kmod_init(void); /* registers /proc/sys/kernel/modprobe */
