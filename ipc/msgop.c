/*
 * msgop.c - msgsnd and msgrcv (Linux: ipc/msg.c, ipc/msgutil.c).
 *
 * A queue holds messages (a type > 0 and up to msgmax bytes of text) in
 * the order sent, up to qbytes bytes (and qbytes messages). msgsnd waits
 * for room, msgrcv for a message of the type it asks: msgtyp 0 the first
 * one, > 0 the first of that type (with MSG_EXCEPT: of any other), < 0 the
 * first of the lowest type <= -msgtyp. A msgsnd first offers its message
 * to the sleeping receivers, oldest first: one that wants it gets it
 * directly (one whose buffer is too small fails with E2BIG). A signal ends
 * a wait with EINTR (never restarted after a handler, as Linux), IPC_RMID
 * with EIDRM. MSG_COPY (with IPC_NOWAIT) reads the msgtyp-th message
 * without taking it.
 */
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>
#include "msg.h"

enum { SEARCH_ANY = 1, SEARCH_EQUAL, SEARCH_NOTEQUAL, SEARCH_LESSEQUAL, SEARCH_NUMBER };

static bool testmsg(const struct msg_msg *msg, long type, int mode)
{
	switch (mode) {
	case SEARCH_LESSEQUAL:
		return msg->m_type <= type;
	case SEARCH_EQUAL:
		return msg->m_type == type;
	case SEARCH_NOTEQUAL:
		return msg->m_type != type;
	}
	return true; /* SEARCH_ANY, SEARCH_NUMBER */
}

static bool msg_fits_inqueue(const struct msg_queue *msq, size_t msgsz)
{
	return msq->cbytes + msgsz <= msq->qbytes && 1 + msq->qnum <= msq->qbytes;
}

void expunge_all(struct msg_queue *msq, int status)
{
	for (struct msg_receiver *r = msq->receivers; r; r = r->next) {
		r->status = status;
		make_runnable(r->tsk);
	}
	msq->receivers = NULL;
}

/* kill (IPC_RMID): they leave the queue; else each looks for room again. */
void ss_wakeup(struct msg_queue *msq, bool kill)
{
	for (struct msg_sender *s = msq->senders; s; s = s->next)
		make_runnable(s->tsk);
	if (kill)
		msq->senders = NULL;
}

/* Hand msg to the first sleeping receiver that wants it: true if one took
 * it. Those on the way whose buffer is too small fail with E2BIG. */
static bool pipelined_send(struct msg_queue *msq, struct msg_msg *msg)
{
	for (struct msg_receiver **pp = &msq->receivers; *pp;) {
		struct msg_receiver *r = *pp;
		if (!testmsg(msg, r->msgtype, r->mode)) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		make_runnable(r->tsk);
		if (r->maxsize < msg->m_ts) {
			r->status = -E2BIG;
			continue;
		}
		msq->lrpid = r->tsk->tgid;
		msq->rtime = ipc_now();
		r->r_msg = msg;
		r->status = 0;
		return true;
	}
	return false;
}

/* Wait (ids locked) for a change in msq; -EIDRM if it went meanwhile, else
 * 0. The caller has queued itself where the wakers look. */
static int msg_wait(struct ipc_ids *ids, struct msg_queue *msq, void *chan)
{
	ipc_getref(&msq->perm);
	ipc_sleep(ids, chan, 0);
	bool gone = msq->perm.deleted;
	ipc_putref(&msq->perm);
	return gone ? -EIDRM : 0;
}

static void unlink_sender(struct msg_queue *msq, struct msg_sender *s)
{
	for (struct msg_sender **pp = &msq->senders; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			return;
		}
}

/* Wait until msg fits in msq, then queue it (or hand it to a receiver). */
static long msgsnd_locked(struct ipc_namespace *ns, int msqid, struct msg_msg *msg, int msgflg)
{
	struct kern_ipc_perm *perm = ipc_obtain_object_check(msg_ids(ns), msqid);
	struct msg_queue *msq = (struct msg_queue *)perm;

	if (IS_ERR(perm))
		return PTR_ERR(perm);
	for (;;) {
		if (!ipcperms(perm, S_IWUGO))
			return -EACCES;
		if (msg_fits_inqueue(msq, msg->m_ts))
			break;
		if (msgflg & IPC_NOWAIT)
			return -EAGAIN;
		struct msg_sender s = { .next = msq->senders, .tsk = current };
		msq->senders = &s;
		if (msg_wait(msg_ids(ns), msq, &s))
			return -EIDRM;
		unlink_sender(msq, &s);
		if (signal_pending(current))
			return -ERESTARTNOHAND;
	}
	msq->lspid = current->tgid;
	msq->stime = ipc_now();
	if (!pipelined_send(msq, msg)) {
		struct msg_msg **pp = &msq->messages;
		while (*pp)
			pp = &(*pp)->next;
		msg->next = NULL;
		*pp = msg;
		msq->cbytes += msg->m_ts;
		msq->qnum++;
		ns->msg_bytes += msg->m_ts;
		ns->msg_hdrs++;
	}
	return 0;
}

/* The user's struct msgbuf: any address is accepted, as on Linux. */
struct msgbuf_user {
	long mtype;
	char mtext[];
};

long sys_msgsnd(int msqid, void __user *msgp, size_t msgsz, int msgflg)
{
	struct ipc_namespace *ns = current_ipc_ns();
	struct msg_msg *msg;
	long mtype, err;

	if (copy_from_user(&mtype, user_member(msgp, struct msgbuf_user, mtype), sizeof(mtype)))
		return -EFAULT;
	if (msgsz > (size_t)ns->msg_ctlmax || (long)msgsz < 0 || msqid < 0 || mtype < 1)
		return -EINVAL;
	if (!(msg = kmalloc(sizeof(*msg) + msgsz)))
		return -ENOMEM;
	msg->m_type = mtype;
	msg->m_ts = msgsz;
	if (copy_from_user(msg->m_text, user_member(msgp, struct msgbuf_user, mtext), msgsz)) {
		kfree(msg);
		return -EFAULT;
	}
	ipc_lock(&msg_ids(ns)->lock);
	err = msgsnd_locked(ns, msqid, msg, msgflg);
	ipc_unlock(&msg_ids(ns)->lock);
	if (err)
		kfree(msg);
	return err;
}

/* The message msgrcv wants, or NULL. SEARCH_LESSEQUAL looks for ever
 * lower types; SEARCH_NUMBER counts (MSG_COPY: msgtyp is an index). */
static struct msg_msg *find_msg(struct msg_queue *msq, long *msgtyp, int mode)
{
	struct msg_msg *found = NULL;
	long count = 0;

	for (struct msg_msg *m = msq->messages; m; m = m->next) {
		if (!testmsg(m, *msgtyp, mode))
			continue;
		if (mode == SEARCH_LESSEQUAL && m->m_type != 1) {
			found = m;
			*msgtyp = m->m_type - 1;
		} else if (mode != SEARCH_NUMBER || *msgtyp == count) {
			return m;
		}
		count++;
	}
	return found;
}

/* Take msg out of the queue; senders may find room now. */
static void msg_unlink(struct ipc_namespace *ns, struct msg_queue *msq, struct msg_msg *msg)
{
	struct msg_msg **pp = &msq->messages;

	while (*pp != msg)
		pp = &(*pp)->next;
	*pp = msg->next;
	msq->rtime = ipc_now();
	msq->lrpid = current->tgid;
	msq->qnum--;
	msq->cbytes -= msg->m_ts;
	ns->msg_bytes -= msg->m_ts;
	ns->msg_hdrs--;
	ss_wakeup(msq, false);
}

static struct msg_msg *msg_dup(const struct msg_msg *msg)
{
	struct msg_msg *copy = kmalloc(sizeof(*msg) + msg->m_ts);

	if (!copy)
		return ERR_PTR(-ENOMEM);
	memcpy(copy, msg, sizeof(*msg) + msg->m_ts);
	return copy;
}

struct msgrcv_args {
	long msgtyp;
	int mode, msgflg;
	size_t bufsz;
};

/* One look at the queue: the message (taken, or a copy), ERR_PTR of an
 * error, or NULL: none yet. */
static struct msg_msg *msgrcv_try(struct ipc_namespace *ns, struct msg_queue *msq,
				  struct msgrcv_args *a)
{
	if (!ipcperms(&msq->perm, S_IRUGO))
		return ERR_PTR(-EACCES);
	struct msg_msg *msg = find_msg(msq, &a->msgtyp, a->mode);
	if (!msg)
		return (a->msgflg & IPC_NOWAIT) ? ERR_PTR(-ENOMSG) : NULL;
	if (a->bufsz < msg->m_ts && !(a->msgflg & MSG_NOERROR))
		return ERR_PTR(-E2BIG);
	if (a->msgflg & MSG_COPY) /* Linux copies into min(bufsz, msgmax) */
		return msg->m_ts > MIN(a->bufsz, (size_t)ns->msg_ctlmax) ? ERR_PTR(-EINVAL) : msg_dup(msg);
	msg_unlink(ns, msq, msg);
	return msg;
}

static struct msg_msg *msgrcv_locked(struct ipc_namespace *ns, int msqid, struct msgrcv_args *a)
{
	struct kern_ipc_perm *perm = ipc_obtain_object_check(msg_ids(ns), msqid);
	struct msg_queue *msq = (struct msg_queue *)perm;

	if (IS_ERR(perm))
		return (struct msg_msg *)perm;
	for (;;) {
		struct msg_msg *msg = msgrcv_try(ns, msq, a);
		if (msg)
			return msg;
		struct msg_receiver r = {
			.tsk = current, .mode = a->mode, .msgtype = a->msgtyp, .status = -EAGAIN,
			.maxsize = (a->msgflg & MSG_NOERROR) ? INT32_MAX : a->bufsz,
		};
		struct msg_receiver **pp = &msq->receivers;
		while (*pp)
			pp = &(*pp)->next;
		*pp = &r;
		int gone = msg_wait(msg_ids(ns), msq, &r);
		if (r.status != -EAGAIN)
			return r.status ? ERR_PTR(r.status) : r.r_msg;
		if (gone)
			return ERR_PTR(-EIDRM);
		for (pp = &msq->receivers; *pp && *pp != &r; pp = &(*pp)->next)
			;
		if (*pp)
			*pp = r.next;
		if (signal_pending(current))
			return ERR_PTR(-ERESTARTNOHAND);
	}
}

static int convert_mode(long *msgtyp, int msgflg)
{
	if (msgflg & MSG_COPY)
		return SEARCH_NUMBER;
	if (*msgtyp == 0)
		return SEARCH_ANY;
	if (*msgtyp < 0) {
		*msgtyp = *msgtyp == INT64_MIN ? INT64_MAX : -*msgtyp;
		return SEARCH_LESSEQUAL;
	}
	return (msgflg & MSG_EXCEPT) ? SEARCH_NOTEQUAL : SEARCH_EQUAL;
}

long sys_msgrcv(int msqid, void __user *msgp, size_t msgsz, long msgtyp, int msgflg)
{
	struct ipc_namespace *ns = current_ipc_ns();
	struct msgrcv_args a = { .msgtyp = msgtyp, .msgflg = msgflg, .bufsz = msgsz };
	struct msg_msg *msg;

	if (msqid < 0 || (long)msgsz < 0)
		return -EINVAL;
	if ((msgflg & MSG_COPY) && ((msgflg & MSG_EXCEPT) || !(msgflg & IPC_NOWAIT)))
		return -EINVAL;
	a.mode = convert_mode(&a.msgtyp, msgflg);
	ipc_lock(&msg_ids(ns)->lock);
	msg = msgrcv_locked(ns, msqid, &a);
	ipc_unlock(&msg_ids(ns)->lock);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	/* Taken out already: a fault here loses it, as in Linux. */
	size_t n = MIN(msgsz, msg->m_ts);
	void __user *mtype = user_member(msgp, struct msgbuf_user, mtype);
	void __user *mtext = user_member(msgp, struct msgbuf_user, mtext);
	long ret = copy_to_user(mtype, &msg->m_type, sizeof(long)) ||
		   copy_to_user(mtext, msg->m_text, n) ? -EFAULT : (long)n;
	kfree(msg);
	return ret;
}
