/*
 * util.c - the id layer that System V semaphores, message queues and
 * shared memory share (Linux: ipc/util.c).
 *
 * An object (struct kern_ipc_perm at the head of a semaphore set, queue or
 * segment) has a key, given to the get calls, and an id, given back: its
 * slot in the table (idx) plus seq * IPCMNI, where seq grows each time the
 * slots are given out from the start again, so that an old id does not
 * name the object that took its slot (EINVAL). Slots are given cyclically
 * after the last one, below max(64, 3/2 of those in use), as Linux's
 * ipc_idr_alloc. Lock order: util.h.
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <linux/user_namespace.h>
#include <mm.h>
#include <sched.h>
#include <string.h>
#include <timekeeping.h>
#include <x86.h>
#include "util.h"

void ipc_lock(struct ipc_lock *l)
{
	if (l->owner)
		panic("ipc: a lock held by %d across a sleep", l->owner->pid);
	l->owner = current;
}

void ipc_unlock(struct ipc_lock *l)
{
	l->owner = NULL;
}

int64_t ipc_now(void)
{
	struct timespec ts;
	ktime_get_real(&ts);
	return ts.tv_sec;
}

struct kern_ipc_perm *ipc_findkey(struct ipc_ids *ids, int key)
{
	for (int i = 0; i <= ids->max_idx; i++)
		if (ids->entries[i] && ids->entries[i]->key == key)
			return ids->entries[i];
	return NULL;
}

/* Make room for slots [0, want): 0 or -ENOMEM. */
static int ipc_grow(struct ipc_ids *ids, int want)
{
	int size = ids->size ? ids->size : IPC_MIN_CYCLE;
	struct kern_ipc_perm **bigger;

	if (want <= ids->size)
		return 0;
	while (size < want)
		size *= 2;
	if (!(bigger = kzalloc(size * sizeof(*bigger))))
		return -ENOMEM;
	if (ids->size)
		memcpy(bigger, ids->entries, ids->size * sizeof(*bigger));
	kfree(ids->entries);
	ids->entries = bigger;
	ids->size = size;
	return 0;
}

/* A free slot below end, from the one after the last given (wrapping to
 * 0 as idr_alloc_cyclic does); -ENOSPC if none. */
static int ipc_idr_alloc(struct ipc_ids *ids, int end)
{
	int start = ids->last_idx + 1 < end ? ids->last_idx + 1 : 0;

	for (int n = 0; n < end; n++) {
		int idx = (start + n) % end;
		if (!ids->entries[idx])
			return idx;
	}
	return -ENOSPC;
}

static int ipc_enter(struct ipc_ids *ids, struct kern_ipc_perm *new, int idx);

/* As Linux with CONFIG_CHECKPOINT_RESTORE: the id msg_next_id asks for (the
 * next free slot from its idx), once. */
static int ipc_addid_next(struct ipc_ids *ids, struct kern_ipc_perm *new)
{
	int idx = ids->next_id & (IPCMNI - 1);

	new->seq = ids->next_id >> IPCMNI_SHIFT;
	ids->next_id = -1;
	if (ipc_grow(ids, IPCMNI))
		return -ENOMEM;
	while (idx < IPCMNI && ids->entries[idx])
		idx++;
	return idx < IPCMNI ? ipc_enter(ids, new, idx) : -ENOSPC;
}

int ipc_addid(struct ipc_ids *ids, struct kern_ipc_perm *new, int limit)
{
	int end = MIN(MAX(ids->in_use * 3 / 2, IPC_MIN_CYCLE), IPCMNI);
	int idx;

	if (ids->in_use >= MIN(limit, IPCMNI))
		return -ENOSPC;
	if (ids->next_id >= 0) /* checkpoint/restore: the first free slot from its idx on */
		return ipc_addid_next(ids, new);
	if (ipc_grow(ids, end))
		return -ENOMEM;
	idx = ipc_idr_alloc(ids, end);
	if (idx < 0)
		return idx;
	if (idx <= ids->last_idx && ++ids->seq >= IPCID_SEQ_MAX)
		ids->seq = 0;
	ids->last_idx = idx;
	new->seq = ids->seq;
	return ipc_enter(ids, new, idx);
}

/* The object goes in slot idx, its seq already chosen. */
static int ipc_enter(struct ipc_ids *ids, struct kern_ipc_perm *new, int idx)
{
	new->id = (new->seq << IPCMNI_SHIFT) + idx;
	new->uid = new->cuid = current_euid();
	new->gid = new->cgid = current_egid();
	new->deleted = false;
	new->refs = 1;
	ids->entries[idx] = new;
	ids->in_use++;
	ids->max_idx = MAX(ids->max_idx, idx);
	return new->id;
}

void ipc_rmid(struct ipc_ids *ids, struct kern_ipc_perm *perm)
{
	int idx = perm->id & (IPCMNI - 1);

	ids->entries[idx] = NULL;
	ids->in_use--;
	perm->deleted = true;
	while (ids->max_idx >= 0 && !ids->entries[ids->max_idx])
		ids->max_idx--;
	if (!ids->in_use) { /* give the slots back: an empty table costs nothing */
		kfree(ids->entries);
		ids->entries = NULL;
		ids->size = 0;
	}
	ipc_putref(perm);
}

struct kern_ipc_perm *ipc_obtain_object_idr(struct ipc_ids *ids, int id)
{
	int idx = id & (IPCMNI - 1);

	if (id < 0 || idx >= ids->size || !ids->entries[idx])
		return ERR_PTR(-EINVAL);
	return ids->entries[idx];
}

struct kern_ipc_perm *ipc_obtain_object_check(struct ipc_ids *ids, int id)
{
	struct kern_ipc_perm *perm = ipc_obtain_object_idr(ids, id);

	if (!IS_ERR(perm) && perm->id != id)
		return ERR_PTR(-EINVAL);
	return perm;
}

int ipc_get_maxidx(const struct ipc_ids *ids)
{
	if (!ids->in_use)
		return -1;
	return ids->in_use == IPCMNI ? IPCMNI - 1 : ids->max_idx;
}

void ipc_getref(struct kern_ipc_perm *perm)
{
	perm->refs++;
}

void ipc_putref(struct kern_ipc_perm *perm)
{
	if (--perm->refs == 0)
		perm->free(perm);
}

bool ipcperms(const struct kern_ipc_perm *perm, int flag)
{
	int requested = (flag >> 6) | (flag >> 3) | flag, granted = perm->mode;

	if (current_euid() == perm->cuid || current_euid() == perm->uid)
		granted >>= 6;
	else if (in_group_p(perm->cgid) || in_group_p(perm->gid))
		granted >>= 3;
	/* The objects the caller reaches are its IPC namespace's: CAP_IPC_OWNER
	 * counts in that namespace's owner. */
	return !(requested & ~granted & 0007) || ns_capable(current_ipc_ns()->user_ns, CAP_IPC_OWNER);
}

struct kern_ipc_perm *ipcctl_obtain_check(struct ipc_ids *ids, int id)
{
	struct kern_ipc_perm *perm = ipc_obtain_object_check(ids, id);

	if (IS_ERR(perm))
		return perm;
	if (current_euid() == perm->cuid || current_euid() == perm->uid ||
	    ns_capable(current_ipc_ns()->user_ns, CAP_SYS_ADMIN))
		return perm;
	return ERR_PTR(-EPERM);
}

int ipc_update_perm(const struct ipc64_perm *in, struct kern_ipc_perm *out)
{
	/* The ids as the caller's user namespace names them (EINVAL: none). */
	uid_t uid = make_kuid(current_user_ns(), in->uid);
	gid_t gid = make_kgid(current_user_ns(), in->gid);

	if (uid == INVALID_UID || gid == INVALID_GID)
		return -EINVAL;
	out->uid = uid;
	out->gid = gid;
	out->mode = (out->mode & ~S_IRWXUGO) | (in->mode & S_IRWXUGO);
	return 0;
}

void kernel_to_ipc64_perm(const struct kern_ipc_perm *in, struct ipc64_perm *out)
{
	memset(out, 0, sizeof(*out));
	out->key = in->key;
	out->uid = from_kuid_munged(current_user_ns(), in->uid);
	out->gid = from_kgid_munged(current_user_ns(), in->gid);
	out->cuid = from_kuid_munged(current_user_ns(), in->cuid);
	out->cgid = from_kgid_munged(current_user_ns(), in->cgid);
	out->mode = in->mode;
	out->seq = in->seq;
}

int ipcget(struct ipc_namespace *ns, struct ipc_ids *ids, const struct ipc_ops *ops,
	   int key, int flg, long arg)
{
	struct kern_ipc_perm *perm;
	int err;

	ipc_lock(&ids->lock);
	perm = key == IPC_PRIVATE ? NULL : ipc_findkey(ids, key);
	if (!perm)
		err = key != IPC_PRIVATE && !(flg & IPC_CREAT) ? -ENOENT : ops->getnew(ns, key, flg, arg);
	else if ((flg & IPC_CREAT) && (flg & IPC_EXCL))
		err = -EEXIST;
	else if (ops->more_checks && (err = ops->more_checks(perm, arg)))
		;
	else
		err = ipcperms(perm, flg) ? perm->id : -EACCES;
	ipc_unlock(&ids->lock);
	return err;
}

int ipc_sleep(struct ipc_ids *ids, void *chan, uint64_t deadline)
{
	int ret = 0;

	ipc_unlock(&ids->lock);
	uint64_t irq = irq_save();
	if (deadline && jiffies >= deadline)
		ret = -ETIMEDOUT;
	else if (signal_pending(current))
		ret = -EINTR;
	else {
		current->wake_at = deadline;
		sleep_on(chan);
		current->wake_at = 0;
	}
	irq_restore(irq);
	ipc_lock(&ids->lock);
	return ret;
}

/* One integer at *p (blanks before it; a sign; digits; then a blank or
 * the end): 0 or -EINVAL. */
static int parse_one(const char **p, const char *end, long *v)
{
	const char *s = *p;
	bool neg = false;
	long n = 0;

	if (s < end && *s == '-')
		neg = *s++ == '-';
	if (s >= end || *s < '0' || *s > '9')
		return -EINVAL;
	for (; s < end && *s >= '0' && *s <= '9'; s++)
		if ((n = n * 10 + (*s - '0')) > 0x80000000L)
			return -EINVAL;
	if (s < end && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\0')
		return -EINVAL;
	*v = neg ? -n : n;
	*p = s;
	return 0;
}

int ipc_parse_ints(const char *buf, size_t count, int *vals, int n, long min, long max)
{
	const char *p = buf, *end = buf + count;
	int got = 0;

	while (got < n) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
			p++;
		if (p >= end || *p == '\0')
			break;
		long v;
		if (parse_one(&p, end, &v) || v < min || v > max)
			return -EINVAL;
		vals[got++] = (int)v;
	}
	return got ? got : -EINVAL;
}
