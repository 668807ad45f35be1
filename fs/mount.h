/*
 * mount.h - what fs/namespace.c and fs/namespace_move.c share (Linux's
 * fs/mount.h): struct mount, the mount table of a namespace, and the
 * helpers that put a mount in the tree and take it out.
 *
 * Locking: one CPU, no preemption; a table changes only in the system
 * calls of a task of its namespace (mount, umount2, move_mount, unshare),
 * none of which sleeps while changing it.
 */
#pragma once
#include "vfs.h"
#include <nsproxy.h>

/* mount(2) flags (include/uapi/linux/mount.h). */
#define MS_RDONLY 1
#define MS_NOSUID 2
#define MS_NODEV 4
#define MS_NOEXEC 8
#define MS_SYNCHRONOUS 16
#define MS_REMOUNT 32
#define MS_MANDLOCK 64
#define MS_NOATIME 1024
#define MS_NODIRATIME 2048
#define MS_BIND 4096
#define MS_MOVE 8192
#define MS_REC 16384
#define MS_SILENT 32768
#define MS_UNBINDABLE (1 << 17)
#define MS_PRIVATE (1 << 18)
#define MS_SLAVE (1 << 19)
#define MS_SHARED (1 << 20)
#define MS_RELATIME (1 << 21)
#define MS_STRICTATIME (1 << 24)
#define MS_MGC_VAL 0xC0ED0000UL
#define MS_MGC_MSK 0xffff0000UL
#define MS_PROPAGATION (MS_SHARED | MS_SLAVE | MS_UNBINDABLE | MS_PRIVATE)
/* The per-mount flags we keep and show. */
#define MNT_FLAGS (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME | MS_NODIRATIME | MS_RELATIME)

struct mount {
	struct mount *next;
	struct super_block *sb;
	struct dentry *root;            /* what it shows (held): sb->s_root, or an alias */
	struct dentry *mountpoint;      /* the covered directory (held); NULL for "/" */
	char *devname;                  /* the source as given ("proc", "none") */
	unsigned long flags;            /* MNT_FLAGS bits */
	bool locked;                    /* copied into a namespace of a less
					 * privileged owner: not to be unmounted
					 * alone (Linux's MNT_LOCKED) */
};

/* A mount namespace: its own table of mounts (include/nsproxy.h). */
struct mnt_namespace {
	struct ns_common ns;
	struct mount *mounts;           /* in the order of mounting, "/" first */
	struct user_namespace *user_ns; /* its owner (a reference) */
};

/* The caller's namespace, and its table. */
struct mnt_namespace *current_mnt_ns(void);
#define mount_list (current_mnt_ns()->mounts)
/* The mount whose root is the dentry root in the caller's table, or NULL. */
struct mount *find_mount(struct dentry *root);
/* Count mnt on its mount point and root (the table is the caller's business). */
void attach_mount(struct mount *mnt);
/* Free mnt, in no table any more; the last mount of its filesystem takes
 * the filesystem apart (kill_super). */
void drop_mount(struct mount *mnt);
void kill_super(struct super_block *sb);
/* One more root dentry for the root of sb, for one more mount of it. */
struct dentry *d_alloc_root_alias(struct super_block *sb);
