/*
 * pid.h - pidfds (kernel/pidfd.c): a file that refers to one process.
 *
 * A pidfd names its process by the task's serial (struct task), never by
 * the pid number, so it cannot come to mean another process once the
 * number is reused: after the process has been reaped, every use of the
 * pidfd finds nothing (ESRCH; poll stays readable).
 */
#pragma once
#include <kernel.h>

struct file;
struct task;

#define PIDFD_NONBLOCK 00004000 /* O_NONBLOCK */

/* Whether file is a pidfd. */
bool is_pidfd(const struct file *file);
/* The process (its leader) that pidfd file refers to; NULL once reaped. */
struct task *pidfd_task(const struct file *file);
/* The process of current's descriptor fd, which must be a pidfd
 * (ERR_PTR(-EBADF) otherwise), NULL once reaped; the file's status flags
 * (O_NONBLOCK) in *f_flags. Linux's pidfd_get_pid. */
struct task *pidfd_get_task(int fd, unsigned int *f_flags);
/* A new pidfd for the process of leader t, at current's lowest free
 * descriptor, close-on-exec; flags: 0 or PIDFD_NONBLOCK. fd or -errno. */
int pidfd_create(struct task *t, unsigned int flags);
/* Wake the pollers of pidfds: a process may have ended. */
void pidfd_notify(void);
