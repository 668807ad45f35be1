/*
 * cred.c - who a process is: real, effective and saved user and group ids
 * and the supplementary groups, with Linux's rules for changing them.
 * Root (effective uid 0) may set anything; anyone else may only move
 * between the ids it already has. There are no capabilities beyond that.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <uaccess.h>

#define NGROUPS_MAX 65536
#define NO_CHANGE ((unsigned)-1)

long sys_getuid(void) { return current->uid; }
long sys_geteuid(void) { return current->euid; }
long sys_getgid(void) { return current->gid; }
long sys_getegid(void) { return current->egid; }

static bool privileged(void) { return current->euid == 0; }

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

long sys_setresuid(unsigned r, unsigned e, unsigned s)
{
	return set_res(&current->uid, &current->euid, &current->suid, r, e, s);
}

long sys_setresgid(unsigned r, unsigned e, unsigned s)
{
	/* Privilege is the effective uid's, so check before any change. */
	return set_res(&current->gid, &current->egid, &current->sgid, r, e, s);
}

/* setuid: root sets all three ids; others only the effective one. */
long sys_setuid(unsigned uid)
{
	if (privileged())
		return sys_setresuid(uid, uid, uid);
	if (uid != current->uid && uid != current->suid)
		return -EPERM;
	current->euid = uid;
	return 0;
}

long sys_setgid(unsigned gid)
{
	if (privileged())
		return sys_setresgid(gid, gid, gid);
	if (gid != current->gid && gid != current->sgid)
		return -EPERM;
	current->egid = gid;
	return 0;
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
	return set_re(&current->uid, &current->euid, &current->suid, r, e);
}

long sys_setregid(unsigned r, unsigned e)
{
	return set_re(&current->gid, &current->egid, &current->sgid, r, e);
}

static long get_res(unsigned r, unsigned e, unsigned s, unsigned __user *ur,
		    unsigned __user *ue, unsigned __user *us)
{
	if (put_user_u32(r, ur) || put_user_u32(e, ue) || put_user_u32(s, us))
		return -EFAULT;
	return 0;
}

long sys_getresuid(unsigned __user *r, unsigned __user *e, unsigned __user *s)
{
	return get_res(current->uid, current->euid, current->suid, r, e, s);
}

long sys_getresgid(unsigned __user *r, unsigned __user *e, unsigned __user *s)
{
	return get_res(current->gid, current->egid, current->sgid, r, e, s);
}

long sys_getgroups(int size, gid_t __user *list)
{
	if (size < 0)
		return -EINVAL;
	if (size == 0)
		return current->ngroups;
	if (size < current->ngroups)
		return -EINVAL;
	if (copy_to_user(list, current->groups, current->ngroups * sizeof(gid_t)))
		return -EFAULT;
	return current->ngroups;
}

long sys_setgroups(int size, const gid_t __user *list)
{
	if (!privileged())
		return -EPERM;
	if (size < 0 || size > NGROUPS_MAX)
		return -EINVAL;
	if (size > NGROUPS_KEPT)
		return -ENOMEM; /* a limit of ours; Linux takes up to 65536 */
	if (copy_from_user(current->groups, list, size * sizeof(gid_t)))
		return -EFAULT;
	current->ngroups = size;
	return 0;
}
