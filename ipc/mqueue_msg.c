/*
 * mqueue_msg.c - the system calls of POSIX message queues (Linux 6.1's
 * ipc/mqueue.c): mq_open, mq_unlink, mq_timedsend, mq_timedreceive,
 * mq_notify, mq_getsetattr. The filesystem that holds the queues, and the
 * lock rules: ipc/mqueue.c, ipc/mqueue.h.
 *
 * THE LIFE OF A MESSAGE. mq_timedsend copies the text into a new struct
 * mq_msg before it looks at the queue. Then, in Linux's order:
 *   - a receiver already waits: the message goes straight to it (its
 *     mq_waiter), woken; the queue never holds it (pipelined_send);
 *   - else, room in the queue: the message is linked in after every
 *     message of its priority or higher; if it made the queue non-empty,
 *     the process registered with mq_notify gets its signal (and the
 *     registration is gone); pollers wake;
 *   - else the sender waits (O_NONBLOCK: EAGAIN) with its message in its
 *     own mq_waiter, until a receiver makes room and moves it in
 *     (pipelined_receive), the absolute CLOCK_REALTIME timeout passes
 *     (ETIMEDOUT) or a signal comes (EINTR).
 * mq_timedreceive takes the first message (the highest priority, the
 * oldest of it), makes room for the first waiting sender, and copies the
 * text out: a fault then loses the message, as on Linux.
 */
#include <cred.h>
#include <errno.h>
#include <mm.h>
#include <poll.h>
#include <sched.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <x86.h>
#include "mqueue.h"

#define NOTIFY_COOKIE_LEN 32

/* The user's struct sigevent, as mq_notify reads it. */
struct sigevent {
	uint64_t sigev_value;
	int sigev_signo;
	int sigev_notify;
	int pad[12];
};

/* ---- waiting ---- */

static void waiter_add(struct mq_waiter **list, struct mq_waiter *w)
{
	while (*list)
		list = &(*list)->next;
	w->next = NULL;
	*list = w;
}

static void waiter_del(struct mq_waiter **list, struct mq_waiter *w)
{
	for (; *list; list = &(*list)->next) {
		if (*list == w) {
			*list = w->next;
			return;
		}
	}
}

/*
 * Sleep, queued as kind, until served (0), the monotonic deadline (0:
 * none) passes (-ETIMEDOUT) or a signal comes (-ERESTARTSYS). Interrupts
 * off (Linux's wq_sleep).
 */
static int wq_sleep(struct mqueue_inode_info *info, int kind, struct mq_waiter *w, uint64_t deadline)
{
	uint64_t ns_per_tick = NSEC_PER_SEC / HZ;
	int ret;

	waiter_add(&info->waiters[kind], w);
	for (;;) {
		if (w->ready)
			return 0;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		uint64_t now = ktime_get_ns();
		if (deadline && now >= deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		/* The ticks wake us, the clock decides; one tick more for the
		 * part of this one that has gone. */
		if (deadline)
			current->wake_at = jiffies + (deadline - now + ns_per_tick - 1) / ns_per_tick + 1;
		sleep_on(w);
		current->wake_at = 0;
	}
	waiter_del(&info->waiters[kind], w);
	return ret;
}

/* An absolute CLOCK_REALTIME timeout as a monotonic deadline (1 if it has
 * passed: the wait ends at once). 0: none. */
static int get_deadline(const struct timespec __user *uts, uint64_t *deadline)
{
	struct timespec ts, now;

	*deadline = 0;
	if (!uts)
		return 0;
	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	ktime_get_real(&now);
	int64_t sec = ts.tv_sec - now.tv_sec, nsec = ts.tv_nsec - now.tv_nsec;
	if (nsec < 0) {
		sec--;
		nsec += NSEC_PER_SEC;
	}
	uint64_t mono = ktime_get_ns();
	if (sec < 0)
		*deadline = 1;
	else if (sec >= (INT64_MAX - (int64_t)mono) / NSEC_PER_SEC - 1)
		*deadline = INT64_MAX; /* as good as none */
	else
		*deadline = mono + sec * NSEC_PER_SEC + nsec;
	return 0;
}

/* ---- the queue ---- */

static void msg_insert(struct mq_msg *m, struct mqueue_inode_info *info)
{
	struct mq_msg **pp = &info->msgs;

	while (*pp && (*pp)->prio >= m->prio)
		pp = &(*pp)->next;
	m->next = *pp;
	*pp = m;
	info->attr.mq_curmsgs++;
	info->qsize += m->len;
}

static struct mq_msg *msg_get(struct mqueue_inode_info *info)
{
	struct mq_msg *m = info->msgs;

	info->msgs = m->next;
	info->attr.mq_curmsgs--;
	info->qsize -= m->len;
	return m;
}

/* The first waiter of kind served: out of the list, ready, woken. */
static struct mq_waiter *serve_first(struct mqueue_inode_info *info, int kind)
{
	struct mq_waiter *w = info->waiters[kind];

	if (w) {
		info->waiters[kind] = w->next;
		w->ready = true;
		wakeup(w);
	}
	return w;
}

/* A live thread of the process whose leader has this serial. */
static struct task *notify_target(uint64_t serial)
{
	struct task *p = find_task_by_serial(serial);

	if (!p || p->state != TASK_ZOMBIE)
		return p;
	for_each_thread(p, t)
		if (t->state != TASK_ZOMBIE)
			return t;
	return NULL;
}

void mq_do_notify(struct mqueue_inode_info *info)
{
	if (info->notify_owner && info->attr.mq_curmsgs == 1) {
		if (info->notify == SIGEV_SIGNAL && info->notify_signo) {
			struct ksiginfo si = { .si_signo = info->notify_signo, .si_code = SI_MESGQ };
			struct task *t = notify_target(info->notify_owner);
			struct task *leader = find_task_by_serial(info->notify_owner);
			si.si_pid = current->tgid;
			si.si_uid = current_uid();
			si.si_value = info->notify_value;
			/* From the kernel: no permission check; but not to
			 * another program than the one that asked. */
			if (t && leader->self_exec_id == info->notify_self_exec_id)
				send_sig_info(&si, t, true);
		}
		remove_notification(info);
	}
	poll_wakeup(info);
}

/* The queue of descriptor fd, open for fmode (0: any), or NULL (EBADF). */
static struct file *mq_fget(int fd, unsigned int fmode)
{
	struct file *f = fget(fd);

	if (f && (f->f_op != &mqueue_file_operations || (fmode && !(f->f_mode & fmode)))) {
		fput(f);
		f = NULL;
	}
	return f;
}

/* ---- the system calls ---- */

long sys_mq_open(const char __user *u_name, int oflag, mode_t mode, const struct mq_attr __user *u_attr)
{
	struct mq_attr attr;
	char *name;
	long ret;

	if (u_attr && copy_from_user(&attr, u_attr, sizeof(attr)))
		return -EFAULT;
	name = getname(u_name, false);
	if (IS_ERR(name))
		return PTR_ERR(name);
	ret = mqueue_open(name, oflag, mode & 0xffff, u_attr ? &attr : NULL);
	putname(name);
	return ret;
}

long sys_mq_unlink(const char __user *u_name)
{
	char *name = getname(u_name, false);
	long ret;

	if (IS_ERR(name))
		return PTR_ERR(name);
	ret = mqueue_unlink(name);
	putname(name);
	return ret;
}

/* Send m (Linux's do_mq_timedsend, past the checks); interrupts off. */
static long mq_send(struct file *f, struct mqueue_inode_info *info, struct mq_msg *m, uint64_t deadline)
{
	struct mq_waiter w = { .msg = m };
	long ret = 0;

	if (info->attr.mq_curmsgs == info->attr.mq_maxmsg) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		return wq_sleep(info, MQ_SEND, &w, deadline); /* 0: a receiver took m in */
	}
	struct mq_waiter *receiver = info->waiters[MQ_RECV];
	if (receiver) {
		receiver->msg = m;
		serve_first(info, MQ_RECV);
	} else {
		msg_insert(m, info);
		mq_do_notify(info);
	}
	inode_now(&f->f_inode->i_mtime);
	f->f_inode->i_atime = f->f_inode->i_ctime = f->f_inode->i_mtime;
	return ret;
}

long sys_mq_timedsend(int mqdes, const char __user *u_msg, size_t len, unsigned int prio,
		      const struct timespec __user *u_timeout)
{
	uint64_t deadline;
	struct mq_msg *m;
	struct file *f;
	long ret = get_deadline(u_timeout, &deadline);

	if (ret)
		return ret;
	if (prio >= MQ_PRIO_MAX)
		return -EINVAL;
	f = mq_fget(mqdes, FMODE_WRITE);
	if (!f)
		return -EBADF;
	struct mqueue_inode_info *info = MQUEUE_I(f->f_inode);
	ret = -EMSGSIZE;
	if (len > (size_t)info->attr.mq_msgsize)
		goto out;
	ret = -ENOMEM;
	m = kmalloc(sizeof(*m) + len);
	if (!m)
		goto out;
	m->prio = prio;
	m->len = len;
	ret = copy_from_user(m->data, u_msg, len) ? -EFAULT : 0;
	if (!ret) {
		uint64_t irq = irq_save();
		ret = mq_send(f, info, m, deadline);
		irq_restore(irq);
	}
	if (ret)
		kfree(m);
out:
	fput(f);
	return ret;
}

/* Take the first message (Linux's do_mq_timedreceive, past the checks);
 * interrupts off. */
static long mq_receive(struct file *f, struct mqueue_inode_info *info, struct mq_msg **m, uint64_t deadline)
{
	struct mq_waiter w = { 0 };
	long ret;

	if (info->attr.mq_curmsgs == 0) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wq_sleep(info, MQ_RECV, &w, deadline);
		*m = w.msg;
		return ret;
	}
	*m = msg_get(info);
	inode_now(&f->f_inode->i_mtime);
	f->f_inode->i_atime = f->f_inode->i_ctime = f->f_inode->i_mtime;
	/* Room now: the first waiting sender's message comes in. */
	struct mq_waiter *sender = info->waiters[MQ_SEND];
	if (sender) {
		msg_insert(sender->msg, info);
		serve_first(info, MQ_SEND);
	} else {
		poll_wakeup(info);
	}
	return 0;
}

long sys_mq_timedreceive(int mqdes, char __user *u_msg, size_t len, unsigned int __user *u_prio,
			 const struct timespec __user *u_timeout)
{
	struct mq_msg *m = NULL;
	uint64_t deadline;
	struct file *f;
	long ret = get_deadline(u_timeout, &deadline);

	if (ret)
		return ret;
	f = mq_fget(mqdes, FMODE_READ);
	if (!f)
		return -EBADF;
	struct mqueue_inode_info *info = MQUEUE_I(f->f_inode);
	ret = -EMSGSIZE;
	if (len < (size_t)info->attr.mq_msgsize)
		goto out;
	uint64_t irq = irq_save();
	ret = mq_receive(f, info, &m, deadline);
	irq_restore(irq);
	if (!ret) {
		ret = m->len;
		if ((u_prio && copy_to_user(u_prio, &m->prio, sizeof(m->prio))) ||
		    copy_to_user(u_msg, m->data, m->len))
			ret = -EFAULT;
		kfree(m);
	}
out:
	fput(f);
	return ret;
}

/*
 * SIGEV_THREAD asks for a netlink socket (sigev_signo) to be sent the
 * 32-byte cookie at sigev_value. This kernel has no netlink: the checks
 * Linux makes before it attaches to the socket answer as there (EFAULT
 * for the cookie, EBADF, ENOTSOCK), and any socket is "not netlink"
 * (EINVAL). C libraries that build SIGEV_THREAD on it fail earlier, at
 * socket(AF_NETLINK): EAFNOSUPPORT.
 */
static long check_notify_sock(const struct sigevent *ev)
{
	char cookie[NOTIFY_COOKIE_LEN];
	struct file *f;
	bool sock;

	if (copy_from_user(cookie, (const void __user *)ev->sigev_value, sizeof(cookie)))
		return -EFAULT;
	f = fget(ev->sigev_signo);
	if (!f)
		return -EBADF;
	sock = S_ISSOCK(f->f_inode->i_mode);
	fput(f);
	return sock ? -EINVAL : -ENOTSOCK;
}

/* Register (or with NULL, take back) the caller's process for a
 * notification; interrupts off. */
static long mq_notify_set(struct file *f, struct mqueue_inode_info *info, const struct sigevent *ev)
{
	uint64_t me = current->group_leader->serial;

	if (!ev) {
		if (info->notify_owner == me)
			remove_notification(info);
	} else if (info->notify_owner) {
		return -EBUSY;
	} else {
		info->notify = ev->sigev_notify;
		info->notify_signo = ev->sigev_signo;
		info->notify_value = ev->sigev_value;
		info->notify_owner = me;
		info->notify_pid = current->tgid;
		info->notify_self_exec_id = current->group_leader->self_exec_id;
	}
	inode_now(&f->f_inode->i_atime);
	f->f_inode->i_ctime = f->f_inode->i_atime;
	return 0;
}

long sys_mq_notify(int mqdes, const struct sigevent __user *u_notification)
{
	struct sigevent ev;
	struct file *f;
	long ret;

	if (u_notification) {
		if (copy_from_user(&ev, u_notification, sizeof(ev)))
			return -EFAULT;
		if (ev.sigev_notify != SIGEV_NONE && ev.sigev_notify != SIGEV_SIGNAL &&
		    ev.sigev_notify != SIGEV_THREAD)
			return -EINVAL;
		if (ev.sigev_notify == SIGEV_SIGNAL && (unsigned int)ev.sigev_signo > NSIG)
			return -EINVAL;
		if (ev.sigev_notify == SIGEV_THREAD)
			return check_notify_sock(&ev);
	}
	f = mq_fget(mqdes, 0);
	if (!f)
		return -EBADF;
	uint64_t irq = irq_save();
	ret = mq_notify_set(f, MQUEUE_I(f->f_inode), u_notification ? &ev : NULL);
	irq_restore(irq);
	fput(f);
	return ret;
}

long sys_mq_getsetattr(int mqdes, const struct mq_attr __user *u_new, struct mq_attr __user *u_old)
{
	struct mq_attr new, old;
	struct file *f;

	if (u_new && copy_from_user(&new, u_new, sizeof(new)))
		return -EFAULT;
	if (u_new && (new.mq_flags & ~(long)O_NONBLOCK))
		return -EINVAL;
	f = mq_fget(mqdes, 0);
	if (!f)
		return -EBADF;
	old = MQUEUE_I(f->f_inode)->attr;
	old.mq_flags = f->f_flags & O_NONBLOCK;
	if (u_new) {
		if (new.mq_flags & O_NONBLOCK)
			f->f_flags |= O_NONBLOCK;
		else
			f->f_flags &= ~O_NONBLOCK;
		inode_now(&f->f_inode->i_atime);
		f->f_inode->i_ctime = f->f_inode->i_atime;
	}
	fput(f);
	if (u_old && copy_to_user(u_old, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}
