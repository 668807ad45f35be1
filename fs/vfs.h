/*
 * vfs.h - the inside of the virtual filesystem, shared by the files of fs/.
 *
 * The rest of the kernel sees only include/fs.h. Here are the objects a
 * filesystem works with, named as in Linux so that a description of Linux's
 * VFS maps onto this code:
 *
 *   super_block  one mounted filesystem (its root dentry, its inode numbers).
 *   inode        one file: type, mode, owner, size, times, and its data.
 *                A filesystem's inode_operations create and remove names;
 *                its file_operations become the operations of an open file.
 *   dentry       one name in a directory: it points to its inode and to its
 *                parent dentry, so a path can be walked down (lookup) and
 *                up (getcwd, ".."). The in-memory filesystem keeps its whole
 *                directory tree as dentries: a directory's children are the
 *                directory.
 *   file         one open file: an offset, the open flags and the operations,
 *                shared by every descriptor that dup() or fork() made from it.
 *
 * Reference counting (all counts are plain ints: one CPU, and the kernel is
 * not preempted, so only the tty's interrupt handler runs concurrently):
 *   - a dentry holds a reference on its inode and on its parent dentry;
 *   - a directory holds one reference on each child while the child is
 *     linked in it ("pinned"): unlink and rmdir drop it;
 *   - an open file, a working directory and a root hold dentry references.
 * An inode is freed when nothing refers to it and its link count is 0, so a
 * file removed while open lives on until its last close, as in Unix.
 *
 * Mounts: d_mounted(d) is the root of the filesystem that covers d in the
 * caller's mount namespace; d_covers(root) points back. Path lookup and
 * getcwd cross these links; mount(2) makes them (fs/namespace.c).
 *
 * Filesystems: ramfs.c (the root, and "ramfs"/"tmpfs" mounts), proc_*.c
 * (procfs), pipe.c (pipefs, the inodes of pipes). Open files that can make
 * a reader or writer wait (pipes, the tty) also answer ->poll (select.c).
 */
#pragma once
#include <cred.h>
#include <errno.h>
#include <fs.h>
#include <radix_tree.h>
#include <spinlock.h>
#include <string.h>
#include <timekeeping.h>

struct dentry;
struct dir_context;
struct iov_iter;
struct kstat;

/* ---- super blocks ---------------------------------------------------- */

struct super_block {
	dev_t s_dev;            /* st_dev of every inode on it */
	ino_t s_next_ino;       /* next inode number to hand out */
	struct dentry *s_root;
	const char *s_type;     /* "rootfs", "ramfs", "tmpfs", "proc", "pipefs" */
	unsigned long s_magic;  /* statfs's f_type: RAMFS_MAGIC, ... */
	unsigned long s_flags;  /* SB_RDONLY, ... as first mounted (mount(2)'s MS_* values) */
	/*
	 * Inodes of pipefs and proc exist only while something uses them:
	 * they are freed at their last reference whatever i_nlink says
	 * (Linux's generic_delete_inode), instead of living on while named.
	 */
	bool s_drop_unused;
	/* Inodes alive on this super block. An unmounted filesystem is freed
	 * with its last inode: an open file can outlive umount -l. */
	int s_inodes;
	int s_active;           /* its mounts (fs/namespace.c): the last takes it apart */
	bool s_unmounted;
	uint64_t s_pages;       /* pages of file data (ramfs, tmpfs), for statfs */
	void *s_fs_info;        /* the filesystem's own data */
	/* Frees s_fs_info with the super block; NULL: kfree (proc: drops
	 * its pid namespace). */
	void (*s_free_fs_info)(struct super_block *sb);
	/* A registered type's (mounted through get_fs_type): put_super drops
	 * its module reference with the super block. NULL for the others. */
	struct file_system_type *s_fs_type;
};

/* statfs f_type values (Linux's include/uapi/linux/magic.h). */
#define RAMFS_MAGIC 0x858458f6
#define TMPFS_MAGIC 0x01021994
#define PROC_SUPER_MAGIC 0x9fa0
#define PIPEFS_MAGIC 0x50495045
#define ANON_INODE_FS_MAGIC 0x09041934
#define BINFMTFS_MAGIC 0x42494e4d

#define SB_RDONLY 1             /* read-only: writes give EROFS */
#define SB_NOSUID 2             /* set-user-ID and set-group-ID bits do nothing */
#define SB_NOEXEC 8             /* no program runs from it (EACCES) */

/* A filesystem type that mount(2) finds by name (fs/super.c). */
struct file_system_type {
	const char *name;                       /* "binfmt_misc" */
	/* The super block to mount: a new one, or (a type that has only
	 * one, as Linux's get_tree_single) the one already mounted; NULL:
	 * out of memory. */
	struct super_block *(*mount)(void);
	/* Optional: its last mount is gone, the super block is taken apart
	 * (fs/namespace.c): let go of what the filesystem keeps in it. */
	void (*kill_sb)(struct super_block *sb);
	/* The module it is in (THIS_MODULE), NULL if built in: each super
	 * block of the type holds a reference on it until it is freed, so
	 * the module cannot be unloaded while the filesystem is mounted. */
	struct module *owner;
	struct file_system_type *next;
};
/* 0, or -EBUSY if a type of that name exists. */
int register_filesystem(struct file_system_type *fs);
/* 0, or -EINVAL if it was not registered. */
int unregister_filesystem(struct file_system_type *fs);
/*
 * The type called name, with a reference on its module (put_filesystem),
 * or NULL (ENODEV). If none is registered, the kernel asks for the module
 * "fs-NAME" (request_module, kernel/kmod.c: modprobe finds it through its
 * MODULE_ALIAS_FS) and looks again, as Linux does.
 */
struct file_system_type *get_fs_type(const char *name);
void put_filesystem(struct file_system_type *fs);
/* The super block of a registered type to mount: get_fs_type's reference
 * goes with a new one (put_super gives it back) and is dropped for one
 * that is already there. NULL: out of memory. */
struct super_block *mount_fs_type(struct file_system_type *fs);
struct seq_file;
/* "nodev\tNAME\n" for each, for /proc/filesystems. */
void show_registered_filesystems(struct seq_file *m);

/* -EROFS if inode is on a read-only filesystem and is a file, directory or
 * symlink (devices and FIFOs can still be written), else 0. */
int may_write_sb(struct inode *inode);

/* A new anonymous device number 0:N for a filesystem with no disk: the
 * lowest free N, as Linux's IDA gives; put_super frees it with the sb. */
dev_t get_anon_dev(void);
/* Drop an inode's hold on its super block (inode.c calls it). */
void put_super(struct super_block *sb);

/* ---- inodes ---------------------------------------------------------- */

struct inode_operations {
	/*
	 * Directory operations. The VFS has already checked permissions and
	 * that the name does not exist (or, for rename, what may be replaced).
	 * dentry is a new, unlinked dentry carrying the name; on success the
	 * filesystem links it into the directory (d_add) with its new inode.
	 */
	int (*create)(struct inode *dir, struct dentry *dentry, mode_t mode, dev_t rdev);
	int (*symlink)(struct inode *dir, struct dentry *dentry, const char *target);
	int (*link)(struct dentry *old, struct inode *dir, struct dentry *dentry);
	int (*unlink)(struct inode *dir, struct dentry *dentry);
	int (*rmdir)(struct inode *dir, struct dentry *dentry);
	/* Move old_dentry to new_dir under new_dentry's name; a target that
	 * exists (new_dentry linked) is replaced. */
	int (*rename)(struct inode *old_dir, struct dentry *old_dentry,
		      struct inode *new_dir, struct dentry *new_dentry);
	/*
	 * For filesystems whose names are not all kept as dentries (procfs):
	 * called when a name is not among dir's children. Returns a new
	 * unlinked dentry (reference held by the caller), NULL if the name does
	 * not exist, or ERR_PTR. The in-memory filesystem leaves it NULL.
	 */
	struct dentry *(*lookup)(struct inode *dir, struct dentry *parent,
				 const char *name, size_t len);
	/* Symlinks: the target, a NUL-terminated string owned by the inode,
	 * or ERR_PTR (readlink and the walk fail with it). */
	const char *(*get_link)(struct inode *inode);
	/*
	 * Linux's "magic" links (/proc/PID/fd/N, exe, cwd, root): the walk
	 * goes on from the dentry this returns (a reference for the caller)
	 * instead of from the text, so the link reaches the very file, even
	 * one that has no name any more. NULL: follow the text after all;
	 * ERR_PTR: the walk fails with it.
	 */
	struct dentry *(*get_link_dentry)(struct inode *inode);
	/* Rules of the filesystem's own (Linux's ->permission); NULL:
	 * generic_permission. mask is MAY_*. */
	int (*permission)(struct inode *inode, int mask);
	/* Change the size: free data past it, zero-fill when growing. */
	int (*truncate)(struct inode *inode, loff_t size);
	/* The inode is being freed: release its data. */
	void (*evict)(struct inode *inode);
};

struct inode {
	ino_t i_ino;
	mode_t i_mode;          /* type and permission bits, as st_mode */
	uid_t i_uid;
	gid_t i_gid;
	unsigned int i_nlink;   /* names that refer to it (directories: 2 + subdirs) */
	loff_t i_size;
	dev_t i_rdev;           /* device number of a device node */
	uint64_t i_blocks;      /* 512-byte units in use */
	struct timespec i_atime, i_mtime, i_ctime;
	int i_count;            /* references: dentries, pipes */
	int i_writecount;       /* >0: open for writing; <0: being executed */
	struct super_block *i_sb;
	const struct inode_operations *i_op;
	const struct file_operations *i_fop; /* given to each file opened on it */

	/* The in-memory filesystem's storage. */
	/* regular file: page i holds bytes [i*4096, ...); a missing page
	 * reads as zeros (a hole) */
	struct radix_tree_root i_pages;
	/* Guards i_pages against a page fault that looks a page up without
	 * the big kernel lock (find_get_page): held to add or remove a page,
	 * and by that lookup. Lookups under the big lock need it not, as
	 * every change holds the big lock too. Order: mmap_lock >
	 * page_table_lock (fault-around) > i_pages_lock; nothing is taken
	 * inside it but kmalloc's and the page allocator's locks. */
	spinlock_t i_pages_lock;
	char *i_link;           /* symlink target */
	/* A tmpfs regular file's seals (F_SEAL_*: include/memfd.h):
	 * F_SEAL_SEAL from the start, but for a sealable memfd. */
	unsigned int i_seals;
	void *i_private;        /* for other filesystems and devices */
};

struct inode *new_inode(struct super_block *sb, mode_t mode);
struct inode *igrab(struct inode *inode);
void iput(struct inode *inode);
/* The mode bits and the capabilities that override them, for current's
 * credentials (inode_permission adds the read-only filesystem check). */
int generic_permission(struct inode *inode, int mask);
/* Time stamps: "now", and the usual combinations. */
void inode_now(struct timespec *ts);
void inode_touch_ctime(struct inode *inode);          /* ctime = now */
void inode_touch_mtime(struct inode *inode);          /* mtime = ctime = now */
void inode_inc_link_count(struct inode *inode);
void inode_dec_link_count(struct inode *inode);
/* Linux's fs/stat.c result, before it is laid out for user space. */
struct kstat {
	dev_t dev;
	ino_t ino;
	mode_t mode;
	unsigned int nlink;
	uid_t uid;
	gid_t gid;
	dev_t rdev;
	loff_t size;
	uint64_t blocks;
	struct timespec atime, mtime, ctime;
};
void generic_fillattr(struct inode *inode, struct kstat *stat);
/* The caller is the file's owner or has CAP_FOWNER: for chmod and times. */
bool inode_owner_or_capable(struct inode *inode);
/* A write or truncate by someone without CAP_FSETID drops the file's
 * set-user-ID bit, and its set-group-ID bit if the group may execute it. */
void inode_kill_suid(struct inode *inode);
/* readdir of a directory whose names are all its linked dentries (ramfs,
 * tmpfs, mqueue; Linux's dcache_readdir, fs/ramfs.c): ".", "..", then the
 * children in creation order. */
int dcache_readdir(struct file *file, struct dir_context *ctx);
/*
 * RLIMIT_FSIZE, the largest file a process may make (Linux's
 * generic_write_check_limits and inode_newsize_ok): a write to a regular
 * file at pos is cut to end at the limit, and one that starts at or past
 * it, or a truncate or fallocate that would grow the file past it, sends
 * SIGXFSZ and fails with EFBIG. 0 or -EFBIG.
 */
int file_write_limit(loff_t pos, size_t *count);
int inode_newsize_ok(struct inode *inode, loff_t size);
/* i_writecount for a file opened for writing. 0 or -ETXTBSY. */
int get_write_access(struct inode *inode);
void put_write_access(struct inode *inode);

/* ---- dentries -------------------------------------------------------- */

#define DCACHE_LINKED 0x1       /* in its parent's list of children */
/* Made by a filesystem's ->lookup (procfs, binfmt_misc): in no list of
 * children, but not a removed name either (d_unlinked is false), unless
 * its inode has lost its last link (a removed binfmt_misc entry). */
#define DCACHE_DETACHED 0x2

struct dentry {
	int d_count;
	unsigned int d_flags;
	struct inode *d_inode;
	struct dentry *d_parent;        /* itself for a filesystem's root */
	struct super_block *d_sb;
	/* A directory's children, in the order they were added. */
	struct dentry *d_first_child, *d_last_child;
	struct dentry *d_prev, *d_next; /* siblings */
	/* Its chain in the name hash (fs/dcache.c), while linked. */
	struct dentry *d_hash_next, **d_hash_pprev;
	/* Position in the parent for readdir: grows with every child added, so
	 * an offset stays meaningful while entries come and go. */
	uint64_t d_pos;
	uint64_t d_next_pos;            /* next position for a new child */
	unsigned int d_nr_children;
	/* Mounts on it, and mounts whose root it is, in all mount
	 * namespaces: a quick "no" for the questions below. */
	unsigned int d_mounts;
	unsigned int d_mount_roots;
	unsigned int d_hash;            /* of its parent and name */
	size_t d_namelen;
	char *d_name;                   /* kmalloc'd, NUL-terminated */
};

/* In current's mount namespace (fs/namespace.c): the root of what is
 * mounted on d, or NULL; the directory the mount root d covers, or NULL. */
struct dentry *d_mounted(const struct dentry *d);
struct dentry *d_covers(const struct dentry *root);
/* Is current's root other than its mount namespace's "/"? (fs/namespace.c) */
bool current_chrooted(void);

/* First readdir position of a child; 0 and 1 are "." and "..". */
#define DIR_POS_FIRST 2

/* The flags of the mount that d is seen through (MS_RDONLY, MS_NOSUID,
 * MS_NOEXEC, ...: SB_* values; fs/namespace.c). */
unsigned long mnt_flags(const struct dentry *d);

/* Mounted noexec: exec of a file there gives EACCES (Linux's path_noexec). */
static inline bool path_noexec(const struct dentry *d)
{
	return d->d_sb && (mnt_flags(d) & SB_NOEXEC);
}

/* An unlinked dentry called name in parent (reference taken on parent). */
struct dentry *d_alloc(struct dentry *parent, const char *name, size_t len);
/* A filesystem's root dentry for inode (takes over the inode reference). */
struct dentry *d_make_root(struct inode *inode);
/* Give dentry its inode (takes over the reference) and link it into its
 * parent; the directory's reference on the child is taken here. */
void d_add(struct dentry *dentry, struct inode *inode);
/* Unlink from the parent and drop the directory's reference. */
void d_delete(struct dentry *dentry);
/* Move a linked dentry to another parent and/or name. 0 or -ENOMEM. */
int d_move(struct dentry *dentry, struct dentry *new_parent, const char *name, size_t len);
struct dentry *dget(struct dentry *dentry);
void dput(struct dentry *dentry);
/* The child of dir called name, with a reference, or NULL. */
struct dentry *d_lookup(struct dentry *dir, const char *name, size_t len);
/* The same without a reference: the caller holds the big kernel lock, or
 * read-holds dcache_lock (dcache_read_lock, which turns interrupts off and
 * returns the flags for dcache_read_unlock). */
struct dentry *__d_lookup(struct dentry *dir, const char *name, size_t len);
uint64_t dcache_read_lock(void);
void dcache_read_unlock(uint64_t flags);
/* Take a reference unless the last one is gone (the dentry is being
 * freed): for a walk that holds none. */
bool dget_unless_zero(struct dentry *dentry);
static inline bool d_unlinked(const struct dentry *d)
{
	if (d->d_flags & DCACHE_DETACHED)
		return d->d_inode && d->d_inode->i_nlink == 0;
	return d->d_parent != d && !(d->d_flags & DCACHE_LINKED);
}
/* Whether d is anc or lies below it. */
bool is_subdir(struct dentry *d, struct dentry *anc);
/*
 * The path of d as seen from root, written at the end of buf[0..size).
 * Returns a pointer into buf, or ERR_PTR(-ENAMETOOLONG). An unlinked
 * dentry gives ERR_PTR(-ENOENT) (getcwd's answer for a removed directory).
 */
char *d_path(struct dentry *d, struct dentry *root, char *buf, size_t size);

/* ---- open files ------------------------------------------------------ */

/* f_mode bits, as Linux's FMODE_*. */
#define FMODE_READ 0x1
#define FMODE_WRITE 0x2
#define FMODE_LSEEK 0x4
#define FMODE_PREAD 0x8
#define FMODE_PWRITE 0x10
#define FMODE_EXEC 0x20
#define FMODE_PATH 0x40         /* O_PATH: a handle on the name, no I/O */

/* A user or kernel buffer list: the source or destination of read/write. */
struct iovec {
	void __user *iov_base;
	size_t iov_len;
};
struct iov_iter {
	bool user;              /* iov_base are user addresses */
	const struct iovec *iov;
	unsigned long nr_segs;
	size_t iov_offset;      /* bytes done in iov[0] */
	size_t count;           /* bytes left in total */
};
void iov_iter_init(struct iov_iter *i, bool user, const struct iovec *iov,
		   unsigned long nr_segs, size_t count);
/* Copy in or out and advance. Returns the bytes moved: short if a user
 * page faulted (the caller answers -EFAULT if nothing moved). */
size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i);
size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i);
size_t iov_iter_zero(size_t n, struct iov_iter *i);

/* readdir: the filesystem calls dir_emit for each entry. */
typedef bool (*filldir_t)(struct dir_context *ctx, const char *name, size_t len,
			  ino_t ino, unsigned int type);
struct dir_context {
	filldir_t actor;
	loff_t pos;             /* the filesystem's position; stored in f_pos */
};
/* Hands one entry to the reader; false when its buffer is full. The
 * filesystem sets ctx->pos past the entry only when this returns true. */
static inline bool dir_emit(struct dir_context *ctx, const char *name, size_t len,
			    ino_t ino, unsigned int type)
{
	return ctx->actor(ctx, name, len, ino, type);
}
/* d_type values. */
#define DT_UNKNOWN 0
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_BLK 6
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12

/*
 * "." (position 0) and ".." (position 1), the first two entries of every
 * directory, with the inode numbers given; ctx->pos then is DIR_POS_FIRST.
 * false when the reader's buffer is full.
 */
static inline bool dir_emit_dots(struct dir_context *ctx, ino_t self, ino_t parent)
{
	if (ctx->pos == 0) {
		if (!dir_emit(ctx, ".", 1, self, DT_DIR))
			return false;
		ctx->pos = 1;
	}
	if (ctx->pos == 1) {
		if (!dir_emit(ctx, "..", 2, parent, DT_DIR))
			return false;
		ctx->pos = DIR_POS_FIRST;
	}
	return true;
}

static inline unsigned int mode_to_dt(mode_t mode) { return (mode >> 12) & 15; }

struct file_operations {
	/* Called by open with the new file; may replace f_op (char devices). */
	int (*open)(struct inode *inode, struct file *file);
	/* The last reference to the file is gone. */
	void (*release)(struct inode *inode, struct file *file);
	/* Optional: a descriptor of the file is closed, by close, dup2, exec
	 * or exit (Linux's ->flush, from filp_close): a POSIX message queue's
	 * notification goes with the closer's descriptor. */
	void (*flush)(struct file *file);
	ssize_t (*read)(struct file *file, struct iov_iter *to, loff_t *pos);
	ssize_t (*write)(struct file *file, struct iov_iter *from, loff_t *pos);
	/* NULL: the file cannot seek (ESPIPE). */
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	long (*ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	int (*iterate)(struct file *file, struct dir_context *ctx);
	/*
	 * Which of POLLIN, POLLOUT, POLLHUP, POLLERR ... (include/poll.h) hold
	 * now. Called with interrupts off by poll and select, so it must not
	 * sleep. A file that may become ready later must wake its waiters
	 * with poll_wakeup(). NULL: always readable and writable.
	 */
	unsigned int (*poll)(struct file *file);
	/* fallocate(2) after the generic checks (fs/open.c); NULL: EOPNOTSUPP. */
	long (*fallocate)(struct file *file, int mode, loff_t offset, loff_t len);
	/* Optional: the file's own lines of /proc/PID/fdinfo/N, after the
	 * common ones (fs/proc/fdinfo.c). */
	void (*show_fdinfo)(struct seq_file *m, struct file *file);
	/* mmap gives anonymous memory, as if MAP_ANONYMOUS (/dev/zero's
	 * mmap_zero in Linux); other files but ramfs and tmpfs ones cannot
	 * be mapped (ENODEV). */
	bool mmap_anonymous;
};
#define FALLOC_FL_KEEP_SIZE 0x01
#define FALLOC_FL_PUNCH_HOLE 0x02
/* Every mode bit Linux knows (FALLOC_FL_SUPPORTED_MASK). */
#define FALLOC_FL_KNOWN 0x7f

struct file {
	int f_count;
	unsigned int f_flags;   /* O_* as given to open (status flags) */
	unsigned int f_mode;    /* FMODE_* */
	loff_t f_pos;
	struct dentry *f_dentry; /* NULL for files with no name (pipes) */
	struct inode *f_inode;
	const struct file_operations *f_op;
	void *private_data;
	unsigned long f_version; /* for the file's own use (FIFOs: writers seen at open) */
	/* A file of anon_inodefs (fs/anon_inodes.c): what it is, "[pidfd]";
	 * /proc/PID/fd/N shows "anon_inode:[pidfd]". NULL for the others. */
	const char *f_anon_name;
	int f_ep_count;         /* epoll sets watching it (fs/eventpoll.c) */
};

/* A new file on dentry (or on inode alone when dentry is NULL), with one
 * reference; f_op from the inode. Does not call ->open. NULL if no memory. */
struct file *alloc_file(struct dentry *dentry, struct inode *inode,
			unsigned int flags, unsigned int mode);
/* Open dentry: write access (ETXTBSY), then ->open. The file or ERR_PTR. */
struct file *vfs_open(struct dentry *dentry, unsigned int flags, unsigned int mode);
/* For files that are streams (ttys, pipes): no lseek, pread, pwrite. */
void nonseekable_open(struct file *file);
loff_t generic_file_llseek(struct file *file, loff_t offset, int whence);
loff_t noop_llseek(struct file *file, loff_t offset, int whence);
/* Dispatchers used by the syscalls and by kernel_read/kernel_write. */
ssize_t vfs_read(struct file *file, struct iov_iter *to, loff_t *pos);
ssize_t vfs_write(struct file *file, struct iov_iter *from, loff_t *pos);

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define SEEK_DATA 3             /* the next offset with data: here all of a file is data */
#define SEEK_HOLE 4             /* the next hole: here only the end of the file */
#define MAX_RW_COUNT 0x7ffff000L  /* Linux's cap on one read or write */
#define MAX_LFS_FILESIZE 0x7fffffffffffffffLL

/* ---- waiting for files: select.c, for poll, select and epoll ---------- */

struct poll_timeout {
	bool forever;           /* no timeout: wait until ready or a signal */
	uint64_t end_ns;        /* ktime_get_ns() at which to give up */
	int64_t ns;             /* the timeout asked for, to report what is left */
};
/* A timeout of sec seconds + nsec nanoseconds (already checked). */
void set_timeout(struct poll_timeout *to, int64_t sec, int64_t nsec);
/* A user timespec as timeout: 0, -EFAULT, or -EINVAL if malformed. */
int get_timespec_timeout(struct poll_timeout *to, const struct timespec __user *uts);
/* ppoll's signal mask for the call (restored on the way out). 0 or -errno. */
int set_user_sigmask(const uint64_t __user *umask, size_t sigsetsize);
/* What holds for file now: its ->poll, or DEFAULT_POLLMASK. */
unsigned int file_poll(struct file *file);
/* Call scan(arg), which counts the ready files (or gives -errno), until it
 * finds some, the time is up (0) or a signal comes (-ERESTARTNOHAND),
 * sleeping in between until a file may have changed (poll_wakeup). */
long do_poll_loop(long (*scan)(void *arg), void *arg, struct poll_timeout *to);

/* eventpoll.c: the last reference to file is gone: out of every epoll set. */
void eventpoll_release(struct file *file);

/* ---- descriptors and process state ----------------------------------- */

/*
 * The descriptor table (fs/file.c): max_fds slots, each empty or holding a
 * reference on a file, and a close-on-exec bit each. It starts with the
 * NR_OPEN_DEFAULT slots inside the struct and grows, doubling, up to the
 * process's RLIMIT_NOFILE, as Linux's fdtable does.
 */
#define NR_OPEN_DEFAULT 64
struct files_struct {
	int count;
	unsigned int max_fds;
	struct file **fd;
	uint64_t *close_on_exec;        /* max_fds / 64 words */
	struct file *fd_array[NR_OPEN_DEFAULT];
	uint64_t close_on_exec_init[NR_OPEN_DEFAULT / 64];
};
/* The file at fd, NULL if none (or fd out of the table). */
static inline struct file *files_lookup(struct files_struct *files, int fd)
{
	return files && fd >= 0 && (unsigned int)fd < files->max_fds ? files->fd[fd] : NULL;
}
/* Make the table hold slot fd: 0, -EMFILE past RLIMIT_NOFILE, -ENOMEM. */
int expand_files(struct files_struct *files, unsigned int fd);

struct fs_struct {
	int count;
	mode_t umask;
	struct dentry *root;
	struct dentry *pwd;
};

#define FD_CLOEXEC 1
/* current's file for fd without taking a reference, or NULL. */
struct file *fcheck(int fd);
/* Install file at fd (closing what was there). Takes over the reference. */
void fd_install(struct files_struct *files, int fd, struct file *file, bool cloexec);
/* A descriptor's reference to file goes: ->flush, then fput (NULL: none). */
void filp_close(struct file *file);
/* Lowest free descriptor >= start, or -EMFILE. */
int get_unused_fd(struct files_struct *files, int start);
/* Detach fd from the table; returns its file (reference passes to caller) or NULL. */
struct file *fd_remove(struct files_struct *files, int fd);
bool fd_get_cloexec(struct files_struct *files, int fd);
void fd_set_cloexec(struct files_struct *files, int fd, bool on);

/* The root of the whole tree and the process's view of it. */
extern struct dentry *root_dentry;
struct dentry *current_root(void);      /* no reference taken */
struct dentry *current_pwd(void);       /* no reference taken */
mode_t current_umask(void);
void set_fs_pwd(struct fs_struct *fs, struct dentry *d); /* takes over the reference */
uid_t current_fsuid(void);
gid_t current_fsgid(void);

/* ---- path lookup (fs/namei.c) ---------------------------------------- */

#define LOOKUP_FOLLOW 0x1       /* follow a final symlink */
#define LOOKUP_DIRECTORY 0x2    /* the result must be a directory */
#define LOOKUP_EMPTY 0x4        /* "" names the start directory (AT_EMPTY_PATH) */

/*
 * Resolve a kernel-space path to a dentry (reference held by the caller).
 * dfd is AT_FDCWD or a directory descriptor for relative paths.
 */
int kern_path_at(int dfd, const char *path, unsigned int flags, struct dentry **result);
int user_path_at(int dfd, const char __user *name, unsigned int flags, struct dentry **result);
/* LOOKUP_* for the AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH bits of an *at() call. */
static inline unsigned int at_lookup_flags(int at_flags)
{
	return ((at_flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW) |
	       ((at_flags & AT_EMPTY_PATH) ? LOOKUP_EMPTY : 0);
}
/* Copy a path from user space: kmalloc'd on success, or ERR_PTR (EFAULT,
 * ENAMETOOLONG; ENOENT for "" unless empty_ok). Free with putname. */
char *getname(const char __user *upath, bool empty_ok);
void putname(char *name);
/* Start directory for a relative path: the dentry of fd or the cwd, with a reference. */
int dfd_start(int dfd, const char *path, struct dentry **start);

/* The operations behind the syscalls, for kernel-space names. */
int vfs_mknod_at(int dfd, const char *path, mode_t mode, dev_t rdev);
int vfs_mkdir_at(int dfd, const char *path, mode_t mode);
int vfs_symlink_at(const char *target, int dfd, const char *path);
int vfs_link_at(int olddfd, const char *oldpath, int newdfd, const char *newpath);
/* Remove a name: a directory if rmdir, else anything but a directory. */
int vfs_unlink_at(int dfd, const char *path, bool rmdir);
struct file *do_filp_open(int dfd, const char *path, int flags, mode_t mode);
int vfs_truncate(struct dentry *dentry, loff_t length);

/* ---- devices (fs/char_dev.c) and the in-memory filesystem ------------ */

#define MAJOR(dev) ((unsigned int)((dev) >> 8) & 0xfff)
#define MINOR(dev) ((unsigned int)((dev) & 0xff) | (unsigned int)(((dev) >> 12) & 0xfff00))
#define MKDEV(ma, mi) ((dev_t)(((ma) & 0xfff) << 8 | ((mi) & 0xff) | (((mi) & ~0xffu) << 12)))

/* The file operations of a character device node: open dispatches by rdev. */
extern const struct file_operations def_chr_fops;
void chrdev_init(void);
void tty_init(void);
extern const struct file_operations tty_fops;
extern const struct file_operations kmsg_fops; /* /dev/kmsg: fs/kmsg.c */
/* FIFOs (named pipes) on any filesystem: fs/pipe.c. */
extern const struct file_operations pipefifo_fops;
/* fcntl's F_GETPIPE_SZ and F_SETPIPE_SZ; -EBADF for a file that is no pipe. */
long pipe_fcntl(struct file *file, unsigned int cmd, unsigned long arg);

/* A new in-memory filesystem; type "ramfs" (RAMFS_MAGIC), else tmpfs's
 * magic ("rootfs" is a tmpfs in Linux when it holds an initramfs). */
struct super_block *ramfs_mount(const char *type);
extern uint64_t ramfs_nr_pages; /* file data pages on all of them */

/* ---- procfs and mounts ------------------------------------------------- */

/* A new instance of procfs; NULL if out of memory. */
struct super_block *proc_mount(void);
void proc_root_init(void);
/* Whether the console is the controlling tty of session sid; its
 * foreground process group in *pgrp. */
bool console_ctty(pid_t sid, pid_t *pgrp);
/* Record the root filesystem as the first mount (vfs_init). */
void mnt_init_root(struct super_block *sb);
/* A ramfs inode of the given mode (and rdev for devices) on sb, i_count 1. */
struct inode *ramfs_get_inode(struct super_block *sb, mode_t mode, dev_t rdev);
