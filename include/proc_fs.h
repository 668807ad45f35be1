/*
 * proc_fs.h - adding files to /proc (fs/proc/root.c).
 *
 * A /proc file has no stored contents: each time a reader starts at offset
 * 0 the file's show function writes the whole text into a seq_file, a
 * growing buffer (Linux's seq_file in miniature), and the reader gets its
 * bytes from there. A write hands the bytes to the file's write function.
 *
 *   static int show_answer(struct seq_file *m)
 *   {
 *           seq_printf(m, "%d\n", answer);
 *           return 0;
 *   }
 *   static int write_answer(const char *buf, size_t count)
 *   {
 *           answer = buf[0] - '0';
 *           return 0;
 *   }
 *   proc_create("sys/kernel/answer", 0644, show_answer, write_answer);
 *
 * The path is relative to /proc; missing directories on the way are made
 * (mode 0555). Files can be added at any time, before or after proc is
 * mounted. They are never removed.
 */
#pragma once
#include <kernel.h>

struct seq_file {
	char *buf;
	size_t size;            /* bytes allocated */
	size_t count;           /* bytes written; == size once it overflowed */
	/* The pid namespace of the /proc mount read: the numbers to show. */
	struct pid_namespace *pid_ns;
};

/* Append to the text. When the buffer is full the show function is simply
 * run again with a bigger one, so show functions never check for room. */
void seq_printf(struct seq_file *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);
void seq_write(struct seq_file *m, const void *data, size_t len);

/* Writes the file's text; 0 or -errno (read(2) returns it). */
typedef int (*proc_show_t)(struct seq_file *m);
/*
 * Takes the bytes of one write(2), copied into the kernel and followed by a
 * NUL (at most PAGE_SIZE - 1 of them: a longer write is cut there). Returns
 * 0, and write(2) reports every byte written, or -errno.
 */
typedef int (*proc_write_t)(const char *buf, size_t count);

/*
 * Add a file at path (e.g. "sys/fs/exectrace"). mode: permission bits
 * (S_IFREG is implied); show or write may be NULL (reading or writing then
 * fails with EIO). Returns 0, -EEXIST, -EINVAL (bad path) or -ENOMEM.
 */
int proc_create(const char *path, mode_t mode, proc_show_t show, proc_write_t write);
/*
 * The same for a file whose size is known and fixed, which stat and lseek
 * report (Linux's proc_set_size), e.g. the binary /proc/profile.
 */
int proc_create_size(const char *path, mode_t mode, loff_t size, proc_show_t show,
		     proc_write_t write);
/* An empty directory (mode 0555), e.g. "sys/fs/binfmt_misc". 0 or -errno. */
int proc_mkdir(const char *path);
/* A symbolic link to a fixed target, e.g. "mounts" -> "self/mounts". */
int proc_symlink(const char *path, const char *target);

/*
 * A file of /proc/PID/net/ (and so of /proc/net/, a link to self/net):
 * its text is about net, the network namespace of the process whose
 * directory it is in, taken afresh at each read. The protocol that has
 * the file registers it (Linux's proc_create_net), e.g. "unix". 0,
 * -EEXIST or -ENOSPC.
 */
struct net;
typedef int (*proc_net_show_t)(struct seq_file *m, struct net *net);
int proc_create_net(const char *name, proc_net_show_t show);

struct file;
struct task;
/* The process of an open /proc/PID directory, which pidfd_send_signal takes
 * as a pidfd (Linux's tgid_pidfd_to_pid): NULL once it is reaped,
 * ERR_PTR(-EBADF) for any other file. */
struct task *tgid_pidfd_to_task(const struct file *file);
