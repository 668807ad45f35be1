/*
 * namespace.c - time namespaces (include/time_namespace.h): making one,
 * entering one, its offsets, and the clocks as a task in one sees them.
 *
 * The path of an offset: unshare(CLONE_NEWTIME) makes the namespace as
 * the caller's time_ns_for_children; a write to /proc/self/timens_offsets
 * sets its offsets; the first task to enter it (timens_enter: a child at
 * fork, the caller at exec, or setns) fixes them and makes the vDSO's
 * page; from then on clock_gettime adds them (timens_add), in the kernel
 * and in the vDSO, and absolute sleeps take them off (timens_to_host).
 */
#include <cred.h>
#include <errno.h>
#include <mm.h>
#include <proc_fs.h>
#include <sched.h>
#include <string.h>
#include <time_namespace.h>
#include <linux/user_namespace.h>
#include <vdso.h>
#include <vm.h>

/* Linux's KTIME_SEC_MAX: the seconds a 64-bit count of ns holds. */

struct time_namespace init_time_ns = {
	.ns = { .inum = PROC_TIME_INIT_INO, .count = 1, .ops = &timens_operations },
	.frozen_offsets = true,
	.user_ns = &init_user_ns,
};

struct time_namespace *copy_time_ns(uint64_t flags, struct user_namespace *user_ns,
				    struct time_namespace *old)
{
	struct time_namespace *ns;

	if (!(flags & CLONE_NEWTIME))
		return get_time_ns(old);
	ns = kzalloc(sizeof(*ns));
	if (!ns)
		return ERR_PTR(-ENOMEM);
	ns->vvar_page = alloc_page();
	if (!ns->vvar_page) {
		kfree(ns);
		return ERR_PTR(-ENOMEM);
	}
	if (ns_common_init(&ns->ns, &timens_operations)) {
		put_page(ns->vvar_page);
		kfree(ns);
		return ERR_PTR(-ENOSPC);
	}
	ns->user_ns = get_user_ns(user_ns);
	return ns;
}

void put_time_ns(struct time_namespace *ns)
{
	if (--ns->ns.count > 0)
		return;
	BUG_ON(ns == &init_time_ns);
	/* A process that ends may still map it: its last unmap frees it. */
	put_page(ns->vvar_page);
	ns_free_inum(ns->ns.inum);
	put_user_ns(ns->user_ns);
	kfree(ns);
}

struct time_namespace *current_time_ns(void)
{
	if (!current || !current->nsproxy)
		return &init_time_ns;
	return current->nsproxy->time_ns;
}

/* ---- the clocks ------------------------------------------------------------ */

/* The offset a clock has in ns (0 for the wall clock and the CPU clocks). */
static int64_t clock_offset(const struct time_namespace *ns, int clock)
{
	switch (clock) {
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
		return ns->monotonic_offset_ns;
	case CLOCK_BOOTTIME:
	case CLOCK_BOOTTIME_ALARM:
		return ns->boottime_offset_ns;
	default:
		return 0;
	}
}

int64_t timens_add(int clock, int64_t host_ns)
{
	return host_ns + clock_offset(current_time_ns(), clock);
}

/* A time before the host's zero is already past: 0; one past what ktime
 * counts is KTIME_MAX, never a wrapped-around sum: Linux's clamps
 * (do_timens_ktime_to_host). */
int64_t timens_to_host(int clock, int64_t ns)
{
	int64_t off = clock_offset(current_time_ns(), clock);

	if (ns < off)
		return 0;
	if (off < 0 && ns > INT64_MAX + off)
		return INT64_MAX;
	return ns - off;
}

int64_t timens_boottime_offset_sec(void)
{
	int64_t off = current_time_ns()->boottime_offset_ns;

	/* Rounded toward minus infinity, as a timespec's seconds are. */
	return off >= 0 ? off / NSEC_PER_SEC : -((-off + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
}

/* ---- entering ---------------------------------------------------------------- */

/* t enters ns (already its nsproxy's time_ns): the offsets are fixed, the
 * vDSO's page gets them, and t's vDSO is to show them. */
static void timens_enter(struct task *t, struct time_namespace *ns)
{
	if (!ns->frozen_offsets) {
		vdso_timens_fill(ns->vvar_page, ns->monotonic_offset_ns, ns->boottime_offset_ns);
		ns->frozen_offsets = true;
	}
	vdso_join_timens(t);
}

void timens_on_fork(struct nsproxy *nsproxy, struct task *t)
{
	struct time_namespace *ns = nsproxy->time_ns_for_children;

	if (nsproxy->time_ns == ns)
		return;
	put_time_ns(nsproxy->time_ns);
	nsproxy->time_ns = get_time_ns(ns);
	timens_enter(t, ns);
}

/* ---- /proc/PID/ns/time and time_for_children, setns ----------------------- */

static struct ns_common *timens_get(struct task *t)
{
	return t->nsproxy ? &get_time_ns(t->nsproxy->time_ns)->ns : NULL;
}

static struct ns_common *timens_for_children_get(struct task *t)
{
	return t->nsproxy ? &get_time_ns(t->nsproxy->time_ns_for_children)->ns : NULL;
}

static void timens_put(struct ns_common *ns)
{
	put_time_ns(container_of(ns, struct time_namespace, ns));
}

/* setns: the caller itself and its future children move; only a process
 * of one thread may (EUSERS: its threads share one [vvar]). */
static int timens_install(struct nsset *nsset, struct ns_common *new)
{
	struct time_namespace *ns = container_of(new, struct time_namespace, ns);

	if (!thread_group_empty(current->group_leader) || (current->mm && current->mm->users > 1))
		return -EUSERS;
	if (!ns_capable(ns->user_ns, CAP_SYS_ADMIN) || !ns_capable(nsset->cred->user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	put_time_ns(nsset->nsproxy->time_ns);
	nsset->nsproxy->time_ns = get_time_ns(ns);
	put_time_ns(nsset->nsproxy->time_ns_for_children);
	nsset->nsproxy->time_ns_for_children = get_time_ns(ns);
	return 0;
}

void timens_commit(struct task *t, struct time_namespace *ns)
{
	timens_enter(t, ns);
}

static struct user_namespace *timens_owner(struct ns_common *ns)
{
	return container_of(ns, struct time_namespace, ns)->user_ns;
}

const struct proc_ns_operations timens_operations = {
	.name = "time",
	.type = CLONE_NEWTIME,
	.get = timens_get,
	.put = timens_put,
	.install = timens_install,
	.owner = timens_owner,
};

/* The same namespaces under another link name ("time:[N]" its text). */
const struct proc_ns_operations timens_for_children_operations = {
	.name = "time_for_children",
	.type = CLONE_NEWTIME,
	.get = timens_for_children_get,
	.put = timens_put,
	.install = timens_install,
	.owner = timens_owner,
};
