/*
 * msg.c - System V message queues: msgget and msgctl, /proc/sysvipc/msg
 * and /proc/sys/kernel/{msgmax,msgmnb,msgmni} (Linux: ipc/msg.c,
 * ipc/ipc_sysctl.c). Sending and receiving: msgop.c.
 *
 * A new queue holds up to msgmnb bytes (qbytes, which IPC_SET may raise
 * beyond msgmnb only with CAP_SYS_RESOURCE); a message up to msgmax bytes;
 * there are up to msgmni queues. Removing a queue (IPC_RMID) frees its
 * messages and wakes its sleepers with EIDRM.
 */
#include <cred.h>
#include <linux/pid_namespace.h>
#include <errno.h>
#include <kernel.h>
#include <linux/init.h>
#include <mm.h>
#include <proc_fs.h>
#include <string.h>
#include <uaccess.h>
#include "msg.h"

/* The user's structures (x86-64's struct msqid64_ds, struct msginfo). */
struct msqid64_ds {
	struct ipc64_perm msg_perm;
	int64_t msg_stime, msg_rtime, msg_ctime;
	uint64_t msg_cbytes, msg_qnum, msg_qbytes;
	int msg_lspid, msg_lrpid;
	uint64_t unused4, unused5;
};
struct msginfo {
	int msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql;
	unsigned short msgseg;
};

/* Linux's compiled-in MSGPOOL, MSGMAP, MSGTQL, MSGSSZ, MSGSEG. */
#define MSGPOOL (32000 * 16384 / 1024)
#define MSGMAP 16384
#define MSGTQL 16384
#define MSGSSZ 16
#define MSGSEG 0xffff

static void msg_free(struct kern_ipc_perm *perm)
{
	kfree(perm);
}

static int newque(struct ipc_namespace *ns, int key, int msgflg, long unused)
{
	struct msg_queue *msq = kzalloc(sizeof(*msq));
	int id;

	(void)unused;
	if (!msq)
		return -ENOMEM;
	msq->perm.key = key;
	msq->perm.mode = msgflg & S_IRWXUGO;
	msq->perm.free = msg_free;
	msq->ctime = ipc_now();
	msq->qbytes = ns->msg_ctlmnb;
	id = ipc_addid(msg_ids(ns), &msq->perm, ns->msg_ctlmni);
	if (id < 0)
		kfree(msq);
	return id;
}

long sys_msgget(int key, int msgflg)
{
	static const struct ipc_ops msg_ops = { .getnew = newque };
	struct ipc_namespace *ns = current_ipc_ns();

	return ipcget(ns, msg_ids(ns), &msg_ops, key, msgflg, 0);
}

/* IPC_RMID: sleepers get EIDRM, the messages are freed. */
static void freeque(struct ipc_namespace *ns, struct msg_queue *msq)
{
	struct msg_msg *msg, *next;

	expunge_all(msq, -EIDRM);
	ss_wakeup(msq, true);
	for (msg = msq->messages; msg; msg = next) {
		next = msg->next;
		ns->msg_bytes -= msg->m_ts;
		ns->msg_hdrs--;
		kfree(msg);
	}
	msq->messages = NULL;
	ipc_rmid(msg_ids(ns), &msq->perm);
}

/* The namespace's last put: every queue goes, with its messages. */
void msg_exit_ns(struct ipc_namespace *ns)
{
	struct ipc_ids *ids = msg_ids(ns);

	ipc_lock(&ids->lock);
	while (ids->max_idx >= 0) /* the highest slot in use: ipc_rmid keeps it so */
		freeque(ns, (struct msg_queue *)ids->entries[ids->max_idx]);
	ipc_unlock(&ids->lock);
}

static long msgctl_info(struct ipc_namespace *ns, int cmd, void __user *buf)
{
	struct msginfo info = {
		.msgmni = ns->msg_ctlmni, .msgmax = ns->msg_ctlmax, .msgmnb = ns->msg_ctlmnb,
		.msgssz = MSGSSZ, .msgseg = MSGSEG,
	};

	if (cmd == MSG_INFO) {
		info.msgpool = msg_ids(ns)->in_use;
		info.msgmap = MIN(ns->msg_hdrs, (uint64_t)INT32_MAX);
		info.msgtql = MIN(ns->msg_bytes, (uint64_t)INT32_MAX);
	} else {
		info.msgmap = MSGMAP;
		info.msgpool = MSGPOOL;
		info.msgtql = MSGTQL;
	}
	int max_idx = ipc_get_maxidx(msg_ids(ns));
	if (copy_to_user(buf, &info, sizeof(info)))
		return -EFAULT;
	return max_idx < 0 ? 0 : max_idx;
}

/* IPC_STAT (by id; 0), MSG_STAT and MSG_STAT_ANY (by index; the id). */
static long msgctl_stat(struct ipc_namespace *ns, int msqid, int cmd, void __user *buf)
{
	struct kern_ipc_perm *perm;
	struct msqid64_ds ds;

	memset(&ds, 0, sizeof(ds));
	ipc_lock(&msg_ids(ns)->lock);
	perm = cmd == IPC_STAT ? ipc_obtain_object_check(msg_ids(ns), msqid)
			       : ipc_obtain_object_idr(msg_ids(ns), msqid);
	if (!IS_ERR(perm) && cmd != MSG_STAT_ANY && !ipcperms(perm, S_IRUGO))
		perm = ERR_PTR(-EACCES);
	if (IS_ERR(perm)) {
		ipc_unlock(&msg_ids(ns)->lock);
		return PTR_ERR(perm);
	}
	struct msg_queue *msq = (struct msg_queue *)perm;
	kernel_to_ipc64_perm(perm, &ds.msg_perm);
	ds.msg_stime = msq->stime;
	ds.msg_rtime = msq->rtime;
	ds.msg_ctime = msq->ctime;
	ds.msg_cbytes = msq->cbytes;
	ds.msg_qnum = msq->qnum;
	ds.msg_qbytes = msq->qbytes;
	ds.msg_lspid = pid_global_to_vnr(msq->lspid); /* as the caller's pid namespace numbers it */
	ds.msg_lrpid = pid_global_to_vnr(msq->lrpid);
	int id = perm->id;
	ipc_unlock(&msg_ids(ns)->lock);
	if (copy_to_user(buf, &ds, sizeof(ds)))
		return -EFAULT;
	return cmd == IPC_STAT ? 0 : id;
}

/* IPC_SET (Linux takes qbytes as an int) and IPC_RMID. */
static long msgctl_down(struct ipc_namespace *ns, int msqid, int cmd, const struct msqid64_ds *ds)
{
	struct kern_ipc_perm *perm;
	int qbytes = ds ? (int)ds->msg_qbytes : 0;
	long err = 0;

	ipc_lock(&msg_ids(ns)->lock);
	perm = ipcctl_obtain_check(msg_ids(ns), msqid);
	struct msg_queue *msq = (struct msg_queue *)perm;
	if (IS_ERR(perm))
		err = PTR_ERR(perm);
	else if (cmd == IPC_RMID)
		freeque(ns, msq);
	else if (qbytes > ns->msg_ctlmnb && !capable(CAP_SYS_RESOURCE))
		err = -EPERM;
	else if (!(err = ipc_update_perm(&ds->msg_perm, perm))) {
		msq->qbytes = (uint64_t)(int64_t)qbytes;
		msq->ctime = ipc_now();
		expunge_all(msq, -EAGAIN); /* receivers look again (the mode may bar them) */
		ss_wakeup(msq, false);     /* senders may find room */
	}
	ipc_unlock(&msg_ids(ns)->lock);
	return err;
}

long sys_msgctl(int msqid, int cmd, void __user *buf)
{
	struct ipc_namespace *ns = current_ipc_ns();
	struct msqid64_ds ds;

	if (msqid < 0 || cmd < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case MSG_INFO:
		return msgctl_info(ns, cmd, buf);
	case IPC_STAT:
	case MSG_STAT:
	case MSG_STAT_ANY:
		return msgctl_stat(ns, msqid, cmd, buf);
	case IPC_SET:
		if (copy_from_user(&ds, buf, sizeof(ds)))
			return -EFAULT;
		return msgctl_down(ns, msqid, cmd, &ds);
	case IPC_RMID:
		return msgctl_down(ns, msqid, cmd, NULL);
	}
	return -EINVAL;
}

/* ---- /proc/sysvipc/msg and /proc/sys/kernel/msg* ---- */

static int msg_proc_show(struct seq_file *m)
{
	struct ipc_ids *ids = msg_ids(current_ipc_ns());

	seq_puts(m, "       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime\n");
	for (int i = 0; i <= ids->max_idx; i++) {
		struct msg_queue *q = (struct msg_queue *)ids->entries[i];
		if (!q)
			continue;
		seq_printf(m, "%10d %10d  %4o  %10lu %10lu %5u %5u %5u %5u %5u %5u %10lld %10lld %10lld\n",
			   q->perm.key, q->perm.id, q->perm.mode, (unsigned long)q->cbytes,
			   (unsigned long)q->qnum, q->lspid, q->lrpid, q->perm.uid, q->perm.gid,
			   q->perm.cuid, q->perm.cgid, (long long)q->stime, (long long)q->rtime,
			   (long long)q->ctime);
	}
	return 0;
}

#define MSG_SYSCTL(name, field, max)                                                   \
	static int name##_show(struct seq_file *m)                                     \
	{                                                                              \
		seq_printf(m, "%d\n", current_ipc_ns()->field);                        \
		return 0;                                                              \
	}                                                                              \
	static int name##_write(const char *buf, size_t count)                         \
	{                                                                              \
		int v, n = ipc_parse_ints(buf, count, &v, 1, 0, (max));                \
		if (n > 0)                                                             \
			current_ipc_ns()->field = v;                                   \
		return n < 0 ? n : 0;                                                  \
	}
MSG_SYSCTL(msgmax, msg_ctlmax, INT32_MAX)
MSG_SYSCTL(msgmnb, msg_ctlmnb, INT32_MAX)
MSG_SYSCTL(msgmni, msg_ctlmni, IPCMNI)
MSG_SYSCTL(msg_next_id, ids[IPC_MSG_IDS].next_id, INT32_MAX)

static int msg_init(void)
{
	proc_create("sysvipc/msg", 0444, msg_proc_show, NULL);
	proc_create("sys/kernel/msgmax", 0644, msgmax_show, msgmax_write);
	proc_create("sys/kernel/msgmnb", 0644, msgmnb_show, msgmnb_write);
	proc_create("sys/kernel/msg_next_id", 0644, msg_next_id_show, msg_next_id_write);
	return proc_create("sys/kernel/msgmni", 0644, msgmni_show, msgmni_write);
}
device_initcall(msg_init);
