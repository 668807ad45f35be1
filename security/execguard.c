/*
 * execguard.c - an example security module, to read before writing one.
 *
 * It does two things with the exec hooks (include/security.h):
 *   - refuses to run any file under the path prefixes it is given
 *     (bprm_check, asked for each file of an exec: a script and then its
 *     interpreter): execve fails with EACCES, and the refusal is logged;
 *   - logs every exec that goes through, with the credentials the new
 *     program got (bprm_committed_creds, once they are installed).
 *
 * It is off unless the kernel command line enables it: lsm=execguard.
 * Then, as Yama keeps its setting in /proc/sys/kernel/yama/, it is
 * configured through two files:
 *   /proc/sys/kernel/execguard/deny   path prefixes, one a line. A write
 *                                     replaces the whole list (an empty
 *                                     line clears it); a prefix matches
 *                                     whole components: "/tmp/x" denies
 *                                     /tmp/x and /tmp/x/y, not /tmp/xy.
 *   /proc/sys/kernel/execguard/log    1: log every exec (the default);
 *                                     0: log only refusals.
 * Writing needs root's file permissions and CAP_MAC_ADMIN.
 *
 * Its log lines are kernel messages starting "execguard: ".
 */
#include <cred.h>
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <mm.h>
#include <proc_fs.h>
#include <sched.h>
#include <security.h>
#include <string.h>

#define DENY_MAX 1024 /* bytes of prefixes */

static char deny_list[DENY_MAX]; /* the prefixes, each ending in '\n' */
static bool log_all = true;

/* Does path lie under prefix (whole components)? */
static bool under(const char *path, const char *prefix, size_t len)
{
	if (len == 0 || strncmp(path, prefix, len) != 0)
		return false;
	return prefix[len - 1] == '/' || path[len] == '/' || path[len] == '\0';
}

static bool denied(const char *path)
{
	for (const char *p = deny_list; *p;) {
		size_t len = strcspn(p, "\n");

		if (under(path, p, len))
			return true;
		p += len;
		if (*p == '\n')
			p++;
	}
	return false;
}

/* bprm_check: the file exec is about to hand to a handler. */
static int execguard_bprm_check(struct linux_binprm *bprm)
{
	char *buf = kmalloc(PATH_MAX), *path;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	path = file_path(bprm->file, buf, PATH_MAX);
	if (!IS_ERR(path) && denied(path)) {
		pr_info("execguard: denied %s (exec of \"%s\") to pid %d (%s), uid %u euid %u\n",
			path, bprm->filename, current->pid, current->comm, current_uid(), current_euid());
		ret = -EACCES;
	}
	kfree(buf);
	return ret;
}

/* bprm_committed_creds: the program is in place with its credentials. */
static void execguard_bprm_committed_creds(struct linux_binprm *bprm)
{
	const struct cred *cred = current_cred();
	char *buf, *path;

	if (!log_all)
		return;
	buf = kmalloc(PATH_MAX);
	path = buf ? file_path(bprm->file, buf, PATH_MAX) : ERR_PTR(-ENOMEM);
	pr_info("execguard: pid %d exec \"%s\" (%s): uid %u euid %u gid %u egid %u "
		"CapEff %016lx%s\n", current->pid, bprm->filename, IS_ERR(path) ? "?" : path,
		cred->uid, cred->euid, cred->gid, cred->egid, (unsigned long)cred->cap_effective,
		bprm->secureexec ? " AT_SECURE" : "");
	kfree(buf);
}

/* ---- its files in /proc/sys/kernel/execguard ---------------------------- */

static int show_deny(struct seq_file *m)
{
	seq_puts(m, deny_list);
	return 0;
}

static int write_deny(const char *buf, size_t count)
{
	char *d = deny_list;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (count + 1 >= DENY_MAX) /* room for a last newline and the NUL */
		return -EINVAL;
	/* Keep the non-empty lines, each ended by a newline. */
	for (const char *p = buf; p < buf + count;) {
		size_t len = strcspn(p, "\n");

		if (p + len > buf + count)
			len = buf + count - p;
		if (len) {
			memcpy(d, p, len);
			d += len;
			*d++ = '\n';
		}
		p += len + 1;
	}
	*d = '\0';
	return 0;
}

static int show_log(struct seq_file *m)
{
	seq_printf(m, "%d\n", log_all);
	return 0;
}

static int write_log(const char *buf, size_t count)
{
	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (count == 0 || (buf[0] != '0' && buf[0] != '1') || (count > 1 && buf[1] != '\n'))
		return -EINVAL;
	log_all = buf[0] == '1';
	return 0;
}

static int execguard_init(void)
{
	int err = proc_create("sys/kernel/execguard/deny", 0644, show_deny, write_deny);

	if (!err)
		err = proc_create("sys/kernel/execguard/log", 0644, show_log, write_log);
	return err;
}

struct lsm execguard_lsm = {
	.name = "execguard",
	.init = execguard_init,
	.bprm_check = execguard_bprm_check,
	.bprm_committed_creds = execguard_bprm_committed_creds,
};
