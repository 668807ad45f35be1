/*
 * ipc.h - System V IPC (ipc/): semaphores, message queues and shared
 * memory, as Linux keeps them: per IPC namespace.
 *
 * All that a namespace owns is in struct ipc_namespace: the three tables of
 * ids and the limits /proc/sys/kernel/{sem,msg*,shm*} set. The calls reach
 * it only through current_ipc_ns() (the caller's nsproxy's); an object
 * that outlives the call knows its own (a segment's shp->ns). A task gets
 * a new one with CLONE_NEWIPC (clone, unshare) or enters one with setns
 * (ipc/namespace.c); boot's is init_ipc_ns.
 *
 * Per process, the SEM_UNDO adjustments (ipc/sem_undo.c): a list that
 * clone(CLONE_SYSVSEM) shares, applied when its last user exits.
 */
#pragma once
#include <kernel.h>
#include <nsproxy.h>

struct task;
struct super_block;

/*
 * A lock for one IPC structure. The kernel runs on one CPU and is not
 * preempted, so holding one across no sleep is all the exclusion it needs;
 * ipc_lock() checks that nobody slept holding it. With several CPUs it
 * would be a spinlock: the lock order (ipc/util.h) is written for that.
 */
struct ipc_lock {
	struct task *owner;
};

/* What every semaphore set, queue and segment has (Linux's kern_ipc_perm). */
struct kern_ipc_perm {
	int key, id;
	uint32_t uid, gid, cuid, cgid;
	unsigned int mode;
	unsigned short seq;
	bool deleted;           /* removed from its table; sleepers see EIDRM */
	int refs;               /* the table's, plus one per sleeper */
	void (*free)(struct kern_ipc_perm *perm); /* at the last reference */
};

/* One table of ids (Linux's ipc_ids): slot idx holds the object whose id
 * is seq * IPCMNI + idx. */
struct ipc_ids {
	struct ipc_lock lock;   /* the table and every object in it */
	int in_use;             /* objects in the table */
	int max_idx;            /* the highest idx in use, -1 if none */
	int last_idx;           /* the idx given last (-1: none yet) */
	int seq;                /* bumped each time allocation wraps */
	int size;               /* slots allocated (grows to IPCMNI) */
	int next_id;            /* /proc/sys/kernel/{sem,msg}_next_id: the id the
				 * next object asks for (then -1: none) */
	struct kern_ipc_perm **entries;
};

enum { IPC_SEM_IDS, IPC_MSG_IDS, IPC_SHM_IDS, IPC_NR_IDS };

struct ipc_namespace {
	struct ns_common ns;    /* count: nsproxies, nsfs files, attached segments */
	struct user_namespace *user_ns; /* its owner (a reference) */
	struct ipc_ids ids[IPC_NR_IDS];
	/* /proc/sys/kernel/sem: semmsl, semmns, semopm, semmni */
	int sem_ctls[4];
	int used_sems;          /* semaphores in all sets */
	/* /proc/sys/kernel/msgmax, msgmnb, msgmni */
	int msg_ctlmax, msg_ctlmnb, msg_ctlmni;
	uint64_t msg_bytes, msg_hdrs; /* queued, in all queues */
	/* /proc/sys/kernel/shmmax (bytes), shmall (pages), shmmni,
	 * shm_rmid_forced */
	uint64_t shm_ctlmax, shm_ctlall;
	int shm_ctlmni, shm_rmid_forced;
	uint64_t shm_tot;       /* pages in all segments */
	/* POSIX message queues (ipc/mqueue.c): the filesystem that holds
	 * them (mounted nowhere, as Linux's mq_mnt; it counts its queues,
	 * since a queue may outlive the namespace while a descriptor is
	 * open) and /proc/sys/fs/mqueue/{queues_max,msg_max,msgsize_max,
	 * msg_default,msgsize_default}. */
	struct super_block *mq_sb;
	int mq_queues_max, mq_msg_max, mq_msgsize_max, mq_msg_default, mq_msgsize_default;
};

extern struct ipc_namespace init_ipc_ns;

/* The namespace current's IPC calls act on. */
struct ipc_namespace *current_ipc_ns(void);

/* ipc/sem_undo.c: fork (the child shares the parent's undo list with
 * CLONE_SYSVSEM; 0 or -ENOMEM) and exit (the last user applies it). */
int copy_semundo(uint64_t clone_flags, struct task *child);
void exit_sem(struct task *t);
/* ipc/shm.c: t no longer creates segments (exit, or it leaves its IPC
 * namespace): with shm_rmid_forced, those nobody has attached go. */
void exit_shm(struct task *t);

/* ipc/namespace.c, ipc/{sem,msg,shm}.c: the last put of a namespace
 * frees every object in it. */
static inline struct ipc_namespace *get_ipc_ns(struct ipc_namespace *ns)
{
	ns->ns.count++;
	return ns;
}
void sem_exit_ns(struct ipc_namespace *ns);
void msg_exit_ns(struct ipc_namespace *ns);
void shm_exit_ns(struct ipc_namespace *ns);
/* ipc/mqueue.c: the namespace's mqueue filesystem, made with it (0 or
 * -ENOMEM) and let go with it. */
int mq_init_ns(struct ipc_namespace *ns);
void mq_exit_ns(struct ipc_namespace *ns);
