/*
 * ioctl.c - ioctl: a few commands every descriptor understands, the rest
 * go to the file's own ->ioctl (the tty's termios calls); a file without
 * one answers ENOTTY, "not a typewriter", as in Linux.
 */
#include "vfs.h"
#include <sched.h>
#include <uaccess.h>

#define FIONCLEX 0x5450
#define FIOCLEX 0x5451
#define FIONBIO 0x5421

long sys_ioctl(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file = fcheck(fd);
	long ret;

	if (!file || (file->f_mode & FMODE_PATH))
		return -EBADF;
	switch (cmd) {
	case FIOCLEX:
	case FIONCLEX:
		fd_set_cloexec(current->files, fd, cmd == FIOCLEX);
		return 0;
	case FIONBIO: {
		int on;
		if (copy_from_user(&on, (void __user *)arg, sizeof(on)))
			return -EFAULT;
		if (on)
			file->f_flags |= O_NONBLOCK;
		else
			file->f_flags &= ~O_NONBLOCK;
		return 0;
	}
	}
	if (!file->f_op || !file->f_op->ioctl)
		return -ENOTTY;
	/* The file may sleep (tcsetattr draining output): hold it meanwhile. */
	get_file(file);
	ret = file->f_op->ioctl(file, cmd, arg);
	fput(file);
	return ret;
}
