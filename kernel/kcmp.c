/*
 * kernel/kcmp.c - kcmp(2): do two processes share a kernel object? For
 * checkpoint/restore tools, which must find out which descriptors, memory
 * maps or descriptor tables are shared without seeing kernel addresses.
 *
 * The answer orders the two objects' addresses after an obfuscation with
 * random numbers drawn once per type (Linux's kptr_obfuscate): 0 the same
 * object, 1 or 2 different ones, in an order that says nothing about
 * where they are. Both processes must be open to the caller as ptrace
 * would need (PTRACE_MODE_READ_REALCREDS).
 */
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <random.h>
#include <sched.h>
#include <security.h>
#include <uaccess.h>

enum kcmp_type {
	KCMP_FILE, KCMP_VM, KCMP_FILES, KCMP_FS, KCMP_SIGHAND, KCMP_IO, KCMP_SYSVSEM,
	KCMP_EPOLL_TFD, KCMP_TYPES,
};

/* The user's struct kcmp_epoll_slot. */
struct kcmp_epoll_slot {
	uint32_t efd, tfd, toff;
};

static uint64_t cookies[KCMP_TYPES][2];

static int kcmp_ptr(const void *a, const void *b, enum kcmp_type type)
{
	if (!cookies[type][1]) {
		cookies[type][0] = get_random_u64();
		cookies[type][1] = get_random_u64() | (1UL << 63) | 1; /* odd: one to one */
	}
	int64_t t1 = ((uint64_t)a ^ cookies[type][0]) * cookies[type][1];
	int64_t t2 = ((uint64_t)b ^ cookies[type][0]) * cookies[type][1];
	return (t1 < t2) | (t1 > t2) << 1;
}

/* KCMP_EPOLL_TFD: t1's descriptor idx1, and the file t2's epoll set
 * (slot->efd) watches for descriptor slot->tfd. */
static long kcmp_epoll_target(struct task *t1, struct task *t2, unsigned long idx1,
			      const struct kcmp_epoll_slot __user *uslot)
{
	struct file *file = task_file(t1, idx1), *epfile, *target;
	struct kcmp_epoll_slot slot;

	if (!file)
		return -EBADF;
	if (copy_from_user(&slot, uslot, sizeof(slot)))
		return -EFAULT;
	if (!(epfile = task_file(t2, slot.efd)))
		return -EBADF;
	target = epoll_target_file(epfile, slot.tfd, slot.toff);
	return IS_ERR(target) ? PTR_ERR(target) : kcmp_ptr(file, target, KCMP_FILE);
}

long sys_kcmp(pid_t pid1, pid_t pid2, int type, unsigned long idx1, unsigned long idx2)
{
	struct task *t1 = find_task(pid1), *t2 = find_task(pid2);

	if (!t1 || !t2)
		return -ESRCH;
	if (!ptrace_may_access(t1, PTRACE_MODE_READ_REALCREDS) ||
	    !ptrace_may_access(t2, PTRACE_MODE_READ_REALCREDS))
		return -EPERM;
	switch (type) {
	case KCMP_FILE: {
		struct file *f1 = task_file(t1, idx1), *f2 = task_file(t2, idx2);
		return f1 && f2 ? kcmp_ptr(f1, f2, KCMP_FILE) : -EBADF;
	}
	case KCMP_VM:
		return kcmp_ptr(t1->mm, t2->mm, KCMP_VM);
	case KCMP_FILES:
		return kcmp_ptr(t1->files, t2->files, KCMP_FILES);
	case KCMP_FS:
		return kcmp_ptr(t1->fs, t2->fs, KCMP_FS);
	case KCMP_SIGHAND:
		return kcmp_ptr(t1->sighand, t2->sighand, KCMP_SIGHAND);
	case KCMP_IO:      /* no I/O contexts: every task has none */
	case KCMP_SYSVSEM: /* no System V semaphore undo lists: none either */
		return kcmp_ptr(NULL, NULL, type);
	case KCMP_EPOLL_TFD:
		return kcmp_epoll_target(t1, t2, idx1, (const struct kcmp_epoll_slot __user *)idx2);
	default:
		return -EINVAL;
	}
}
