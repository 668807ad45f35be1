/*
 * select.c - waiting for several descriptors at once: poll, ppoll, select
 * and pselect6.
 *
 * All four share one loop (do_poll_loop): with interrupts off, ask each
 * file's ->poll method what holds now; if something the caller wants is
 * ready, or the time is up, return; if a signal is pending, return
 * -ERESTARTNOHAND (EINTR once a handler has run, a transparent restart
 * otherwise); else sleep until a file changes (poll_wakeup, see
 * include/poll.h), a signal comes, or the timer reaches the deadline
 * (current->wake_at, which the timer tick checks), and look again.
 * Interrupts stay off from the last look to the sleep, so a byte typed on
 * the console in between cannot be missed.
 *
 * A timeout is a deadline on the monotonic clock (ktime_get_ns). The timer
 * tick wakes the sleeper (wake_at, in jiffies, rounded up); the deadline is
 * then checked against the clock itself, so the call never returns early
 * even when QEMU delivers a burst of late ticks. ppoll, select and pselect6
 * write the time that was left back to the caller, as Linux does.
 *
 * ppoll and pselect6 take a signal mask for the duration of the call. It is
 * installed with restore_mask set, so that a handler for a signal that the
 * mask let through runs with it, and the old mask comes back afterwards
 * (kernel/signal.c), as with rt_sigsuspend.
 */
#include "vfs.h"
#include <mm.h>
#include <poll.h>
#include <sched.h>
#include <signum.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <x86.h>

/* Every task in poll or select sleeps on this one channel. */
static char poll_waiters;

void poll_wakeup(void *chan)
{
	wakeup(chan);
	wakeup(&poll_waiters);
}

/* ---- timeouts ------------------------------------------------------------- */

#define NSEC_PER_SEC 1000000000LL
#define NSEC_PER_TICK (NSEC_PER_SEC / HZ)
/* Longer than this (146 years) is forever, as Linux's timespec64_add_safe
 * saturates; shorter, the timeout in nanoseconds fits in 63 bits. */
#define MAX_TIMEOUT_SEC (INT64_MAX / NSEC_PER_SEC / 2)

/* Set a timeout of sec seconds + nsec nanoseconds (already validated). */
void set_timeout(struct poll_timeout *to, int64_t sec, int64_t nsec)
{
	to->forever = sec > MAX_TIMEOUT_SEC;
	if (to->forever)
		return;
	to->ns = sec * NSEC_PER_SEC + nsec;
	to->end_ns = ktime_get_ns() + to->ns;
}

/* Nanoseconds left of the timeout, at most what was asked for. */
static int64_t time_left(const struct poll_timeout *to)
{
	uint64_t now = ktime_get_ns();
	return now < to->end_ns ? (int64_t)(to->end_ns - now) : 0;
}

/* The tick at which to look again: after the deadline, never before. */
static uint64_t wake_tick(const struct poll_timeout *to)
{
	return jiffies + (uint64_t)(time_left(to) + NSEC_PER_TICK - 1) / NSEC_PER_TICK + 1;
}

/* A user timespec: -EFAULT, -EINVAL for a negative or malformed one. */
int get_timespec_timeout(struct poll_timeout *to, const struct timespec __user *uts)
{
	struct timespec ts;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	set_timeout(to, ts.tv_sec, ts.tv_nsec);
	return 0;
}

/* Write back the time left (ppoll, pselect6). A fault is ignored, except
 * that an interrupted call then gives EINTR: it cannot restart correctly. */
static long put_timespec_left(const struct poll_timeout *to, struct timespec __user *uts, long ret)
{
	int64_t left = time_left(to);
	struct timespec ts = { left / NSEC_PER_SEC, left % NSEC_PER_SEC };

	if (copy_to_user(uts, &ts, sizeof(ts)) && ret == -ERESTARTNOHAND)
		ret = -EINTR;
	return ret;
}

/* ---- signal masks of ppoll and pselect6 -------------------------------------- */

int set_user_sigmask(const uint64_t __user *umask, size_t sigsetsize)
{
	uint64_t mask;

	if (!umask)
		return 0;
	if (sigsetsize != sizeof(mask))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	current->saved_mask = current->blocked;
	current->restore_mask = true;
	current->blocked = mask & ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	return 0;
}

/* ---- the common loop ---------------------------------------------------------- */

/* What holds for file now. */
unsigned int file_poll(struct file *file)
{
	if (file->f_mode & FMODE_PATH)
		return POLLNVAL;
	if (!file->f_op || !file->f_op->poll)
		return DEFAULT_POLLMASK;
	return file->f_op->poll(file);
}

/*
 * scan(arg) looks at every descriptor and returns how many are ready (or
 * -errno). Returns that count, 0 on timeout, or -ERESTARTNOHAND.
 */
long do_poll_loop(long (*scan)(void *arg), void *arg, struct poll_timeout *to)
{
	for (;;) {
		uint64_t flags = irq_save();
		long count = scan(arg);

		if (count || (!to->forever && time_left(to) == 0)) {
			irq_restore(flags);
			return count;
		}
		if (signal_pending(current)) {
			irq_restore(flags);
			return -ERESTARTNOHAND;
		}
		current->wake_at = to->forever ? 0 : wake_tick(to);
		sleep_on(&poll_waiters);
		current->wake_at = 0;
		irq_restore(flags);
	}
}

/* ---- poll and ppoll -------------------------------------------------------------- */

struct pollfd {
	int fd;
	short events;
	short revents;
};

struct poll_list {
	struct pollfd *fds;
	unsigned int nfds;
};

static long poll_scan(void *arg)
{
	struct poll_list *list = arg;
	long count = 0;

	for (unsigned int i = 0; i < list->nfds; i++) {
		struct pollfd *p = &list->fds[i];
		struct file *file;
		unsigned int mask = 0;

		if (p->fd >= 0) {
			file = fcheck(p->fd);
			mask = file ? file_poll(file) : POLLNVAL;
			/* POLLERR, POLLHUP and POLLNVAL are reported unasked. */
			mask &= (unsigned short)p->events | POLLERR | POLLHUP | POLLNVAL;
		}
		p->revents = mask;
		if (mask)
			count++;
	}
	return count;
}

static long do_sys_poll(struct pollfd __user *ufds, unsigned int nfds, struct poll_timeout *to)
{
	struct poll_list list = { NULL, nfds };
	size_t size = (size_t)nfds * sizeof(struct pollfd);
	long ret;

	if (nfds > current->rlim[RLIMIT_NOFILE].cur)
		return -EINVAL;
	list.fds = kmalloc(size ? size : 1);
	if (!list.fds)
		return -ENOMEM;
	if (copy_from_user(list.fds, ufds, size)) {
		kfree(list.fds);
		return -EFAULT;
	}
	ret = do_poll_loop(poll_scan, &list, to);
	/* Only revents go back, as Linux writes them. */
	for (unsigned int i = 0; ret >= 0 && i < nfds; i++) {
		/* The array need not be aligned: no member access through it. */
		char __user *revents = (char __user *)ufds + i * sizeof(struct pollfd) +
				       offsetof(struct pollfd, revents);
		if (copy_to_user(revents, &list.fds[i].revents, sizeof(short)))
			ret = -EFAULT;
	}
	kfree(list.fds);
	return ret;
}

long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs)
{
	struct poll_timeout to = { .forever = timeout_msecs < 0 };

	if (timeout_msecs >= 0)
		set_timeout(&to, timeout_msecs / 1000, (int64_t)(timeout_msecs % 1000) * 1000000);
	return do_sys_poll(ufds, nfds, &to);
}

long sys_ppoll(struct pollfd __user *ufds, unsigned int nfds, struct timespec __user *tsp,
	       const uint64_t __user *sigmask, size_t sigsetsize)
{
	struct poll_timeout to = { .forever = true };
	long ret;

	if (tsp && (ret = get_timespec_timeout(&to, tsp)))
		return ret;
	ret = set_user_sigmask(sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_sys_poll(ufds, nfds, &to);
	if (tsp && !to.forever)
		ret = put_timespec_left(&to, tsp, ret);
	return ret;
}

/* ---- select and pselect6 ------------------------------------------------------------- */

#define POLLIN_SET (POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET (POLLPRI)

/* select works on FD_SETSIZE (1024) descriptors at most, the C library's
 * fd_set: a larger n counts as 1024 (Linux goes on to its table's size). */
#define SELECT_MAX_FDS 1024
#define FDSET_WORDS (SELECT_MAX_FDS / 64)

struct select_sets {
	int n;
	uint64_t in[FDSET_WORDS], out[FDSET_WORDS], ex[FDSET_WORDS];
	uint64_t res_in[FDSET_WORDS], res_out[FDSET_WORDS], res_ex[FDSET_WORDS];
};

static bool fd_isset(const uint64_t *set, int fd) { return set[fd / 64] & (1ULL << (fd % 64)); }
static void fd_set_bit(uint64_t *set, int fd) { set[fd / 64] |= 1ULL << (fd % 64); }

static long select_scan(void *arg)
{
	struct select_sets *s = arg;
	long count = 0;

	memset(s->res_in, 0, sizeof(s->res_in));
	memset(s->res_out, 0, sizeof(s->res_out));
	memset(s->res_ex, 0, sizeof(s->res_ex));
	for (int fd = 0; fd < s->n; fd++) {
		bool in = fd_isset(s->in, fd), out = fd_isset(s->out, fd), ex = fd_isset(s->ex, fd);
		struct file *file;
		unsigned int mask;

		if (!in && !out && !ex)
			continue;
		file = fcheck(fd);
		if (!file)
			return -EBADF; /* closed meanwhile */
		mask = file_poll(file);
		if (in && (mask & POLLIN_SET)) {
			fd_set_bit(s->res_in, fd);
			count++;
		}
		if (out && (mask & POLLOUT_SET)) {
			fd_set_bit(s->res_out, fd);
			count++;
		}
		if (ex && (mask & POLLEX_SET)) {
			fd_set_bit(s->res_ex, fd);
			count++;
		}
	}
	return count;
}

/* Bytes of a user fd_set for n descriptors: whole longs, as Linux copies. */
static size_t fds_bytes(int n) { return ALIGN_UP((size_t)n, 64) / 8; }

static long core_sys_select(int n, uint64_t __user *inp, uint64_t __user *outp,
			    uint64_t __user *exp, struct poll_timeout *to)
{
	struct select_sets *s;
	size_t bytes;
	long ret;

	if (n < 0)
		return -EINVAL;
	if ((unsigned int)n > current->files->max_fds)
		n = current->files->max_fds; /* as Linux: the size of the table */
	if (n > SELECT_MAX_FDS)
		n = SELECT_MAX_FDS;
	s = kzalloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->n = n;
	bytes = fds_bytes(n);
	ret = 0;
	if ((inp && copy_from_user(s->in, inp, bytes)) || (outp && copy_from_user(s->out, outp, bytes)) ||
	    (exp && copy_from_user(s->ex, exp, bytes)))
		ret = -EFAULT;
	/* Bits past n do not count. */
	if (!ret && n % 64) {
		uint64_t keep = (1ULL << (n % 64)) - 1;
		s->in[n / 64] &= keep;
		s->out[n / 64] &= keep;
		s->ex[n / 64] &= keep;
	}
	/* Every descriptor asked about must be open. */
	for (int fd = 0; !ret && fd < n; fd++)
		if ((fd_isset(s->in, fd) || fd_isset(s->out, fd) || fd_isset(s->ex, fd)) && !fcheck(fd))
			ret = -EBADF;
	if (!ret)
		ret = do_poll_loop(select_scan, s, to);
	if (ret >= 0 && ((inp && copy_to_user(inp, s->res_in, bytes)) ||
			 (outp && copy_to_user(outp, s->res_out, bytes)) ||
			 (exp && copy_to_user(exp, s->res_ex, bytes))))
		ret = -EFAULT;
	kfree(s);
	return ret;
}

struct timeval {
	int64_t tv_sec;
	int64_t tv_usec;
};

long sys_select(int n, uint64_t __user *inp, uint64_t __user *outp, uint64_t __user *exp,
		struct timeval __user *tvp)
{
	struct poll_timeout to = { .forever = true };
	struct timeval tv;
	long ret;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		if (tv.tv_sec < 0 || tv.tv_usec < 0)
			return -EINVAL;
		/* Linux folds whole seconds out of tv_usec rather than refusing;
		 * seconds that then overflow wrap negative there: EINVAL. */
		if (tv.tv_usec / 1000000 > INT64_MAX - tv.tv_sec)
			return -EINVAL;
		set_timeout(&to, tv.tv_sec + tv.tv_usec / 1000000, tv.tv_usec % 1000000 * 1000);
	}
	ret = core_sys_select(n, inp, outp, exp, &to);
	if (tvp && !to.forever) {
		int64_t left = time_left(&to);
		tv.tv_sec = left / NSEC_PER_SEC;
		tv.tv_usec = left % NSEC_PER_SEC / 1000;
		if (copy_to_user(tvp, &tv, sizeof(tv)) && ret == -ERESTARTNOHAND)
			ret = -EINTR;
	}
	return ret;
}

long sys_pselect6(int n, uint64_t __user *inp, uint64_t __user *outp, uint64_t __user *exp,
		  struct timespec __user *tsp, void __user *sig)
{
	struct poll_timeout to = { .forever = true };
	struct {
		const uint64_t __user *mask;
		size_t size;
	} sigdata;
	long ret;

	if (tsp && (ret = get_timespec_timeout(&to, tsp)))
		return ret;
	if (sig) {
		if (copy_from_user(&sigdata, sig, sizeof(sigdata)))
			return -EFAULT;
		ret = set_user_sigmask(sigdata.mask, sigdata.size);
		if (ret)
			return ret;
	}
	ret = core_sys_select(n, inp, outp, exp, &to);
	if (tsp && !to.forever)
		ret = put_timespec_left(&to, tsp, ret);
	return ret;
}
