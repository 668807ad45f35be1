/*
 * utsname.c - the system's names: what uname(2) reports, sethostname and
 * setdomainname, and their /proc files (/proc/version and
 * /proc/sys/kernel/{osrelease,version,hostname,domainname}).
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <proc_fs.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>

#define UTS_LEN 64

struct new_utsname {
	char sysname[UTS_LEN + 1], nodename[UTS_LEN + 1], release[UTS_LEN + 1];
	char version[UTS_LEN + 1], machine[UTS_LEN + 1], domainname[UTS_LEN + 1];
};

/* "Linux", so that programs that ask which kernel they run on see the ABI
 * they are written for; the release says which kernel this really is. */
static struct new_utsname uts = {
	.sysname = "Linux",
	.nodename = "(none)",
	.release = UTS_RELEASE, /* the Makefile's KERNELRELEASE */
	.version = "#1 teaching kernel",
	.machine = "x86_64",
	.domainname = "(none)",
};

long sys_uname(struct new_utsname __user *buf)
{
	return copy_to_user(buf, &uts, sizeof(uts));
}

/* sethostname and setdomainname: root only, at most 64 bytes, no NUL needed. */
static long set_name(char *field, const char __user *name, int len)
{
	char buf[UTS_LEN + 1];

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len < 0 || len > UTS_LEN)
		return -EINVAL;
	if (copy_from_user(buf, name, len))
		return -EFAULT;
	memcpy(field, buf, len);
	memset(field + len, 0, UTS_LEN + 1 - len);
	return 0;
}

long sys_sethostname(const char __user *name, int len)
{
	return set_name(uts.nodename, name, len);
}

long sys_setdomainname(const char __user *name, int len)
{
	return set_name(uts.domainname, name, len);
}

static int show_version(struct seq_file *m)
{
	seq_printf(m, "%s version %s (%s) %s\n", uts.sysname, uts.release, "execve teaching kernel", uts.version);
	return 0;
}

static int show_osrelease(struct seq_file *m) { seq_printf(m, "%s\n", uts.release); return 0; }
static int show_kversion(struct seq_file *m) { seq_printf(m, "%s\n", uts.version); return 0; }
static int show_hostname(struct seq_file *m) { seq_printf(m, "%s\n", uts.nodename); return 0; }
static int show_domainname(struct seq_file *m) { seq_printf(m, "%s\n", uts.domainname); return 0; }

/* A write to the /proc file sets the name, as sethostname does (the
 * trailing newline of "echo name >" is not part of it). */
static int write_uts_field(char *field, const char *buf, size_t count)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (count && buf[count - 1] == '\n')
		count--;
	if (count > UTS_LEN)
		return -EINVAL;
	memcpy(field, buf, count);
	memset(field + count, 0, UTS_LEN + 1 - count);
	return 0;
}

static int write_hostname(const char *buf, size_t count) { return write_uts_field(uts.nodename, buf, count); }
static int write_domainname(const char *buf, size_t count) { return write_uts_field(uts.domainname, buf, count); }

void utsname_init(void)
{
	proc_create("version", 0444, show_version, NULL);
	proc_create("sys/kernel/osrelease", 0444, show_osrelease, NULL);
	proc_create("sys/kernel/version", 0444, show_kversion, NULL);
	proc_create("sys/kernel/hostname", 0644, show_hostname, write_hostname);
	proc_create("sys/kernel/domainname", 0644, show_domainname, write_domainname);
}
