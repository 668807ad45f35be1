/*
 * sem.h - what the files of System V semaphores share: sem.c (semget,
 * semctl), semop.c (semop, semtimedop, the queue of sleeping operations),
 * sem_undo.c (SEM_UNDO). Locks: ipc/util.h.
 */
#pragma once
#include <kernel.h>
#include "util.h"

#define SEM_UNDO 0x1000
#define GETPID 11
#define GETVAL 12
#define GETALL 13
#define GETNCNT 14
#define GETZCNT 15
#define SETVAL 16
#define SETALL 17
#define SEM_STAT 18
#define SEM_INFO 19
#define SEM_STAT_ANY 20

#define SEMVMX 32767 /* the largest value */
#define SEMAEM SEMVMX /* the largest adjustment at exit */

/* The namespace's limits (/proc/sys/kernel/sem). */
#define sc_semmsl sem_ctls[0] /* semaphores in a set */
#define sc_semmns sem_ctls[1] /* in all sets */
#define sc_semopm sem_ctls[2] /* operations in one semop */
#define sc_semmni sem_ctls[3] /* sets */

struct sembuf {
	unsigned short sem_num;
	short sem_op;
	short sem_flg;
};

struct sem {
	int semval;
	pid_t sempid;   /* the process of the last operation */
	int64_t otime;  /* Linux keeps the last semop's time per semaphore */
};

/* A semop that sleeps: on its own kernel stack, in its set's queue. */
struct sem_queue {
	struct sem_queue *next;
	struct task *sleeper;
	struct sembuf *sops;
	int nsops;
	int blocking;           /* the operation that cannot proceed */
	bool alter;             /* some operation changes a value */
	struct sem_undo *un;    /* for SEM_UNDO operations */
	pid_t pid;
	int status;             /* 1 while it waits, then 0 or -EIDRM */
};

/* The adjustments of one process (its undo list) for one set. */
struct sem_undo {
	struct sem_undo *next_proc;     /* in the undo list */
	struct sem_undo *next_id;       /* in the set's list */
	struct sem_undo_list *ulp;
	int semid;
	short semadj[];
};

/* Shared by the tasks clone(CLONE_SYSVSEM) made (refs of them). */
struct sem_undo_list {
	struct ipc_lock lock;   /* the entries; inside the sem table's lock */
	int refs;
	struct sem_undo *head;
};

struct sem_array {
	struct kern_ipc_perm perm; /* first: the table holds this */
	int64_t ctime;
	int nsems;
	struct sem_queue *pending;  /* sleeping operations, oldest first */
	struct sem_undo *undos;     /* every process's adjustments of it */
	struct sem sems[];
};

static inline struct ipc_ids *sem_ids(struct ipc_namespace *ns)
{
	return &ns->ids[IPC_SEM_IDS];
}

/* semop.c: after values changed (sops NULL: which ones is not known),
 * complete the sleepers that can proceed now; otime: it was a semop. */
void do_smart_update(struct sem_array *sma, struct sembuf *sops, int nsops, bool otime);
/* sem_undo.c: the caller's adjustments for semid, made if need be (the
 * set must exist: EINVAL), or ERR_PTR(-ENOMEM). With the table locked. */
struct sem_undo *find_alloc_undo(struct ipc_namespace *ns, int semid);
/* sem_undo.c: the set goes: its undo entries are dropped. */
void sem_free_undos(struct sem_array *sma);
