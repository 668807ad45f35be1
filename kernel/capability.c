/*
 * capability.c - capget and capset: reading and changing a process's
 * effective, permitted and inheritable capability sets (capabilities(7)).
 * The bounding and ambient sets are prctl's (security/commoncap.c).
 *
 * User space passes a header {version, pid} and an array of {effective,
 * permitted, inheritable} 32-bit words: one for version 1, two (bits 0-31,
 * then 32-63) for versions 2 and 3. An unknown version is answered with
 * EINVAL and the header rewritten to the version the kernel prefers, so
 * that a library can ask which one that is.
 */
#include <cred.h>
#include <linux/pid_namespace.h>
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <uaccess.h>

#define _LINUX_CAPABILITY_VERSION_1 0x19980330
#define _LINUX_CAPABILITY_VERSION_2 0x20071026
#define _LINUX_CAPABILITY_VERSION_3 0x20080522

struct cap_header {
	uint32_t version;
	int pid;
};

struct cap_data {
	uint32_t effective, permitted, inheritable;
};

/* A field of the user's header, which need not be aligned: its address
 * by arithmetic, not a member access through a misaligned pointer
 * (undefined behaviour, which UBSAN reports). */
#define HEADER_FIELD(h, f) ((void __user *)((char __user *)(h) + offsetof(struct cap_header, f)))

/* How many cap_data words the header's version has; -EINVAL (header
 * rewritten) or -EFAULT. */
static int cap_validate_magic(struct cap_header __user *header, unsigned *words)
{
	uint32_t version;

	if (copy_from_user(&version, HEADER_FIELD(header, version), sizeof(version)))
		return -EFAULT;
	switch (version) {
	case _LINUX_CAPABILITY_VERSION_1:
		*words = 1;
		return 0;
	case _LINUX_CAPABILITY_VERSION_2:
	case _LINUX_CAPABILITY_VERSION_3:
		*words = 2;
		return 0;
	}
	version = _LINUX_CAPABILITY_VERSION_3;
	if (put_user_u32(version, HEADER_FIELD(header, version)))
		return -EFAULT;
	return -EINVAL;
}

long sys_capget(struct cap_header __user *header, struct cap_data __user *dataptr)
{
	struct cap_data kdata[2];
	const struct cred *cred;
	unsigned words;
	int pid, ret;

	ret = cap_validate_magic(header, &words);
	/* A NULL data pointer asks only for the preferred version. */
	if (!dataptr || ret)
		return (!dataptr && ret == -EINVAL) ? 0 : ret;
	if (copy_from_user(&pid, HEADER_FIELD(header, pid), sizeof(pid)))
		return -EFAULT;
	if (pid < 0)
		return -EINVAL;
	if (pid && pid != task_pid_vnr(current)) {
		struct task *t = find_task(pid);
		if (!t)
			return -ESRCH;
		cred = task_cred(t);
	} else {
		cred = current_cred();
	}
	for (unsigned i = 0; i < 2; i++) {
		kdata[i].effective = cred->cap_effective >> (32 * i);
		kdata[i].permitted = cred->cap_permitted >> (32 * i);
		kdata[i].inheritable = cred->cap_inheritable >> (32 * i);
	}
	return copy_to_user(dataptr, kdata, words * sizeof(kdata[0]));
}

/*
 * capset: only of the caller itself. The new permitted set may only
 * shrink; the effective set must lie within it; the inheritable set may
 * take only what the caller permits or inherits (anything with
 * CAP_SETPCAP), and never beyond the bounding set.
 */
long sys_capset(struct cap_header __user *header, const struct cap_data __user *data)
{
	const struct cred *old = current_cred();
	struct cap_data kdata[2] = { 0 };
	kernel_cap_t effective = 0, permitted = 0, inheritable = 0;
	struct cred *new;
	unsigned words;
	int pid, ret;

	ret = cap_validate_magic(header, &words);
	if (ret)
		return ret;
	if (copy_from_user(&pid, HEADER_FIELD(header, pid), sizeof(pid)))
		return -EFAULT;
	if (pid != 0 && pid != task_pid_vnr(current))
		return -EPERM;
	if (copy_from_user(kdata, data, words * sizeof(kdata[0])))
		return -EFAULT;
	for (unsigned i = 0; i < words; i++) {
		effective |= (kernel_cap_t)kdata[i].effective << (32 * i);
		permitted |= (kernel_cap_t)kdata[i].permitted << (32 * i);
		inheritable |= (kernel_cap_t)kdata[i].inheritable << (32 * i);
	}
	effective &= CAP_FULL_SET;
	permitted &= CAP_FULL_SET;
	inheritable &= CAP_FULL_SET;

	if (!capable(CAP_SETPCAP) &&
	    !cap_issubset(inheritable, old->cap_inheritable | old->cap_permitted))
		return -EPERM;
	if (!cap_issubset(inheritable, old->cap_inheritable | old->cap_bset))
		return -EPERM;
	if (!cap_issubset(permitted, old->cap_permitted))
		return -EPERM;
	if (!cap_issubset(effective, permitted))
		return -EPERM;

	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	new->cap_effective = effective;
	new->cap_permitted = permitted;
	new->cap_inheritable = inheritable;
	/* Ambient capabilities must stay permitted and inheritable. */
	new->cap_ambient &= permitted & inheritable;
	return commit_creds(new);
}

bool ns_capable(struct user_namespace *ns, int cap)
{
	BUG_ON(!cap_valid(cap));
	return cap_capable(current_cred(), ns, cap);
}
