/*
 * cred.h - who a task is: its credentials (Linux's struct cred), and the
 * capabilities they carry.
 *
 * A task's credentials are one object, shared and never changed once
 * installed. To change them, a task takes a private copy (prepare_creds),
 * changes the copy, and installs it in one step (commit_creds); or drops
 * it (abort_creds) if something fails on the way. So whoever reads a
 * task's credentials sees either the old set or the new one, never half of
 * each, and exec can build the new program's credentials aside, in
 * bprm->cred, and install them only at its point of no return.
 *
 * A task has two pointers, as in Linux:
 *   real_cred  who the task is when others look at it ("objective"): kill
 *              permission, /proc/PID/status, the owner of /proc/PID files;
 *   cred       what the task acts with ("subjective"): file permissions,
 *              capable(). Equal to real_cred except while access(2) runs
 *              with the real ids (override_creds).
 *
 * The ids (all four kinds, as Linux):
 *   uid/gid       real: who started it; kill permission, RLIMIT_NPROC
 *   euid/egid     effective: what set-user-ID gives; the owner of new IPC
 *   suid/sgid     saved: where a set-user-ID program may go back to
 *   fsuid/fsgid   file system: permission checks and the owner of new
 *                 files; follow euid/egid unless setfsuid says otherwise
 *
 * Capabilities split root's power into bits (CAP_*): a task may do a
 * privileged thing if the bit is in its effective set. Five sets, as Linux:
 *   cap_permitted    what it may make effective
 *   cap_effective    what counts now
 *   cap_inheritable  what exec may pass on to a program that asks for it
 *                    (only through file capabilities, which we do not have)
 *   cap_bset         the bounding set: what exec may ever give
 *   cap_ambient      what exec passes on to an ordinary program
 * Root's ids give capabilities by Linux's compatibility rules
 * (security/commoncap.c): exec as euid 0 makes the permitted and effective
 * sets full; setuid away from 0 empties them. "0" is the uid that the
 * cred's user namespace calls 0.
 *
 * The ids are kernel ids (include/linux/user_namespace.h): what the initial
 * user namespace calls them. The system calls translate them through the
 * caller's user namespace (cred->user_ns), in which the capabilities count
 * too: capable(cap) asks for cap in the initial namespace, ns_capable(ns,
 * cap) in ns.
 */
#pragma once
#include <kernel.h>
#include <sched.h>

/* The capability bits (include/uapi/linux/capability.h), Linux 6.1. */
#define CAP_CHOWN 0
#define CAP_DAC_OVERRIDE 1
#define CAP_DAC_READ_SEARCH 2
#define CAP_FOWNER 3
#define CAP_FSETID 4
#define CAP_KILL 5
#define CAP_SETGID 6
#define CAP_SETUID 7
#define CAP_SETPCAP 8
#define CAP_LINUX_IMMUTABLE 9
#define CAP_NET_BIND_SERVICE 10
#define CAP_NET_BROADCAST 11
#define CAP_NET_ADMIN 12
#define CAP_NET_RAW 13
#define CAP_IPC_LOCK 14
#define CAP_IPC_OWNER 15
#define CAP_SYS_MODULE 16
#define CAP_SYS_RAWIO 17
#define CAP_SYS_CHROOT 18
#define CAP_SYS_PTRACE 19
#define CAP_SYS_PACCT 20
#define CAP_SYS_ADMIN 21
#define CAP_SYS_BOOT 22
#define CAP_SYS_NICE 23
#define CAP_SYS_RESOURCE 24
#define CAP_SYS_TIME 25
#define CAP_SYS_TTY_CONFIG 26
#define CAP_MKNOD 27
#define CAP_LEASE 28
#define CAP_AUDIT_WRITE 29
#define CAP_AUDIT_CONTROL 30
#define CAP_SETFCAP 31
#define CAP_MAC_OVERRIDE 32
#define CAP_MAC_ADMIN 33
#define CAP_SYSLOG 34
#define CAP_WAKE_ALARM 35
#define CAP_BLOCK_SUSPEND 36
#define CAP_AUDIT_READ 37
#define CAP_PERFMON 38
#define CAP_BPF 39
#define CAP_CHECKPOINT_RESTORE 40
#define CAP_LAST_CAP CAP_CHECKPOINT_RESTORE

/* A set of capabilities: bit N is CAP N (Linux 6.3 made it a u64 too). */
typedef uint64_t kernel_cap_t;
#define CAP_TO_MASK(cap) (1ULL << (cap))
#define CAP_EMPTY_SET ((kernel_cap_t)0)
#define CAP_FULL_SET ((kernel_cap_t)(CAP_TO_MASK(CAP_LAST_CAP + 1) - 1))
/* The capabilities that follow the fsuid (setfsuid to and from 0). */
#define CAP_FS_SET                                                                \
	(CAP_TO_MASK(CAP_CHOWN) | CAP_TO_MASK(CAP_MKNOD) | CAP_TO_MASK(CAP_DAC_OVERRIDE) | \
	 CAP_TO_MASK(CAP_DAC_READ_SEARCH) | CAP_TO_MASK(CAP_FOWNER) |               \
	 CAP_TO_MASK(CAP_FSETID) | CAP_TO_MASK(CAP_LINUX_IMMUTABLE) |              \
	 CAP_TO_MASK(CAP_MAC_OVERRIDE))

static inline bool cap_raised(kernel_cap_t set, int cap) { return (set & CAP_TO_MASK(cap)) != 0; }
static inline bool cap_issubset(kernel_cap_t a, kernel_cap_t set) { return (a & ~set) == 0; }
static inline bool cap_valid(int cap) { return cap >= 0 && cap <= CAP_LAST_CAP; }

/* securebits (include/uapi/linux/securebits.h): the one we keep. */
#define SECURE_KEEP_CAPS 4 /* prctl(PR_SET_KEEPCAPS): setuid away from 0 keeps them */
#define SECBIT_KEEP_CAPS (1U << SECURE_KEEP_CAPS)

/* Supplementary groups, sorted (setgroups sorts them, as Linux does). */
struct group_info {
	int usage;
	int ngroups;
	gid_t gid[];
};
#define NGROUPS_MAX 65536

struct cred {
	int usage;              /* references: tasks, a bprm, an override */
	uid_t uid, euid, suid, fsuid;
	gid_t gid, egid, sgid, fsgid;
	unsigned securebits;    /* SECBIT_* */
	kernel_cap_t cap_inheritable, cap_permitted, cap_effective, cap_bset, cap_ambient;
	struct group_info *group_info;
	struct user_namespace *user_ns; /* a reference */
	void *security;         /* a security module's data (security/) */
};

/* The credentials of pid 1 and of kernel tasks: root, every capability. */
extern struct cred init_cred;
/* The dumpable state (SUID_DUMP_*) a process takes when its ids change. */
extern int suid_dumpable;

/*
 * The life of a set of credentials (kernel/cred.c):
 *   prepare_creds      a private copy of current's, to change; NULL if no memory
 *   commit_creds       install it as current's (both pointers); takes over
 *                      the reference; always 0
 *   abort_creds        drop a copy that was not committed
 *   override_creds     act with other credentials for a while (access(2));
 *                      returns the old ones, for revert_creds
 */
struct cred *prepare_creds(void);
struct cred *prepare_exec_creds(void);
/* fork: the child shares the parent's; with CLONE_NEWUSER (in flags) it
 * gets its own, in a new user namespace. 0 or -errno (create_user_ns). */
int copy_creds(struct task *child, const struct task *parent, uint64_t flags);
int commit_creds(struct cred *new);
void abort_creds(struct cred *new);
const struct cred *override_creds(const struct cred *new);
void revert_creds(const struct cred *old);
void __put_cred(struct cred *cred);

static inline const struct cred *get_cred(const struct cred *cred)
{
	((struct cred *)cred)->usage++;
	return cred;
}

static inline void put_cred(const struct cred *cred)
{
	if (cred && --((struct cred *)cred)->usage == 0)
		__put_cred((struct cred *)cred);
}

/* Supplementary groups (kernel/cred.c). */
struct group_info *groups_alloc(int ngroups); /* usage 1; NULL if no memory */
void put_group_info(struct group_info *gi);
void groups_sort(struct group_info *gi);
bool groups_search(const struct group_info *gi, gid_t gid);
/* Is gid current's file system gid or one of its groups? (egid: effective) */
bool in_group_p(gid_t gid);
bool in_egroup_p(gid_t gid);

/* The task's credentials; current's are read through the macros below. */
#define current_cred() (current->cred)
#define current_real_cred() (current->real_cred)
#define task_cred(t) ((t)->real_cred)
#define current_uid() (current_cred()->uid)
#define current_gid() (current_cred()->gid)
#define current_euid() (current_cred()->euid)
#define current_egid() (current_cred()->egid)
#define current_suid() (current_cred()->suid)
#define current_sgid() (current_cred()->sgid)

#define current_user_ns() (current_cred()->user_ns)

/*
 * May current do what capability cap allows in user namespace ns? Linux:
 * ns_capable, which asks the security modules (security_capable); here
 * only the capability rules decide (cap_capable, security/commoncap.c):
 * the effective set if ns is the cred's namespace; every capability if
 * the cred's namespace is an ancestor of ns and its euid owns the branch
 * that leads to ns; nothing otherwise.
 */
struct user_namespace;
extern struct user_namespace init_user_ns;
bool cap_capable(const struct cred *cred, struct user_namespace *ns, int cap);
bool ns_capable(struct user_namespace *ns, int cap);
#define capable(cap) ns_capable(&init_user_ns, (cap))
