/*
 * sched.h - processes and threads (kernel/proc.c, kernel/fork.c,
 * kernel/exit.c), their signals (kernel/signal.c), futexes
 * (kernel/futex.c), credentials (kernel/cred.c), timers
 * (kernel/time/itimer.c) and the scheduler (kernel/sched/core.c).
 *
 * As in Linux, a struct task is one thread. A process is a thread group:
 * the threads that clone(CLONE_THREAD) made share one struct signal_struct
 * (what belongs to the process as a whole: the shared pending signals, the
 * group exit and group stop, interval timers, children's times) and one
 * struct sighand_struct (the signal handlers). Each thread has its own
 * thread id (pid), signal mask and pending signals; tgid is the process
 * id, the pid of the group leader (the first thread).
 *
 * One CPU. The kernel itself is not preempted: a task in the kernel runs
 * until it sleeps or returns to user mode; the timer preempts user code.
 * Interrupts are enabled in the kernel; code that checks a condition and
 * then sleeps on it does so with interrupts off (sleep_on re-enables them).
 */
#pragma once
#include <kernel.h>
#include <fpu.h>
#include <list.h>
#include <signum.h>
#include <trap.h>
#include <percpu.h>

struct mm;
struct files_struct;
struct fs_struct;
struct cred;
struct nsproxy;

enum task_state {
	TASK_RUNNABLE,
	TASK_SLEEPING,
	TASK_STOPPED, /* by SIGSTOP, SIGTSTP, ...; SIGCONT or SIGKILL wakes it */
	TASK_ZOMBIE,
	TASK_DEAD,     /* released: waiting to be freed, no longer found by pid */
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

/* What a signal carries (Linux's kernel_siginfo, the part x86-64 uses):
 * written to user space as the first 48 bytes of a 128-byte siginfo_t. */
struct ksiginfo {
	int32_t si_signo, si_errno, si_code, pad;
	union {
		struct {
			int32_t si_pid;
			uint32_t si_uid;
			union {
				int32_t si_status; /* SIGCHLD */
				uint64_t si_value; /* rt_sigqueueinfo, timers */
			};
			int64_t si_utime, si_stime; /* SIGCHLD */
		};
		uint64_t si_addr; /* faults */
		/* POSIX timers (SI_TIMER): the timer's id and the expirations
		 * missed, over si_pid and si_uid (si_value is the sigevent's
		 * value); si_sys_private tells which arming sent it
		 * (kernel/time/posix-timers.c). */
		struct {
			int32_t si_tid, si_overrun;
			uint64_t si_value_; /* si_value */
			int32_t si_sys_private;
		};
	};
};
/* si_code values (Linux's uapi/asm-generic/siginfo.h). */
#define SI_USER 0
#define SI_KERNEL 0x80
#define SI_QUEUE (-1)
#define SI_TIMER (-2)
#define SI_MESGQ (-3)
#define SI_TKILL (-6)
#define ILL_ILLOPN 2
#define FPE_INTDIV 1
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRERR 2
#define TRAP_BRKPT 1
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3
#define CLD_STOPPED 5
#define CLD_CONTINUED 6

/* Signals sent but not yet taken (kernel/signal.c): a bit per signal and
 * the siginfo of each. A standard signal (1-31) is pending at most once, so
 * its siginfo has a fixed slot (no allocation: interrupts send these); a
 * real-time signal is queued once per send, in order, in kmalloc'd
 * entries, as Linux queues them. */
/* A queued siginfo. Most are kmalloc'd by the sender and freed by whoever
 * takes them; a POSIX timer's is made with the timer (SIGQUEUE_PREALLOC):
 * in a pending list at most once at a time, never freed by the taker
 * (Linux's struct sigqueue). */
#define SIGQUEUE_PREALLOC 1
#define SIGQUEUE_CHARGED 2      /* counted against uid's RLIMIT_SIGPENDING */
struct sigqueue {
	struct sigqueue *next;
	struct ksiginfo info;
	unsigned flags;
	bool queued;            /* a preallocated one is in some pending list */
	uid_t uid;
};
struct sigpending {
	uint64_t signal;
	struct ksiginfo info[SIGRTMIN - 1];
	struct sigqueue *rt_queue;
};

/* The handlers, shared by the threads of a process (CLONE_SIGHAND). */
struct sighand_struct {
	int count;
	/* An action may differ from what exec leaves (a handler, flags, a
	 * restorer or a mask): set by sigaction, so that the exec of a
	 * process that never called it need not look at all 64. */
	bool installed;
	struct k_sigaction action[NSIG];
};

/* signal_struct flags, as Linux's. */
#define SIGNAL_STOP_STOPPED 0x1  /* the group is stopped */
#define SIGNAL_GROUP_EXIT 0x4    /* exit_group or a fatal signal: all threads die */
#define SIGNAL_UNKILLABLE 0x40   /* init: signals it does not handle are dropped */

/* What the threads of one process share (Linux's struct signal_struct). */
struct signal_struct {
	int count;              /* tasks pointing here (zombies included) */
	int nr_threads;         /* threads that have not exited yet */
	/* The tasks pointing here, in the order they were made (their
	 * thread_node): for_each_thread. Under the big kernel lock. */
	struct list_node threads;
	struct sigpending shared_pending; /* kill(): for any thread that takes it */
	unsigned flags;         /* SIGNAL_* */
	int group_exit_code;    /* wait status of the whole group's end */
	struct task *group_exec_task; /* de_thread: the thread that execs */
	int group_stop_count;   /* threads still to stop in a group stop */
	int stop_signal;        /* what stopped the group, for wait4 */
	bool wait_stop_report;  /* a stop the parent has not yet collected */
	bool wait_cont_report;  /* a continue the parent has not yet collected */
	/* Interval timers (kernel/time/itimer.c), in ticks: ITIMER_REAL counts
	 * jiffies, ITIMER_VIRTUAL user time, ITIMER_PROF user + system time.
	 * A value of 0 is a disarmed timer. */
	uint64_t it_value[3], it_interval[3];
	/* POSIX timers (kernel/time/posix-timers.c), newest first, and the
	 * id the next timer_create tries first. */
	struct k_itimer *posix_timers;
	int posix_timer_id;
	/* CPU ticks of the threads gone, and of the children reaped; the
	 * same for page faults (getrusage's ru_minflt). */
	uint64_t utime, stime, cutime, cstime;
	uint64_t min_flt, cmin_flt;
};

/* How to go on with a call interrupted by -ERESTART_RESTARTBLOCK (Linux's
 * struct restart_block): restart_syscall calls fn. */
struct restart_block {
	long (*fn)(struct restart_block *rb);
	uint64_t deadline_ns;   /* nanosleep, futex: when to wake, monotonic */
	void __user *rem;       /* nanosleep: where to report the time left */
	uint64_t futex_uaddr;   /* futex: the wait to go on with */
	uint32_t futex_val, futex_bitset;
	bool futex_shared;
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

/* task->flags */
#define PF_FORKNOEXEC 0x00000040 /* forked but has not exec'd (kernel threads) */
#define PF_NOFREEZE 0x00008000   /* never frozen for suspend (kernel threads) */
#define PF_KTHREAD 0x00200000    /* a kernel thread: no user side at all */
#define PF_RANDOMIZE 0x00400000 /* exec randomizes the new layout (ASLR) */

#define TASK_COMM_LEN 16
#define KSTACK_PAGES 4
#define KSTACK_SIZE (KSTACK_PAGES * PAGE_SIZE)

struct pid;

struct task {
	pid_t pid;              /* the thread id, in the initial pid namespace */
	/* Its numbers in each pid namespace it is in (include/linux/pid_namespace.h):
	 * what other processes see depends on their namespace. */
	struct pid *thread_pid;
	/* Unique for the kernel's whole life, unlike pid numbers, which are
	 * reused: a pidfd (kernel/pidfd.c) and a /proc/PID inode name their
	 * process by it, so that they never come to mean another one. */
	uint64_t serial;
	pid_t tgid;             /* the process id: the group leader's pid */
	/* The process group and session: the same in every thread of a
	 * process (setpgid and setsid change them all). Initial-namespace
	 * numbers, as pid and tgid; the task holds their struct pids
	 * (set_pgrp_session), which outlive their leaders. */
	pid_t pgid, sid;
	struct pid *pgrp_pid, *session_pid;
	struct task *group_leader;
	struct signal_struct *signal;
	struct sighand_struct *sighand;
	/* The thread that made this process (Linux's real_parent); threads
	 * of a process all have the leader's parent. */
	struct task *parent;
	int exit_signal;        /* told to the parent at exit: SIGCHLD, other, or -1 (a thread) */
	/* The list of all tasks, in the order they were made, under the big
	 * kernel lock: next_task walks it, prev_task unlinks in one step. */
	struct task *next_task, *prev_task;
	struct list_node thread_node; /* on signal->threads */
	/* The processes this thread made (their leaders, linked by sibling;
	 * reparented ones at the end), for wait and reparenting. Under the
	 * big kernel lock. */
	struct list_node children, sibling;
	struct task *next_dead; /* on the list of tasks to free */
	char comm[TASK_COMM_LEN];
	enum task_state state;

	void *kstack;           /* KSTACK_SIZE bytes */
	uint64_t ksp;           /* saved kernel rsp while switched out */
	bool on_cpu;            /* running on a CPU now (current there) */
	bool on_rq;             /* waiting on the run queue of cpu (kernel/sched/sched.h) */
	int cpu;                /* the CPU it runs on, is queued on, or last ran on */
	struct task *rq_next, *rq_prev; /* its neighbours on that queue */
	uint64_t cpus_allowed;  /* sched_setaffinity: a bit a CPU */
	struct trapframe *tf;   /* user registers, at the top of kstack */

	struct mm *mm;          /* NULL for kernel-only tasks */
	struct files_struct *files;
	struct fs_struct *fs;
	struct nsproxy *nsproxy; /* the namespaces it is in (include/nsproxy.h); NULL once exited */
	struct file *exe_file;  /* the program it runs: /proc/PID/exe; closed to writers */
	unsigned int personality; /* personality(2): include/personality.h; kept by fork and exec */
	unsigned int flags;     /* PF_* */
	uint64_t fs_base;       /* user FS base (TLS), arch_prctl */
	uint64_t gs_base;
	uint16_t fsindex, gsindex; /* the user's FS and GS selectors (mov to %fs) */
	/* I/O port access (arch/x86/kernel/ioport.c): ioperm's bitmap
	 * (IO_BITMAP_BYTES, a bit a port, 1 denied) or NULL for none; iopl's
	 * level (3: every port). */
	uint8_t *io_bitmap;
	int iopl_emul;
	bool iopl_warned;       /* the cli/sti message was printed once */
	/* rseq(2) (kernel/rseq.c): the registered struct rseq (0: none), its
	 * signature, something happened since the thread left user mode
	 * (a switch, a signal), and its fields need updating on the way back. */
	uint64_t rseq;
	uint32_t rseq_sig;
	int rseq_event;
	bool rseq_resume;
	uint64_t clear_child_tid; /* set_tid_address, CLONE_CHILD_CLEARTID */
	uint64_t robust_list;   /* set_robust_list: the head, in user memory */
	/* SEM_UNDO's adjustments (ipc/sem_undo.c), shared by CLONE_SYSVSEM;
	 * NULL until a SEM_UNDO semop. */
	struct sem_undo_list *sysvsem_undo;
	/* PI futexes (kernel/futex_pi.c): those it holds that have waiters in
	 * the kernel, the one it waits for, and FUTEX_STATE_DEAD once its exit
	 * has let go of them all (an owner that is gone, for the waiters). */
	struct futex_pi_state *pi_state_list;
	struct futex_pi_state *pi_blocked_on;
	int futex_state;
	/* Credentials (include/cred.h): as others see it, and as it acts. */
	const struct cred *real_cred;
	const struct cred *cred;

	void *wait_chan;        /* what a sleeping task waits for */
	uint64_t wake_at;       /* jiffies to wake at, 0 for none */
	bool vfork_done;        /* set when a vfork child execs or exits */
	int exit_status;        /* wait4 status word, valid in TASK_ZOMBIE */

	/* Signals (kernel/signal.c). Bit sig-1 of a mask stands for sig.
	 * pending holds this thread's own pending signals (tgkill, faults);
	 * the process's are in signal->shared_pending. */
	struct sigpending pending;
	uint64_t blocked;       /* the signal mask */
	uint64_t real_blocked;  /* the mask before rt_sigtimedwait changed it */
	bool stop_pending;      /* must take part in a group stop */
	uint64_t saved_mask;    /* restored after a handler when restore_mask */
	bool restore_mask;      /* set by rt_sigsuspend */
	struct restart_block restart_block;
	uint64_t altstack_sp, altstack_size;
	int altstack_flags;
	int pdeath_signal;      /* prctl(PR_SET_PDEATHSIG) */
	bool no_new_privs;      /* prctl(PR_SET_NO_NEW_PRIVS); kept across fork and exec */
	bool nproc_exceeded;    /* set*uid went over RLIMIT_NPROC: execve fails (EAGAIN) */

	struct rlimit rlim[RLIM_NLIMITS]; /* the same in every thread (setrlimit sets all) */
	/* This thread's CPU time in ticks, counted by the timer, and the
	 * page faults it took (all minor: there is no disk). */
	uint64_t utime, stime;
	uint64_t min_flt;
	uint64_t start_time;    /* jiffies at fork */
	/* Execs this task made (Linux's self_exec_id): a POSIX message
	 * queue's notification does not reach a program its owner exec'd. */
	uint64_t self_exec_id;
	/* sched_setscheduler(2): the policy (SCHED_*), the real-time priority
	 * (1-99 under SCHED_FIFO and SCHED_RR, else 0) and whether fork
	 * resets them. Kept and reported; the scheduler treats all alike. */
	int policy;
	unsigned int rt_priority;
	bool sched_reset_on_fork;
	struct fpu_state fpu;   /* user x87/SSE registers while switched out */
};


/* kernel/rseq.c */
void rseq_handle_notify_resume(struct trapframe *tf); /* the way back to user mode */
void rseq_signal_deliver(struct trapframe *tf);       /* before a handler's frame */
void rseq_preempt(struct task *t);                    /* t is switched out */
void rseq_fork(struct task *child, struct task *parent, bool same_vm);
void rseq_execve(struct task *t);

/* arch/x86/kernel/ioport.c */
#define IO_BITMAP_BYTES (65536 / 8)
void io_bitmap_switch(struct task *next);              /* into the TSS */
int io_bitmap_fork(struct task *child, struct task *parent); /* 0 or -ENOMEM */
void io_bitmap_exit(struct task *t);
struct trapframe;
bool fixup_iopl_exception(struct trapframe *tf);       /* cli/sti after iopl(3) */
extern volatile uint64_t jiffies; /* timer ticks since boot */
#define HZ 100

void sched_init(void);
void sched_init_cpu(int cpu);            /* the calling CPU's idle task */
void sched_tick(bool from_user);         /* every CPU's timer tick */
void sched_tick_global(void);            /* the tick of the CPU that counts jiffies */
void resched_cpu(int cpu);               /* make that CPU call schedule() soon */
void __noreturn cpu_idle(void);
/* Scheduling policies (sched_setscheduler), Linux's numbers. */
#define SCHED_NORMAL 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define SCHED_BATCH 3
#define SCHED_IDLE 5
#define SCHED_DEADLINE 6
static inline bool task_has_rt_policy(const struct task *t)
{
	return t->policy == SCHED_FIFO || t->policy == SCHED_RR;
}
/* fork: the child's policy and priority (kernel/sched/core.c). */
void sched_fork(struct task *child, struct task *parent);
void schedule(void);                     /* give up the CPU */
void sleep_on(void *chan);               /* call with interrupts off */
void wakeup(void *chan);
/* Sleep until jiffies >= when or a signal arrives. Returns 0 or -EINTR. */
int sleep_until(uint64_t when);
void make_runnable(struct task *t);      /* a sleeping task wakes */
void wake_up_stopped(struct task *t);    /* a stopped task continues */
void wake_up_new_task(struct task *t);   /* a new task may run */
/* Wait while another CPU is still switching away from t (t->on_cpu), with
 * the big kernel lock held: then t may be queued elsewhere, or freed. */
void wait_until_off_cpu(struct task *t);
/* The task with this thread id as the current task numbers it (any
 * thread, Linux's find_task_by_vpid); NULL if none, or if it is released.
 * A zombie is still found. */
struct task *find_task(pid_t pid);
/* The task given this serial at fork (not released), or NULL. */
struct task *find_task_by_serial(uint64_t serial);
/* Iterate over every task (for wait, reparenting and /proc). */
struct task *first_task(void);
static inline bool thread_group_leader(const struct task *t) { return t->group_leader == t; }
static inline bool same_thread_group(const struct task *a, const struct task *b)
{
	return a->signal == b->signal;
}
/* No thread of leader's process is left but the leader itself. */
bool thread_group_empty(struct task *leader);
/* The threads of p's process, leader or not, that have not been released. */
static inline struct task *first_thread(const struct task *p)
{
	const struct list_node *head = &p->signal->threads;

	return list_empty(head) ? NULL : list_entry(head->next, struct task, thread_node);
}
#define for_each_thread(p, t)                                                                  \
	for (struct task *t = first_thread(p); t;                                              \
	     t = list_next_entry_or_null(t, &(p)->signal->threads, thread_node))              \
		if (t->state != TASK_DEAD)
/* A new task: kernel stack, linked in; not yet runnable, no pid yet
 * (attach_task_pid). NULL if no memory. */
struct task *alloc_task(void);
struct pid_namespace;
/* Number t in namespace ns and its ancestors (set_tid: clone3's choice, n
 * numbers from ns up): t->thread_pid and t->pid. 0 or -errno (alloc_pid). */
int attach_task_pid(struct task *t, struct pid_namespace *ns, const pid_t *set_tid, size_t n);
void free_task(struct task *t);  /* after it is reaped */
/* Free t once the CPU has left its stack for good (self-reaping exit). */
void release_task_later(struct task *t);
void release_dead_tasks(void);   /* the scheduler calls it */
bool dead_tasks_waiting(void);   /* a hint, read without the big lock */
extern int nr_tasks, max_tasks;  /* max_tasks: Linux's max_threads */
int count_user_tasks(uid_t uid);
/* Prepare t's kernel stack so that its first run returns to user mode
 * through t->tf. */
void task_setup_user_return(struct task *t);
void task_set_comm(struct task *t, const char *path); /* basename, 15 bytes */
/* Make file t's program (NULL: none). While a process runs a file, opening
 * that file for writing fails with ETXTBSY, as on Linux. */
void set_exe_file(struct task *t, struct file *file);

/* At boot, after the scheduler: the task limit and the boot task's
 * resource limits (kernel/proc.c). */
void fork_init(void);
/* First user process, run from kernel_main once everything is ready. */
void __noreturn start_init(const char *path, char *const argv[], char *const envp[]);

/* A process that starts in the kernel with fn(arg) and becomes a user
 * program through kernel_execve; no parent (kernel/proc.c, for umh.c). */
struct task *user_mode_thread(void (*fn)(void *), void *arg);
struct task *kernel_thread(void (*fn)(void *), void *arg, const char *comm);
/* kernel/kthread.c: start kthreadd, pid 2 (from start_init). */
void kthreadd_start(void);

/* End the current thread: status is the wait4 status word. */
void __noreturn do_exit(int status);
/* End every thread of the current process (exit_group, a fatal signal). */
void __noreturn do_group_exit(int status);
/* exec: kill the other threads of the process, and take over the
 * leader's pid if the caller is not the leader (fs/exec.c calls it past
 * the point of no return). 0, or -EAGAIN if the process is being killed. */
int de_thread(struct task *me);

/* Make sig pending for thread t and wake it if it sleeps (kernel/signal.c),
 * as from the kernel (si_code SI_KERNEL). */
void send_sig(int sig, struct task *t);
/* The same for t's whole process: any thread that does not block it
 * takes it (kill, SIGCHLD, the tty's signals). */
void group_send_sig(int sig, struct task *t);
/* Either, with a siginfo (info->si_signo is the signal). 0, or -EAGAIN if
 * a real-time signal cannot be queued. */
int send_sig_info(const struct ksiginfo *info, struct task *t, bool group);
/* A fault's signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP) for the
 * current thread. If the program blocks or ignores it, it cannot take it:
 * the action becomes the default and the process dies, as Linux's
 * force_sig_fault. */
void force_sig_fault(int sig, int code, uint64_t addr);
/* Send sig to every process of process group pgrp; 0 or -ESRCH. */
int kill_pgrp(pid_t pgrp, int sig);
/* True if t has a pending signal that is not blocked, or must stop or
 * die: a blocking call should give up and return -ERESTARTSYS (or -EINTR). */
bool signal_pending(struct task *t);
/* Take the first signal of `allowed` pending for current: its own, then
 * its process's, with its siginfo. The signal, or 0 if none (signalfd's
 * read, rt_sigtimedwait). */
int dequeue_signal(uint64_t allowed, struct ksiginfo *info);
/* A signal was queued: signalfd readers and pollers look again
 * (fs/signalfd.c). */
void signalfd_notify(void);
/* True if t is being killed (SIGKILL pending, or its group exits). */
bool fatal_signal_pending(struct task *t);
/* Free what t's signal state holds (free_task calls it). */
void exit_signal_state(struct task *t);
/* SIGKILL to every thread of p's process but p (exit_group, exec). */
void zap_other_threads(struct task *p);
/* An exiting thread leaves a group stop in progress (kernel/exit.c). */
void exit_group_stop(struct task *t);
/* Called on the way back to user mode: acts on pending signals, reschedules. */
void prepare_return_to_user(struct trapframe *tf);
void prepare_return_to_user_unlocked(struct trapframe *tf); /* without the big kernel lock */

/* Linux wait status helpers. */
#define W_EXITCODE(ret, sig) (((ret) & 0xff) << 8 | (sig))
#define W_STOPCODE(sig) ((sig) << 8 | 0x7f)
#define W_CONTINUED 0xffff

/* Called by the timer tick: fire the interval timers that are due. */
void itimer_tick(bool from_user); /* every CPU's tick: ITIMER_VIRTUAL, ITIMER_PROF */
void timers_tick(void);           /* the jiffies tick: ITIMER_REAL, POSIX timers, timerfds */
/* kernel/time/posix-timers.c: the tick fires the POSIX timers that are
 * due; exec and the end of a process delete its timers (exec also drops
 * their pending signals); taking a timer's signal re-arms a periodic
 * timer (called by dequeue_signal with interrupts off). */
void posix_timers_tick(void);
/* fs/timerfd.c: the tick fires the timerfds that are due. */
void timerfd_tick(void);
void exit_itimers(struct task *t);
void flush_itimer_signals(void);
void posixtimer_rearm(struct ksiginfo *info);
/* /proc/PID/timers: the process's timers, as Linux shows them. */
struct seq_file;
int proc_timers_show(struct seq_file *m, struct task *t);
/* Queue a timer's preallocated entry to thread t, or to its process
 * (group): 0 queued (or counted as an overrun, if it already was), 1 the
 * signal is ignored, -1 t is gone (Linux's send_sigqueue). */
int send_sigqueue(struct sigqueue *q, struct task *t, bool group);

/* A vfork parent sleeps until its child execs or exits; both call this. */
void vfork_release(struct task *child);
/* Give the current task a clean FPU/SSE state (exec). */
void fpu_reset_current(void);
/* Reset what exec resets in the process: caught signal handlers. */
void flush_signal_handlers(struct task *t);

/* kernel/futex.c: at thread exit and exec, the robust list's futexes are
 * released (FUTEX_OWNER_DIED), so are the PI futexes held, and
 * clear_child_tid is cleared and woken. */
#define FUTEX_STATE_OK 0
#define FUTEX_STATE_DEAD 2
void futex_exit_release(struct task *t);
void futex_exec_release(struct task *t);
