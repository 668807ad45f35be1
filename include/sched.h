/*
 * sched.h - processes (kernel/proc.c, kernel/fork.c, kernel/exit.c) and the
 * scheduler (kernel/sched.c).
 *
 * One CPU. The kernel itself is not preempted: a task in the kernel runs
 * until it sleeps or returns to user mode; the timer preempts user code.
 * Interrupts are enabled in the kernel; code that checks a condition and
 * then sleeps on it does so with interrupts off (sleep_on re-enables them).
 */
#pragma once
#include <kernel.h>
#include <fpu.h>
#include <trap.h>

struct mm;
struct files_struct;
struct fs_struct;

enum task_state {
	TASK_RUNNABLE,
	TASK_SLEEPING,
	TASK_ZOMBIE,
};

#define TASK_COMM_LEN 16
#define KSTACK_PAGES 4
#define KSTACK_SIZE (KSTACK_PAGES * PAGE_SIZE)
#define NSIG 64

struct task {
	pid_t pid, pgid, sid;
	struct task *parent;
	struct task *next_task; /* list of all tasks, for wait and reparenting */
	char comm[TASK_COMM_LEN];
	enum task_state state;

	void *kstack;           /* KSTACK_SIZE bytes */
	uint64_t ksp;           /* saved kernel rsp while switched out */
	struct trapframe *tf;   /* user registers, at the top of kstack */

	struct mm *mm;          /* NULL for kernel-only tasks */
	struct files_struct *files;
	struct fs_struct *fs;
	uint64_t fs_base;       /* user FS base (TLS), arch_prctl */
	uint64_t gs_base;
	uint64_t clear_child_tid;
	uid_t uid, euid;
	gid_t gid, egid;

	void *wait_chan;        /* what a sleeping task waits for */
	uint64_t wake_at;       /* jiffies to wake at, 0 for none */
	bool vfork_done;        /* set when a vfork child execs or exits */
	int exit_status;        /* wait4 status word, valid in TASK_ZOMBIE */
	uint64_t sigpending;    /* bit (sig-1): a fatal signal waits */
	uint64_t sig_handlers[NSIG]; /* user handler or SIG_DFL(0)/SIG_IGN(1) */
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
/* Prepare t's kernel stack so that its first run returns to user mode
 * through t->tf. */
void task_setup_user_return(struct task *t);
void task_set_comm(struct task *t, const char *path); /* basename, 15 bytes */

/* First user process, run from kernel_main once everything is ready. */
void __noreturn start_init(const char *path, char *const argv[], char *const envp[]);

/* Terminate current: status is the wait4 status word. */
void __noreturn do_exit(int status);
/* Deliver a fatal signal to t (the fault handlers use it on current). */
void send_sig(int sig, struct task *t);
/* Called on the way back to user mode: acts on pending signals, reschedules. */
void prepare_return_to_user(struct trapframe *tf);
extern bool need_resched;

/* Linux wait status helpers. */
#define W_EXITCODE(ret, sig) (((ret) & 0xff) << 8 | (sig))
#define SIGKILL 9
#define SIGSEGV 11
#define SIGBUS 7
#define SIGILL 4
#define SIGFPE 8
#define SIGTRAP 5
#define SIGCHLD 17

/* A vfork parent sleeps until its child execs or exits; both call this. */
void vfork_release(struct task *child);
/* Give the current task a clean FPU/SSE state (exec). */
void fpu_reset_current(void);
/* Reset what exec resets in the process: caught signal handlers. */
void flush_signal_handlers(struct task *t);
