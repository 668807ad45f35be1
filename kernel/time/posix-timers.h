/*
 * posix-timers.h - what posix-timers.c and posix-cpu-timers.c share.
 *
 * A POSIX timer (timer_create) belongs to a process (its signal_struct's
 * list) and counts on one clock: the wall clock (REALTIME, TAI and
 * REALTIME_ALARM), the monotonic one (MONOTONIC, BOOTTIME and
 * BOOTTIME_ALARM: this kernel never suspends), or a CPU clock (a
 * thread's or a process's CPU time, in timer ticks). Every time here is in
 * nanoseconds on the timer's own clock.
 *
 * Lock: none of its own. One CPU; the tick (an interrupt) reads and fires
 * the armed timers, so a system call changes a timer with interrupts off
 * (irq_save), and never sleeps or allocates with them off.
 */
#pragma once
#include <kernel.h>
#include <sched.h>
#include <timekeeping.h> /* the clock ids, NSEC_PER_SEC */

#define SIGEV_SIGNAL 0
#define SIGEV_NONE 1
#define SIGEV_THREAD 2
#define SIGEV_THREAD_ID 4

/* it_requeue_pending's low bit: a periodic timer's signal is queued and
 * the timer waits for it to be taken before it goes on. */
#define REQUEUE_PENDING 1

/* The user's struct sigevent (x86-64: 64 bytes). */
struct sigevent {
	uint64_t sigev_value;
	int sigev_signo;
	int sigev_notify;
	union {
		int pad[12];
		int sigev_notify_thread_id; /* SIGEV_THREAD_ID */
	};
};

struct k_itimer {
	struct k_itimer *next;          /* signal->posix_timers, newest first */
	struct k_itimer *next_armed;    /* armed_timers: those the tick watches */
	struct signal_struct *signal;   /* the owner */
	int id;
	int clock;                      /* as given to timer_create */
	/* A relative CLOCK_REALTIME time counts on the monotonic clock, as
	 * Linux's hrtimers put it: no setting of the wall clock moves it. */
	bool on_monotonic;
	int sigev_notify;
	/* Who the signal goes to: a thread (SIGEV_THREAD_ID) or the process,
	 * by task serial (a gone one is not found), and its number for
	 * /proc/PID/timers. */
	uint64_t target_serial;
	pid_t target_nr;
	/* A CPU clock's task: the thread, or the process's leader. */
	uint64_t cpu_serial;
	struct sigqueue *sigq;          /* preallocated: SI_TIMER, si_tid = id */
	uid_t uid;                      /* counted against its RLIMIT_SIGPENDING */
	bool armed;                     /* in armed_timers (Linux's it_active) */
	int64_t expires;                /* when it fires next; 0: never set */
	int64_t interval;               /* 0: one shot */
	int64_t overrun;                /* expirations missed since the last signal, - 1 */
	int64_t overrun_last;           /* what timer_getoverrun reports */
	int requeue_pending;            /* bumped by each arming and firing */
};

/* posix-cpu-timers.c: CPU clocks. */
/* Is clock a CPU clock (the two named ones, or a pid's encoded one)? */
bool is_cpu_clock(int clock);
/* Bind a new timer to its CPU clock's task: 0 or -EINVAL (no such task, or
 * a thread of another process, or no such clock). */
int cpu_timer_create(struct k_itimer *t);
/* The clock's time now, -1 if its task is gone. */
int64_t cpu_clock_sample_timer(const struct k_itimer *t);
/* clock_getres of a pid's CPU clock (a negative id), clock_gettime of
 * any CPU clock:
 * 0, or -EINVAL for no such task or one whose clock the caller may not
 * read (Linux's validate_clock_permissions). */
struct timespec;
int posix_cpu_clock_getres(int clock, struct timespec *ts);
int posix_cpu_clock_get(int clock, struct timespec *ts);
