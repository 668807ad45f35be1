/*
 * security.h - the security hooks (Linux's LSM interface, in miniature):
 * the places where the kernel asks "may this happen?" and "what should
 * the new credentials be?", and the modules that answer.
 *
 * The capability rules (security/commoncap.c) always answer first, as
 * Linux's "capability" module does; then each security module enabled on
 * the command line with lsm=NAME,NAME, in that order. A hook that returns
 * an error stops the operation with that error. With no lsm= (the default)
 * only the capability rules run.
 *
 * The exec hooks, in the order an exec calls them (docs/exec.md):
 *   bprm_creds_for_exec     bprm->cred was just made: decide what may not
 *                           change whatever the file says (SELinux's domain)
 *   bprm_check              each file exec is about to hand to a handler
 *                           (the script, then its interpreter): may it run?
 *   bprm_creds_from_file    at the point of no return: the new credentials
 *                           from the file finally loaded (set-user-ID,
 *                           capabilities: cap_bprm_creds_from_file)
 *   bprm_committing_creds   just before the new credentials are installed
 *   bprm_committed_creds    just after
 * Before the point of no return a refusal fails execve with its errno;
 * bprm_creds_from_file's failure happens in begin_new_exec, before it
 * passes the point, so it is still reported to the caller.
 *
 * Writing a module: security/execguard.c is the example to read.
 */
#pragma once
#include <kernel.h>

struct cred;
struct file;
struct linux_binprm;
struct task;

/* How set*id changed the ids, for task_fix_setuid (Linux's LSM_SETID_*). */
#define LSM_SETID_ID 1  /* setuid */
#define LSM_SETID_RE 2  /* setreuid */
#define LSM_SETID_RES 4 /* setresuid */
#define LSM_SETID_FS 8  /* setfsuid */

/* bprm->unsafe: why an exec may not raise privileges (check_unsafe_exec). */
#define LSM_UNSAFE_SHARE 1        /* the fs_struct is shared with another process */
#define LSM_UNSAFE_PTRACE 2       /* traced (we have no ptrace: never set) */
#define LSM_UNSAFE_NO_NEW_PRIVS 4 /* prctl(PR_SET_NO_NEW_PRIVS) */

/* ptrace_may_access modes (Linux's PTRACE_MODE_*). */
#define PTRACE_MODE_READ 0x01
#define PTRACE_MODE_ATTACH 0x02
#define PTRACE_MODE_NOAUDIT 0x04
#define PTRACE_MODE_FSCREDS 0x08
#define PTRACE_MODE_REALCREDS 0x10
#define PTRACE_MODE_READ_FSCREDS (PTRACE_MODE_READ | PTRACE_MODE_FSCREDS)
#define PTRACE_MODE_READ_REALCREDS (PTRACE_MODE_READ | PTRACE_MODE_REALCREDS)
#define PTRACE_MODE_ATTACH_REALCREDS (PTRACE_MODE_ATTACH | PTRACE_MODE_REALCREDS)
#define PTRACE_MODE_ATTACH_FSCREDS (PTRACE_MODE_ATTACH | PTRACE_MODE_FSCREDS)

/*
 * One security module: its name (for lsm=), what to do when it is enabled
 * at boot, and the hooks it fills in; a NULL hook has no opinion. Linux
 * spreads this over struct lsm_info and a list of security_hook_list
 * entries; one struct per module says the same more briefly.
 */
struct lsm {
	const char *name;
	int (*init)(void);
	int (*bprm_creds_for_exec)(struct linux_binprm *bprm);
	int (*bprm_check)(struct linux_binprm *bprm);
	int (*bprm_creds_from_file)(struct linux_binprm *bprm, struct file *file);
	void (*bprm_committing_creds)(struct linux_binprm *bprm);
	void (*bprm_committed_creds)(struct linux_binprm *bprm);
	int (*task_fix_setuid)(struct cred *new, const struct cred *old, int flags);
	struct lsm *next; /* the enabled modules, in lsm= order */
};

/* lsm=NAME,... on the command line (kernel/cmdline.c). */
void security_set_lsm_list(const char *list);
/* Enable the modules lsm= named, in its order; at boot. */
void security_init(void);

/* The hooks (security/security.c). 0, or -errno to refuse. */
int security_bprm_creds_for_exec(struct linux_binprm *bprm);
int security_bprm_check(struct linux_binprm *bprm);
int security_bprm_creds_from_file(struct linux_binprm *bprm, struct file *file);
void security_bprm_committing_creds(struct linux_binprm *bprm);
void security_bprm_committed_creds(struct linux_binprm *bprm);
int security_task_fix_setuid(struct cred *new, const struct cred *old, int flags);
int security_ptrace_access_check(struct task *t, unsigned mode);

/* The capability rules (security/commoncap.c), Linux's names. */
int cap_bprm_creds_from_file(struct linux_binprm *bprm, struct file *file);
int cap_task_fix_setuid(struct cred *new, const struct cred *old, int flags);
int cap_ptrace_access_check(struct task *t, unsigned mode);
/* prctl's capability options (PR_CAPBSET_*, PR_CAP_AMBIENT, PR_*_KEEPCAPS,
 * PR_*_SECUREBITS); -ENOSYS for an option that is not one of them. */
long cap_task_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
		    unsigned long arg5);

/*
 * May current look into t (its memory maps, environment, open files, the
 * links of /proc/PID)? Linux's rule (kernel/ptrace.c): itself always; else
 * the same user in all of t's ids, a t that is dumpable, and no capability
 * of t's that current lacks; or CAP_SYS_PTRACE. mode: PTRACE_MODE_READ
 * with _FSCREDS (the caller's fs ids, as /proc uses) or _REALCREDS.
 */
bool ptrace_may_access(struct task *t, unsigned mode);
