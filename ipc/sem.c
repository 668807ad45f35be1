/*
 * sem.c - System V semaphores: semget and semctl (Linux: ipc/sem.c).
 * The operations themselves, semop and semtimedop, are in semop.c; the
 * adjustments SEM_UNDO keeps for exit in sem_undo.c.
 *
 * A set is an array of nsems values, each 0..SEMVMX, with the process that
 * last changed it (GETPID) and a queue of the semops that sleep on it
 * (GETNCNT, GETZCNT count them). Removing a set (IPC_RMID) wakes them
 * with EIDRM; its id is refused (EINVAL) from then on.
 */
#include <errno.h>
#include <linux/pid_namespace.h>
#include <kernel.h>
#include <linux/init.h>
#include <mm.h>
#include <proc_fs.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>
#include "sem.h"

/* The user's structures (x86-64's struct semid64_ds, struct seminfo). */
struct semid64_ds {
	struct ipc64_perm sem_perm;
	int64_t sem_otime;
	uint64_t unused1;
	int64_t sem_ctime;
	uint64_t unused2;
	uint64_t sem_nsems;
	uint64_t unused3, unused4;
};
struct seminfo {
	int semmap, semmni, semmns, semmnu, semmsl, semopm, semume, semusz, semvmx, semaem;
};

static void sem_free(struct kern_ipc_perm *perm)
{
	kfree(perm);
}

static int newary(struct ipc_namespace *ns, int key, int semflg, long nsems)
{
	struct sem_array *sma;
	int id;

	if (!nsems)
		return -EINVAL;
	if (ns->used_sems + nsems > ns->sc_semmns)
		return -ENOSPC;
	sma = kzalloc(sizeof(*sma) + nsems * sizeof(struct sem));
	if (!sma)
		return -ENOMEM;
	sma->perm.key = key;
	sma->perm.mode = semflg & S_IRWXUGO;
	sma->perm.free = sem_free;
	sma->nsems = nsems;
	sma->ctime = ipc_now();
	id = ipc_addid(sem_ids(ns), &sma->perm, ns->sc_semmni);
	if (id < 0) {
		kfree(sma);
		return id;
	}
	ns->used_sems += nsems;
	return id;
}

/* An existing set serves a semget that asks for no more semaphores. */
static int sem_more_checks(struct kern_ipc_perm *perm, long nsems)
{
	return nsems > ((struct sem_array *)perm)->nsems ? -EINVAL : 0;
}

long sys_semget(int key, int nsems, int semflg)
{
	static const struct ipc_ops sem_ops = { .getnew = newary, .more_checks = sem_more_checks };
	struct ipc_namespace *ns = current_ipc_ns();

	if (nsems < 0 || nsems > ns->sc_semmsl)
		return -EINVAL;
	return ipcget(ns, sem_ids(ns), &sem_ops, key, semflg, nsems);
}

/* IPC_RMID: wake the sleepers (EIDRM), drop the undo entries. */
static void freeary(struct ipc_namespace *ns, struct sem_array *sma)
{
	sem_free_undos(sma);
	for (struct sem_queue *q = sma->pending; q; q = q->next) {
		q->status = -EIDRM;
		make_runnable(q->sleeper);
	}
	sma->pending = NULL;
	ns->used_sems -= sma->nsems;
	ipc_rmid(sem_ids(ns), &sma->perm);
}

/* The namespace's last put: every set goes (no task is in it to sleep). */
void sem_exit_ns(struct ipc_namespace *ns)
{
	struct ipc_ids *ids = sem_ids(ns);

	ipc_lock(&ids->lock);
	while (ids->max_idx >= 0) /* the highest slot in use: ipc_rmid keeps it so */
		freeary(ns, (struct sem_array *)ids->entries[ids->max_idx]);
	ipc_unlock(&ids->lock);
}

/* The latest semop's time: the newest of the semaphores' (Linux's
 * get_semotime). */
static int64_t get_semotime(const struct sem_array *sma)
{
	int64_t t = 0;

	for (int i = 0; i < sma->nsems; i++)
		t = MAX(t, sma->sems[i].otime);
	return t;
}

static long semctl_info(struct ipc_namespace *ns, int cmd, void __user *buf)
{
	/* semmnu, semmap and semume are Linux's compiled-in SEMMNU, SEMMAP
	 * (both SEMMNS) and SEMUME (SEMOPM): no sysctl changes them. */
	struct seminfo info = {
		.semmni = ns->sc_semmni, .semmns = ns->sc_semmns, .semmsl = ns->sc_semmsl,
		.semopm = ns->sc_semopm, .semvmx = SEMVMX, .semmnu = 32000 * 32000,
		.semmap = 32000 * 32000, .semume = 500,
	};
	if (cmd == SEM_INFO) {
		info.semusz = sem_ids(ns)->in_use;
		info.semaem = ns->used_sems;
	} else {
		info.semusz = 20;
		info.semaem = SEMAEM;
	}
	int max_idx = ipc_get_maxidx(sem_ids(ns));
	if (copy_to_user(buf, &info, sizeof(info)))
		return -EFAULT;
	return max_idx < 0 ? 0 : max_idx;
}

/* IPC_STAT (by id; 0), SEM_STAT and SEM_STAT_ANY (by index; the id).
 * SEM_STAT_ANY needs no read permission. */
static long semctl_stat(struct ipc_namespace *ns, int semid, int cmd, void __user *buf)
{
	struct kern_ipc_perm *perm;
	struct semid64_ds ds;

	memset(&ds, 0, sizeof(ds));
	ipc_lock(&sem_ids(ns)->lock);
	perm = cmd == IPC_STAT ? ipc_obtain_object_check(sem_ids(ns), semid)
			       : ipc_obtain_object_idr(sem_ids(ns), semid);
	if (IS_ERR(perm)) {
		ipc_unlock(&sem_ids(ns)->lock);
		return PTR_ERR(perm);
	}
	struct sem_array *sma = (struct sem_array *)perm;
	if (cmd != SEM_STAT_ANY && !ipcperms(perm, S_IRUGO)) {
		ipc_unlock(&sem_ids(ns)->lock);
		return -EACCES;
	}
	kernel_to_ipc64_perm(perm, &ds.sem_perm);
	ds.sem_otime = get_semotime(sma);
	ds.sem_ctime = sma->ctime;
	ds.sem_nsems = sma->nsems;
	int id = perm->id;
	ipc_unlock(&sem_ids(ns)->lock);
	if (copy_to_user(buf, &ds, sizeof(ds)))
		return -EFAULT;
	return cmd == IPC_STAT ? 0 : id;
}

/* A GETNCNT or GETZCNT: the sleepers whose blocking operation is a
 * decrease (or a wait for zero) of semaphore semnum, as Linux counts
 * since 3.16. */
static int count_semcnt(const struct sem_array *sma, int semnum, bool count_zero)
{
	int n = 0;

	for (const struct sem_queue *q = sma->pending; q; q = q->next) {
		const struct sembuf *sop = &q->sops[q->blocking];
		if (sop->sem_num == semnum && (count_zero ? sop->sem_op == 0 : sop->sem_op < 0))
			n++;
	}
	return n;
}

/* SETALL and SETVAL forget every process's adjustments of what they set. */
static void clear_semadj(struct sem_array *sma, int semnum)
{
	for (struct sem_undo *un = sma->undos; un; un = un->next_id) {
		if (semnum < 0)
			memset(un->semadj, 0, sma->nsems * sizeof(un->semadj[0]));
		else
			un->semadj[semnum] = 0;
	}
}

static long semctl_setall(struct sem_array *sma, const uint16_t *vals)
{
	for (int i = 0; i < sma->nsems; i++)
		if (vals[i] > SEMVMX)
			return -ERANGE;
	for (int i = 0; i < sma->nsems; i++) {
		sma->sems[i].semval = vals[i];
		sma->sems[i].sempid = current->tgid;
	}
	clear_semadj(sma, -1);
	sma->ctime = ipc_now();
	do_smart_update(sma, NULL, 0, false);
	return 0;
}

/* GETALL and SETALL: the whole array through a buffer of nsems values. */
static long semctl_all(struct sem_array *sma, int cmd, void __user *p)
{
	size_t size = sma->nsems * sizeof(uint16_t);
	uint16_t *vals = kmalloc(size);
	long err = 0;

	if (!vals)
		return -ENOMEM;
	if (cmd == GETALL) {
		for (int i = 0; i < sma->nsems; i++)
			vals[i] = sma->sems[i].semval;
		err = copy_to_user(p, vals, size) ? -EFAULT : 0;
	} else {
		err = copy_from_user(vals, p, size) ? -EFAULT : semctl_setall(sma, vals);
	}
	kfree(vals);
	return err;
}

/* GETVAL, GETPID, GETNCNT, GETZCNT, GETALL, SETALL. */
static long semctl_main(struct ipc_namespace *ns, int semid, int semnum, int cmd, void __user *p)
{
	struct kern_ipc_perm *perm;
	long err;

	ipc_lock(&sem_ids(ns)->lock);
	perm = ipc_obtain_object_check(sem_ids(ns), semid);
	struct sem_array *sma = (struct sem_array *)perm;
	if (IS_ERR(perm))
		err = PTR_ERR(perm);
	else if (!ipcperms(perm, cmd == SETALL ? S_IWUGO : S_IRUGO))
		err = -EACCES;
	else if (cmd == GETALL || cmd == SETALL)
		err = semctl_all(sma, cmd, p);
	else if (semnum < 0 || semnum >= sma->nsems)
		err = -EINVAL;
	else if (cmd == GETVAL)
		err = sma->sems[semnum].semval;
	else if (cmd == GETPID)
		err = pid_global_to_vnr(sma->sems[semnum].sempid);
	else
		err = count_semcnt(sma, semnum, cmd == GETZCNT);
	ipc_unlock(&sem_ids(ns)->lock);
	return err;
}

static long semctl_setval(struct ipc_namespace *ns, int semid, int semnum, int val)
{
	struct kern_ipc_perm *perm;
	long err = 0;

	if (val > SEMVMX || val < 0)
		return -ERANGE;
	ipc_lock(&sem_ids(ns)->lock);
	perm = ipc_obtain_object_check(sem_ids(ns), semid);
	struct sem_array *sma = (struct sem_array *)perm;
	if (IS_ERR(perm))
		err = PTR_ERR(perm);
	else if (semnum < 0 || semnum >= sma->nsems)
		err = -EINVAL;
	else if (!ipcperms(perm, S_IWUGO))
		err = -EACCES;
	else {
		clear_semadj(sma, semnum);
		sma->sems[semnum].semval = val;
		sma->sems[semnum].sempid = current->tgid;
		sma->ctime = ipc_now();
		do_smart_update(sma, NULL, 0, false);
	}
	ipc_unlock(&sem_ids(ns)->lock);
	return err;
}

/* IPC_SET and IPC_RMID: the creator, the owner or CAP_SYS_ADMIN. */
static long semctl_down(struct ipc_namespace *ns, int semid, int cmd, const struct semid64_ds *ds)
{
	struct kern_ipc_perm *perm;
	long err = 0;

	ipc_lock(&sem_ids(ns)->lock);
	perm = ipcctl_obtain_check(sem_ids(ns), semid);
	if (IS_ERR(perm))
		err = PTR_ERR(perm);
	else if (cmd == IPC_RMID)
		freeary(ns, (struct sem_array *)perm);
	else if (!(err = ipc_update_perm(&ds->sem_perm, perm)))
		((struct sem_array *)perm)->ctime = ipc_now();
	ipc_unlock(&sem_ids(ns)->lock);
	return err;
}

long sys_semctl(int semid, int semnum, int cmd, unsigned long arg)
{
	struct ipc_namespace *ns = current_ipc_ns();
	void __user *p = (void __user *)arg;
	struct semid64_ds ds;

	if (semid < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case SEM_INFO:
		return semctl_info(ns, cmd, p);
	case IPC_STAT:
	case SEM_STAT:
	case SEM_STAT_ANY:
		return semctl_stat(ns, semid, cmd, p);
	case GETALL:
	case GETVAL:
	case GETPID:
	case GETNCNT:
	case GETZCNT:
	case SETALL:
		return semctl_main(ns, semid, semnum, cmd, p);
	case SETVAL:
		return semctl_setval(ns, semid, semnum, (int)arg);
	case IPC_SET:
		if (copy_from_user(&ds, p, sizeof(ds)))
			return -EFAULT;
		/* fall through */
	case IPC_RMID:
		return semctl_down(ns, semid, cmd, &ds);
	}
	return -EINVAL;
}

/* ---- /proc/sysvipc/sem and /proc/sys/kernel/sem ---- */

static int sem_proc_show(struct seq_file *m)
{
	struct ipc_ids *ids = sem_ids(current_ipc_ns());

	seq_puts(m, "       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime\n");
	for (int i = 0; i <= ids->max_idx; i++) {
		struct sem_array *sma = (struct sem_array *)ids->entries[i];
		if (!sma)
			continue;
		seq_printf(m, "%10d %10d  %4o %10u %5u %5u %5u %5u %10lld %10lld\n", sma->perm.key,
			   sma->perm.id, sma->perm.mode, sma->nsems, sma->perm.uid, sma->perm.gid,
			   sma->perm.cuid, sma->perm.cgid, (long long)get_semotime(sma),
			   (long long)sma->ctime);
	}
	return 0;
}

static int sem_sysctl_show(struct seq_file *m)
{
	int *c = current_ipc_ns()->sem_ctls;

	seq_printf(m, "%d\t%d\t%d\t%d\n", c[0], c[1], c[2], c[3]);
	return 0;
}

/* Up to four integers; semmni above IPCMNI is refused (ERANGE), the
 * others written stay (as Linux's proc_ipc_sem_dointvec). */
static int sem_sysctl_write(const char *buf, size_t count)
{
	int *c = current_ipc_ns()->sem_ctls, old_semmni = c[3];
	int vals[4], n = ipc_parse_ints(buf, count, vals, 4, INT32_MIN, INT32_MAX);

	if (n < 0)
		return n;
	memcpy(c, vals, n * sizeof(int));
	if (c[3] > IPCMNI) {
		c[3] = old_semmni;
		return -ERANGE;
	}
	return 0;
}

static int sem_next_id_show(struct seq_file *m)
{
	seq_printf(m, "%d\n", sem_ids(current_ipc_ns())->next_id);
	return 0;
}

static int sem_next_id_write(const char *buf, size_t count)
{
	int v, n = ipc_parse_ints(buf, count, &v, 1, 0, INT32_MAX);

	if (n > 0)
		sem_ids(current_ipc_ns())->next_id = v;
	return n < 0 ? n : 0;
}

static int sem_init(void)
{
	proc_create("sysvipc/sem", 0444, sem_proc_show, NULL);
	proc_create("sys/kernel/sem_next_id", 0644, sem_next_id_show, sem_next_id_write);
	return proc_create("sys/kernel/sem", 0644, sem_sysctl_show, sem_sysctl_write);
}
device_initcall(sem_init);
