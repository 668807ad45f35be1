/*
 * commoncap.c - the capability rules: how the ids of root turn into
 * capabilities, at exec and at set*id. Linux's security/commoncap.c, the
 * "capability" module that every other security module stacks on.
 *
 * Capabilities came to Unix after root did, so Linux keeps root working as
 * before by rules that tie the capability sets to uid 0 (capabilities(7),
 * "Capabilities and execution of programs by root"):
 *
 *   exec    a program run with euid 0, or real uid 0, gets a full
 *           permitted set (the bounding set); with euid 0 also a full
 *           effective set. Anyone else keeps only the ambient set. We
 *           have no file capabilities (no extended attributes), so for a
 *           non-root program that is all.
 *   set*id  dropping every 0 among the real, effective and saved uid
 *           empties the permitted and effective sets (unless
 *           PR_SET_KEEPCAPS); the effective uid leaving 0 empties the
 *           effective set, coming back to 0 refills it from the permitted.
 *   setfsuid  the fsuid leaving 0 drops the file system capabilities
 *           (CAP_FS_SET) from the effective set; coming back raises them.
 *
 * And one rule for everyone: an exec that raises privileges (set-user-ID,
 * set-group-ID, more capabilities) while it is not safe to do so
 * (bprm->unsafe: no_new_privs, a shared fs_struct) gets no more than the
 * caller had.
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <sched.h>
#include <security.h>
#include <linux/user_namespace.h>

bool cap_capable(const struct cred *cred, struct user_namespace *targ_ns, int cap)
{
	struct user_namespace *ns = targ_ns;

	/* Walk up from ns to the cred's namespace; a sibling or an ancestor
	 * of the cred's namespace is never reached: no capability there. */
	for (;;) {
		if (ns == cred->user_ns)
			return cap_raised(cred->cap_effective, cap);
		if (ns->level <= cred->user_ns->level)
			return false;
		/* The owner of a namespace made in the cred's has all in it. */
		if (ns->parent == cred->user_ns && ns->owner == cred->euid)
			return true;
		ns = ns->parent;
	}
}

/*
 * Root's capabilities at exec (Linux's handle_privileged_root): root, by
 * real or effective uid, is given every capability its bounding set
 * allows; the effective set is filled only for euid 0.
 */
static void handle_privileged_root(struct linux_binprm *bprm, bool *effective)
{
	const struct cred *old = current_cred();
	struct cred *new = bprm->cred;
	uid_t root_uid = make_kuid(new->user_ns, 0);

	if (new->euid == root_uid || new->uid == root_uid)
		new->cap_permitted = old->cap_bset | old->cap_inheritable;
	if (new->euid == root_uid)
		*effective = true;
}

/*
 * The new program's capabilities, and what set-user-ID may keep, once
 * bprm_fill_uid has set bprm->cred's effective ids from the file. Sets
 * bprm->secureexec (AT_SECURE) when the exec raises privileges. file has
 * no capabilities of its own here (Linux reads security.capability).
 */
int cap_bprm_creds_from_file(struct linux_binprm *bprm, struct file *file)
{
	const struct cred *old = current_cred();
	struct cred *new = bprm->cred;
	bool effective = false, is_setid, gained;

	(void)file;
	/* pP' = (X & fP) | (pI & fI) | pA': with no file capabilities fP and
	 * fI are empty; root's rules below stand for a full fP. */
	new->cap_permitted = CAP_EMPTY_SET;
	handle_privileged_root(bprm, &effective);

	/* Set-user-ID is any difference from the caller's real ids. */
	is_setid = new->euid != old->uid || new->egid != old->gid;
	gained = !cap_issubset(new->cap_permitted, old->cap_permitted);

	/*
	 * Not safe to raise privileges (there is no ptrace, so no tracer to
	 * ask about): the ids fall back to the real ones unless the caller
	 * could set them anyway, and the capabilities to the caller's.
	 */
	if ((is_setid || gained) && (bprm->unsafe & ~LSM_UNSAFE_PTRACE)) {
		if (!capable(CAP_SETUID) || (bprm->unsafe & LSM_UNSAFE_NO_NEW_PRIVS)) {
			new->euid = new->uid;
			new->egid = new->gid;
		}
		new->cap_permitted &= old->cap_permitted;
	}

	/* The saved and file system ids follow the new effective ones. */
	new->suid = new->fsuid = new->euid;
	new->sgid = new->fsgid = new->egid;

	/* A set-user-ID or set-group-ID exec clears the ambient set. */
	if (is_setid)
		new->cap_ambient = CAP_EMPTY_SET;
	new->cap_permitted |= new->cap_ambient;
	/* pE' = fE ? pP' : pA' (root's "fE" is its euid 0). */
	new->cap_effective = effective ? new->cap_permitted : new->cap_ambient;
	new->securebits &= ~SECBIT_KEEP_CAPS;

	/*
	 * AT_SECURE: the C library of the new program must distrust its
	 * environment (LD_PRELOAD, ...) when the exec raised privileges: a
	 * set-user-ID or set-group-ID change, or capabilities beyond the
	 * ambient ones for a program whose real uid is not 0.
	 */
	if (is_setid ||
	    (new->uid != make_kuid(new->user_ns, 0) && (effective || !cap_issubset(new->cap_permitted, new->cap_ambient))))
		bprm->secureexec = true;
	return 0;
}

/* The capabilities follow the uids (Linux's cap_emulate_setxuid). */
static void cap_emulate_setxuid(struct cred *new, const struct cred *old)
{
	uid_t root = make_kuid(old->user_ns, 0);
	bool old_root = old->uid == root || old->euid == root || old->suid == root;
	bool new_root = new->uid == root || new->euid == root || new->suid == root;

	if (old_root && !new_root) {
		if (!(old->securebits & SECBIT_KEEP_CAPS)) {
			new->cap_permitted = CAP_EMPTY_SET;
			new->cap_effective = CAP_EMPTY_SET;
		}
		/* Programs older than ambient capabilities expect setresuid to
		 * a non-root user, then exec, to drop everything. */
		new->cap_ambient = CAP_EMPTY_SET;
	}
	if (old->euid == root && new->euid != root)
		new->cap_effective = CAP_EMPTY_SET;
	if (old->euid != root && new->euid == root)
		new->cap_effective = new->cap_permitted;
}

int cap_task_fix_setuid(struct cred *new, const struct cred *old, int flags)
{
	uid_t root;

	switch (flags) {
	case LSM_SETID_RE:
	case LSM_SETID_ID:
	case LSM_SETID_RES:
		cap_emulate_setxuid(new, old);
		return 0;
	case LSM_SETID_FS:
		root = make_kuid(old->user_ns, 0);
		if (old->fsuid == root && new->fsuid != root)
			new->cap_effective &= ~CAP_FS_SET;
		if (old->fsuid != root && new->fsuid == root)
			new->cap_effective |= new->cap_permitted & CAP_FS_SET;
		return 0;
	}
	return -EINVAL;
}

/*
 * May current look into t? (Linux's cap_ptrace_access_check): only if t
 * is in current's user namespace and has no permitted capability that
 * current lacks, or with CAP_SYS_PTRACE in t's user namespace.
 */
int cap_ptrace_access_check(struct task *t, unsigned mode)
{
	const struct cred *cred = current_cred(), *tcred = task_cred(t);
	kernel_cap_t caller = (mode & PTRACE_MODE_FSCREDS) ? cred->cap_effective : cred->cap_permitted;

	/* Capabilities of one namespace compare only with that namespace's. */
	if (cred->user_ns == tcred->user_ns && cap_issubset(tcred->cap_permitted, caller))
		return 0;
	if (ns_capable(tcred->user_ns, CAP_SYS_PTRACE))
		return 0;
	return -EPERM;
}

/* ---- prctl's capability options ------------------------------------------ */

#define PR_GET_KEEPCAPS 7
#define PR_SET_KEEPCAPS 8
#define PR_CAPBSET_READ 23
#define PR_CAPBSET_DROP 24
#define PR_GET_SECUREBITS 27
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_IS_SET 1
#define PR_CAP_AMBIENT_RAISE 2
#define PR_CAP_AMBIENT_LOWER 3
#define PR_CAP_AMBIENT_CLEAR_ALL 4

/* Commit a copy of current's credentials after change(new, arg). */
static long change_caps(void (*change)(struct cred *new, unsigned long arg), unsigned long arg)
{
	struct cred *new = prepare_creds();

	if (!new)
		return -ENOMEM;
	change(new, arg);
	return commit_creds(new);
}

static void set_keepcaps(struct cred *new, unsigned long on)
{
	if (on)
		new->securebits |= SECBIT_KEEP_CAPS;
	else
		new->securebits &= ~SECBIT_KEEP_CAPS;
}

static void drop_bset(struct cred *new, unsigned long cap) { new->cap_bset &= ~CAP_TO_MASK(cap); }
static void raise_ambient(struct cred *new, unsigned long cap) { new->cap_ambient |= CAP_TO_MASK(cap); }
static void lower_ambient(struct cred *new, unsigned long cap) { new->cap_ambient &= ~CAP_TO_MASK(cap); }
static void clear_ambient(struct cred *new, unsigned long unused) { (void)unused; new->cap_ambient = 0; }

long cap_task_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
		    unsigned long arg5)
{
	const struct cred *cred = current_cred();

	switch (option) {
	case PR_GET_KEEPCAPS:
		return !!(cred->securebits & SECBIT_KEEP_CAPS);
	case PR_SET_KEEPCAPS:
		if (arg2 > 1)
			return -EINVAL;
		return change_caps(set_keepcaps, arg2);
	case PR_GET_SECUREBITS:
		return cred->securebits;
	case PR_CAPBSET_READ:
		if (!cap_valid(arg2))
			return -EINVAL;
		return cap_raised(cred->cap_bset, arg2);
	case PR_CAPBSET_DROP:
		if (!ns_capable(current_user_ns(), CAP_SETPCAP))
			return -EPERM;
		if (!cap_valid(arg2))
			return -EINVAL;
		return change_caps(drop_bset, arg2);
	case PR_CAP_AMBIENT:
		if (arg2 == PR_CAP_AMBIENT_CLEAR_ALL)
			return (arg3 | arg4 | arg5) ? -EINVAL : change_caps(clear_ambient, 0);
		if (!cap_valid(arg3) || arg4 || arg5)
			return -EINVAL;
		if (arg2 == PR_CAP_AMBIENT_IS_SET)
			return cap_raised(cred->cap_ambient, arg3);
		if (arg2 == PR_CAP_AMBIENT_LOWER)
			return change_caps(lower_ambient, arg3);
		if (arg2 != PR_CAP_AMBIENT_RAISE)
			return -EINVAL;
		/* Only what is both permitted and inheritable may be ambient. */
		if (!cap_raised(cred->cap_permitted, arg3) || !cap_raised(cred->cap_inheritable, arg3))
			return -EPERM;
		return change_caps(raise_ambient, arg3);
	}
	return -ENOSYS;
}
