/*
 * msg.h - what the files of System V message queues share: msg.c
 * (msgget, msgctl, /proc) and msgop.c (msgsnd, msgrcv). Locks: util.h.
 */
#pragma once
#include <kernel.h>
#include "util.h"

#define MSG_STAT 11
#define MSG_INFO 12
#define MSG_STAT_ANY 13
#define MSG_NOERROR 010000
#define MSG_EXCEPT 020000
#define MSG_COPY 040000

struct msg_msg {
	struct msg_msg *next;
	long m_type;
	size_t m_ts;            /* the text's size */
	char m_text[];
};

/* A msgrcv that sleeps (on its kernel stack): a msgsnd may hand it a
 * message directly (Linux's pipelined_send). */
struct msg_receiver {
	struct msg_receiver *next;
	struct task *tsk;
	int mode;               /* SEARCH_* */
	long msgtype;
	size_t maxsize;         /* a larger message fails it with E2BIG */
	struct msg_msg *r_msg;  /* handed over */
	int status;             /* -EAGAIN while it waits; 0, -E2BIG, -EIDRM */
};

/* A msgsnd that waits for room. */
struct msg_sender {
	struct msg_sender *next;
	struct task *tsk;
};

struct msg_queue {
	struct kern_ipc_perm perm; /* first: the table holds this */
	int64_t stime, rtime, ctime;
	uint64_t cbytes, qnum, qbytes;
	pid_t lspid, lrpid;
	struct msg_msg *messages; /* oldest first */
	struct msg_receiver *receivers;
	struct msg_sender *senders;
};

static inline struct ipc_ids *msg_ids(struct ipc_namespace *ns)
{
	return &ns->ids[IPC_MSG_IDS];
}

/* Wake the sleeping receivers with status (taking them out of the
 * queue) and every waiting sender (Linux: expunge_all, ss_wakeup). */
void expunge_all(struct msg_queue *msq, int status);
void ss_wakeup(struct msg_queue *msq, bool kill);
