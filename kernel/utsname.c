/*
 * utsname.c - the system's names: what uname(2) reports, sethostname and
 * setdomainname, and their /proc files (/proc/version and
 * /proc/sys/kernel/{osrelease,version,hostname,domainname}).
 *
 * The names belong to a UTS namespace (include/nsproxy.h): a process that
 * unshares it (CLONE_NEWUTS) starts with a copy of its names, and what it
 * sets then is seen only by the processes of its namespace. The /proc
 * files show and set the reader's.
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <nsproxy.h>
#include <proc_fs.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>
#include <linux/user_namespace.h>

#define UTS_LEN 64

struct new_utsname {
	char sysname[UTS_LEN + 1], nodename[UTS_LEN + 1], release[UTS_LEN + 1];
	char version[UTS_LEN + 1], machine[UTS_LEN + 1], domainname[UTS_LEN + 1];
};

struct uts_namespace {
	struct ns_common ns;
	struct new_utsname name;
	struct user_namespace *user_ns; /* its owner (a reference) */
};

/* "Linux", so that programs that ask which kernel they run on see the ABI
 * they are written for; the release says which kernel this really is. */
struct uts_namespace init_uts_ns = {
	.ns = { .inum = PROC_UTS_INIT_INO, .count = 1, .ops = &utsns_operations },
	.name = {
		.sysname = "Linux",
		.nodename = "(none)",
		.release = UTS_RELEASE, /* the Makefile's KERNELRELEASE */
		.version = "#1 teaching kernel",
		.machine = "x86_64",
		.domainname = "(none)",
	},
	.user_ns = &init_user_ns,
};

/* The names current sees. Before the first process (boot), the initial ones. */
static struct new_utsname *utsname(void)
{
	if (!current || !current->nsproxy)
		return &init_uts_ns.name;
	return &current->nsproxy->uts_ns->name;
}

/* ---- the namespace ------------------------------------------------------- */

/* CLONE_NEWUTS: a new namespace with a copy of old's names, owned by
 * user_ns; else old itself, with one more reference. ERR_PTR(-errno). */
struct uts_namespace *copy_utsname(uint64_t flags, struct user_namespace *user_ns,
				   struct uts_namespace *old)
{
	struct uts_namespace *ns;

	if (!(flags & CLONE_NEWUTS)) {
		old->ns.count++;
		return old;
	}
	ns = kmalloc(sizeof(*ns));
	if (!ns)
		return ERR_PTR(-ENOMEM);
	if (ns_common_init(&ns->ns, &utsns_operations)) {
		kfree(ns);
		return ERR_PTR(-ENOSPC);
	}
	ns->name = old->name;
	ns->user_ns = get_user_ns(user_ns);
	return ns;
}

void put_uts_ns(struct uts_namespace *ns)
{
	if (--ns->ns.count > 0)
		return;
	ns_free_inum(ns->ns.inum);
	put_user_ns(ns->user_ns);
	kfree(ns);
}

static struct ns_common *utsns_get(struct task *t)
{
	struct uts_namespace *ns;

	if (!t->nsproxy)
		return NULL;
	ns = t->nsproxy->uts_ns;
	ns->ns.count++;
	return &ns->ns;
}

static void utsns_put(struct ns_common *ns)
{
	put_uts_ns(container_of(ns, struct uts_namespace, ns));
}

static struct uts_namespace *to_uts_ns(struct ns_common *ns)
{
	return container_of(ns, struct uts_namespace, ns);
}

/* setns: CAP_SYS_ADMIN in the namespace's owner and in the caller's
 * (next) user namespace. */
static int utsns_install(struct nsset *nsset, struct ns_common *new)
{
	struct uts_namespace *ns = to_uts_ns(new);

	if (!ns_capable(ns->user_ns, CAP_SYS_ADMIN) || !ns_capable(nsset->cred->user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	ns->ns.count++;
	put_uts_ns(nsset->nsproxy->uts_ns);
	nsset->nsproxy->uts_ns = ns;
	return 0;
}

static struct user_namespace *utsns_owner(struct ns_common *ns)
{
	return to_uts_ns(ns)->user_ns;
}

const struct proc_ns_operations utsns_operations = {
	.name = "uts",
	.type = CLONE_NEWUTS,
	.get = utsns_get,
	.put = utsns_put,
	.install = utsns_install,
	.owner = utsns_owner,
};

/* ---- the calls and files ------------------------------------------------- */

long sys_uname(struct new_utsname __user *buf)
{
	return copy_to_user(buf, utsname(), sizeof(struct new_utsname));
}

/* sethostname and setdomainname: CAP_SYS_ADMIN in the owner of the
 * caller's UTS namespace, at most 64 bytes, no NUL needed. */
static long set_name(char *field, const char __user *name, int len)
{
	char buf[UTS_LEN + 1];

	if (!ns_capable(current->nsproxy->uts_ns->user_ns, CAP_SYS_ADMIN))
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
	return set_name(utsname()->nodename, name, len);
}

long sys_setdomainname(const char __user *name, int len)
{
	return set_name(utsname()->domainname, name, len);
}

static int show_version(struct seq_file *m)
{
	struct new_utsname *uts = utsname();

	seq_printf(m, "%s version %s (%s) %s\n", uts->sysname, uts->release, "execve teaching kernel", uts->version);
	return 0;
}

static int show_osrelease(struct seq_file *m) { seq_printf(m, "%s\n", utsname()->release); return 0; }
static int show_kversion(struct seq_file *m) { seq_printf(m, "%s\n", utsname()->version); return 0; }
static int show_hostname(struct seq_file *m) { seq_printf(m, "%s\n", utsname()->nodename); return 0; }
static int show_domainname(struct seq_file *m) { seq_printf(m, "%s\n", utsname()->domainname); return 0; }

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

static int write_hostname(const char *buf, size_t count) { return write_uts_field(utsname()->nodename, buf, count); }
static int write_domainname(const char *buf, size_t count) { return write_uts_field(utsname()->domainname, buf, count); }

void utsname_init(void)
{
	proc_create("version", 0444, show_version, NULL);
	proc_create("sys/kernel/osrelease", 0444, show_osrelease, NULL);
	proc_create("sys/kernel/version", 0444, show_kversion, NULL);
	proc_create("sys/kernel/hostname", 0644, show_hostname, write_hostname);
	proc_create("sys/kernel/domainname", 0644, show_domainname, write_domainname);
}
