/*
 * fs.h - the virtual filesystem as the rest of the kernel sees it.
 *
 * fs/ holds an in-memory filesystem (filled from the initramfs), path
 * lookup, open files and the per-process descriptor table. This header is
 * the contract with the rest of the kernel; fs-internal details live in
 * headers inside fs/.
 */
#pragma once
#include <kernel.h>

struct inode;
struct file;
struct files_struct;
struct fs_struct;

/* File types and permission bits, as Linux (st_mode). */
#define S_IFMT 0170000
#define S_IFSOCK 0140000
#define S_IFLNK 0120000
#define S_IFREG 0100000
#define S_IFBLK 0060000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_ISUID 04000
#define S_ISGID 02000
#define S_ISVTX 01000
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m) (((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)

/* open(2) flags, x86-64 values. */
#define O_ACCMODE 00000003
#define O_RDONLY 00000000
#define O_WRONLY 00000001
#define O_RDWR 00000002
#define O_CREAT 00000100
#define O_EXCL 00000200
#define O_NOCTTY 00000400
#define O_TRUNC 00001000
#define O_APPEND 00002000
#define O_NONBLOCK 00004000
#define O_DIRECT 00040000
#define O_DIRECTORY 00200000
#define O_NOFOLLOW 00400000
#define O_CLOEXEC 02000000
#define O_PATH 010000000
#define __O_TMPFILE 020000000
#define O_TMPFILE (__O_TMPFILE | O_DIRECTORY)
/*
 * Kernel-only open flag (Linux's __FMODE_EXEC): open for execve. The file
 * is opened for reading but checked for MAY_EXEC instead of MAY_READ, so a
 * mode 0111 program runs. Ignored when user space passes it.
 */
#define __FMODE_EXEC 040

#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR 0x200
#define AT_EACCESS 0x200
#define AT_SYMLINK_FOLLOW 0x400
#define AT_EMPTY_PATH 0x1000

#define PATH_MAX 4096
#define NAME_MAX 255
#define MAXSYMLINKS 40

/* access(2) / inode_permission masks. */
#define MAY_EXEC 1
#define MAY_WRITE 2
#define MAY_READ 4

/* The most descriptors a process may have, whatever its RLIMIT_NOFILE
 * (Linux's fs.nr_open); the soft limit is 1024, the hard one 4096. */
#define NR_OPEN 1048576

/* Mount the empty root filesystem and register the devices (after serial_init). */
void vfs_init(void);
/* Unpack a cpio "newc" archive into the root filesystem. 0 or -errno. */
int unpack_initramfs(const void *data, size_t len);
/* The same, calling release(data, upto) each time the bytes before upto
 * are no longer needed, so that the caller can free the archive's memory
 * as it goes (the unpacked files take as much again). */
int unpack_initramfs_release(const void *data, size_t len,
			     void (*release)(const void *data, const void *upto));

/*
 * Open a file by a kernel-space path (relative paths start at current's
 * working directory). Returns the file or ERR_PTR(-errno).
 */
struct file *filp_open(const char *path, int flags, mode_t mode);
/* The same with a start directory: dfd is AT_FDCWD or a directory
 * descriptor of current (EBADF, ENOTDIR). */
struct file *do_filp_open(int dfd, const char *path, int flags, mode_t mode);
/* ... and the flags of an *at() call (execveat): AT_SYMLINK_NOFOLLOW (a
 * final symlink gives ELOOP), AT_EMPTY_PATH ("" opens dfd's own file). */
struct file *do_filp_open_at(int dfd, const char *path, int flags, mode_t mode, int at_flags);
/* current's file for descriptor fd with a reference taken, or NULL (fput it). */
struct file *fget(int fd);
/* Read from an open file at pos, without moving its offset. Bytes read or -errno. */
ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t pos);
ssize_t kernel_write(struct file *file, const void *buf, size_t count, loff_t pos);
/*
 * All of descriptor fd's regular file into a vmalloc'd buffer (*buf; vfree
 * it): its size, or -EBADF (not open for reading), -EINVAL (not a regular
 * file, or empty), -ETXTBSY (open for writing), -EFBIG (over max_size),
 * -ENOMEM. For finit_module (fs/kernel_read_file.c).
 */
ssize_t kernel_read_file_from_fd(int fd, void **buf, size_t max_size);
struct file *get_file(struct file *file); /* take another reference */
int file_count(const struct file *file);  /* its references */
/* The path of an open file, for messages: written at the end of buf. */
char *file_path(struct file *file, char *buf, size_t size);
void fput(struct file *file);             /* drop a reference */
/* Drop a reference that is not the last, needing no big kernel lock:
 * true; false, with nothing done, if it is the last (then fput it). */
bool fput_if_not_last(struct file *file);
struct inode *file_inode(const struct file *file);
/* The last component of the name the file was opened by ("" if none):
 * the new name after a rename, the old one after unlink. */
const char *file_name(const struct file *file);
/* Not mounted nosuid: exec may honour the file's set-user-ID bit. */
bool mnt_may_suid(const struct file *file);
/* Whether current's descriptor fd is closed by exec (FD_CLOEXEC). */
bool get_close_on_exec(int fd);
mode_t inode_mode(const struct inode *inode);
uid_t inode_uid(const struct inode *inode);
gid_t inode_gid(const struct inode *inode);
loff_t inode_size(const struct inode *inode);
uint64_t inode_blocks(const struct inode *inode); /* 512-byte units in use */
/* 0 or -EACCES, for current's credentials; mask is MAY_*. */
int inode_permission(struct inode *inode, int mask);
/*
 * mmap's questions to an open file, in Linux's order (do_mmap): -EBADF for
 * an O_PATH descriptor (Linux's fget does not return those); -EACCES if a
 * shared writable mapping is asked of a file not open for writing, or if
 * the file is not open for reading; -ENODEV if its data cannot be mapped
 * (Linux: no f_op->mmap): only regular files of ramfs and tmpfs can, and
 * /dev/zero, which gives anonymous memory (file_mmap_anonymous). 0:
 * the mapping may read it page by page with kernel_read (mm/fault.c).
 */
int file_mmap_check(struct file *file, bool shared_write);
/* Does mapping file give anonymous memory (/dev/zero)? */
bool file_mmap_anonymous(const struct file *file);
/*
 * The page cache (Linux's find_get_page): the page holding bytes
 * [index * PAGE_SIZE, (index + 1) * PAGE_SIZE) of a regular file of the
 * in-memory filesystem, with a reference for the caller (put_page). NULL
 * for a hole, or a file whose data is not kept in pages: read a copy with
 * kernel_read. The page stays the file's: a write to the file changes it in
 * place (every mapping of it sees the change, as in Linux); bytes past the
 * end of the file in it are zero. A mapping must never write into it.
 * With or without the big kernel lock (the page fault calls it without).
 */
void *find_get_page(struct file *file, uint64_t index);
/* The same, but a hole gets a new zeroed page of the file's own (a
 * MAP_SHARED mapping writes into the file's pages); NULL if out of memory
 * or the file keeps no pages. */
void *find_or_create_page(struct file *file, uint64_t index);
/* An unnamed file of size bytes holding the pages of a MAP_SHARED |
 * MAP_ANONYMOUS mapping (ERR_PTR(-ENOMEM)). */
struct file *shmem_zero_setup(uint64_t size);
/* Executing a file and writing it exclude each other (ETXTBSY). */
int deny_write_access(struct file *file);  /* 0 or -ETXTBSY */
void allow_write_access(struct file *file);

/* Descriptor table of a process. */
struct files_struct *files_alloc(void); /* empty table, NULL if no memory */
struct files_struct *files_dup(struct files_struct *files); /* fork; NULL if no memory */
struct files_struct *files_get(struct files_struct *files); /* share it (CLONE_FILES) */
void files_put(struct files_struct *files);                 /* drop a reference */
/* An exiting task's reference, the task already pointing elsewhere: a
 * last one closes what it can without the big kernel lock. */
void files_exit(struct files_struct *files);
void files_close_on_exec(struct files_struct *files);       /* exec */
/* Install file at the lowest free descriptor. fd or -EMFILE. Takes over the
 * reference on success; on -EMFILE the caller still holds it. */
int fd_install_lowest(struct files_struct *files, struct file *file, bool cloexec);
/* Close current's descriptor fd (Linux's close_fd): 0 or -EBADF. */
int close_fd(int fd);
/* fs/eventpoll.c, for kcmp: the file an epoll set's item for descriptor
 * tfd watches (the toff-th such item); ERR_PTR(-EINVAL) if epfile is no
 * epoll set, ERR_PTR(-ENOENT) if there is none. */
struct file *epoll_target_file(struct file *epfile, int tfd, unsigned long toff);
/* The file t's descriptor fd holds, NULL if none (no reference). */
struct task;
struct file *task_file(struct task *t, int fd);

/* Working directory, root and umask of a process. */
struct fs_struct *fs_alloc_root(void);
struct fs_struct *fs_dup(struct fs_struct *fs);      /* fork; NULL if no memory */
struct fs_struct *fs_get(struct fs_struct *fs);      /* share it (CLONE_FS) */
int fs_users(const struct fs_struct *fs);            /* tasks sharing it */
void fs_put(struct fs_struct *fs);

/*
 * /dev/console: the serial line, as init's fds 0, 1 and 2. Opened by name
 * as Linux does, so it is ERR_PTR (after "Warning: unable to open an initial
 * console.") when the initramfs has no /dev/console; init then runs
 * without descriptors.
 */
struct file *open_console(void);
/*
 * A session leader exits (do_exit calls this for every exiting task): if
 * the console is its controlling terminal, the foreground process group
 * gets SIGHUP and SIGCONT and the console is free for another session.
 */
void disassociate_ctty(void);
