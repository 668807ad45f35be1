/*
 * fcntl.c - dup, dup2, dup3 and fcntl: copying descriptors and changing
 * the flags of a descriptor (FD_CLOEXEC) or of its open file (O_APPEND,
 * O_NONBLOCK), and a memfd's seals (mm/memfd.c). A duplicate shares the
 * struct file, so it shares the offset and the status flags, but each
 * descriptor has its own close-on-exec bit.
 */
#include "vfs.h"
#include <memfd.h>
#include <sched.h>

#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032

#define O_ASYNC 020000
#define O_NOATIME 01000000
/* The status flags F_SETFL may change; the others are kept. */
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_ASYNC | O_DIRECT | O_NOATIME)

/* A new descriptor >= start for the file of oldfd. */
static long dupfd(int oldfd, int start, bool cloexec)
{
	struct files_struct *files = current->files;
	struct file *file = fcheck(oldfd);
	int fd;

	if (!file)
		return -EBADF;
	fd = get_unused_fd(files, start);
	if (fd >= 0)
		fd_install(files, fd, get_file(file), cloexec);
	return fd;
}

long sys_dup(int oldfd)
{
	return dupfd(oldfd, 0, false);
}

/* Make newfd refer to oldfd's file, closing what newfd held. */
static long do_dup2(int oldfd, int newfd, bool cloexec)
{
	struct file *file = fcheck(oldfd);

	if (!file)
		return -EBADF;
	if (newfd < 0 || (uint64_t)newfd >= current->rlim[RLIMIT_NOFILE].cur)
		return -EBADF;
	int err = expand_files(current->files, newfd);
	if (err)
		return err;
	fd_install(current->files, newfd, get_file(file), cloexec);
	return newfd;
}

long sys_dup3(int oldfd, int newfd, int flags)
{
	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	return do_dup2(oldfd, newfd, flags & O_CLOEXEC);
}

long sys_dup2(int oldfd, int newfd)
{
	if (oldfd == newfd)
		return fcheck(oldfd) ? newfd : -EBADF;
	return do_dup2(oldfd, newfd, false);
}

long sys_fcntl(int fd, unsigned int cmd, unsigned long arg)
{
	struct files_struct *files = current->files;
	struct file *file = fcheck(fd);

	if (!file)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg >= current->rlim[RLIMIT_NOFILE].cur)
			return -EINVAL;
		return dupfd(fd, arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return fd_get_cloexec(files, fd) ? FD_CLOEXEC : 0;
	case F_SETFD:
		fd_set_cloexec(files, fd, arg & FD_CLOEXEC);
		return 0;
	case F_GETFL:
		return file->f_flags | (file->f_mode & FMODE_PATH ? O_PATH : 0);
	case F_SETFL:
		if (file->f_mode & FMODE_PATH)
			return -EBADF;
		file->f_flags = (file->f_flags & ~SETFL_MASK) | (arg & SETFL_MASK);
		return 0;
	case F_SETPIPE_SZ:
	case F_GETPIPE_SZ:
		return pipe_fcntl(file, cmd, arg);
	case F_ADD_SEALS:
	case F_GET_SEALS:
		return memfd_fcntl(file, cmd, arg);
	default:
		return -EINVAL;
	}
}
