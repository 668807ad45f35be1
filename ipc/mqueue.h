/*
 * mqueue.h - what the two halves of POSIX message queues share: the
 * filesystem (ipc/mqueue.c) and the system calls that send and receive
 * (ipc/mqueue_msg.c).
 *
 * A queue is a regular file of the "mqueue" filesystem, one super block
 * per IPC namespace (ipc_namespace->mq_sb), made at boot and mounted
 * nowhere until `mount -t mqueue none /dev/mqueue` shows it. The file's
 * inode holds a struct mqueue_inode_info (i_private): the attributes, the
 * messages, the tasks waiting to send or to receive, and the one process
 * registered for a notification. Any descriptor of the file is a message
 * queue descriptor (mqd_t).
 *
 * Lock: none of its own. One CPU and no preemption; a call that looks at
 * a queue and then sleeps on it does so with interrupts off (sleep_on
 * re-enables them), and nothing of a queue is touched from an interrupt.
 * With several CPUs: a spinlock in each mqueue_inode_info, and one for
 * the namespace's count of queues, never both held.
 */
#pragma once
#include <ipc.h>
#include <kernel.h>
#include "../fs/vfs.h"

#define MQ_PRIO_MAX 32768
#define HARD_MSGMAX 65536
#define HARD_MSGSIZEMAX (16 * 1024 * 1024)
#define MQUEUE_MAGIC 0x19800202
/* Linux's accounting of a queue's bookkeeping against RLIMIT_MSGQUEUE:
 * sizeof(struct msg_msg) a message, sizeof(struct posix_msg_tree_node) a
 * priority in use (at most one a message), on x86-64. */
#define MSG_MSG_SIZE 48
#define MSG_TREE_NODE_SIZE 48

#define SIGEV_SIGNAL 0
#define SIGEV_NONE 1
#define SIGEV_THREAD 2

/* The user's struct mq_attr. */
struct mq_attr {
	long mq_flags;          /* O_NONBLOCK, of the descriptor */
	long mq_maxmsg;
	long mq_msgsize;
	long mq_curmsgs;
	long reserved[4];
};

struct mq_msg {
	struct mq_msg *next;
	unsigned int prio;
	size_t len;
	char data[];
};

/* A task waiting to send (its message in msg) or to receive (msg filled
 * in by the sender), queued in arrival order; ready once served. */
struct mq_waiter {
	struct mq_waiter *next;
	struct mq_msg *msg;
	bool ready;
};
enum { MQ_SEND, MQ_RECV };

struct mqueue_inode_info {
	struct mq_attr attr;
	struct mq_msg *msgs;            /* highest priority first, then oldest */
	uint64_t qsize;                 /* bytes of message text queued */
	struct mq_waiter *waiters[2];   /* MQ_SEND, MQ_RECV */
	/* The process to notify (its leader's serial and tgid; 0: none) when
	 * a message comes to the empty queue and nobody waits to receive. */
	uint64_t notify_owner;
	pid_t notify_pid;
	uint64_t notify_self_exec_id;   /* the owner's program then */
	int notify, notify_signo;       /* SIGEV_*; the signal for SIGEV_SIGNAL */
	uint64_t notify_value;
	/* Charged to this user's RLIMIT_MSGQUEUE until the queue is freed. */
	uid_t uid;
	uint64_t mq_bytes;
};

/* The filesystem's own (s_fs_info): how many queues it holds, named or
 * not yet freed, against the namespace's queues_max. */
struct mq_sb_info {
	unsigned int queues;
};

static inline struct mq_sb_info *mq_sb_info(struct super_block *sb)
{
	return sb->s_fs_info;
}

static inline struct mqueue_inode_info *MQUEUE_I(struct inode *inode)
{
	return inode->i_private;
}

extern const struct file_operations mqueue_file_operations;

/* ipc/mqueue.c: the queue of name in the caller's namespace, opened as
 * mq_open(2) asks: an fd or -errno. */
long mqueue_open(const char *name, int oflag, mode_t mode, const struct mq_attr *attr);
/* Remove name: 0 or -errno. */
long mqueue_unlink(const char *name);
/* The notification is gone (sent, or taken back). */
void remove_notification(struct mqueue_inode_info *info);
/* ipc/mqueue_msg.c: a message came to the empty queue: tell the owner. */
void mq_do_notify(struct mqueue_inode_info *info);
