/*
 * eventpoll.c - epoll: epoll_create, epoll_create1, epoll_ctl, epoll_wait,
 * epoll_pwait and epoll_pwait2.
 *
 * An epoll instance is an anon_inode file, "[eventpoll]", holding a set of
 * (file, descriptor) items, each with the events it wants. epoll_wait asks
 * every item's file, through the same loop as poll (select.c: do_poll_loop,
 * which sleeps until some file calls poll_wakeup), and reports up to
 * maxevents of those ready, with the data the caller gave. EPOLLERR and
 * EPOLLHUP are always wanted. An item lives as long as its file is open,
 * whatever happens to the descriptor it was added by: the last fput of the
 * file takes it out of every set (eventpoll_release), as in Linux, and an
 * item holds no reference on its file.
 *
 * Simpler than Linux: instead of a ready list filled by wake-up callbacks,
 * every epoll_wait looks at every item again. Level-triggered items are
 * exactly Linux's; EPOLLONESHOT disables an item once it is reported, until
 * EPOLL_CTL_MOD; EPOLLET (edge-triggered) reports an item when one of its
 * events appears that was not there at the last look, which misses Linux's
 * report of new data arriving on a file that was already readable.
 * EPOLLEXCLUSIVE and EPOLLWAKEUP are accepted and do nothing more.
 */
#include "vfs.h"
#include <linux/anon_inodes.h>
#include <mm.h>
#include <poll.h>
#include <sched.h>
#include <uaccess.h>
#include <vm.h>

#define EPOLL_CLOEXEC O_CLOEXEC
#define EPOLL_CTL_ADD 1
#define EPOLL_CTL_DEL 2
#define EPOLL_CTL_MOD 3

#define EPOLLIN 0x001
#define EPOLLOUT 0x004
#define EPOLLERR 0x008
#define EPOLLHUP 0x010
#define EPOLLEXCLUSIVE (1U << 28)
#define EPOLLWAKEUP (1U << 29)
#define EPOLLONESHOT (1U << 30)
#define EPOLLET (1U << 31)
/* What an item may ask for with EPOLLEXCLUSIVE (Linux's). */
#define EPOLLEXCLUSIVE_OK_BITS (EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | EPOLLWAKEUP | \
				EPOLLET | EPOLLEXCLUSIVE)
/* The flags that are no events. */
#define EP_PRIVATE_BITS (EPOLLWAKEUP | EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE)

/* The user's struct epoll_event: packed on x86-64 (12 bytes). */
struct epoll_event {
	uint32_t events;
	uint64_t data;
} __attribute__((packed));

#define EP_MAX_EVENTS (INT32_MAX / (int)sizeof(struct epoll_event))
/* How deep one epoll set may watch another through poll. */
#define EP_MAX_NESTS 4

struct epitem {
	struct epitem *next;
	struct file *file;      /* no reference: see above */
	int fd;
	uint32_t events;        /* wanted, and the EP_PRIVATE_BITS flags */
	uint64_t data;
	unsigned int last;      /* EPOLLET: what held at the last look */
};

struct eventpoll {
	struct eventpoll *next; /* every epoll set, for eventpoll_release */
	struct epitem *items;
};

static struct eventpoll *all_eventpolls;
static int ep_nests;            /* ep_poll inside ep_poll */

static const struct file_operations eventpoll_fops;

static bool is_file_epoll(struct file *file) { return file->f_op == &eventpoll_fops; }

/* kcmp(KCMP_EPOLL_TFD): the file that the toff-th item added as
 * descriptor tfd watches; -EINVAL if epfile is no epoll set, -ENOENT if
 * there is none. */
struct file *epoll_target_file(struct file *epfile, int tfd, unsigned long toff)
{
	if (!is_file_epoll(epfile))
		return ERR_PTR(-EINVAL);
	for (struct epitem *it = ((struct eventpoll *)epfile->private_data)->items; it; it = it->next)
		if (it->fd == tfd && toff-- == 0)
			return it->file;
	return ERR_PTR(-ENOENT);
}

static void ep_remove(struct epitem **pp)
{
	struct epitem *epi = *pp;

	*pp = epi->next;
	epi->file->f_ep_count--;
	kfree(epi);
}

void eventpoll_release(struct file *file)
{
	for (struct eventpoll *ep = all_eventpolls; ep && file->f_ep_count; ep = ep->next)
		for (struct epitem **pp = &ep->items; *pp;)
			if ((*pp)->file == file)
				ep_remove(pp);
			else
				pp = &(*pp)->next;
}

/* What of epi's wants holds now (0 for a disabled EPOLLONESHOT item). */
static unsigned int ep_item_poll(struct epitem *epi)
{
	return file_poll(epi->file) & epi->events & ~EP_PRIVATE_BITS;
}

/* An epoll set is readable when one of its items is ready. */
static unsigned int ep_poll(struct file *file)
{
	struct eventpoll *ep = file->private_data;
	unsigned int mask = 0;

	if (ep_nests >= EP_MAX_NESTS)
		return 0;
	ep_nests++;
	for (struct epitem *epi = ep->items; epi && !mask; epi = epi->next)
		if (ep_item_poll(epi))
			mask = POLLIN | POLLRDNORM;
	ep_nests--;
	return mask;
}

static void ep_release(struct inode *inode, struct file *file)
{
	struct eventpoll *ep = file->private_data;

	(void)inode;
	for (struct eventpoll **pp = &all_eventpolls; *pp; pp = &(*pp)->next) {
		if (*pp == ep) {
			*pp = ep->next;
			break;
		}
	}
	while (ep->items)
		ep_remove(&ep->items);
	kfree(ep);
}

static const struct file_operations eventpoll_fops = {
	.release = ep_release,
	.poll = ep_poll,
};

long sys_epoll_create1(int flags)
{
	struct eventpoll *ep;
	int fd;

	if (flags & ~EPOLL_CLOEXEC)
		return -EINVAL;
	ep = kzalloc(sizeof(*ep));
	if (!ep)
		return -ENOMEM;
	fd = anon_inode_getfd("[eventpoll]", &eventpoll_fops, ep, O_RDWR | (flags & O_CLOEXEC));
	if (fd < 0) {
		kfree(ep);
		return fd;
	}
	ep->next = all_eventpolls;
	all_eventpolls = ep;
	return fd;
}

long sys_epoll_create(int size)
{
	return size <= 0 ? -EINVAL : sys_epoll_create1(0);
}

static struct epitem **ep_find(struct eventpoll *ep, struct file *file, int fd)
{
	struct epitem **pp = &ep->items;

	while (*pp && ((*pp)->file != file || (*pp)->fd != fd))
		pp = &(*pp)->next;
	return pp;
}

static int ep_insert(struct eventpoll *ep, struct file *file, int fd, const struct epoll_event *e)
{
	struct epitem *epi = kzalloc(sizeof(*epi));

	if (!epi)
		return -ENOMEM;
	epi->file = file;
	epi->fd = fd;
	epi->events = e->events | EPOLLERR | EPOLLHUP;
	epi->data = e->data;
	epi->next = ep->items;
	ep->items = epi;
	file->f_ep_count++;
	return 0;
}

/* The checks of Linux's do_epoll_ctl, in its order. */
static int ep_ctl_check(struct file *epf, struct file *tf, int op, const struct epoll_event *e)
{
	if (!epf || !tf)
		return -EBADF;
	if (!tf->f_op || !tf->f_op->poll)
		return -EPERM; /* regular files and the like: always ready */
	if (epf == tf || !is_file_epoll(epf))
		return -EINVAL;
	if (op != EPOLL_CTL_DEL && (e->events & EPOLLEXCLUSIVE)) {
		if (op == EPOLL_CTL_MOD)
			return -EINVAL;
		if (op == EPOLL_CTL_ADD && (is_file_epoll(tf) || (e->events & ~EPOLLEXCLUSIVE_OK_BITS)))
			return -EINVAL;
	}
	return 0;
}

long sys_epoll_ctl(int epfd, int op, int fd, const struct epoll_event __user *uevent)
{
	struct epoll_event e = { 0 };
	struct file *epf, *tf;
	struct epitem **pp;
	int err;

	if (op != EPOLL_CTL_DEL && copy_from_user(&e, uevent, sizeof(e)))
		return -EFAULT;
	epf = fcheck(epfd);
	tf = fcheck(fd);
	err = ep_ctl_check(epf, tf, op, &e);
	if (err)
		return err;
	pp = ep_find(epf->private_data, tf, fd);
	switch (op) {
	case EPOLL_CTL_ADD:
		return *pp ? -EEXIST : ep_insert(epf->private_data, tf, fd, &e);
	case EPOLL_CTL_DEL:
		if (!*pp)
			return -ENOENT;
		ep_remove(pp);
		return 0;
	case EPOLL_CTL_MOD:
		if (!*pp)
			return -ENOENT;
		if (!((*pp)->events & EPOLLEXCLUSIVE)) {
			(*pp)->events = e.events | EPOLLERR | EPOLLHUP;
			(*pp)->data = e.data;
			(*pp)->last = 0;
		}
		return 0;
	default:
		return -EINVAL;
	}
}

/* ---- epoll_wait ----------------------------------------------------------------- */

struct ep_scan {
	struct eventpoll *ep;
	struct epoll_event *events;     /* kernel copy, maxevents of them */
	int maxevents;
};

/* The ready items, up to maxevents, with their one-shot and edge state. */
static long ep_scan(void *arg)
{
	struct ep_scan *s = arg;
	int n = 0;

	for (struct epitem *epi = s->ep->items; epi && n < s->maxevents; epi = epi->next) {
		unsigned int mask = ep_item_poll(epi), fresh = mask;

		if (epi->events & EPOLLET) {
			fresh = mask & ~epi->last;
			epi->last = mask;
		}
		if (!fresh)
			continue;
		s->events[n++] = (struct epoll_event){ mask, epi->data };
		if (epi->events & EPOLLONESHOT)
			epi->events &= EP_PRIVATE_BITS;
	}
	return n;
}

static long do_epoll_wait(int epfd, struct epoll_event __user *uevents, int maxevents,
			  struct poll_timeout *to)
{
	struct file *file;
	struct ep_scan s;
	long n;

	if (maxevents <= 0 || maxevents > EP_MAX_EVENTS)
		return -EINVAL;
	if ((uint64_t)uevents >= TASK_SIZE ||
	    (uint64_t)maxevents * sizeof(struct epoll_event) > TASK_SIZE - (uint64_t)uevents)
		return -EFAULT;
	file = fcheck(epfd);
	if (!file)
		return -EBADF;
	if (!is_file_epoll(file))
		return -EINVAL;
	s = (struct ep_scan){ file->private_data, NULL, MIN(maxevents, NR_OPEN) };
	s.events = kmalloc(s.maxevents * sizeof(struct epoll_event));
	if (!s.events)
		return -ENOMEM;
	get_file(file); /* the set stays while we sleep, even if closed */
	n = do_poll_loop(ep_scan, &s, to);
	if (n > 0 && copy_to_user(uevents, s.events, n * sizeof(struct epoll_event)))
		n = -EFAULT;
	fput(file);
	kfree(s.events);
	return n;
}

static void ms_timeout(struct poll_timeout *to, int timeout)
{
	to->forever = timeout < 0;
	if (timeout >= 0)
		set_timeout(to, timeout / 1000, (int64_t)(timeout % 1000) * 1000000);
}

long sys_epoll_wait(int epfd, struct epoll_event __user *events, int maxevents, int timeout)
{
	struct poll_timeout to;
	long ret;

	ms_timeout(&to, timeout);
	ret = do_epoll_wait(epfd, events, maxevents, &to);
	/* Linux does not restart epoll_wait after a handler. */
	return ret == -ERESTARTNOHAND ? -EINTR : ret;
}

long sys_epoll_pwait(int epfd, struct epoll_event __user *events, int maxevents, int timeout,
		     const uint64_t __user *sigmask, size_t sigsetsize)
{
	struct poll_timeout to;
	long ret = set_user_sigmask(sigmask, sigsetsize);

	if (ret)
		return ret;
	ms_timeout(&to, timeout);
	ret = do_epoll_wait(epfd, events, maxevents, &to);
	return ret == -ERESTARTNOHAND ? -EINTR : ret;
}

long sys_epoll_pwait2(int epfd, struct epoll_event __user *events, int maxevents,
		      const struct timespec __user *timeout, const uint64_t __user *sigmask,
		      size_t sigsetsize)
{
	struct poll_timeout to = { .forever = true };
	long ret;

	if (timeout && (ret = get_timespec_timeout(&to, timeout)))
		return ret;
	ret = set_user_sigmask(sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_epoll_wait(epfd, events, maxevents, &to);
	return ret == -ERESTARTNOHAND ? -EINTR : ret;
}
