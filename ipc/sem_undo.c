/*
 * sem_undo.c - SEM_UNDO: what a process's semops changed is taken back
 * when it exits (Linux: ipc/sem.c, the undo lists).
 *
 * Each SEM_UNDO operation subtracts its sem_op from the process's
 * adjustment for that semaphore (struct sem_undo: one per set, made at
 * the first SEM_UNDO semop on the set). At exit each adjustment is added
 * back, the value clamped to 0..SEMVMX, and sleepers retried. SETVAL and
 * SETALL zero the adjustments of what they set; IPC_RMID drops the set's.
 *
 * The list of them (struct sem_undo_list) belongs to the task until
 * clone(CLONE_SYSVSEM) shares it (threads of glibc's pthread_create do);
 * it is applied when the last task sharing it exits. A fork without
 * CLONE_SYSVSEM gives the child none: its parent's adjustments are not
 * its own.
 */
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <string.h>
#include "sem.h"

#define CLONE_SYSVSEM 0x00040000

/* Current's undo list, made if it has none; NULL if out of memory. */
static struct sem_undo_list *get_undo_list(void)
{
	struct sem_undo_list *ulp = current->sysvsem_undo;

	if (!ulp && (ulp = kzalloc(sizeof(*ulp)))) {
		ulp->refs = 1;
		current->sysvsem_undo = ulp;
	}
	return ulp;
}

static struct sem_undo *lookup_undo(struct sem_undo_list *ulp, int semid)
{
	struct sem_undo *un;

	ipc_lock(&ulp->lock);
	for (un = ulp->head; un && un->semid != semid; un = un->next_proc)
		;
	ipc_unlock(&ulp->lock);
	return un;
}

struct sem_undo *find_alloc_undo(struct ipc_namespace *ns, int semid)
{
	struct sem_undo_list *ulp = get_undo_list();
	struct kern_ipc_perm *perm;
	struct sem_undo *un;

	if (!ulp)
		return ERR_PTR(-ENOMEM);
	if ((un = lookup_undo(ulp, semid)))
		return un;
	perm = ipc_obtain_object_check(sem_ids(ns), semid);
	if (IS_ERR(perm))
		return (struct sem_undo *)perm;
	struct sem_array *sma = (struct sem_array *)perm;
	un = kzalloc(sizeof(*un) + sma->nsems * sizeof(un->semadj[0]));
	if (!un)
		return ERR_PTR(-ENOMEM);
	un->semid = semid;
	un->ulp = ulp;
	ipc_lock(&ulp->lock);
	un->next_proc = ulp->head;
	ulp->head = un;
	ipc_unlock(&ulp->lock);
	un->next_id = sma->undos;
	sma->undos = un;
	return un;
}

static void unlink_from_ulp(struct sem_undo *un)
{
	struct sem_undo_list *ulp = un->ulp;

	ipc_lock(&ulp->lock);
	for (struct sem_undo **pp = &ulp->head; *pp; pp = &(*pp)->next_proc) {
		if (*pp == un) {
			*pp = un->next_proc;
			break;
		}
	}
	ipc_unlock(&ulp->lock);
}

void sem_free_undos(struct sem_array *sma)
{
	struct sem_undo *un, *next;

	for (un = sma->undos; un; un = next) {
		next = un->next_id;
		unlink_from_ulp(un);
		kfree(un);
	}
	sma->undos = NULL;
}

int copy_semundo(uint64_t clone_flags, struct task *child)
{
	child->sysvsem_undo = NULL;
	if (!(clone_flags & CLONE_SYSVSEM))
		return 0;
	struct sem_undo_list *ulp = get_undo_list();
	if (!ulp)
		return -ENOMEM;
	ipc_lock(&ulp->lock);
	ulp->refs++;
	ipc_unlock(&ulp->lock);
	child->sysvsem_undo = ulp;
	return 0;
}

/* Add un's adjustments back to its set (clamped to 0..SEMVMX) and take
 * un out of the set's list. */
static void apply_undo(struct sem_array *sma, struct sem_undo *un, pid_t pid)
{
	struct sem_undo **pp = &sma->undos;

	while (*pp && *pp != un)
		pp = &(*pp)->next_id;
	if (*pp)
		*pp = un->next_id;
	for (int i = 0; i < sma->nsems; i++) {
		struct sem *s = &sma->sems[i];
		if (!un->semadj[i])
			continue;
		s->semval = MIN(MAX(s->semval + un->semadj[i], 0), SEMVMX);
		s->sempid = pid;
	}
	do_smart_update(sma, NULL, 0, true);
}

void exit_sem(struct task *t)
{
	struct sem_undo_list *ulp = t->sysvsem_undo;
	struct ipc_namespace *ns = current_ipc_ns();
	struct sem_undo *un;

	if (!ulp)
		return;
	t->sysvsem_undo = NULL;
	ipc_lock(&ulp->lock);
	bool last = --ulp->refs == 0;
	ipc_unlock(&ulp->lock);
	if (!last)
		return;
	/* The last user: nobody else reaches ulp, and IPC_RMID, which would
	 * take entries out, waits for the table's lock. */
	ipc_lock(&sem_ids(ns)->lock);
	while ((un = ulp->head)) {
		ulp->head = un->next_proc;
		struct kern_ipc_perm *perm = ipc_obtain_object_check(sem_ids(ns), un->semid);
		if (!IS_ERR(perm))
			apply_undo((struct sem_array *)perm, un, t->tgid);
		kfree(un);
	}
	ipc_unlock(&sem_ids(ns)->lock);
	kfree(ulp);
}
