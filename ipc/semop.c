/*
 * semop.c - semop and semtimedop: arrays of operations on one semaphore
 * set, done all at once or not at all (Linux: ipc/sem.c).
 *
 * An operation adds sem_op to semaphore sem_num; a negative one waits
 * until the value is large enough, a zero one until the value is 0. When
 * some operation of the array cannot proceed, nothing is changed: the
 * caller fails with EAGAIN if that operation has IPC_NOWAIT, else it
 * sleeps in the set's queue. Whoever changes values next (semop, SETVAL,
 * SETALL, an exit's undo) retries the queue, oldest first, and completes
 * for the sleepers what can proceed now; the sleeper then only returns 0.
 * A signal ends the wait with EINTR (never restarted, as Linux), the
 * timeout of semtimedop with EAGAIN, IPC_RMID with EIDRM.
 */
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <timekeeping.h>
#include <uaccess.h>
#include "sem.h"

/* Undo operations [0, n) of q: they were applied in order. */
static void revert_semops(struct sem_array *sma, struct sem_queue *q, int n)
{
	while (--n >= 0) {
		const struct sembuf *sop = &q->sops[n];
		sma->sems[sop->sem_num].semval -= sop->sem_op;
		if (sop->sem_flg & SEM_UNDO)
			q->un->semadj[sop->sem_num] += sop->sem_op;
	}
}

/*
 * Apply q's operations in order; if one cannot, undo those before it.
 * 0: done; 1: it would block (q->blocking is the one); -EAGAIN: that one
 * has IPC_NOWAIT; -ERANGE: a value above SEMVMX, or an adjustment beyond
 * SEMAEM.
 */
static int perform_atomic_semop(struct sem_array *sma, struct sem_queue *q)
{
	int i, err;

	for (i = 0; i < q->nsops; i++) {
		const struct sembuf *sop = &q->sops[i];
		struct sem *curr = &sma->sems[sop->sem_num];
		int result = curr->semval + sop->sem_op;

		if ((!sop->sem_op && curr->semval) || result < 0) {
			q->blocking = i;
			err = (sop->sem_flg & IPC_NOWAIT) ? -EAGAIN : 1;
			goto undo;
		}
		err = -ERANGE;
		if (result > SEMVMX)
			goto undo;
		if (sop->sem_flg & SEM_UNDO) {
			int adj = q->un->semadj[sop->sem_num] - sop->sem_op;
			if (adj < -SEMAEM - 1 || adj > SEMAEM)
				goto undo;
			q->un->semadj[sop->sem_num] = adj;
		}
		curr->semval = result;
	}
	for (i = 0; i < q->nsops; i++)
		sma->sems[q->sops[i].sem_num].sempid = q->pid;
	return 0;
undo:
	revert_semops(sma, q, i);
	return err;
}

/* Retry the sleepers, oldest first; one that completes (or fails) is
 * taken out and woken. After a change of values, start again. Returns
 * whether some completed. */
static bool update_queue(struct sem_array *sma)
{
	bool completed = false;
again:
	for (struct sem_queue **pp = &sma->pending; *pp;) {
		struct sem_queue *q = *pp;
		int err = perform_atomic_semop(sma, q);

		if (err > 0) {
			pp = &q->next;
			continue;
		}
		*pp = q->next;
		q->status = err;
		make_runnable(q->sleeper);
		if (!err) {
			completed = true;
			if (q->alter)
				goto again;
		}
	}
	return completed;
}

void do_smart_update(struct sem_array *sma, struct sembuf *sops, int nsops, bool otime)
{
	(void)nsops;
	if (update_queue(sma) || otime)
		sma->sems[sops ? sops[0].sem_num : 0].otime = ipc_now();
}

static void unlink_queue(struct sem_array *sma, struct sem_queue *q)
{
	struct sem_queue **pp = &sma->pending;

	while (*pp && *pp != q)
		pp = &(*pp)->next;
	if (*pp)
		*pp = q->next;
}

static void append_queue(struct sem_array *sma, struct sem_queue *q)
{
	struct sem_queue **pp = &sma->pending;

	while (*pp)
		pp = &(*pp)->next;
	q->next = NULL;
	*pp = q;
}

/* Sleep in the queue until the operations are done for us (0), fail
 * (their error, EIDRM), a signal (EINTR) or the deadline (EAGAIN). */
static int sem_wait(struct ipc_namespace *ns, struct sem_array *sma, struct sem_queue *q,
		    uint64_t deadline)
{
	int err = 0;

	q->status = 1;
	q->sleeper = current;
	append_queue(sma, q);
	ipc_getref(&sma->perm);
	while (q->status == 1 && !err)
		err = ipc_sleep(sem_ids(ns), q, deadline);
	if (q->status == 1) {
		unlink_queue(sma, q);
		q->status = err == -ETIMEDOUT ? -EAGAIN : -EINTR;
	}
	ipc_putref(&sma->perm);
	return q->status;
}

/* The checks before the set is touched: which semaphores, whether it
 * alters, whether it needs an undo entry. */
static void scan_sops(struct sem_queue *q, int *max, bool *undos)
{
	*max = 0;
	*undos = q->alter = false;
	for (int i = 0; i < q->nsops; i++) {
		*max = MAX(*max, q->sops[i].sem_num);
		*undos |= (q->sops[i].sem_flg & SEM_UNDO) != 0;
		q->alter |= q->sops[i].sem_op != 0;
	}
}

static long semop_locked(struct ipc_namespace *ns, int semid, struct sem_queue *q,
			 uint64_t deadline)
{
	struct kern_ipc_perm *perm;
	bool undos;
	int max, err;

	scan_sops(q, &max, &undos);
	if (undos) {
		q->un = find_alloc_undo(ns, semid);
		if (IS_ERR(q->un))
			return PTR_ERR(q->un);
	}
	perm = ipc_obtain_object_check(sem_ids(ns), semid);
	if (IS_ERR(perm))
		return PTR_ERR(perm);
	struct sem_array *sma = (struct sem_array *)perm;
	if (max >= sma->nsems)
		return -EFBIG;
	if (!ipcperms(perm, q->alter ? S_IWUGO : S_IRUGO))
		return -EACCES;
	err = perform_atomic_semop(sma, q);
	if (!err) {
		if (q->alter)
			do_smart_update(sma, q->sops, q->nsops, true);
		else
			sma->sems[q->sops[0].sem_num].otime = ipc_now();
	}
	return err <= 0 ? err : sem_wait(ns, sma, q, deadline);
}

static long do_semtimedop(int semid, struct sembuf __user *tsops, unsigned int nsops,
			  const struct timespec *timeout)
{
	struct ipc_namespace *ns = current_ipc_ns();
	struct sem_queue q = { .nsops = nsops, .pid = current->tgid };
	uint64_t deadline = 0;
	long err;

	if (nsops < 1 || semid < 0)
		return -EINVAL;
	if (nsops > (unsigned int)ns->sc_semopm)
		return -E2BIG;
	if (!(q.sops = kmalloc(nsops * sizeof(struct sembuf))))
		return -ENOMEM;
	err = -EFAULT;
	if (copy_from_user(q.sops, tsops, nsops * sizeof(struct sembuf)))
		goto out;
	if (timeout) {
		err = -EINVAL;
		if (timeout->tv_sec < 0 || timeout->tv_nsec < 0 || timeout->tv_nsec >= 1000000000L)
			goto out;
		uint64_t tick = 1000000000 / HZ;
		uint64_t ticks = MIN((uint64_t)timeout->tv_sec, 1UL << 40) * HZ +
				 ((uint64_t)timeout->tv_nsec + tick - 1) / tick;
		deadline = MAX(jiffies + ticks, 1UL);
	}
	ipc_lock(&sem_ids(ns)->lock);
	err = semop_locked(ns, semid, &q, deadline);
	ipc_unlock(&sem_ids(ns)->lock);
out:
	kfree(q.sops);
	return err;
}

long sys_semtimedop(int semid, struct sembuf __user *tsops, unsigned int nsops,
		    const struct timespec __user *timeout)
{
	struct timespec ts;

	if (timeout && copy_from_user(&ts, timeout, sizeof(ts)))
		return -EFAULT;
	return do_semtimedop(semid, tsops, nsops, timeout ? &ts : NULL);
}

long sys_semop(int semid, struct sembuf __user *tsops, unsigned int nsops)
{
	return do_semtimedop(semid, tsops, nsops, NULL);
}
