/*
 * cred.c - credentials (include/cred.h): their life (prepare_creds,
 * commit_creds, override_creds), supplementary groups, and the system calls
 * that read and change the ids: get*id, set*id, getgroups, setgroups.
 *
 * Every change follows one pattern, Linux's: take a copy of current's
 * credentials, change the copy, then commit it, or abort it on an error.
 * The rules for who may set which id are Linux's (kernel/sys.c there):
 * with CAP_SETUID (CAP_SETGID for group ids) anything goes; without it a
 * task may only move between the ids it already holds.
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <security.h>
#include <string.h>
#include <nsproxy.h>
#include <uaccess.h>
#include <linux/user_namespace.h>
#include <vm.h>

/* ---- the life of a set of credentials ---------------------------------- */

/* /proc/sys/fs/suid_dumpable: what a process that changed ids becomes. */
int suid_dumpable = SUID_DUMP_DISABLE;

static struct group_info init_groups = { .usage = 1, .ngroups = 0 };

struct cred init_cred = {
	.usage = 1,
	.cap_permitted = CAP_FULL_SET,
	.cap_effective = CAP_FULL_SET,
	.cap_bset = CAP_FULL_SET,
	.group_info = &init_groups,
	.user_ns = &init_user_ns,
};

static struct group_info *get_group_info(struct group_info *gi)
{
	gi->usage++;
	return gi;
}

void __put_cred(struct cred *cred)
{
	BUG_ON(cred == &init_cred);
	put_group_info(cred->group_info);
	put_user_ns(cred->user_ns);
	kfree(cred);
}

/* A copy of current's credentials, for the caller to change and commit. */
struct cred *prepare_creds(void)
{
	const struct cred *old = current_cred();
	struct cred *new = kmalloc(sizeof(*new));

	if (!new)
		return NULL;
	*new = *old;
	new->usage = 1;
	get_group_info(new->group_info);
	get_user_ns(new->user_ns);
	return new;
}

/* Make cred both of t's credentials (a reference the caller gives). */
static void set_task_creds(struct task *t, const struct cred *cred)
{
	put_cred(t->real_cred);
	put_cred(t->cred);
	t->real_cred = get_cred(cred);
	t->cred = cred;
}

int copy_creds(struct task *child, const struct task *parent, uint64_t flags)
{
	struct cred *new;
	int err;

	set_task_creds(child, get_cred(parent->cred));
	if (!(flags & CLONE_NEWUSER))
		return 0;
	new = prepare_creds(); /* current is the parent */
	if (!new)
		return -ENOMEM;
	if ((err = create_user_ns(new))) {
		abort_creds(new);
		return err;
	}
	set_task_creds(child, new);
	return 0;
}

/* The credentials exec starts from (Linux also resets keyrings here). */
struct cred *prepare_exec_creds(void)
{
	return prepare_creds();
}

/*
 * Does subset hold no capability that set lacks? In one user namespace,
 * compare the permitted sets; across namespaces, only if subset's is
 * below set's and owned by set's euid (where set has every capability).
 */
static bool cred_cap_issubset(const struct cred *set, const struct cred *subset)
{
	struct user_namespace *ns = subset->user_ns;

	if (set->user_ns == ns)
		return cap_issubset(subset->cap_permitted, set->cap_permitted);
	for (; ns != &init_user_ns; ns = ns->parent)
		if (ns->parent == set->user_ns && ns->owner == set->euid)
			return true;
	return false;
}

/*
 * Install new as current's credentials, both the objective and the
 * subjective pointer; the reference passes to the task.
 */
int commit_creds(struct cred *new)
{
	struct task *t = current;
	const struct cred *old = t->real_cred;

	BUG_ON(t->cred != old); /* not inside an override */
	/*
	 * A task whose effective or file system ids change, or which gains a
	 * capability, stops being its (old) user's to look into, and its
	 * parent-death signal is forgotten: the parent must not signal a
	 * process that became more privileged than itself.
	 */
	if (old->euid != new->euid || old->egid != new->egid || old->fsuid != new->fsuid ||
	    old->fsgid != new->fsgid || !cred_cap_issubset(old, new)) {
		if (t->mm)
			t->mm->dumpable = suid_dumpable;
		t->pdeath_signal = 0;
	}
	t->real_cred = get_cred(new);
	t->cred = new;
	put_cred(old); /* the real_cred reference */
	put_cred(old); /* the cred reference */
	return 0;
}

void abort_creds(struct cred *new)
{
	put_cred(new);
}

/* Act with new until revert_creds: the subjective pointer only. */
const struct cred *override_creds(const struct cred *new)
{
	const struct cred *old = current->cred;

	current->cred = get_cred(new);
	return old;
}

void revert_creds(const struct cred *old)
{
	const struct cred *override = current->cred;

	current->cred = old;
	put_cred(override);
}

/* ---- supplementary groups ----------------------------------------------- */

struct group_info *groups_alloc(int ngroups)
{
	struct group_info *gi = kmalloc(sizeof(*gi) + (size_t)ngroups * sizeof(gid_t));

	if (!gi)
		return NULL;
	gi->usage = 1;
	gi->ngroups = ngroups;
	return gi;
}

void put_group_info(struct group_info *gi)
{
	if (--gi->usage == 0) {
		BUG_ON(gi == &init_groups);
		kfree(gi);
	}
}

/* Shell sort: no recursion, no extra memory, fine for 65536 entries. */
void groups_sort(struct group_info *gi)
{
	int n = gi->ngroups;

	for (int gap = n / 2; gap > 0; gap /= 2)
		for (int i = gap; i < n; i++) {
			gid_t v = gi->gid[i];
			int j = i;
			for (; j >= gap && gi->gid[j - gap] > v; j -= gap)
				gi->gid[j] = gi->gid[j - gap];
			gi->gid[j] = v;
		}
}

/* Binary search of the sorted list. */
bool groups_search(const struct group_info *gi, gid_t gid)
{
	int lo = 0, hi = gi->ngroups;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (gi->gid[mid] == gid)
			return true;
		if (gi->gid[mid] < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool in_group_p(gid_t gid)
{
	const struct cred *cred = current_cred();

	return gid == cred->fsgid || groups_search(cred->group_info, gid);
}

bool in_egroup_p(gid_t gid)
{
	const struct cred *cred = current_cred();

	return gid == cred->egid || groups_search(cred->group_info, gid);
}

/* ---- reading the ids ------------------------------------------------------ */

/* The ids as the caller's user namespace names them; one it does not map
 * shows as the overflow id (65534). */
static unsigned uid_out(uid_t kuid) { return from_kuid_munged(current_user_ns(), kuid); }
static unsigned gid_out(gid_t kgid) { return from_kgid_munged(current_user_ns(), kgid); }

long sys_getuid(void) { return uid_out(current_uid()); }
long sys_geteuid(void) { return uid_out(current_euid()); }
long sys_getgid(void) { return gid_out(current_gid()); }
long sys_getegid(void) { return gid_out(current_egid()); }

static long put_ids(unsigned r, unsigned e, unsigned s, unsigned __user *ur,
		    unsigned __user *ue, unsigned __user *us)
{
	if (put_user_u32(r, ur) || put_user_u32(e, ue) || put_user_u32(s, us))
		return -EFAULT;
	return 0;
}

long sys_getresuid(unsigned __user *r, unsigned __user *e, unsigned __user *s)
{
	const struct cred *c = current_cred();
	return put_ids(uid_out(c->uid), uid_out(c->euid), uid_out(c->suid), r, e, s);
}

long sys_getresgid(unsigned __user *r, unsigned __user *e, unsigned __user *s)
{
	const struct cred *c = current_cred();
	return put_ids(gid_out(c->gid), gid_out(c->egid), gid_out(c->sgid), r, e, s);
}

/* ---- changing them --------------------------------------------------------- */

/*
 * The rules below are Linux 6.1's (kernel/sys.c), call by call. An id of
 * -1 means "leave it"; as a value to set, -1 is invalid (EINVAL). Without
 * CAP_SETUID a uid may only be set to one of the real, effective or saved
 * uids the task has (setuid and setreuid are stricter still, see there).
 * A change of the effective uid moves the fsuid along, and the capability
 * rules (security/commoncap.c) follow the uids.
 */
#define NO_CHANGE ((unsigned)-1)

/*
 * The kernel ids of the ids the caller names (its user namespace's
 * names); NO_CHANGE stays. -EINVAL if the namespace maps one of them to
 * nothing, as Linux's make_kuid and uid_valid.
 */
static int uids_in(unsigned *a, unsigned *b, unsigned *c)
{
	unsigned *ids[] = { a, b, c };

	for (int i = 0; i < 3; i++) {
		if (!ids[i] || *ids[i] == NO_CHANGE)
			continue;
		*ids[i] = make_kuid(current_user_ns(), *ids[i]);
		if (*ids[i] == INVALID_UID)
			return -EINVAL;
	}
	return 0;
}

static int gids_in(unsigned *a, unsigned *b, unsigned *c)
{
	unsigned *ids[] = { a, b, c };

	for (int i = 0; i < 3; i++) {
		if (!ids[i] || *ids[i] == NO_CHANGE)
			continue;
		*ids[i] = make_kgid(current_user_ns(), *ids[i]);
		if (*ids[i] == INVALID_GID)
			return -EINVAL;
	}
	return 0;
}

/* CAP_SETUID and CAP_SETGID count in the caller's own namespace. */
#define setid_capable(cap) ns_capable(current_user_ns(), (cap))

/*
 * RLIMIT_NPROC for a new real uid: over the limit is not an error of
 * set*uid (too many programs do not check it) but of the next execve
 * (EAGAIN), as Linux defers it. Root's uid is exempt.
 */
static void flag_nproc_exceeded(const struct cred *new, const struct cred *old)
{
	if (new->uid == old->uid)
		return;
	/* The count does not hold current yet: it still has the old uid. */
	current->nproc_exceeded = new->uid != 0 &&
		(uint64_t)count_user_tasks(new->uid) > current->rlim[RLIMIT_NPROC].cur;
}

/* Finish a uid change: the capability rules, then install it. */
static long commit_setuid(struct cred *new, const struct cred *old, int flags)
{
	int err = security_task_fix_setuid(new, old, flags);

	if (err) {
		abort_creds(new);
		return err;
	}
	flag_nproc_exceeded(new, old);
	return commit_creds(new);
}

long sys_setuid(unsigned uid)
{
	const struct cred *old = current_cred();
	struct cred *new;

	if (uid == NO_CHANGE || uids_in(&uid, NULL, NULL))
		return -EINVAL;
	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	if (setid_capable(CAP_SETUID)) {
		new->uid = new->suid = uid;
	} else if (uid != old->uid && uid != old->suid) {
		abort_creds(new);
		return -EPERM;
	}
	new->euid = new->fsuid = uid;
	return commit_setuid(new, old, LSM_SETID_ID);
}

/* setreuid: the real uid may become the effective one (or stay); the saved
 * uid follows the new effective uid when the real uid is set, or when the
 * effective uid changes to something other than the old real uid. */
long sys_setreuid(unsigned ruid, unsigned euid)
{
	const struct cred *old = current_cred();
	struct cred *new;

	if (uids_in(&ruid, &euid, NULL))
		return -EINVAL;
	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	if (ruid != NO_CHANGE) {
		new->uid = ruid;
		if (ruid != old->uid && ruid != old->euid && !setid_capable(CAP_SETUID))
			goto eperm;
	}
	if (euid != NO_CHANGE) {
		new->euid = euid;
		if (euid != old->uid && euid != old->euid && euid != old->suid && !setid_capable(CAP_SETUID))
			goto eperm;
	}
	if (ruid != NO_CHANGE || (euid != NO_CHANGE && euid != old->uid))
		new->suid = new->euid;
	new->fsuid = new->euid;
	return commit_setuid(new, old, LSM_SETID_RE);
eperm:
	abort_creds(new);
	return -EPERM;
}

static bool held(unsigned id, unsigned r, unsigned e, unsigned s)
{
	return id == NO_CHANGE || id == r || id == e || id == s;
}

long sys_setresuid(unsigned ruid, unsigned euid, unsigned suid)
{
	const struct cred *old = current_cred();
	struct cred *new;

	if (uids_in(&ruid, &euid, &suid))
		return -EINVAL;
	if (!setid_capable(CAP_SETUID) &&
	    !(held(ruid, old->uid, old->euid, old->suid) && held(euid, old->uid, old->euid, old->suid) &&
	      held(suid, old->uid, old->euid, old->suid)))
		return -EPERM;
	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	if (ruid != NO_CHANGE)
		new->uid = ruid;
	if (euid != NO_CHANGE)
		new->euid = euid;
	if (suid != NO_CHANGE)
		new->suid = suid;
	new->fsuid = new->euid;
	return commit_setuid(new, old, LSM_SETID_RES);
}

/* The group calls: the same rules with CAP_SETGID, and no capability changes. */
static long commit_setgid(struct cred *new)
{
	new->fsgid = new->egid;
	return commit_creds(new);
}

long sys_setgid(unsigned gid)
{
	const struct cred *old = current_cred();
	struct cred *new;

	if (gid == NO_CHANGE || gids_in(&gid, NULL, NULL))
		return -EINVAL;
	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	if (setid_capable(CAP_SETGID)) {
		new->gid = new->sgid = gid;
	} else if (gid != old->gid && gid != old->sgid) {
		abort_creds(new);
		return -EPERM;
	}
	new->egid = gid;
	return commit_setgid(new);
}

long sys_setregid(unsigned rgid, unsigned egid)
{
	const struct cred *old = current_cred();
	struct cred *new;

	if (gids_in(&rgid, &egid, NULL))
		return -EINVAL;
	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	if (rgid != NO_CHANGE) {
		new->gid = rgid;
		if (rgid != old->gid && rgid != old->egid && !setid_capable(CAP_SETGID))
			goto eperm;
	}
	if (egid != NO_CHANGE) {
		new->egid = egid;
		if (egid != old->gid && egid != old->egid && egid != old->sgid && !setid_capable(CAP_SETGID))
			goto eperm;
	}
	if (rgid != NO_CHANGE || (egid != NO_CHANGE && egid != old->gid))
		new->sgid = new->egid;
	return commit_setgid(new);
eperm:
	abort_creds(new);
	return -EPERM;
}

long sys_setresgid(unsigned rgid, unsigned egid, unsigned sgid)
{
	const struct cred *old = current_cred();
	struct cred *new;

	if (gids_in(&rgid, &egid, &sgid))
		return -EINVAL;
	if (!setid_capable(CAP_SETGID) &&
	    !(held(rgid, old->gid, old->egid, old->sgid) && held(egid, old->gid, old->egid, old->sgid) &&
	      held(sgid, old->gid, old->egid, old->sgid)))
		return -EPERM;
	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	if (rgid != NO_CHANGE)
		new->gid = rgid;
	if (egid != NO_CHANGE)
		new->egid = egid;
	if (sgid != NO_CHANGE)
		new->sgid = sgid;
	return commit_setgid(new);
}

/*
 * setfsuid and setfsgid return the old id whatever happens (so a caller
 * checks by calling again). The new one may be any id the task holds, or
 * anything with CAP_SETUID (CAP_SETGID).
 */
long sys_setfsuid(unsigned uid)
{
	const struct cred *old = current_cred();
	uid_t old_fsuid = uid_out(old->fsuid);
	struct cred *new;

	if (uids_in(&uid, NULL, NULL) ||
	    uid == NO_CHANGE || uid == old->fsuid ||
	    (!held(uid, old->uid, old->euid, old->suid) && !setid_capable(CAP_SETUID)))
		return old_fsuid;
	new = prepare_creds();
	if (!new)
		return old_fsuid;
	new->fsuid = uid;
	if (security_task_fix_setuid(new, old, LSM_SETID_FS))
		abort_creds(new);
	else
		commit_creds(new);
	return old_fsuid;
}

long sys_setfsgid(unsigned gid)
{
	const struct cred *old = current_cred();
	gid_t old_fsgid = gid_out(old->fsgid);
	struct cred *new;

	if (gids_in(&gid, NULL, NULL) ||
	    gid == NO_CHANGE || gid == old->fsgid ||
	    (!held(gid, old->gid, old->egid, old->sgid) && !setid_capable(CAP_SETGID)))
		return old_fsgid;
	new = prepare_creds();
	if (!new)
		return old_fsgid;
	new->fsgid = gid;
	commit_creds(new);
	return old_fsgid;
}

/* ---- supplementary groups: the calls ------------------------------------- */

long sys_getgroups(int size, gid_t __user *list)
{
	const struct group_info *gi = current_cred()->group_info;

	if (size < 0)
		return -EINVAL;
	if (size == 0)
		return gi->ngroups;
	if (size < gi->ngroups)
		return -EINVAL;
	for (int i = 0; i < gi->ngroups; i++)
		if (put_user_u32(gid_out(gi->gid[i]), (uint32_t __user *)&list[i]))
			return -EFAULT;
	return gi->ngroups;
}

long sys_setgroups(int size, const gid_t __user *list)
{
	struct group_info *gi;
	struct cred *new;

	/* Only in a namespace whose gid_map is written and that did not deny
	 * it (/proc/PID/setgroups): Linux's may_setgroups. */
	if (!setid_capable(CAP_SETGID) || !userns_may_setgroups(current_user_ns()))
		return -EPERM;
	if ((unsigned)size > NGROUPS_MAX)
		return -EINVAL;
	gi = groups_alloc(size);
	if (!gi)
		return -ENOMEM;
	if (copy_from_user(gi->gid, list, size * sizeof(gid_t))) {
		put_group_info(gi);
		return -EFAULT;
	}
	for (int i = 0; i < size; i++) {
		gi->gid[i] = make_kgid(current_user_ns(), gi->gid[i]);
		if (gi->gid[i] == INVALID_GID) {
			put_group_info(gi);
			return -EINVAL;
		}
	}
	groups_sort(gi);
	new = prepare_creds();
	if (!new) {
		put_group_info(gi);
		return -ENOMEM;
	}
	put_group_info(new->group_info);
	new->group_info = gi;
	return commit_creds(new);
}
