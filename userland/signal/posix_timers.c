/*
 * posix_timers - POSIX interval timers (kernel/time/posix-timers.c):
 * timer_create's errors and ids, SIGEV_SIGNAL / SIGEV_NONE /
 * SIGEV_THREAD_ID and the C library's SIGEV_THREAD, the siginfo of a
 * timer (SI_TIMER, si_timerid, si_overrun), overruns while the signal is
 * blocked, TIMER_ABSTIME, the old value, CPU-time clocks, an ignored
 * periodic timer, /proc/self/timers, timers gone in a fork child and after
 * exec (their pending signals too), RLIMIT_SIGPENDING. Every line holds
 * on Linux and here; times are checked with wide margins, never printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SIGEV_THREAD_ID
#define SIGEV_THREAD_ID 4
#endif

/* The kernel's struct sigevent, for raw calls. */
struct ksigevent {
	union sigval value;
	int signo;
	int notify;
	int tid;
	int pad[11];
};

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case EAGAIN: return "EAGAIN";
	case EPERM: return "EPERM";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ESRCH: return "ESRCH";
	default: return "other";
	}
}

static void show(const char *what, long r)
{
	printf("%s: %s\n", what, r < 0 ? ename(errno) : r == 0 ? "0" : "positive");
	fflush(stdout);
}

static void yes(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "yes" : "NO");
	fflush(stdout);
}

static long kcreate(long clock, struct ksigevent *ev, int *id)
{
	return syscall(SYS_timer_create, clock, ev, id);
}

static long ksettime(int id, int flags, long sec, long nsec, long isec, long insec,
		     struct itimerspec *old)
{
	struct itimerspec v = { { isec, insec }, { sec, nsec } };
	return syscall(SYS_timer_settime, id, flags, &v, old);
}

static long long now_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static sigset_t one(int sig)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	return s;
}

/* Wait up to 5 s for sig (blocked); its siginfo, or si_signo 0. */
static siginfo_t wait_sig(int sig)
{
	sigset_t s = one(sig);
	struct timespec t = { 5, 0 };
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (sigtimedwait(&s, &si, &t) < 0)
		si.si_signo = 0;
	return si;
}

/* /proc/self/timers with our pid shown as PID. */
static void print_timers(void)
{
	char line[256], pid[32];
	FILE *f = fopen("/proc/self/timers", "r");
	snprintf(pid, sizeof(pid), "pid.%d\n", getpid());
	printf("/proc/self/timers:\n");
	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "pid.");
		char tid[32];
		snprintf(tid, sizeof(tid), "tid.%d\n", getpid());
		if (p && strcmp(p, pid) == 0)
			strcpy(p, "pid.PID\n");
		if ((p = strstr(line, "tid.")) && strcmp(p, tid) == 0)
			strcpy(p, "tid.PID\n");
		printf("  %s", line);
	}
	if (f)
		fclose(f);
	else
		printf("  (%s)\n", strerror(errno));
	printf("(end)\n");
}

static void errors(void)
{
	struct ksigevent ev = { .signo = SIGUSR1, .notify = SIGEV_SIGNAL };
	struct itimerspec its = { { 0, 0 }, { 1, 0 } };
	int id;

	show("create clock 99", kcreate(99, NULL, &id));
	show("create CLOCK_SGI_CYCLE (10)", kcreate(10, NULL, &id));
	show("create CLOCK_MONOTONIC_RAW", kcreate(CLOCK_MONOTONIC_RAW, NULL, &id));
	show("create CLOCK_REALTIME_COARSE", kcreate(CLOCK_REALTIME_COARSE, NULL, &id));
	show("create, sigevent at a bad address", kcreate(CLOCK_MONOTONIC, (void *)8, &id));
	ev.notify = 99;
	show("create, sigev_notify 99", kcreate(CLOCK_MONOTONIC, &ev, &id));
	ev.notify = SIGEV_SIGNAL;
	ev.signo = 0;
	show("create, signal 0", kcreate(CLOCK_MONOTONIC, &ev, &id));
	ev.signo = 65;
	show("create, signal 65", kcreate(CLOCK_MONOTONIC, &ev, &id));
	ev.signo = SIGUSR1;
	ev.notify = SIGEV_SIGNAL | SIGEV_THREAD_ID;
	ev.tid = 1;
	show("create, SIGEV_THREAD_ID of another process", kcreate(CLOCK_MONOTONIC, &ev, &id));
	ev.notify = SIGEV_NONE | SIGEV_THREAD_ID;
	ev.tid = getpid();
	show("create, SIGEV_NONE | SIGEV_THREAD_ID", kcreate(CLOCK_MONOTONIC, &ev, &id));
	show("create, id at a bad address", kcreate(CLOCK_MONOTONIC, NULL, (void *)8));
	show("create on a CPU clock of no process", kcreate((int)((unsigned)~99999 << 3) | 2, NULL, &id));
	show("settime, no such timer", syscall(SYS_timer_settime, 12345, 0, &its, NULL));
	show("gettime, no such timer", syscall(SYS_timer_gettime, 12345, &its));
	show("getoverrun, no such timer", syscall(SYS_timer_getoverrun, 12345));
	show("delete, no such timer", syscall(SYS_timer_delete, 12345));
}

/* Ids count up per process; a failed create after its id was given
 * spends it. */
static void ids_and_proc(void)
{
	struct ksigevent ev = { .value.sival_int = 0x1234, .signo = SIGRTMIN + 2, .notify = SIGEV_SIGNAL };
	struct ksigevent none = { .signo = SIGUSR2, .notify = SIGEV_NONE };
	struct ksigevent tid = { .signo = SIGUSR1, .notify = SIGEV_THREAD_ID, .tid = getpid() };
	int a = -1, b = -1, c = -1, d = -1;

	kcreate(CLOCK_MONOTONIC, NULL, &a);
	kcreate(CLOCK_REALTIME, &ev, &b);
	kcreate(CLOCK_BOOTTIME, &none, &c);
	kcreate(CLOCK_PROCESS_CPUTIME_ID, &tid, &d);
	printf("ids after the failed creates: %d %d %d %d\n", a, b, c, d);
	print_timers();
	show("delete the second", syscall(SYS_timer_delete, b));
	show("delete it again", syscall(SYS_timer_delete, b));
	kcreate(CLOCK_TAI, NULL, &b);
	printf("next id: %d\n", b);
	print_timers();
	show("delete", syscall(SYS_timer_delete, a) | syscall(SYS_timer_delete, b) |
			       syscall(SYS_timer_delete, c) | syscall(SYS_timer_delete, d));
	print_timers();
}

static void settime_checks(void)
{
	struct itimerspec old, cur;
	struct ksigevent ev = { .signo = SIGUSR1, .notify = SIGEV_SIGNAL };
	int id;

	kcreate(CLOCK_MONOTONIC, &ev, &id);
	show("settime, no new value", syscall(SYS_timer_settime, id, 0, NULL, NULL));
	show("settime, nsec 10^9", ksettime(id, 0, 1, 1000000000, 0, 0, NULL));
	show("settime, negative interval", ksettime(id, 0, 1, 0, -1, 0, NULL));
	show("settime, new at a bad address", syscall(SYS_timer_settime, id, 0, (void *)8, NULL));
	show("settime 100 s, interval 3.5 s", ksettime(id, 0, 100, 0, 3, 500000000, NULL));
	show("gettime to a bad address", syscall(SYS_timer_gettime, id, (void *)8));
	syscall(SYS_timer_gettime, id, &cur);
	yes("gettime: 99 s < left <= 100 s, interval 3.5 s",
	    cur.it_value.tv_sec >= 99 && cur.it_value.tv_sec <= 100 && cur.it_interval.tv_sec == 3 &&
		    cur.it_interval.tv_nsec == 500000000);
	show("settime 0 with old value", ksettime(id, 0, 0, 0, 0, 0, &old));
	yes("old value: about 100 s, interval 3.5 s",
	    old.it_value.tv_sec >= 99 && old.it_interval.tv_sec == 3);
	syscall(SYS_timer_gettime, id, &cur);
	printf("disarmed: %ld.%09ld interval %ld.%09ld\n", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec,
	       (long)cur.it_interval.tv_sec, cur.it_interval.tv_nsec);
	show("settime with old at a bad address (the timer is set)",
	     ksettime(id, 0, 50, 0, 0, 0, (void *)8));
	syscall(SYS_timer_gettime, id, &cur);
	yes("set all the same", cur.it_value.tv_sec >= 49);
	show("settime, a huge time", ksettime(id, 0, 0x7fffffffffffffffL, 0, 0, 0, NULL));
	syscall(SYS_timer_delete, id);
}

/* One shot, a periodic timer blocked for a while (overruns), the
 * absolute times, a time already past. */
static void delivery(void)
{
	sigset_t s = one(SIGRTMIN + 1);
	struct ksigevent ev = { .value.sival_int = 42, .signo = SIGRTMIN + 1, .notify = SIGEV_SIGNAL };
	siginfo_t si;
	int id;

	sigprocmask(SIG_BLOCK, &s, NULL);
	kcreate(CLOCK_MONOTONIC, &ev, &id);
	long long t0 = now_ns(CLOCK_MONOTONIC);
	ksettime(id, 0, 0, 50000000, 0, 0, NULL);
	si = wait_sig(SIGRTMIN + 1);
	printf("one shot: signo SIGRTMIN+%d code %s value %d timerid ok %d overrun %d\n",
	       si.si_signo - SIGRTMIN, si.si_code == SI_TIMER ? "SI_TIMER" : "other",
	       si.si_value.sival_int, si.si_timerid == id, si.si_overrun);
	yes("not before 50 ms", now_ns(CLOCK_MONOTONIC) - t0 >= 50000000);

	ksettime(id, 0, 0, 10000000, 0, 10000000, NULL);
	usleep(400000);
	si = wait_sig(SIGRTMIN + 1);
	int ov = syscall(SYS_timer_getoverrun, id);
	yes("periodic 10 ms blocked 400 ms: si_overrun at least 10", si.si_overrun >= 10 && si.si_overrun < 100000);
	yes("timer_getoverrun equals si_overrun", ov == si.si_overrun);
	si = wait_sig(SIGRTMIN + 1);
	yes("it goes on after the signal is taken", si.si_signo == SIGRTMIN + 1 && si.si_overrun < 1000);
	ksettime(id, 0, 0, 0, 0, 0, NULL);
	printf("getoverrun after settime: %ld\n", syscall(SYS_timer_getoverrun, id));

	t0 = now_ns(CLOCK_MONOTONIC);
	long long abs = t0 + 80000000;
	ksettime(id, TIMER_ABSTIME, abs / 1000000000, abs % 1000000000, 0, 0, NULL);
	si = wait_sig(SIGRTMIN + 1);
	yes("CLOCK_MONOTONIC absolute: signal, not early", si.si_signo && now_ns(CLOCK_MONOTONIC) >= abs);
	ksettime(id, TIMER_ABSTIME, 1, 0, 0, 0, NULL);
	si = wait_sig(SIGRTMIN + 1);
	yes("an absolute time long past: at once", si.si_signo && now_ns(CLOCK_MONOTONIC) - t0 < 3000000000LL);
	syscall(SYS_timer_delete, id);

	kcreate(CLOCK_REALTIME, &ev, &id);
	abs = now_ns(CLOCK_REALTIME) + 80000000;
	ksettime(id, TIMER_ABSTIME, abs / 1000000000, abs % 1000000000, 0, 0, NULL);
	si = wait_sig(SIGRTMIN + 1);
	yes("CLOCK_REALTIME absolute: signal, not early", si.si_signo && now_ns(CLOCK_REALTIME) >= abs);
	syscall(SYS_timer_delete, id);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
}

static void sigev_none(void)
{
	struct ksigevent ev = { .signo = SIGUSR1, .notify = SIGEV_NONE };
	struct itimerspec cur;
	int id;

	kcreate(CLOCK_MONOTONIC, &ev, &id);
	ksettime(id, 0, 10, 0, 0, 0, NULL);
	syscall(SYS_timer_gettime, id, &cur);
	yes("SIGEV_NONE: time left counts down from 10 s", cur.it_value.tv_sec >= 5 && cur.it_value.tv_sec <= 9);
	ksettime(id, 0, 0, 1000000, 0, 0, NULL);
	usleep(50000);
	syscall(SYS_timer_gettime, id, &cur);
	printf("SIGEV_NONE one shot, expired: %ld.%09ld\n", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);
	ksettime(id, 0, 0, 1000000, 0, 300000000, NULL);
	usleep(50000);
	syscall(SYS_timer_gettime, id, &cur);
	yes("SIGEV_NONE periodic: moves on by intervals", cur.it_value.tv_sec == 0 &&
	    cur.it_value.tv_nsec > 0 && cur.it_value.tv_nsec <= 300000000);
	sigset_t p;
	sigpending(&p);
	yes("nothing was sent", !sigismember(&p, SIGUSR1));
	syscall(SYS_timer_delete, id);
}

static volatile int target_tid;
static volatile int thread_got;

static void *thread_wait(void *arg)
{
	(void)arg;
	target_tid = gettid();
	siginfo_t si = wait_sig(SIGUSR2);
	thread_got = si.si_signo == SIGUSR2 && si.si_code == SI_TIMER ? 1 : -1;
	return NULL;
}

static void thread_id(void)
{
	sigset_t s = one(SIGUSR2);
	pthread_t th;
	int id;

	sigprocmask(SIG_BLOCK, &s, NULL);
	pthread_create(&th, NULL, thread_wait, NULL);
	while (!target_tid)
		usleep(1000);
	struct ksigevent ev = { .signo = SIGUSR2, .notify = SIGEV_THREAD_ID, .tid = target_tid };
	show("create SIGEV_THREAD_ID for a thread", kcreate(CLOCK_MONOTONIC, &ev, &id));
	ksettime(id, 0, 0, 20000000, 0, 0, NULL);
	pthread_join(th, NULL);
	printf("the thread took it: %s\n", thread_got == 1 ? "yes" : "NO");
	sigset_t p;
	sigpending(&p);
	yes("not pending for the main thread", !sigismember(&p, SIGUSR2));
	syscall(SYS_timer_delete, id);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
}

static sem_t thread_sem;
static volatile int thread_value;

static void notify_fn(union sigval v)
{
	thread_value = v.sival_int;
	sem_post(&thread_sem);
}

static void sigev_thread(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = notify_fn };
	struct itimerspec its = { { 0, 0 }, { 0, 20000000 } };
	struct timespec limit;
	timer_t t;

	sem_init(&thread_sem, 0, 0);
	sev.sigev_value.sival_int = 7;
	show("timer_create SIGEV_THREAD (the C library's)", timer_create(CLOCK_MONOTONIC, &sev, &t));
	timer_settime(t, 0, &its, NULL);
	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += 5;
	int r = sem_timedwait(&thread_sem, &limit);
	printf("SIGEV_THREAD function ran: %s, value %d\n", r == 0 ? "yes" : "NO", thread_value);
	timer_delete(t);
}

static volatile int cpu_fired;
static void on_alarm(int sig) { (void)sig; cpu_fired = 1; }

static void cpu_clocks(void)
{
	struct ksigevent ev = { .signo = SIGALRM, .notify = SIGEV_SIGNAL };
	struct itimerspec cur;
	clockid_t parent;
	int id;

	signal(SIGALRM, on_alarm);
	kcreate(CLOCK_PROCESS_CPUTIME_ID, &ev, &id);
	ksettime(id, 0, 0, 200000000, 0, 0, NULL);
	usleep(600000);
	yes("process CPU timer: not while asleep", !cpu_fired);
	syscall(SYS_timer_gettime, id, &cur);
	yes("still armed, most of it left", cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 100000000);
	long long t0 = now_ns(CLOCK_MONOTONIC);
	while (!cpu_fired && now_ns(CLOCK_MONOTONIC) - t0 < 10000000000LL)
		;
	yes("fires after busy looping", cpu_fired);
	syscall(SYS_timer_gettime, id, &cur);
	printf("one shot CPU timer after it fired: %ld.%09ld\n", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);
	syscall(SYS_timer_delete, id);

	cpu_fired = 0;
	kcreate(CLOCK_THREAD_CPUTIME_ID, &ev, &id);
	ksettime(id, 0, 0, 100000000, 0, 0, NULL);
	t0 = now_ns(CLOCK_MONOTONIC);
	while (!cpu_fired && now_ns(CLOCK_MONOTONIC) - t0 < 10000000000LL)
		;
	yes("thread CPU timer fires after busy looping", cpu_fired);
	syscall(SYS_timer_delete, id);

	cpu_fired = 0;
	long long c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	usleep(300000);
	yes("the process's CPU clock does not run while asleep", now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0 < 100000000);
	kcreate(CLOCK_PROCESS_CPUTIME_ID, &ev, &id);
	long long abs = now_ns(CLOCK_PROCESS_CPUTIME_ID) + 100000000;
	ksettime(id, TIMER_ABSTIME, abs / 1000000000, abs % 1000000000, 0, 0, NULL);
	t0 = now_ns(CLOCK_MONOTONIC);
	while (!cpu_fired && now_ns(CLOCK_MONOTONIC) - t0 < 10000000000LL)
		;
	yes("absolute CPU time: fires, not early", cpu_fired && now_ns(CLOCK_PROCESS_CPUTIME_ID) >= abs);
	syscall(SYS_timer_delete, id);

	clock_getcpuclockid(getppid(), &parent);
	show("create on the parent's CPU clock", kcreate(parent, &ev, &id));
	syscall(SYS_timer_delete, id);
	signal(SIGALRM, SIG_DFL);
}

static volatile int usr1_count;
static void on_usr1(int sig) { (void)sig; usr1_count++; }

/* An ignored periodic timer keeps going, and its signal comes once it
 * is wanted. */
static void ignored(void)
{
	struct ksigevent ev = { .signo = SIGUSR1, .notify = SIGEV_SIGNAL };
	int id;

	signal(SIGUSR1, SIG_IGN);
	kcreate(CLOCK_MONOTONIC, &ev, &id);
	ksettime(id, 0, 0, 10000000, 0, 20000000, NULL);
	usleep(100000);
	signal(SIGUSR1, on_usr1);
	for (int i = 0; i < 500 && usr1_count < 2; i++)
		usleep(10000);
	yes("ignored periodic timer: signals once handled", usr1_count >= 2);
	syscall(SYS_timer_delete, id);
	signal(SIGUSR1, SIG_DFL);
}

static void fork_exec(const char *self)
{
	struct ksigevent ev = { .signo = SIGUSR1, .notify = SIGEV_SIGNAL };
	sigset_t s = one(SIGUSR1);
	int id, st;

	kcreate(CLOCK_MONOTONIC, &ev, &id);
	if (fork() == 0) {
		struct itimerspec cur;
		show("fork child: gettime of the parent's timer", syscall(SYS_timer_gettime, id, &cur));
		print_timers();
		_exit(0);
	}
	wait(&st);
	syscall(SYS_timer_delete, id);
	if (fork() == 0) {
		sigprocmask(SIG_BLOCK, &s, NULL);
		kcreate(CLOCK_MONOTONIC, &ev, &id);
		ksettime(id, 0, 0, 10000000, 0, 0, NULL);
		usleep(100000);
		sigset_t p;
		sigpending(&p);
		yes("before exec: the timer's SIGUSR1 is pending", sigismember(&p, SIGUSR1));
		execl(self, self, "after-exec", (char *)NULL);
		_exit(1);
	}
	wait(&st);
}

static void after_exec(void)
{
	struct itimerspec cur;
	sigset_t p;

	sigpending(&p);
	yes("after exec: SIGUSR1 no longer pending", !sigismember(&p, SIGUSR1));
	show("after exec: gettime of timer 0", syscall(SYS_timer_gettime, 0, &cur));
	print_timers();
	int id = -1;
	kcreate(CLOCK_MONOTONIC, NULL, &id);
	printf("after exec, the next id: %d\n", id);
}

static void sigpending_limit(void)
{
	int st;

	if (fork() == 0) {
		struct rlimit rl = { 4, 4 };
		union sigval v = { .sival_int = 1 };
		sigset_t s = one(SIGRTMIN + 5);
		int id, n = 0;
		setrlimit(RLIMIT_SIGPENDING, &rl);
		while (n < 100 && kcreate(CLOCK_MONOTONIC, NULL, &id) == 0)
			n++;
		printf("RLIMIT_SIGPENDING 4: %d timers, then %s\n", n, ename(errno));
		syscall(SYS_timer_delete, id);
		show("one deleted: one more", kcreate(CLOCK_MONOTONIC, NULL, &id));
		for (int i = 0; i < 100; i++)
			syscall(SYS_timer_delete, i);
		sigprocmask(SIG_BLOCK, &s, NULL);
		for (n = 0; n < 100 && sigqueue(getpid(), SIGRTMIN + 5, v) == 0; n++)
			;
		printf("then %d real-time signals queued, then %s\n", n, ename(errno));
		show("timer_create with them queued", kcreate(CLOCK_MONOTONIC, NULL, &id));
		wait_sig(SIGRTMIN + 5);
		show("one taken: timer_create", kcreate(CLOCK_MONOTONIC, NULL, &id));
		_exit(0);
	}
	wait(&st);
}

static void alarm_clocks(void)
{
	int id;
	long r = kcreate(CLOCK_REALTIME_ALARM, NULL, &id);

	show("create CLOCK_REALTIME_ALARM", r);
	if (r == 0)
		syscall(SYS_timer_delete, id);
	r = kcreate(CLOCK_BOOTTIME_ALARM, NULL, &id);
	show("create CLOCK_BOOTTIME_ALARM", r);
	if (r == 0)
		syscall(SYS_timer_delete, id);
}

/* The wall clock set one hour on: an absolute CLOCK_REALTIME time comes
 * an hour nearer; a relative one runs on the monotonic clock (Linux's
 * hrtimers) and does not move. The clock is set back after. */
static void clock_set(void)
{
	struct itimerspec cur;
	struct timespec ts;
	struct ksigevent ev = { .notify = SIGEV_NONE };
	int rel, abs;

	kcreate(CLOCK_REALTIME, &ev, &rel);
	kcreate(CLOCK_REALTIME, &ev, &abs);
	ksettime(rel, 0, 100, 0, 0, 0, NULL);
	ksettime(abs, TIMER_ABSTIME, now_ns(CLOCK_REALTIME) / 1000000000 + 7200, 0, 0, 0, NULL);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 3600;
	show("clock_settime +1 h", clock_settime(CLOCK_REALTIME, &ts));
	syscall(SYS_timer_gettime, rel, &cur);
	yes("relative 100 s: 100 s left still", cur.it_value.tv_sec >= 90 && cur.it_value.tv_sec <= 100);
	syscall(SYS_timer_gettime, abs, &cur);
	yes("absolute +2 h: 1 h left", cur.it_value.tv_sec >= 3500 && cur.it_value.tv_sec <= 3600);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec -= 3600;
	clock_settime(CLOCK_REALTIME, &ts);
	syscall(SYS_timer_delete, rel);
	syscall(SYS_timer_delete, abs);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "after-exec") == 0) {
		after_exec();
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0); /* nothing left to a fork child */
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL); /* init does not, for tests */
	errors();
	ids_and_proc();
	settime_checks();
	delivery();
	sigev_none();
	thread_id();
	sigev_thread();
	cpu_clocks();
	ignored();
	alarm_clocks();
	sigpending_limit();
	fork_exec(argv[0]);
	clock_set();
	printf("posix_timers: done\n");
	return 0;
}
