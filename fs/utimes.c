/*
 * utimes.c - setting a file's access and modification times: utimensat,
 * and the older utimes, futimesat and utime, which become utimensat.
 *
 * Each time is a timespec, or UTIME_NOW ("now") or UTIME_OMIT ("leave it").
 * Setting both to now needs only write permission (touch on a file one may
 * write); setting a chosen time needs ownership (or root). The change time
 * always becomes now.
 */
#include "vfs.h"
#include <sched.h>
#include <uaccess.h>

#define UTIME_NOW ((1L << 30) - 1)
#define UTIME_OMIT ((1L << 30) - 2)

static bool valid_time(const struct timespec *ts)
{
	return ts->tv_nsec == UTIME_NOW || ts->tv_nsec == UTIME_OMIT ||
	       (ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000);
}

/* times NULL: both now. */
static long utimes_common(struct inode *inode, struct timespec *times)
{
	struct timespec now;
	bool only_now = !times || (times[0].tv_nsec == UTIME_NOW && times[1].tv_nsec == UTIME_NOW);

	if (may_write_sb(inode))
		return -EROFS;
	if (only_now) {
		if (!inode_owner_or_capable(inode) && inode_permission(inode, MAY_WRITE))
			return -EACCES;
	} else if (!inode_owner_or_capable(inode)) {
		return -EPERM;
	}
	inode_now(&now);
	for (int i = 0; i < 2; i++) {
		struct timespec *t = i ? &inode->i_mtime : &inode->i_atime;
		if (!times || times[i].tv_nsec == UTIME_NOW)
			*t = now;
		else if (times[i].tv_nsec != UTIME_OMIT)
			*t = times[i];
	}
	inode->i_ctime = now;
	return 0;
}

/* The body of every call here, with kernel-space times (or NULL). */
static long do_utimes(int dfd, const char __user *filename, struct timespec *times, int flags)
{
	struct dentry *d;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (times) {
		if (!valid_time(&times[0]) || !valid_time(&times[1]))
			return -EINVAL;
		if (times[0].tv_nsec == UTIME_OMIT && times[1].tv_nsec == UTIME_OMIT)
			return 0;
	}
	if (!filename && dfd != AT_FDCWD) { /* the descriptor itself */
		struct file *file;
		if (flags)
			return -EINVAL;
		file = fcheck(dfd);
		return file ? utimes_common(file->f_inode, times) : -EBADF;
	}
	err = user_path_at(dfd, filename, at_lookup_flags(flags), &d);
	if (err)
		return err;
	err = utimes_common(d->d_inode, times);
	dput(d);
	return err;
}

long sys_utimensat(int dfd, const char __user *filename, const struct timespec __user *utimes, int flags)
{
	struct timespec t[2];

	if (utimes && copy_from_user(t, utimes, sizeof(t)))
		return -EFAULT;
	return do_utimes(dfd, filename, utimes ? t : NULL, flags);
}

struct timeval_k {
	int64_t tv_sec, tv_usec;
};

long sys_futimesat(int dfd, const char __user *filename, const struct timeval_k __user *utimes)
{
	struct timeval_k tv[2];
	struct timespec t[2];

	if (!utimes)
		return do_utimes(dfd, filename, NULL, 0);
	if (copy_from_user(tv, utimes, sizeof(tv)))
		return -EFAULT;
	for (int i = 0; i < 2; i++) {
		if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
			return -EINVAL;
		t[i].tv_sec = tv[i].tv_sec;
		t[i].tv_nsec = tv[i].tv_usec * 1000;
	}
	return do_utimes(dfd, filename, t, 0);
}

long sys_utimes(const char __user *filename, const struct timeval_k __user *utimes)
{
	return sys_futimesat(AT_FDCWD, filename, utimes);
}

long sys_utime(const char __user *filename, const int64_t __user *times)
{
	int64_t ut[2];
	struct timespec t[2];

	if (!times)
		return do_utimes(AT_FDCWD, filename, NULL, 0);
	if (copy_from_user(ut, times, sizeof(ut)))
		return -EFAULT;
	t[0] = (struct timespec){ ut[0], 0 };
	t[1] = (struct timespec){ ut[1], 0 };
	return do_utimes(AT_FDCWD, filename, t, 0);
}
