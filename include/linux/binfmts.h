/*
 * linux/binfmts.h - what fs/exec.c and the format handlers (fs/binfmt_*.c)
 * share: struct linux_binprm, the exec in progress, and struct linux_binfmt,
 * one entry in the registry of executable formats.
 *
 * The names are Linux's, so that a reader who knows Linux's exec path finds
 * the same pieces here. Where a field exists only for what Linux does and
 * this kernel does not do yet, the comment says so.
 */
#pragma once
#include <kernel.h>

struct file;
struct mm;
struct module;
struct trapframe;
struct cred;

/*
 * How many bytes of the file exec reads into bprm->buf for the handlers to
 * look at: the longest "#!" line. (128 in the article's 3.18: docs/exec.md,
 * section 11.)
 */
#define BINPRM_BUF_SIZE 256

/* Limits on what execve copies onto the new stack (E2BIG beyond them). */
#define MAX_ARG_STRLEN (32 * PAGE_SIZE) /* one string, with its NUL: 131072 */
#define MAX_ARG_STRINGS 0x7FFFFFFF       /* entries in argv, or in envp */
#define ARG_MAX 131072                   /* the floor of the total limit */
#define _STK_LIM (8UL * 1024 * 1024)     /* default RLIMIT_STACK */

/* bprm->interp_flags */
#define BINPRM_FLAGS_ENFORCE_NONDUMP 0x1   /* a file of the exec is not readable */
#define BINPRM_FLAGS_PATH_INACCESSIBLE 0x4 /* name came from an O_CLOEXEC fd */
#define BINPRM_FLAGS_PRESERVE_ARGV0 0x8    /* binfmt_misc 'P' */

/* The stack's execute permission, from PT_GNU_STACK (setup_arg_pages). */
#define EXSTACK_DEFAULT 0   /* no PT_GNU_STACK: not executable on x86-64 */
#define EXSTACK_DISABLE_X 1
#define EXSTACK_ENABLE_X 2

/*
 * One exec in progress. do_execveat_common fills it, the handlers read and
 * rewrite it; it is freed when the exec ends, whether it worked or not.
 *
 * Until begin_new_exec, the new program exists only here (mm, file, the
 * strings on the new stack): the calling process is untouched.
 */
struct linux_binprm {
	struct mm *mm;       /* the new address space, built aside */
	uint64_t p;          /* top of the data on the new stack; moves down */
	uint64_t argmin;     /* p may not go below this: E2BIG */
	bool have_execfd;    /* binfmt_misc 'O': pass the program as a fd */
	/* binfmt_misc 'C': the credentials come from bprm->executable (the
	 * program), not from bprm->file (its interpreter). bprm_creds_from_file
	 * honours it; the handler only sets it. */
	bool execfd_creds;
	bool secureexec;     /* AT_SECURE: the exec raised privileges */
	/* Personality bits the exec clears (PER_CLEAR_ON_SETID when the
	 * file is set-user-ID or set-group-ID). */
	unsigned int per_clear;
	bool point_of_no_return; /* set by begin_new_exec: failing now kills */
	/* The name came from a descriptor (AT_EMPTY_PATH): the process is named
	 * after the file it loads, not "N" (Linux 6.12, in Debian's 6.1). */
	bool comm_from_dentry;
	struct file *executable; /* the program, when have_execfd */
	struct file *interpreter; /* set by a handler that rewrote the exec */
	struct file *file;   /* the file being loaded now */
	/* The new program's credentials, made at the start of the exec from
	 * the caller's (prepare_exec_creds) and installed by begin_new_exec;
	 * NULL once installed. */
	struct cred *cred;
	int unsafe;          /* LSM_UNSAFE_*: why privileges may not be raised */
	int argc, envc;
	const char *filename; /* the name as given to execve; never changes */
	const char *interp;  /* the name of the file being loaded now */
	/* execveat's name for a file found through a descriptor, "/dev/fd/N"
	 * or "/dev/fd/N/NAME"; bprm->filename is then this string. */
	const char *fdpath;
	unsigned interp_flags; /* BINPRM_FLAGS_* */
	int execfd;          /* AT_EXECFD, when have_execfd */
	uint64_t exec;       /* where filename sits on the new stack: AT_EXECFN */
	uint64_t rlim_stack; /* RLIMIT_STACK's soft limit (Linux: struct rlimit) */
	char buf[BINPRM_BUF_SIZE]; /* the first bytes of file */
};

/*
 * An executable format, and THE HANDLER CONTRACT (stated here only: exec.c
 * and the handlers point here). load_binary either
 *   - returns -ENOEXEC: "not mine", bprm is as it was, the next handler is
 *     asked;
 *   - returns another -errno before calling begin_new_exec: the exec fails
 *     with that errno and the caller keeps running, untouched;
 *   - rewrites the exec (a script: new argv strings, bprm->interp and
 *     bprm->interpreter set) and returns 0: the search starts again on the
 *     interpreter;
 *   - calls begin_new_exec and loads the program: 0, or -errno if it failed
 *     after that point, which kills the process.
 */
struct linux_binfmt {
	struct linux_binfmt *next; /* the registry's list (Linux: list_head lh) */
	/* The loadable module the handler is in (THIS_MODULE), NULL if built
	 * in: search_binary_handler holds a reference on it while
	 * load_binary runs, so the module cannot be unloaded meanwhile. */
	struct module *module;
	const char *name;          /* for the exec trace; Linux has no such field */
	int (*load_binary)(struct linux_binprm *bprm);
};

/* The registry (fs/exec.c). Handlers are asked in list order. */
void register_binfmt(struct linux_binfmt *fmt); /* at the end */
void insert_binfmt(struct linux_binfmt *fmt);   /* at the front */
void unregister_binfmt(struct linux_binfmt *fmt);

/* Each handler registers itself from its own initcall (include/linux/init.h):
 * fs/binfmt_script.c and fs/binfmt_elf.c as core_initcall, in that link
 * order, fs/binfmt_misc.c as fs_initcall. */

/* Helpers for the handlers (fs/exec.c). */
struct file *open_exec(const char *name); /* open a program: EACCES, ETXTBSY... */
/* The file is not readable by the caller: the new process will not be
 * dumpable (its user may not look into a program it may not read). */
void would_dump(struct linux_binprm *bprm, struct file *file);
/* Push one string under the others on the new stack (E2BIG). argc is the
 * caller's to count. */
int copy_string_kernel(const char *arg, struct linux_binprm *bprm);
/* Drop argv[0] from the new stack: bprm->p moves up past it, argc - 1.
 * Nothing to do if argc is 0. */
int remove_arg_zero(struct linux_binprm *bprm);
/* bprm->interp = a copy of interp (the old one freed unless it is
 * bprm->filename). -ENOMEM. */
int bprm_change_interp(const char *interp, struct linux_binprm *bprm);
int begin_new_exec(struct linux_binprm *bprm); /* the point of no return */
void setup_new_exec(struct linux_binprm *bprm); /* the mmap layout */
/* Move the stack to stack_top and give it its rights and 128 KiB of room. */
int setup_arg_pages(struct linux_binprm *bprm, uint64_t stack_top, int executable_stack);
/* Set the user registers for a fresh program (arch/x86/kernel/process_64.c). */
void start_thread(struct trapframe *regs, uint64_t new_ip, uint64_t new_sp);

/*
 * Run a program from the kernel (init): the same exec as execve, with the
 * name and the strings in kernel memory. 0 on success, then current->tf
 * holds the new program's registers; -errno on failure.
 */
int kernel_execve(const char *filename, char *const argv[], char *const envp[]);

/*
 * The exec trace (fs/exec_trace.c): for learners, every exec told as
 * kernel log lines "exectrace: ..." at KERN_ERR, so that they show even
 * with "quiet". Off at boot unless the command line has "exectrace";
 * exec_trace_set switches it at run time (/proc/sys/fs/exectrace).
 * docs/exec.md explains how to read it.
 * Each hook does nothing while the trace is off.
 */
void exec_trace_set(bool on);
bool exec_trace_enabled(void);
void exec_trace_start(struct linux_binprm *bprm);      /* the exec as asked */
void exec_trace_depth(struct linux_binprm *bprm, int depth); /* a round of the search */
void exec_trace_buf(struct linux_binprm *bprm);               /* what the handlers see */
void exec_trace_handler(struct linux_binprm *bprm, struct linux_binfmt *fmt, int retval);
void exec_trace_rewrite(struct linux_binprm *bprm, const char *who); /* argv changed */
void exec_trace_interp(struct linux_binprm *bprm, const char *new_interp);
void exec_trace_done(struct linux_binprm *bprm, int retval); /* result; the new stack */
/* binfmt_elf placed the program: its type, interpreter (or NULL), load
 * bias, the interpreter's base (AT_BASE), the entry point, the end of its
 * bss (where brk starts before its random offset), and the layout. */
void exec_trace_elf(struct linux_binprm *bprm, bool dyn, const char *interp, uint64_t load_bias,
		    uint64_t interp_base, uint64_t entry, uint64_t bss_end);
