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
#include <string.h>
#include <uaccess.h>

/* ---- the life of a set of credentials ---------------------------------- */

static struct group_info init_groups = { .usage = 1, .ngroups = 0 };

struct cred init_cred = {
	.usage = 1,
	.cap_permitted = CAP_FULL_SET,
	.cap_effective = CAP_FULL_SET,
	.cap_bset = CAP_FULL_SET,
	.group_info = &init_groups,
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
	return new;
}

/* fork: the child shares the parent's credentials (both pointers). */
void copy_creds(struct task *child, const struct task *parent)
{
	put_cred(child->real_cred);
	put_cred(child->cred);
	child->real_cred = get_cred(parent->cred);
	child->cred = get_cred(parent->cred);
}

/* The credentials exec starts from (Linux also resets keyrings here). */
struct cred *prepare_exec_creds(void)
{
	return prepare_creds();
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

long sys_getuid(void) { return current_uid(); }
long sys_geteuid(void) { return current_euid(); }
long sys_getgid(void) { return current_gid(); }
long sys_getegid(void) { return current_egid(); }

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
	return put_ids(c->uid, c->euid, c->suid, r, e, s);
}

long sys_getresgid(unsigned __user *r, unsigned __user *e, unsigned __user *s)
{
	const struct cred *c = current_cred();
	return put_ids(c->gid, c->egid, c->sgid, r, e, s);
}

/* ---- changing them --------------------------------------------------------- */

#define NO_CHANGE ((unsigned)-1)

static bool privileged(void) { return current_euid() == 0; }

/* May an unprivileged process take id, given its real, effective and saved ids? */
static bool one_of(unsigned id, unsigned r, unsigned e, unsigned s)
{
	return id == r || id == e || id == s;
}

/* setresuid and setresgid: -1 leaves an id as it is. */
static long set_res(unsigned *r, unsigned *e, unsigned *s, unsigned nr, unsigned ne, unsigned ns)
{
	if (!privileged()) {
		if ((nr != NO_CHANGE && !one_of(nr, *r, *e, *s)) ||
		    (ne != NO_CHANGE && !one_of(ne, *r, *e, *s)) ||
		    (ns != NO_CHANGE && !one_of(ns, *r, *e, *s)))
			return -EPERM;
	}
	if (nr != NO_CHANGE)
		*r = nr;
	if (ne != NO_CHANGE)
		*e = ne;
	if (ns != NO_CHANGE)
		*s = ns;
	return 0;
}

/* Apply change to a copy of current's credentials, and commit it if it
 * answers 0; the file system ids follow the effective ones. */
#define CHANGE_CREDS(new, change)                            \
	({                                                   \
		struct cred *new = prepare_creds();          \
		long __ret = -ENOMEM;                        \
		if (new) {                                   \
			__ret = (change);                    \
			new->fsuid = new->euid;              \
			new->fsgid = new->egid;              \
			if (__ret)                           \
				abort_creds(new);            \
			else                                 \
				commit_creds(new);           \
		}                                            \
		__ret;                                       \
	})

long sys_setresuid(unsigned r, unsigned e, unsigned s)
{
	return CHANGE_CREDS(new, set_res(&new->uid, &new->euid, &new->suid, r, e, s));
}

long sys_setresgid(unsigned r, unsigned e, unsigned s)
{
	return CHANGE_CREDS(new, set_res(&new->gid, &new->egid, &new->sgid, r, e, s));
}

/* setuid: root sets all three ids; others only the effective one. */
static long set_one(unsigned *r, unsigned *e, unsigned *s, unsigned id)
{
	if (privileged())
		return set_res(r, e, s, id, id, id);
	if (id != *r && id != *s)
		return -EPERM;
	*e = id;
	return 0;
}

long sys_setuid(unsigned uid)
{
	return CHANGE_CREDS(new, set_one(&new->uid, &new->euid, &new->suid, uid));
}

long sys_setgid(unsigned gid)
{
	return CHANGE_CREDS(new, set_one(&new->gid, &new->egid, &new->sgid, gid));
}

/* setreuid: the saved id follows the new effective id when the real id is
 * set, or the effective id changes to something other than the old real id. */
static long set_re(unsigned *r, unsigned *e, unsigned *s, unsigned nr, unsigned ne)
{
	unsigned old_r = *r;

	if (!privileged()) {
		if (nr != NO_CHANGE && nr != *r && nr != *e)
			return -EPERM;
		if (ne != NO_CHANGE && !one_of(ne, *r, *e, *s))
			return -EPERM;
	}
	if (nr != NO_CHANGE)
		*r = nr;
	if (ne != NO_CHANGE)
		*e = ne;
	if (nr != NO_CHANGE || (ne != NO_CHANGE && ne != old_r))
		*s = *e;
	return 0;
}

long sys_setreuid(unsigned r, unsigned e)
{
	return CHANGE_CREDS(new, set_re(&new->uid, &new->euid, &new->suid, r, e));
}

long sys_setregid(unsigned r, unsigned e)
{
	return CHANGE_CREDS(new, set_re(&new->gid, &new->egid, &new->sgid, r, e));
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
	if (copy_to_user(list, gi->gid, gi->ngroups * sizeof(gid_t)))
		return -EFAULT;
	return gi->ngroups;
}

long sys_setgroups(int size, const gid_t __user *list)
{
	struct group_info *gi;
	struct cred *new;

	if (!privileged())
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
