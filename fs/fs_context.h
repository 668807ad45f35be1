/*
 * fs_context.h - a filesystem being set up (Linux's struct fs_context):
 * what fsopen(2) returns a descriptor for, fsconfig(2) fills in, and
 * fsmount(2) turns into a mount (fs/fsopen.c); fspick(2) opens one on a
 * mounted filesystem to reconfigure it. mount(2) reads proc's options
 * with the same parser (fs/fs_context.c).
 *
 * Parameters are checked as they are given, each by its filesystem type
 * (proc: gid, hidepid, subset; tmpfs: size, nr_blocks, nr_inodes, mode,
 * uid, gid, huge, mpol, inode32, inode64; ramfs: mode, the rest ignored),
 * after the words every type takes (ro, rw, sync, ...) and "source". A
 * refusal is EINVAL with a message kept for read(2) on the descriptor:
 * "e proc: Bad value for 'hidepid'\n" (the last eight are kept).
 *
 * Locking: one CPU, no preemption; a context is changed only by system
 * calls on its descriptor, none of which sleeps while changing it.
 */
#pragma once
#include "vfs.h"

/* A parameter that is not this parser's (kernel-internal, as Linux). */
#define ENOPARAM 519

enum fs_context_phase {
	FS_CONTEXT_CREATE_PARAMS,   /* fsopen: taking parameters */
	FS_CONTEXT_AWAITING_MOUNT,  /* FSCONFIG_CMD_CREATE done: a super block */
	FS_CONTEXT_RECONF_PARAMS,   /* fspick: parameters for a reconfigure */
	FS_CONTEXT_FAILED,          /* a create or reconfigure failed: no use */
};

/* What a fsconfig parameter holds (Linux's fs_value_type). */
enum fs_value_type { FS_VALUE_FLAG, FS_VALUE_STRING, FS_VALUE_BLOB, FS_VALUE_PATH, FS_VALUE_FD };

struct fs_parameter {
	const char *key;
	enum fs_value_type type;
	char *string;               /* FS_VALUE_STRING (a NUL-terminated copy) */
	size_t size;
};

/* A proc mount's own (Linux's proc_fs_info): the super block's s_fs_info.
 * The pid namespace it shows (its mounter's, held) and its options. */
struct pid_namespace;
struct proc_fs_info {
	struct pid_namespace *pid_ns;
	int hide_pid;               /* HIDEPID_* */
	uint32_t pid_gid;           /* gid=: a group that sees every process */
	bool pidonly;               /* subset=pid: only the process directories */
};
#define HIDEPID_OFF 0
#define HIDEPID_NO_ACCESS 1
#define HIDEPID_INVISIBLE 2
#define HIDEPID_NOT_PTRACEABLE 4

#define PROC_SET_GID 1
#define PROC_SET_HIDEPID 2
#define PROC_SET_SUBSET 4

#define FC_LOG_SIZE 8

struct fs_context {
	char *fs_name;              /* "proc", "tmpfs", ... */
	struct file_system_type *fs_type; /* a registered type's (held), else NULL */
	enum fs_context_phase phase;
	char *source;
	unsigned long sb_flags, sb_flags_mask; /* MS_RDONLY, ... set or cleared */
	/* tmpfs, ramfs: the root's mode, owner, group, if given */
	bool mode_set, uid_set, gid_set;
	unsigned int mode;
	uint32_t uid, gid;
	struct proc_fs_info proc;
	unsigned int proc_set;      /* PROC_SET_*: which of proc's were given */
	struct super_block *sb;     /* made by CMD_CREATE, until fsmount */
	/* What CMD_RECONFIGURE changes (fspick's, or after fsmount): its
	 * root inode, held (a dentry would keep umount busy). */
	struct inode *reconf_root;
	char *log[FC_LOG_SIZE];     /* messages for read(2), oldest at tail */
	uint8_t head, tail;
};

/* fs/fs_context.c */
/* A context for a new filesystem of type name: ERR_PTR(-ENODEV) if no
 * such type, -ENOMEM. */
struct fs_context *fs_context_for_mount(const char *name);
void put_fs_context(struct fs_context *fc);
/* fspick: a context to reconfigure the filesystem whose root is root:
 * ERR_PTR(-ENOMEM). */
struct fs_context *fs_context_for_reconfigure(struct dentry *root);
/* After a reconfigure: the parameters forgotten, for the next. */
void vfs_clean_context(struct fs_context *fc);
/* Keep a message for read(2): level 'e', 'w' or 'i'; prefix may be NULL. */
void fc_log(struct fs_context *fc, char level, const char *prefix, const char *fmt, ...);
/* One parameter: 0, or -EINVAL (a message logged). */
int vfs_parse_fs_param(struct fs_context *fc, struct fs_parameter *param);
/* mount(2)'s data "a=b,c" for a context: each word a parameter. */
int parse_monolithic_mount_data(struct fs_context *fc, char *data);

/* fs/namespace.c */
/* CMD_CREATE: the super block of fc (fc->sb); 0 or -errno. */
int vfs_get_tree(struct fs_context *fc);
/* Drop the super block a context holds (when it was never mounted, the
 * filesystem goes). */
void fc_drop_sb(struct fs_context *fc);
/* fsmount: a mount of fc's super block attached nowhere; its root,
 * held. ERR_PTR(-errno). */
struct dentry *mount_detached(struct fs_context *fc, unsigned long mnt_flags);
/* CMD_RECONFIGURE: what the context's parameters change (ro, rw, proc's
 * options). 0 or -EINVAL. */
int reconfigure_super(struct fs_context *fc);
/* Is d the root of a mount (the caller's, or fsmount's not attached)? */
bool is_mount_root(struct dentry *d);
/* open_tree(OPEN_TREE_CLONE): a detached copy of the mount whose root is
 * root (its root, held); ERR_PTR(-EINVAL) for another directory (bind
 * mounts are not here) or a ramfs or tmpfs, -ENOMEM. */
struct dentry *clone_mount_detached(struct dentry *root);
/* The last close of fsmount's descriptor: a mount never attached goes. */
void drop_detached_mount(struct dentry *root);
/* move_mount(2), mount(2)'s MS_MOVE: the mount whose root is from (in the
 * caller's table, or fsmount's) onto target. 0 or -errno. */
long do_move_mount(struct dentry *from, struct dentry *target);
/* The proc_fs_info of a proc super block (NULL for another one). */
struct proc_fs_info *proc_sb_info(struct super_block *sb);
