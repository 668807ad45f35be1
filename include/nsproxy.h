/*
 * nsproxy.h - namespaces (kernel/nsproxy.c): what a process sees of the
 * system's names, each kind its own object that processes share.
 *
 *   uts  the host and domain names (kernel/utsname.c)
 *   mnt  the mount table (fs/namespace.c)
 *   pid  the process ids (kernel/pid_namespace.c): the namespace a
 *        task's next children are made in (pid_ns_for_children); its
 *        own is that of its struct pid (task_active_pid_ns)
 *   ipc  System V IPC's ids and limits (ipc/namespace.c)
 *   net  the network: here, AF_UNIX's abstract names (net/core/net_namespace.c)
 *   time the monotonic and boot-time clocks' offsets (kernel/time/namespace.c)
 *   cgroup  the root of the cgroup tree a process sees (kernel/cgroup/namespace.c)
 *   user  who is who and who may do what (kernel/user_namespace.c): not in
 *        the nsproxy but in the credentials (cred->user_ns), and the owner
 *        of every other namespace (its user_ns): creating or entering one
 *        takes CAP_SYS_ADMIN in its owner (ns_capable)
 *
 * A task points to one struct nsproxy, the set of namespaces it is in;
 * tasks whose sets are the same share it (count). Changing one namespace
 * (unshare, setns) makes the task a new nsproxy: an nsproxy never changes
 * once shared. Each namespace counts the nsproxies (and nsfs files, and
 * mounts of /proc) that hold it; the last put frees it.
 *
 * Every namespace starts with a struct ns_common: its inode number (what
 * /proc/PID/ns/X shows, "uts:[4026531838]", and what stat on an nsfs file
 * gives as st_ino), its count, and its kind's operations.
 *
 * Locking: one CPU, and the kernel is not preempted; the counts and the
 * pointers in an nsproxy change only in system calls of the task itself
 * (or its fork), so no lock is taken. On several CPUs a task's nsproxy
 * pointer would be read under its task lock (Linux's task_lock), and the
 * counts be atomic.
 */
#pragma once
#include <kernel.h>

struct task;
struct fs_struct;

/* The CLONE_NEW* flags (include/uapi/linux/sched.h). */
#define CLONE_NEWTIME 0x00000080
#define CLONE_NEWNS 0x00020000
#define CLONE_NEWCGROUP 0x02000000
#define CLONE_NEWUTS 0x04000000
#define CLONE_NEWIPC 0x08000000
#define CLONE_NEWUSER 0x10000000
#define CLONE_NEWPID 0x20000000
#define CLONE_NEWNET 0x40000000
#define CLONE_NS_ALL (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | \
		      CLONE_NEWNET | CLONE_NEWCGROUP | CLONE_NEWTIME | CLONE_NEWUSER)

/* Linux's fixed inode numbers of the initial namespaces (proc_ns.h);
 * the others come from PROC_DYNAMIC_FIRST up, the lowest free first. */
#define PROC_IPC_INIT_INO 0xEFFFFFFFU
#define PROC_UTS_INIT_INO 0xEFFFFFFEU
#define PROC_USER_INIT_INO 0xEFFFFFFDU
#define PROC_PID_INIT_INO 0xEFFFFFFCU
#define PROC_CGROUP_INIT_INO 0xEFFFFFFBU
#define PROC_TIME_INIT_INO 0xEFFFFFFAU
#define PROC_DYNAMIC_FIRST 0xF0000000U

struct nsset;
struct ns_common;
struct user_namespace;

/* One kind of namespace, as /proc/PID/ns and setns see it. */
struct proc_ns_operations {
	const char *name;       /* "uts": the link's name and its text's prefix */
	int type;               /* its CLONE_NEW* flag */
	/* t's namespace of this kind, with a reference; NULL if t has none. */
	struct ns_common *(*get)(struct task *t);
	void (*put)(struct ns_common *ns);
	/* setns: put ns into nsset (whose nsproxy is the caller's new one).
	 * 0 or -errno. */
	int (*install)(struct nsset *nsset, struct ns_common *ns);
	/* ioctl(NS_GET_PARENT): the parent, with a reference, or ERR_PTR
	 * (EPERM: above the caller's own). NULL for kinds without parents. */
	struct ns_common *(*get_parent)(struct ns_common *ns);
	/* The user namespace that owns ns (for a user namespace, its parent;
	 * NULL for the initial one). No reference. */
	struct user_namespace *(*owner)(struct ns_common *ns);
};

struct ns_common {
	unsigned int inum;
	int count;
	const struct proc_ns_operations *ops;
};

struct uts_namespace;
struct mnt_namespace;
struct pid_namespace;
struct ipc_namespace;
struct net;
struct time_namespace;
struct cgroup_namespace;

struct nsproxy {
	int count;
	struct uts_namespace *uts_ns;
	struct ipc_namespace *ipc_ns;
	struct mnt_namespace *mnt_ns;
	struct pid_namespace *pid_ns_for_children;
	struct net *net_ns;
	struct time_namespace *time_ns;
	struct time_namespace *time_ns_for_children; /* unshare(CLONE_NEWTIME) makes it */
	struct cgroup_namespace *cgroup_ns;
};

/* What setns is changing: the caller's next nsproxy, fs_struct and
 * credentials (a copy when CLONE_NEWUSER is among the flags, else the
 * caller's own). The installs check their capabilities against cred's
 * user namespace, which a user namespace's install has already changed. */
struct cred;
struct nsset {
	unsigned flags;
	struct nsproxy *nsproxy;
	struct fs_struct *fs;
	struct cred *cred;
};

extern struct nsproxy init_nsproxy;

static inline struct nsproxy *get_nsproxy(struct nsproxy *ns)
{
	ns->count++;
	return ns;
}
void put_nsproxy(struct nsproxy *ns);

/* fork: the child's namespaces, new ones for flags' CLONE_NEW*, owned
 * by the child's user namespace (copy_creds made it first for
 * CLONE_NEWUSER); 0 or -errno (EPERM without CAP_SYS_ADMIN there). */
int copy_namespaces(uint64_t flags, struct task *child, struct task *parent);
/* Drop t's namespaces (exit). */
void exit_task_namespaces(struct task *t);

/* An inode number for a new namespace; 0 if none is left. */
unsigned int ns_alloc_inum(void);
void ns_free_inum(unsigned int inum);
/* The common part of a new namespace of this kind: its inode number, one
 * reference. 0, or -ENOSPC when no number is left. */
int ns_common_init(struct ns_common *ns, const struct proc_ns_operations *ops);

/* kernel/utsname.c */
extern struct uts_namespace init_uts_ns;
extern const struct proc_ns_operations utsns_operations;
struct uts_namespace *copy_utsname(uint64_t flags, struct user_namespace *user_ns,
				   struct uts_namespace *old);
void put_uts_ns(struct uts_namespace *ns);

/* ipc/namespace.c */
extern const struct proc_ns_operations ipcns_operations;
/* CLONE_NEWIPC: a new namespace, empty, with Linux's default limits;
 * else old with one more reference. ERR_PTR(-errno). */
struct ipc_namespace *copy_ipcs(uint64_t flags, struct user_namespace *user_ns,
			       struct ipc_namespace *old);
void put_ipc_ns(struct ipc_namespace *ns);

/* fs/namespace.c */
extern struct mnt_namespace init_mnt_ns;
extern const struct proc_ns_operations mntns_operations;
/* A copy of old's mount table for a new namespace; ERR_PTR(-errno). fs
 * (the new process's root and working directory) stays as it is: the
 * dentries are the same in the copy. */
struct mnt_namespace *copy_mnt_ns(uint64_t flags, struct user_namespace *user_ns,
				  struct mnt_namespace *old);
void put_mnt_ns(struct mnt_namespace *ns);

/* The user namespace that owns ns, with a reference, if it is the
 * caller's or below it; ERR_PTR(-EPERM) otherwise (NS_GET_USERNS,
 * NS_GET_PARENT of a user namespace). */
struct ns_common *ns_get_owner(struct ns_common *ns);

/* kernel/cgroup/namespace.c */
extern struct cgroup_namespace init_cgroup_ns;
extern const struct proc_ns_operations cgroupns_operations;
struct cgroup_namespace *copy_cgroup_ns(uint64_t flags, struct user_namespace *user_ns,
					struct cgroup_namespace *old);
void put_cgroup_ns(struct cgroup_namespace *ns);

/* fs/nsfs.c: the file behind /proc/PID/ns/X, holding a reference on ns;
 * ERR_PTR on failure. */
struct dentry;
struct file;
struct dentry *ns_get_dentry(struct ns_common *ns);
/* The namespace of an nsfs file, or NULL if file is none. */
struct ns_common *nsfs_file_ns(struct file *file);
/* "uts:[4026531838]" into buf. */
void ns_link_text(const struct ns_common *ns, char *buf, size_t size);
