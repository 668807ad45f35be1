/*
 * timerfd.c - timerfd_create, timerfd_settime, timerfd_gettime: a timer
 * whose expiries are read from a file descriptor, instead of sent as a
 * signal (Linux 6.1's fs/timerfd.c; man 2 timerfd_create).
 *
 * The file is an anon_inode file, "[timerfd]". Its timer counts on one
 * clock: the wall clock (CLOCK_REALTIME, CLOCK_REALTIME_ALARM) or the
 * monotonic one (CLOCK_MONOTONIC, and CLOCK_BOOTTIME and
 * CLOCK_BOOTTIME_ALARM: this kernel never suspends, so the boot clock is
 * the monotonic one and an alarm wakes nothing). The _ALARM clocks need
 * CAP_WAKE_ALARM, as for POSIX timers. As in Linux (whose hrtimers put
 * a relative CLOCK_REALTIME timer on the monotonic base), a relative time
 * on CLOCK_REALTIME runs on the monotonic clock and no setting of the
 * wall clock moves it; an absolute one, or any on CLOCK_REALTIME_ALARM,
 * follows the wall clock.
 *
 * THE LIFE OF AN EXPIRY.
 *   arm      timerfd_settime sets `expires`, in ns on the clock as the
 *            host counts it (an absolute time in a time namespace is
 *            taken back to the host's with timens_to_host), and puts the
 *            timer on armed_timerfds. A time already past fires at once.
 *   tick     every timer tick (kernel/time/itimer.c) calls timerfd_tick:
 *            a timer that is due comes off the list, counts one tick and
 *            wakes its readers and pollers (poll_wakeup). As precise as
 *            the tick, 10 ms, and never early.
 *   read     read returns the ticks counted (8 bytes) and zeroes them,
 *            waiting for one unless O_NONBLOCK (EAGAIN). A periodic timer
 *            is not re-armed by the tick but here, or by timerfd_gettime
 *            or timerfd_settime: its expiry moves past now by whole
 *            intervals, and the intervals skipped are ticks too. So a
 *            tiny interval costs one tick's work until someone looks.
 * poll, select and epoll see POLLIN while ticks are counted.
 *
 * TFD_TIMER_CANCEL_ON_SET, with an absolute time on a wall clock: when
 * the wall clock is set (clock_settime, settimeofday: do_settimeofday
 * calls timerfd_clock_was_set), the timer is "cancelled": it counts one
 * tick so that readers wake, and the next read (or TFD_IOC_SET_TICKS, or
 * a settime that arms it) answers ECANCELED, once. The timer itself runs
 * on; `moffs` (the wall clock's offset from the monotonic one when the
 * timer last looked) tells whether the clock moved.
 *
 * A periodic or one-shot timer stays until the file's last close; a fork
 * shares it, exec keeps it unless TFD_CLOEXEC.
 *
 * Concurrency: the tick (an interrupt) fires timers, so everything else
 * changes a timer with interrupts off (irq_save), as posix-timers.c does.
 */
#include "vfs.h"
#include <cred.h>
#include <linux/anon_inodes.h>
#include <mm.h>
#include <poll.h>
#include <proc_fs.h>
#include <sched.h>
#include <time_namespace.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <x86.h>

#define TFD_TIMER_ABSTIME 1
#define TFD_TIMER_CANCEL_ON_SET 2
#define TFD_SETTIME_FLAGS (TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
#define TFD_CLOEXEC O_CLOEXEC
#define TFD_NONBLOCK O_NONBLOCK
#define TFD_IOC_SET_TICKS 0x40085400 /* _IOW('T', 0, u64) */

struct itimerspec {
	struct timespec it_interval, it_value;
};

struct timerfd_ctx {
	struct timerfd_ctx *next_armed;  /* armed_timerfds */
	struct timerfd_ctx *next_cancel; /* cancel_list, while might_cancel */
	int clockid;
	bool armed;
	bool expired;          /* fired, not yet re-armed (a periodic one) */
	bool might_cancel;     /* CANCEL_ON_SET: on cancel_list */
	bool on_wall_clock;    /* expires counts on the wall clock, else the monotonic */
	unsigned int settime_flags; /* for fdinfo */
	uint64_t ticks;        /* expiries not yet read */
	int64_t expires;       /* on the host's clock, ns */
	int64_t interval;      /* 0: one shot */
	int64_t moffs;         /* wall - monotonic when last seen; KTIME_MAX: set since */
};

static struct timerfd_ctx *armed_timerfds;
static struct timerfd_ctx *cancel_list;

static bool isalarm(const struct timerfd_ctx *ctx)
{
	return ctx->clockid == CLOCK_REALTIME_ALARM || ctx->clockid == CLOCK_BOOTTIME_ALARM;
}

/* The clock the timer counts on now, as the host counts it. */
static int64_t clock_now(const struct timerfd_ctx *ctx)
{
	int64_t ns = (int64_t)ktime_get_ns();

	if (ctx->on_wall_clock)
		ns += ktime_mono_to_real_offset();
	return ns;
}

/* ---- the armed list ---- */

static void disarm(struct timerfd_ctx *ctx)
{
	if (!ctx->armed)
		return;
	for (struct timerfd_ctx **pp = &armed_timerfds; *pp; pp = &(*pp)->next_armed) {
		if (*pp == ctx) {
			*pp = ctx->next_armed;
			break;
		}
	}
	ctx->armed = false;
}

/* The timer is due: one tick more, and its waiters wake (Linux's
 * timerfd_triggered). */
static void timerfd_triggered(struct timerfd_ctx *ctx)
{
	disarm(ctx);
	ctx->expired = true;
	ctx->ticks++;
	poll_wakeup(ctx);
}

/* Arm at ctx->expires; due already, it fires now. */
static void arm(struct timerfd_ctx *ctx)
{
	if (clock_now(ctx) >= ctx->expires) {
		timerfd_triggered(ctx);
		return;
	}
	if (ctx->armed)
		return;
	ctx->armed = true;
	ctx->next_armed = armed_timerfds;
	armed_timerfds = ctx;
}

void timerfd_tick(void)
{
	struct timerfd_ctx *ctx = armed_timerfds, *next;

	for (; ctx; ctx = next) {
		next = ctx->next_armed;
		if (clock_now(ctx) >= ctx->expires)
			timerfd_triggered(ctx);
	}
}

/* Move a periodic timer's expiry past now by whole intervals: how many
 * (Linux's hrtimer_forward_now; 0 if it is not due). */
static uint64_t forward_now(struct timerfd_ctx *ctx)
{
	int64_t now = clock_now(ctx);

	if (now < ctx->expires)
		return 0;
	uint64_t n = (uint64_t)(now - ctx->expires) / ctx->interval + 1;
	if (n > (uint64_t)(KTIME_MAX - ctx->expires) / ctx->interval)
		ctx->expires = KTIME_MAX;
	else
		ctx->expires += n * ctx->interval;
	return n;
}

/* A periodic timer that fired goes on: the intervals it skipped are
 * counted as ticks (the one that fired is counted already). */
static void rearm_expired(struct timerfd_ctx *ctx)
{
	if (!ctx->expired || !ctx->interval)
		return;
	ctx->ticks += forward_now(ctx) - 1;
	ctx->expired = false;
	arm(ctx);
}

/* The time left, 0 once due. */
static int64_t remaining(const struct timerfd_ctx *ctx)
{
	int64_t now = clock_now(ctx);

	return ctx->expires > now ? ctx->expires - now : 0;
}

/* ---- cancel on set ---- */

void timerfd_clock_was_set(void)
{
	int64_t moffs = ktime_mono_to_real_offset();
	uint64_t irq = irq_save();

	for (struct timerfd_ctx *ctx = cancel_list; ctx; ctx = ctx->next_cancel) {
		if (ctx->moffs != moffs) {
			ctx->moffs = KTIME_MAX;
			ctx->ticks++;
			poll_wakeup(ctx);
		}
	}
	irq_restore(irq);
}

static void remove_cancel(struct timerfd_ctx *ctx)
{
	if (!ctx->might_cancel)
		return;
	for (struct timerfd_ctx **pp = &cancel_list; *pp; pp = &(*pp)->next_cancel) {
		if (*pp == ctx) {
			*pp = ctx->next_cancel;
			break;
		}
	}
	ctx->might_cancel = false;
}

/* Was the clock set since the timer last looked? Once: the timer takes
 * the clock's new offset. */
static bool timerfd_canceled(struct timerfd_ctx *ctx)
{
	if (!ctx->might_cancel || ctx->moffs != KTIME_MAX)
		return false;
	ctx->moffs = ktime_mono_to_real_offset();
	return true;
}

/* Only an absolute time on a wall clock can be cancelled. */
static void setup_cancel(struct timerfd_ctx *ctx, int flags)
{
	bool wall = ctx->clockid == CLOCK_REALTIME || ctx->clockid == CLOCK_REALTIME_ALARM;

	if (wall && (flags & TFD_TIMER_ABSTIME) && (flags & TFD_TIMER_CANCEL_ON_SET)) {
		if (!ctx->might_cancel) {
			ctx->might_cancel = true;
			ctx->next_cancel = cancel_list;
			cancel_list = ctx;
		}
	} else {
		remove_cancel(ctx);
	}
}

/* ---- the file ---- */

static void timerfd_release(struct inode *inode, struct file *file)
{
	struct timerfd_ctx *ctx = file->private_data;
	uint64_t irq = irq_save();

	(void)inode;
	remove_cancel(ctx);
	disarm(ctx);
	irq_restore(irq);
	kfree(ctx);
}

static unsigned int timerfd_poll(struct file *file)
{
	struct timerfd_ctx *ctx = file->private_data;

	return ctx->ticks ? POLLIN : 0;
}

/* Wait (interrupts off) for a tick: 0, or -ERESTARTSYS for a signal. */
static int wait_for_ticks(struct timerfd_ctx *ctx)
{
	while (!ctx->ticks) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on(ctx);
	}
	return 0;
}

static ssize_t timerfd_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct timerfd_ctx *ctx = file->private_data;
	uint64_t ticks = 0;
	ssize_t res;

	(void)pos;
	if (to->count < sizeof(ticks))
		return -EINVAL;
	uint64_t irq = irq_save();
	res = (file->f_flags & O_NONBLOCK) ? -EAGAIN : wait_for_ticks(ctx);
	/* The clock was set: the ticks mean nothing now, and the timer is
	 * not re-armed; the reader is to look at the clock again. */
	if (timerfd_canceled(ctx)) {
		ctx->ticks = 0;
		ctx->expired = false;
		res = -ECANCELED;
	}
	if (ctx->ticks) {
		rearm_expired(ctx);
		ticks = ctx->ticks;
		ctx->expired = false;
		ctx->ticks = 0;
	}
	irq_restore(irq);
	if (ticks)
		res = copy_to_iter(&ticks, sizeof(ticks), to) == sizeof(ticks) ? (ssize_t)sizeof(ticks) : -EFAULT;
	return res;
}

/* Linux's five lines; the time left is not moved forward. */
static void timerfd_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct timerfd_ctx *ctx = file->private_data;
	uint64_t irq = irq_save();
	int64_t value = remaining(ctx), interval = ctx->interval;
	uint64_t ticks = ctx->ticks;
	irq_restore(irq);

	seq_printf(m, "clockid: %d\nticks: %lu\nsettime flags: 0%o\n", ctx->clockid,
		   (unsigned long)ticks, ctx->settime_flags);
	seq_printf(m, "it_value: (%lu, %lu)\nit_interval: (%lu, %lu)\n",
		   (unsigned long)(value / NSEC_PER_SEC), (unsigned long)(value % NSEC_PER_SEC),
		   (unsigned long)(interval / NSEC_PER_SEC), (unsigned long)(interval % NSEC_PER_SEC));
}

/* TFD_IOC_SET_TICKS (checkpoint/restore): set the count of expiries not
 * yet read, not 0. */
static long timerfd_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct timerfd_ctx *ctx = file->private_data;
	uint64_t ticks;
	long ret = 0;

	if (cmd != TFD_IOC_SET_TICKS)
		return -ENOTTY;
	if (copy_from_user(&ticks, (const void __user *)arg, sizeof(ticks)))
		return -EFAULT;
	if (!ticks)
		return -EINVAL;
	uint64_t irq = irq_save();
	if (timerfd_canceled(ctx)) {
		ret = -ECANCELED;
	} else {
		ctx->ticks = ticks;
		poll_wakeup(ctx);
	}
	irq_restore(irq);
	return ret;
}

static const struct file_operations timerfd_fops = {
	.release = timerfd_release,
	.poll = timerfd_poll,
	.read = timerfd_read,
	.llseek = noop_llseek,
	.ioctl = timerfd_ioctl,
	.show_fdinfo = timerfd_show_fdinfo,
};

/* ---- the system calls ---- */

/* Descriptor ufd's timer: -EBADF (not open), -EINVAL (not a timerfd). */
static struct timerfd_ctx *timerfd_fget(int ufd)
{
	struct file *file = fcheck(ufd);

	if (!file || (file->f_mode & FMODE_PATH))
		return ERR_PTR(-EBADF);
	if (file->f_op != &timerfd_fops)
		return ERR_PTR(-EINVAL);
	return file->private_data;
}

long sys_timerfd_create(int clockid, int flags)
{
	struct timerfd_ctx *ctx;
	int ufd;

	if ((flags & ~(TFD_CLOEXEC | TFD_NONBLOCK)) ||
	    (clockid != CLOCK_MONOTONIC && clockid != CLOCK_REALTIME && clockid != CLOCK_REALTIME_ALARM &&
	     clockid != CLOCK_BOOTTIME && clockid != CLOCK_BOOTTIME_ALARM))
		return -EINVAL;
	if ((clockid == CLOCK_REALTIME_ALARM || clockid == CLOCK_BOOTTIME_ALARM) && !capable(CAP_WAKE_ALARM))
		return -EPERM;
	ctx = kzalloc(sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->clockid = clockid;
	ctx->on_wall_clock = clockid == CLOCK_REALTIME || clockid == CLOCK_REALTIME_ALARM;
	ctx->moffs = ktime_mono_to_real_offset();
	ufd = anon_inode_getfd("[timerfd]", &timerfd_fops, ctx, O_RDWR | (flags & (TFD_CLOEXEC | TFD_NONBLOCK)));
	if (ufd < 0)
		kfree(ctx);
	return ufd;
}

/*
 * Program the timer anew (Linux's timerfd_setup): no ticks, the new
 * interval, and unless it_value is 0, the expiry. An alarm timer keeps its
 * old expiry when disarmed (Linux's alarm_init does not clear it, and
 * timerfd_gettime shows what is left of it); another's is 0. -ECANCELED if
 * the clock was set since the timer last looked: the timer is armed all
 * the same, its flags are not recorded.
 */
static int timerfd_setup(struct timerfd_ctx *ctx, int flags, const struct itimerspec *new)
{
	int64_t texp = timespec_to_ns(&new->it_value);

	ctx->expired = false;
	ctx->ticks = 0;
	ctx->interval = timespec_to_ns(&new->it_interval);
	if (ctx->clockid == CLOCK_REALTIME)
		ctx->on_wall_clock = flags & TFD_TIMER_ABSTIME;
	if (!isalarm(ctx))
		ctx->expires = texp;
	if (texp) {
		if (flags & TFD_TIMER_ABSTIME) {
			ctx->expires = timens_to_host(ctx->clockid, texp);
		} else {
			int64_t now = clock_now(ctx);
			ctx->expires = texp > KTIME_MAX - now ? KTIME_MAX : now + texp;
		}
		arm(ctx);
		if (timerfd_canceled(ctx))
			return -ECANCELED;
	}
	ctx->settime_flags = flags & TFD_SETTIME_FLAGS;
	return 0;
}

static long do_timerfd_settime(int ufd, int flags, const struct itimerspec *new, struct itimerspec *old)
{
	struct timerfd_ctx *ctx;
	int ret;

	if ((flags & ~TFD_SETTIME_FLAGS) || !timespec_valid(&new->it_value) ||
	    !timespec_valid(&new->it_interval))
		return -EINVAL;
	ctx = timerfd_fget(ufd);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (isalarm(ctx) && !capable(CAP_WAKE_ALARM))
		return -EPERM;
	uint64_t irq = irq_save();
	setup_cancel(ctx, flags);
	disarm(ctx);
	/* A periodic timer that fired: where it would be now, for the old
	 * value (its ticks are dropped anyway). */
	if (ctx->expired && ctx->interval)
		forward_now(ctx);
	old->it_value = ns_to_timespec(remaining(ctx));
	old->it_interval = ns_to_timespec(ctx->interval);
	ret = timerfd_setup(ctx, flags, new);
	irq_restore(irq);
	return ret;
}

long sys_timerfd_settime(int ufd, int flags, const struct itimerspec __user *utmr,
			 struct itimerspec __user *otmr)
{
	struct itimerspec new, old;
	long ret;

	if (copy_from_user(&new, utmr, sizeof(new)))
		return -EFAULT;
	ret = do_timerfd_settime(ufd, flags, &new, &old);
	if (ret)
		return ret;
	if (otmr && copy_to_user(otmr, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_timerfd_gettime(int ufd, struct itimerspec __user *otmr)
{
	struct timerfd_ctx *ctx = timerfd_fget(ufd);
	struct itimerspec cur;

	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	uint64_t irq = irq_save();
	rearm_expired(ctx);
	cur.it_value = ns_to_timespec(remaining(ctx));
	cur.it_interval = ns_to_timespec(ctx->interval);
	irq_restore(irq);
	return copy_to_user(otmr, &cur, sizeof(cur)) ? -EFAULT : 0;
}
