/*
 * util.h - what sem.c, msg.c and shm.c share (ipc/util.c): the tables of
 * ids, the permission checks, the user's struct ipc64_perm.
 *
 * Lock order (outermost first):
 *   1. ids->lock of one table (struct ipc_ids, include/ipc.h): the table,
 *      its objects and their wait queues. Never two tables at once.
 *   2. ulp->lock of a SEM_UNDO list (ipc/sem_undo.c): the list's entries.
 * Nothing sleeps holding either: a sleeper takes a reference on its
 * object (ipc_getref), unlocks, sleeps, locks again and then looks
 * whether the object was removed meanwhile (perm->deleted: EIDRM).
 */
#pragma once
#include <ipc.h>

#define IPC_PRIVATE 0
#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define IPC_NOWAIT 04000
#define IPC_RMID 0
#define IPC_SET 1
#define IPC_STAT 2
#define IPC_INFO 3
#define S_IRWXUGO 0777
#define S_IRUGO 0444
#define S_IWUGO 0222

#define IPCMNI_SHIFT 15
#define IPCMNI (1 << IPCMNI_SHIFT)
#define IPC_MIN_CYCLE 64
#define IPCID_SEQ_MAX (INT32_MAX >> IPCMNI_SHIFT)

/* The user's view of the permissions (x86-64's struct ipc64_perm). */
struct ipc64_perm {
	int key;
	uint32_t uid, gid, cuid, cgid;
	unsigned int mode;
	unsigned short seq, pad2;
	uint64_t unused1, unused2;
};

void ipc_lock(struct ipc_lock *l);
void ipc_unlock(struct ipc_lock *l);

/* The object with this key, or NULL. */
struct kern_ipc_perm *ipc_findkey(struct ipc_ids *ids, int key);
/* Enter new (key and mode set by the caller) in the table: its id, owner
 * and creator; -ENOSPC past limit objects, -ENOMEM. One reference. */
int ipc_addid(struct ipc_ids *ids, struct kern_ipc_perm *new, int limit);
/* Take it out of the table (marked deleted) and drop the table's
 * reference. */
void ipc_rmid(struct ipc_ids *ids, struct kern_ipc_perm *perm);
/* By index (id modulo IPCMNI: the *_STAT commands), or by id (the seq must
 * match): ERR_PTR(-EINVAL) if none. */
struct kern_ipc_perm *ipc_obtain_object_idr(struct ipc_ids *ids, int id);
struct kern_ipc_perm *ipc_obtain_object_check(struct ipc_ids *ids, int id);
/* Linux's ipc_get_maxidx: the highest idx in use, -1 if none. */
int ipc_get_maxidx(const struct ipc_ids *ids);

void ipc_getref(struct kern_ipc_perm *perm);
void ipc_putref(struct kern_ipc_perm *perm);

/* May current have the rwx access of flag's bits (0: refused)? */
bool ipcperms(const struct kern_ipc_perm *perm, int flag);
/* IPC_SET and IPC_RMID: the object of id if current may change it
 * (creator, owner, CAP_SYS_ADMIN), else ERR_PTR(-EINVAL or -EPERM). */
struct kern_ipc_perm *ipcctl_obtain_check(struct ipc_ids *ids, int id);
/* IPC_SET's uid, gid and permission bits (-EINVAL for an invalid id). */
int ipc_update_perm(const struct ipc64_perm *in, struct kern_ipc_perm *out);
void kernel_to_ipc64_perm(const struct kern_ipc_perm *in, struct ipc64_perm *out);

/*
 * The get calls (semget, msgget, shmget) as Linux's ipcget: IPC_PRIVATE
 * always makes a new object; else the key's object (EEXIST with
 * IPC_CREAT | IPC_EXCL, then more_checks, then the access flg asks:
 * EACCES), or a new one with IPC_CREAT (else ENOENT). Returns the id.
 */
struct ipc_ops {
	int (*getnew)(struct ipc_namespace *ns, int key, int flg, long arg);
	int (*more_checks)(struct kern_ipc_perm *perm, long arg);
};
int ipcget(struct ipc_namespace *ns, struct ipc_ids *ids, const struct ipc_ops *ops,
	   int key, int flg, long arg);

int64_t ipc_now(void); /* seconds of the real-time clock */
/* Sleep on chan (ids's lock dropped meanwhile) until woken, jiffies
 * reaches deadline (0: none; -ETIMEDOUT) or a signal comes (-EINTR). */
int ipc_sleep(struct ipc_ids *ids, void *chan, uint64_t deadline);

/* /proc/sys/kernel: integers as Linux's proc_dointvec reads them, into
 * vals[0..n-1] (those given), each within [min, max]: 0 or -EINVAL. */
int ipc_parse_ints(const char *buf, size_t count, int *vals, int n, long min, long max);

/* ipc/shm.c: shm_rmid_forced was set: the segments whose creator is gone
 * and that nobody has attached go (Linux's shm_destroy_orphaned). */
void shm_destroy_orphaned(struct ipc_namespace *ns);
