/*
 * posix-timers.c - POSIX interval timers: timer_create, timer_settime,
 * timer_gettime, timer_getoverrun, timer_delete (Linux 6.1's
 * kernel/time/posix-timers.c), and /proc/PID/timers.
 *
 * THE LIFE OF AN EXPIRY.
 *   arm      timer_settime sets `expires` on the timer's clock and puts
 *            the timer on armed_timers (a SIGEV_NONE timer only keeps
 *            the time: nothing is ever sent).
 *   tick     every tick (kernel/time/itimer.c's timers_tick, from the
 *            timer interrupt) looks at the armed timers: one that is due
 *            comes off the list and fires (timer_fire). Timers are as
 *            precise as the tick, 10 ms, and never fire early.
 *   queue    firing queues the timer's own preallocated siginfo
 *            (SI_TIMER, si_tid = its id, si_value from the sigevent) to
 *            the process or to one thread (send_sigqueue,
 *            kernel/signal.c); no allocation in the interrupt. A one-shot
 *            timer is done. A periodic one stays off the list: it waits
 *            for its signal to be taken (requeue_pending).
 *   deliver  the thread that takes the signal (a handler, sigwaitinfo,
 *            signalfd: all through dequeue_signal) calls posixtimer_rearm,
 *            which moves the expiry past now by whole intervals, counts
 *            the intervals skipped as overruns (si_overrun of this
 *            siginfo, and timer_getoverrun), and arms the timer again.
 * If the signal is ignored the periodic timer re-arms itself at once.
 * Settings changed meanwhile (timer_settime) bump requeue_pending, so a
 * signal of the old setting does not re-arm the new one.
 *
 * Ids are per process, counted up from 0 and never reused until they wrap
 * (an id that failed creation is spent too), as Linux hands them out. Each
 * timer counts one against its user's RLIMIT_SIGPENDING (EAGAIN past it).
 * Timers are not inherited by fork; exec and the end of the process delete
 * them.
 */
#include <cred.h>
#include <errno.h>
#include <linux/user_namespace.h>
#include <mm.h>
#include <proc_fs.h>
#include <time_namespace.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <x86.h>
#include "posix-timers.h"

struct itimerspec {
	struct timespec it_interval, it_value;
};

#define TIMER_ABSTIME 1

/* Every armed timer of every process, for the tick. */
static struct k_itimer *armed_timers;

static bool sig_none(const struct k_itimer *t)
{
	return (t->sigev_notify & ~SIGEV_THREAD_ID) == SIGEV_NONE;
}

/* ---- clocks ---- */

static bool on_wall_clock(int clock)
{
	return clock == CLOCK_REALTIME || clock == CLOCK_TAI || clock == CLOCK_REALTIME_ALARM;
}

/* The timer's clock now; -1 for a CPU clock whose task is gone. */
static int64_t clock_now(const struct k_itimer *t)
{
	struct timespec ts;

	if (is_cpu_clock(t->clock))
		return cpu_clock_sample_timer(t);
	if (on_wall_clock(t->clock) && !t->on_monotonic)
		ktime_get_real(&ts);
	else
		ktime_get_monotonic(&ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static int64_t add_safe(int64_t a, int64_t b)
{
	return a > KTIME_MAX - b ? KTIME_MAX : a + b;
}

/* ---- arming ---- */

static void arm(struct k_itimer *t)
{
	if (t->armed)
		return;
	t->armed = true;
	t->next_armed = armed_timers;
	armed_timers = t;
}

static void disarm(struct k_itimer *t)
{
	if (!t->armed)
		return;
	for (struct k_itimer **pp = &armed_timers; *pp; pp = &(*pp)->next_armed) {
		if (*pp == t) {
			*pp = t->next_armed;
			break;
		}
	}
	t->armed = false;
}

/* Move a periodic timer's expiry past now by whole intervals: how many
 * (Linux's hrtimer_forward; 0 if it is not due yet). */
static int64_t forward(struct k_itimer *t, int64_t now)
{
	if (now < t->expires || t->interval <= 0)
		return 0;
	int64_t n = (now - t->expires) / t->interval + 1;
	if (n > (KTIME_MAX - t->expires) / t->interval)
		t->expires = KTIME_MAX;
	else
		t->expires += n * t->interval;
	return n;
}

/* The thread that takes the timer's signal: the one it names, or for the
 * process, its leader if alive, else any live thread; NULL if none. */
static struct task *signal_target(struct k_itimer *t)
{
	struct task *p = find_task_by_serial(t->target_serial);

	if ((t->sigev_notify & SIGEV_THREAD_ID) || (p && p->state != TASK_ZOMBIE))
		return p;
	for (struct task *c = first_task(); c; c = c->next_task)
		if (c->signal == t->signal && c->state != TASK_ZOMBIE && c->state != TASK_DEAD)
			return c;
	return NULL;
}

/* Send the timer's signal: true if it was ignored, and nothing will come
 * back to re-arm the timer (Linux's posix_timer_event). */
static bool timer_event(struct k_itimer *t, int si_private)
{
	t->sigq->info.si_sys_private = si_private;
	return send_sigqueue(t->sigq, signal_target(t), !(t->sigev_notify & SIGEV_THREAD_ID)) > 0;
}

/* A CPU timer is due (Linux's cpu_timer_fire): a one-shot one is done
 * (expires 0); a periodic one waits for its signal to be taken. */
static void cpu_timer_fire(struct k_itimer *t, int64_t now)
{
	disarm(t);
	if (sig_none(t)) {
		t->expires = 0;
	} else if (!t->interval) {
		timer_event(t, 0);
		t->expires = 0;
	} else if (timer_event(t, ++t->requeue_pending)) {
		/* Ignored: it keeps ticking in case the signal is wanted later. */
		t->overrun += forward(t, now);
		arm(t);
		++t->requeue_pending;
	}
}

/* Any other timer is due (Linux's posix_timer_fn). */
static void timer_fire(struct k_itimer *t, int64_t now)
{
	int si_private = 0;

	if (is_cpu_clock(t->clock)) {
		cpu_timer_fire(t, now);
		return;
	}
	disarm(t);
	if (t->interval)
		si_private = ++t->requeue_pending;
	if (timer_event(t, si_private) && t->interval) {
		/* Ignored: as Linux, at most once a tick for a short interval. */
		if (t->interval < NSEC_PER_SEC / HZ)
			now += NSEC_PER_SEC / HZ;
		t->overrun += forward(t, now);
		++t->requeue_pending;
		arm(t);
	}
}

void posix_timers_tick(void)
{
	struct k_itimer *t = armed_timers, *next;

	for (; t; t = next) {
		next = t->next_armed;
		int64_t now = clock_now(t);
		if (now >= 0 && now >= t->expires)
			timer_fire(t, now);
	}
}

static int overrun_to_int(const struct k_itimer *t, int base)
{
	int64_t sum = t->overrun_last + base;

	return sum > INT32_MAX ? INT32_MAX : (int)sum;
}

static struct k_itimer *find_timer(struct signal_struct *s, int id)
{
	for (struct k_itimer *t = s->posix_timers; t; t = t->next)
		if (t->id == id)
			return t;
	return NULL;
}

void posixtimer_rearm(struct ksiginfo *info)
{
	struct k_itimer *t = find_timer(current->signal, info->si_tid);

	if (!t || !t->interval || t->requeue_pending != info->si_sys_private)
		return;
	int64_t now = clock_now(t);
	if (now >= 0)
		t->overrun += forward(t, now);
	arm(t);
	t->overrun_last = t->overrun;
	t->overrun = -1;
	++t->requeue_pending;
	info->si_overrun = overrun_to_int(t, info->si_overrun);
}

/* ---- the system calls ---- */

/* The caller's timer id; NULL: EINVAL. */
static struct k_itimer *lock_timer(long id)
{
	return find_timer(current->signal, (int)id);
}

/* Linux's common_timer_get: the interval, and the time left (1 ns for a
 * timer that is due but whose signal is still pending). */
static void timer_get(struct k_itimer *t, struct itimerspec *cur)
{
	*cur = (struct itimerspec){ { 0, 0 }, { 0, 0 } };
	if (t->interval)
		cur->it_interval = ns_to_timespec(t->interval);
	else if (!t->armed && !sig_none(t))
		return;
	if (!t->expires)
		return;
	int64_t now = clock_now(t);
	if (t->interval && ((t->requeue_pending & REQUEUE_PENDING) || sig_none(t)))
		t->overrun += forward(t, now);
	if (t->expires <= now) {
		if (!sig_none(t))
			cur->it_value.tv_nsec = 1;
	} else {
		cur->it_value = ns_to_timespec(t->expires - now);
	}
}

/* Linux's posix_cpu_timer_get: no move forward; 1 ns once due. */
static void cpu_timer_get(struct k_itimer *t, struct itimerspec *cur, int64_t now)
{
	*cur = (struct itimerspec){ { 0, 0 }, { 0, 0 } };
	if (now < 0)
		return;
	cur->it_interval = ns_to_timespec(t->interval);
	if (!t->expires)
		return;
	if (now < t->expires)
		cur->it_value = ns_to_timespec(t->expires - now);
	else
		cur->it_value.tv_nsec = 1;
}

static void any_timer_get(struct k_itimer *t, struct itimerspec *cur)
{
	if (is_cpu_clock(t->clock))
		cpu_timer_get(t, cur, clock_now(t));
	else
		timer_get(t, cur);
}

/* Linux's common_timer_set. */
static void timer_set(struct k_itimer *t, int flags, const struct itimerspec *new)
{
	t->interval = 0;
	disarm(t);
	t->requeue_pending = (t->requeue_pending + 2) & ~REQUEUE_PENDING;
	t->overrun_last = 0;
	if (!new->it_value.tv_sec && !new->it_value.tv_nsec)
		return;
	t->on_monotonic = t->clock == CLOCK_REALTIME && !(flags & TIMER_ABSTIME);
	t->interval = timespec_to_ns(&new->it_interval);
	t->expires = timespec_to_ns(&new->it_value);
	if (!(flags & TIMER_ABSTIME))
		t->expires = add_safe(t->expires, clock_now(t));
	else /* a time of the caller's time namespace */
		t->expires = timens_to_host(t->clock, t->expires);
	if (!sig_none(t))
		arm(t);
}

/* Linux's posix_cpu_timer_set: 0, or -ESRCH once the clock's task is gone.
 * The old value, if asked, in *old. */
static int cpu_timer_set(struct k_itimer *t, int flags, const struct itimerspec *new,
			 struct itimerspec *old)
{
	int64_t now = clock_now(t), expires = timespec_to_ns(&new->it_value);

	if (now < 0)
		return -ESRCH;
	disarm(t);
	if (old) {
		if (t->interval)
			t->overrun += forward(t, now);
		cpu_timer_get(t, old, now);
	}
	if (expires && !(flags & TIMER_ABSTIME))
		expires = add_safe(expires, now);
	t->expires = expires;
	if (expires && now < expires)
		arm(t);
	t->interval = timespec_to_ns(&new->it_interval);
	t->requeue_pending = (t->requeue_pending + 2) & ~REQUEUE_PENDING;
	t->overrun_last = 0;
	t->overrun = -1;
	if (expires && now >= expires) /* due already: it fires now */
		cpu_timer_fire(t, now);
	return 0;
}

long sys_timer_settime(long id, int flags, const struct itimerspec __user *unew,
		       struct itimerspec __user *uold)
{
	struct itimerspec new, old;
	struct k_itimer *t;

	if (!unew)
		return -EINVAL;
	if (copy_from_user(&new, unew, sizeof(new)))
		return -EFAULT;
	if (!timespec_valid(&new.it_interval) || !timespec_valid(&new.it_value))
		return -EINVAL;
	t = lock_timer(id);
	if (!t)
		return -EINVAL;
	uint64_t irq = irq_save();
	int err = 0;
	if (is_cpu_clock(t->clock)) {
		err = cpu_timer_set(t, flags, &new, uold ? &old : NULL);
	} else {
		if (uold)
			timer_get(t, &old);
		timer_set(t, flags, &new);
	}
	irq_restore(irq);
	if (!err && uold && copy_to_user(uold, &old, sizeof(old)))
		err = -EFAULT;
	return err;
}

long sys_timer_gettime(long id, struct itimerspec __user *setting)
{
	struct k_itimer *t = lock_timer(id);
	struct itimerspec cur;

	if (!t)
		return -EINVAL;
	uint64_t irq = irq_save();
	any_timer_get(t, &cur);
	irq_restore(irq);
	return copy_to_user(setting, &cur, sizeof(cur)) ? -EFAULT : 0;
}

long sys_timer_getoverrun(long id)
{
	struct k_itimer *t = lock_timer(id);

	return t ? overrun_to_int(t, 0) : -EINVAL;
}

/* Free a timer out of every list. A signal of it still pending stays
 * pending, and its siginfo is freed by whoever takes it (Linux's
 * sigqueue_free). */
static void release_timer(struct k_itimer *t)
{
	uint64_t irq = irq_save();

	disarm(t);
	if (t->sigq->queued)
		t->sigq->flags &= ~SIGQUEUE_PREALLOC;
	else
		kfree(t->sigq);
	irq_restore(irq);
	dec_rlimit_ucounts(t->uid, UCOUNT_RLIMIT_SIGPENDING, 1);
	kfree(t);
}

static void unlink_timer(struct k_itimer *t)
{
	for (struct k_itimer **pp = &t->signal->posix_timers; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	}
}

long sys_timer_delete(long id)
{
	struct k_itimer *t = lock_timer(id);

	if (!t)
		return -EINVAL;
	unlink_timer(t);
	release_timer(t);
	return 0;
}

void exit_itimers(struct task *task)
{
	struct signal_struct *s = task->signal;

	while (s && s->posix_timers) {
		struct k_itimer *t = s->posix_timers;
		s->posix_timers = t->next;
		release_timer(t);
	}
}

/* ---- timer_create ---- */

/* A new timer: its signal entry and its RLIMIT_SIGPENDING count; NULL
 * (EAGAIN) past the limit or out of memory (Linux's alloc_posix_timer). */
static struct k_itimer *alloc_posix_timer(void)
{
	uid_t uid = current_uid();
	struct k_itimer *t;

	if (!inc_rlimit_ucounts_max(uid, UCOUNT_RLIMIT_SIGPENDING, 1, current->rlim[RLIMIT_SIGPENDING].cur))
		return NULL;
	t = kzalloc(sizeof(*t));
	if (t)
		t->sigq = kzalloc(sizeof(*t->sigq));
	if (!t || !t->sigq) {
		kfree(t);
		dec_rlimit_ucounts(uid, UCOUNT_RLIMIT_SIGPENDING, 1);
		return NULL;
	}
	t->uid = uid;
	t->sigq->flags = SIGQUEUE_PREALLOC;
	return t;
}

/* The next free id of the process, counting up and wrapping at INT_MAX
 * (Linux's posix_timer_add); -EAGAIN if every id is taken. */
static int alloc_timer_id(struct signal_struct *s)
{
	int first = s->posix_timer_id;

	do {
		int id = s->posix_timer_id;
		if (++s->posix_timer_id < 0)
			s->posix_timer_id = 0;
		if (!find_timer(s, id))
			return id;
	} while (s->posix_timer_id != first);
	return -EAGAIN;
}

/* Who the sigevent sends to (Linux's good_sigevent): the task whose
 * serial and number the timer keeps; NULL: EINVAL. */
static struct task *good_sigevent(const struct sigevent *ev)
{
	struct task *p = current->group_leader;

	switch (ev->sigev_notify) {
	case SIGEV_SIGNAL | SIGEV_THREAD_ID:
		p = find_task(ev->sigev_notify_thread_id);
		if (!p || p->state == TASK_DEAD || !same_thread_group(p, current))
			return NULL;
		/* fall through */
	case SIGEV_SIGNAL:
	case SIGEV_THREAD:
		if (ev->sigev_signo <= 0 || ev->sigev_signo > NSIG)
			return NULL;
		/* fall through */
	case SIGEV_NONE:
		return p;
	default:
		return NULL;
	}
}

/* Does the clock have timers: 0, -EINVAL (no such clock), -EOPNOTSUPP
 * (a clock that cannot time: the raw and coarse ones, a /dev/ptp one). */
static int clock_has_timers(int clock)
{
	if (clock < 0)
		return (clock & 7) == 3 ? -EOPNOTSUPP : 0;
	switch (clock) {
	case CLOCK_REALTIME: case CLOCK_MONOTONIC: case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID: case CLOCK_BOOTTIME: case CLOCK_REALTIME_ALARM:
	case CLOCK_BOOTTIME_ALARM: case CLOCK_TAI:
		return 0;
	case CLOCK_MONOTONIC_RAW: case CLOCK_REALTIME_COARSE: case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/* The clock's own check, once the timer has its id (Linux's
 * kc->timer_create). The alarm clocks wake a suspended machine: they
 * need CAP_WAKE_ALARM, as for clock_nanosleep (kernel/time/sys_time.c). */
static int clock_timer_create(struct k_itimer *t)
{
	if (is_cpu_clock(t->clock))
		return cpu_timer_create(t);
	if ((t->clock == CLOCK_REALTIME_ALARM || t->clock == CLOCK_BOOTTIME_ALARM) &&
	    !capable(CAP_WAKE_ALARM))
		return -EPERM;
	return 0;
}

/* The timer's signal as the sigevent asks (NULL: SIGALRM with its id as
 * value, to the process). 0 or -EINVAL. */
static int set_notify(struct k_itimer *t, const struct sigevent *ev)
{
	struct ksiginfo *info = &t->sigq->info;
	struct task *p = ev ? good_sigevent(ev) : current->group_leader;

	if (!p)
		return -EINVAL;
	t->target_serial = p->serial;
	t->target_nr = ev && (ev->sigev_notify & SIGEV_THREAD_ID) ? p->pid : p->tgid;
	t->sigev_notify = ev ? ev->sigev_notify : SIGEV_SIGNAL;
	info->si_signo = ev ? ev->sigev_signo : SIGALRM;
	info->si_value = ev ? ev->sigev_value : (uint64_t)(uint32_t)t->id;
	info->si_code = SI_TIMER;
	info->si_tid = t->id;
	return 0;
}

static long do_timer_create(int clock, const struct sigevent *ev, int __user *created)
{
	struct signal_struct *s = current->signal;
	struct k_itimer *t;
	int err = clock_has_timers(clock);

	if (err)
		return err;
	t = alloc_posix_timer();
	if (!t)
		return -EAGAIN;
	t->signal = s;
	t->clock = clock;
	t->overrun = -1;
	t->id = alloc_timer_id(s);
	if (t->id < 0) {
		err = t->id;
		goto out;
	}
	err = set_notify(t, ev);
	if (!err && copy_to_user(created, &t->id, sizeof(t->id)))
		err = -EFAULT;
	if (!err)
		err = clock_timer_create(t);
	if (err)
		goto out;
	t->next = s->posix_timers;
	s->posix_timers = t;
	return 0;
out:
	release_timer(t);
	return err;
}

long sys_timer_create(long clock, const struct sigevent __user *uev, int __user *created)
{
	struct sigevent ev;

	if (uev && copy_from_user(&ev, uev, sizeof(ev)))
		return -EFAULT;
	return do_timer_create((int)clock, uev ? &ev : NULL, created);
}

/* ---- /proc/PID/timers ---- */

int proc_timers_show(struct seq_file *m, struct task *task)
{
	static const char *const notify[] = { "signal", "none", "thread" };

	for (struct k_itimer *t = task->signal ? task->signal->posix_timers : NULL; t; t = t->next) {
		seq_printf(m, "ID: %d\n", t->id);
		seq_printf(m, "signal: %d/%016lx\n", t->sigq->info.si_signo,
			   (unsigned long)t->sigq->info.si_value);
		seq_printf(m, "notify: %s/%s.%d\n", notify[t->sigev_notify & ~SIGEV_THREAD_ID],
			   (t->sigev_notify & SIGEV_THREAD_ID) ? "tid" : "pid", t->target_nr);
		seq_printf(m, "ClockID: %d\n", t->clock);
	}
	return 0;
}
