/*
 * internal.h - what the files of procfs (fs/proc/) share.
 *
 *   root.c  the filesystem: the registry of fixed files (proc_create),
 *           seq_file, inodes, the root directory, mounting.
 *   base.c  /proc/PID/... and /proc/self, made from the task list.
 *   task_mmu.c  /proc/PID/maps, smaps, smaps_rollup: the memory areas.
 *   misc.c  the fixed files: meminfo, uptime, cpuinfo, sysrq-trigger...
 *
 * Nothing in /proc is stored. The fixed files are entries of a registry
 * (a tree of struct proc_dir_entry); a lookup in /proc makes an inode for
 * the entry and links a dentry for it into the tree, so that later lookups
 * find it at once and something can be mounted on it. The per-process
 * files change as processes come and go: their dentries are "detached"
 * (DCACHE_DETACHED, never linked in), made by every lookup and freed with
 * their last user, and each access looks the process up again by pid.
 */
#pragma once
#include "../fs_context.h" /* proc_fs_info: hidepid=, subset= */
#include "../vfs.h"
#include <linux/pid_namespace.h>
#include <proc_fs.h>

struct task;

struct proc_dir_entry {
	char *name;
	size_t namelen;
	mode_t mode;                    /* S_IFREG, S_IFDIR or S_IFLNK, and permissions */
	ino_t ino;
	proc_show_t show;               /* files */
	proc_write_t write;
	loff_t size;                    /* files: what stat reports */
	char *link;                     /* symlinks: the target */
	struct proc_dir_entry *parent;
	struct proc_dir_entry *first_child, *last_child, *next;
};

/* A per-process entry (/proc/PID/status, ...): see base.c. */
struct pid_entry;

/* What a /proc inode stands for (inode->i_private). */
struct proc_inode {
	const struct proc_dir_entry *pde;       /* a registered entry, or NULL */
	const struct pid_entry *pent;           /* a per-process file, or NULL */
	pid_t pid;                              /* per-process inodes: whose */
	uint64_t serial;                        /* ... and that task's serial, */
						/* so a reused pid is not taken for it */
	int fd;                                 /* /proc/PID/fd/N, fdinfo/N: N */
	uint64_t vm_start, vm_end;              /* map_files/START-END, or 0 */
	bool thread;                            /* under /proc/PID/task/TID: one thread's view */
	char *link;                             /* a symlink's target, made at lookup */
	const struct proc_ns_operations *ns_ops; /* /proc/PID/ns/X: which kind */
	const struct proc_net_entry *net_entry; /* /proc/PID/net/X: which file */
};

static inline struct proc_inode *PROC_I(struct inode *inode) { return inode->i_private; }
/* /proc/PID/mem (mem.c). */
extern const struct file_operations proc_mem_fops;
/* id_map.c: /proc/PID/uid_map, gid_map, setgroups */
extern const struct file_operations proc_uid_map_fops, proc_gid_map_fops, proc_setgroups_fops;

#define PROC_ROOT_INO 1
/* Readdir positions in /proc: the registered entries from DIR_POS_FIRST,
 * then "self", "thread-self", then one per process. */
#define PROC_SELF_POS 0x10000
#define PROC_THREAD_SELF_POS 0x10001
#define PROC_PID_POS 0x10002

/* A new inode on sb (uid/gid root); NULL if out of memory. Directories get
 * the directory operations, symlinks the link operations; for files the
 * caller sets i_fop. */
struct inode *proc_new_inode(struct super_block *sb, mode_t mode, ino_t ino);
/* A dentry for inode that stays out of parent's children (see above). */
struct dentry *proc_detached_dentry(struct dentry *parent, const char *name, size_t len,
				    struct inode *inode);

/* Frees an inode's proc_inode: every /proc inode's evict. */
void proc_evict(struct inode *inode);
/* The file operations of every /proc file: the text comes from proc_show. */
extern const struct file_operations proc_file_fops;
extern const struct inode_operations proc_link_iops;
/* Run the show function behind a /proc file's inode into m. */
int proc_show(struct inode *inode, struct seq_file *m);
/* Pass the bytes of a write to the file's write function. */
int proc_write(struct inode *inode, const char *buf, size_t count);

/* base.c */
/* The inode number of entry idx of process pid's directory. */
static inline ino_t pid_ino(pid_t pid, unsigned int idx) { return ((ino_t)pid << 16) | idx; }
/* The task behind a per-process inode, or NULL once it is reaped. */
struct task *inode_task(struct inode *inode);
/* An inode for something of task t, owned as Linux's task_dump_owner says. */
struct inode *pid_inode(struct super_block *sb, struct task *t, mode_t mode, ino_t ino);
struct dentry *proc_pid_lookup(struct dentry *parent, const char *name, size_t len);
/* Emit "self" and the processes from ctx->pos (>= PROC_SELF_POS). */
void proc_pid_readdir(struct super_block *sb, struct dir_context *ctx);
/* A proc mount's pid namespace (its mounter's) and whether it shows only
 * the processes ("subset=pid"): its struct proc_fs_info (fs/fs_context.h). */
struct pid_namespace *proc_pid_ns(struct super_block *sb);
bool proc_pid_only(struct super_block *sb);
/* 0, or why the file may not be opened (-EACCES, -ESRCH). */
int proc_pid_open(struct inode *inode);
int proc_pid_show(struct inode *inode, struct seq_file *m);
int proc_pid_write(struct inode *inode, const char *buf, size_t count);
/* Where a symlink points, relative to the reader's root ("/dev/console",
 * "pipe:[5]", "/bin/sh (deleted)"), written at the end of buf. */
char *proc_file_path(struct file *file, char *buf, size_t size);
char *proc_dentry_path(struct dentry *d, char *buf, size_t size);

/* task_mmu.c: /proc/PID/maps, smaps and smaps_rollup of t's memory, in
 * Linux's format (nothing for a task without memory). */
int show_maps(struct seq_file *m, struct task *t);
int show_smaps(struct seq_file *m, struct task *t);
int show_smaps_rollup(struct seq_file *m, struct task *t);

/* namespaces.c: /proc/PID/ns */
extern const struct inode_operations proc_ns_dir_iops;
extern const struct file_operations proc_ns_dir_fops;

/* proc_net.c: /proc/PID/net */
extern const struct inode_operations proc_net_dir_iops;
extern const struct file_operations proc_net_dir_fops;
int proc_net_show(struct inode *inode, struct seq_file *m);

/* misc.c */
void proc_misc_init(void);

/* t's mount table, for /proc/PID/mounts (fs/namespace.c): paths as seen
 * from t's root; -ENOENT once t has exited. */
int show_mounts(struct seq_file *m, struct task *t);
