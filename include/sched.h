/*
 * sched.h - processes (kernel/proc.c, kernel/fork.c, kernel/exit.c), their
 * signals (kernel/signal.c), credentials (kernel/cred.c), timers
 * (kernel/time/itimer.c) and the scheduler (kernel/sched.c).
 *
 * One CPU. The kernel itself is not preempted: a task in the kernel runs
 * until it sleeps or returns to user mode; the timer preempts user code.
 * Interrupts are enabled in the kernel; code that checks a condition and
 * then sleeps on it does so with interrupts off (sleep_on re-enables them).
 */
#pragma once
#include <kernel.h>
#include <fpu.h>
#include <signum.h>
#include <trap.h>

struct mm;
struct files_struct;
struct fs_struct;

enum task_state {
	TASK_RUNNABLE,
	TASK_SLEEPING,
	TASK_STOPPED, /* by SIGSTOP, SIGTSTP, ...; SIGCONT or SIGKILL wakes it */
	TASK_ZOMBIE,
};

/* What rt_sigaction sets for one signal (Linux's struct kernel_sigaction). */
struct k_sigaction {
	uint64_t handler; /* SIG_DFL, SIG_IGN or a user function */
	uint64_t flags;   /* SA_* */
	uint64_t restorer;
	uint64_t mask;    /* blocked while the handler runs */
};

struct rlimit {
	uint64_t cur, max;
};

/* How to go on with a call interrupted by -ERESTART_RESTARTBLOCK (Linux's
 * struct restart_block): restart_syscall calls fn. */
struct restart_block {
	long (*fn)(struct restart_block *rb);
	uint64_t deadline_ns;   /* nanosleep: when to wake, monotonic */
	void __user *rem;       /* nanosleep: where to report the time left */
};
#define RLIMIT_CPU 0
#define RLIMIT_FSIZE 1
#define RLIMIT_DATA 2
#define RLIMIT_STACK 3
#define RLIMIT_CORE 4
#define RLIMIT_RSS 5
#define RLIMIT_NPROC 6
#define RLIMIT_NOFILE 7
#define RLIMIT_MEMLOCK 8
#define RLIMIT_AS 9
#define RLIMIT_LOCKS 10
#define RLIMIT_SIGPENDING 11
#define RLIMIT_MSGQUEUE 12
#define RLIMIT_NICE 13
#define RLIMIT_RTPRIO 14
#define RLIMIT_RTTIME 15
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0UL)

#define TASK_COMM_LEN 16
#define KSTACK_PAGES 4
#define NGROUPS_KEPT 32 /* supplementary groups; Linux allows 65536 */
#define KSTACK_SIZE (KSTACK_PAGES * PAGE_SIZE)

struct task {
	pid_t pid, pgid, sid;
	struct task *parent;
	struct task *next_task; /* list of all tasks, for wait and reparenting */
	struct task *next_dead; /* on the list of tasks to free */
	char comm[TASK_COMM_LEN];
	enum task_state state;

	void *kstack;           /* KSTACK_SIZE bytes */
	uint64_t ksp;           /* saved kernel rsp while switched out */
	struct trapframe *tf;   /* user registers, at the top of kstack */

	struct mm *mm;          /* NULL for kernel-only tasks */
	struct files_struct *files;
	struct fs_struct *fs;
	struct file *exe_file;  /* the program it runs: /proc/PID/exe; closed to writers */
	uint64_t fs_base;       /* user FS base (TLS), arch_prctl */
	uint64_t gs_base;
	uint64_t clear_child_tid;
	/* Credentials: real, effective and saved ids (kernel/cred.c). */
	uid_t uid, euid, suid;
	gid_t gid, egid, sgid;
	int ngroups;
	gid_t groups[NGROUPS_KEPT];

	void *wait_chan;        /* what a sleeping task waits for */
	uint64_t wake_at;       /* jiffies to wake at, 0 for none */
	bool vfork_done;        /* set when a vfork child execs or exits */
	int exit_status;        /* wait4 status word, valid in TASK_ZOMBIE */

	/* Signals (kernel/signal.c). Bit sig-1 of a mask stands for sig. */
	uint64_t sigpending;    /* sent, not yet acted on */
	uint64_t blocked;       /* the signal mask */
	uint64_t saved_mask;    /* restored after a handler when restore_mask */
	bool restore_mask;      /* set by rt_sigsuspend */
	struct restart_block restart_block;
	struct k_sigaction sigaction[NSIG];
	uint64_t altstack_sp, altstack_size;
	int altstack_flags;
	int stop_signal;        /* what stopped it, for wait4 */
	bool wait_stop_report;  /* a stop the parent has not yet collected */
	bool wait_cont_report;  /* a continue the parent has not yet collected */
	int pdeath_signal;      /* prctl(PR_SET_PDEATHSIG) */
	bool no_new_privs;      /* prctl(PR_SET_NO_NEW_PRIVS); kept across fork and exec */

	/* Interval timers (kernel/time/itimer.c), in ticks: ITIMER_REAL counts
	 * jiffies, ITIMER_VIRTUAL user time, ITIMER_PROF user + system time.
	 * A value of 0 is a disarmed timer. */
	uint64_t it_value[3], it_interval[3];

	struct rlimit rlim[RLIM_NLIMITS];
	/* CPU time in ticks, counted by the timer; children's when reaped. */
	uint64_t utime, stime, cutime, cstime;
	uint64_t start_time;    /* jiffies at fork */
	struct fpu_state fpu;   /* user x87/SSE registers while switched out */
};

extern struct task *current;
extern volatile uint64_t jiffies; /* timer ticks since boot */
#define HZ 100

void sched_init(void);
void schedule(void);                     /* give up the CPU */
void sleep_on(void *chan);               /* call with interrupts off */
void wakeup(void *chan);
/* Sleep until jiffies >= when or a signal arrives. Returns 0 or -EINTR. */
int sleep_until(uint64_t when);
void make_runnable(struct task *t);
struct task *find_task(pid_t pid);
/* Iterate over every task (for wait, reparenting and /proc). */
struct task *first_task(void);
/* A new task: kernel stack, pid, linked in; not yet runnable. NULL if no memory. */
struct task *alloc_task(void);
void free_task(struct task *t);  /* after it is reaped */
/* Free t once the CPU has left its stack for good (self-reaping exit). */
void release_task_later(struct task *t);
void release_dead_tasks(void);   /* the scheduler calls it */
extern int nr_tasks, max_tasks;  /* max_tasks: Linux's max_threads */
int count_user_tasks(uid_t uid);
/* Prepare t's kernel stack so that its first run returns to user mode
 * through t->tf. */
void task_setup_user_return(struct task *t);
void task_set_comm(struct task *t, const char *path); /* basename, 15 bytes */
/* Make file t's program (NULL: none). While a process runs a file, opening
 * that file for writing fails with ETXTBSY, as on Linux. */
void set_exe_file(struct task *t, struct file *file);

/* First user process, run from kernel_main once everything is ready. */
void __noreturn start_init(const char *path, char *const argv[], char *const envp[]);

/* A process that starts in the kernel with fn(arg) and becomes a user
 * program through kernel_execve; no parent (kernel/proc.c, for umh.c). */
struct task *user_mode_thread(void (*fn)(void *), void *arg);

/* Terminate current: status is the wait4 status word. */
void __noreturn do_exit(int status);
/* Make sig pending for t and wake it if it sleeps (kernel/signal.c). */
void send_sig(int sig, struct task *t);
/* Send sig to every task of process group pgrp; 0 or -ESRCH. */
int kill_pgrp(pid_t pgrp, int sig);
/* True if t has a pending signal that is not blocked: a blocking call
 * should give up and return -ERESTARTSYS (or -EINTR). */
bool signal_pending(struct task *t);
/* Called on the way back to user mode: acts on pending signals, reschedules. */
void prepare_return_to_user(struct trapframe *tf);
extern bool need_resched;

/* Linux wait status helpers. */
#define W_EXITCODE(ret, sig) (((ret) & 0xff) << 8 | (sig))
#define W_STOPCODE(sig) ((sig) << 8 | 0x7f)
#define W_CONTINUED 0xffff

/* Called by the timer tick: fire the interval timers that are due. */
void itimer_tick(bool from_user);

/* A vfork parent sleeps until its child execs or exits; both call this. */
void vfork_release(struct task *child);
/* Give the current task a clean FPU/SSE state (exec). */
void fpu_reset_current(void);
/* Reset what exec resets in the process: caught signal handlers. */
void flush_signal_handlers(struct task *t);
