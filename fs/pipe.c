/*
 * pipe.c - pipes and FIFOs: pipe(2), pipe2(2), and named pipes made with
 * mknod (S_IFIFO) on any filesystem.
 *
 * A pipe is a ring of PIPE_DEF_BUFFERS slots (Linux's struct pipe_buffer),
 * each a page holding [offset, offset + len) of data, so a pipe holds at
 * most 16 pages = 64 KiB, as in Linux. head and tail count slots from the
 * beginning (free-running, used modulo ring_size): a writer fills the slot
 * at head, a reader empties the one at tail. Small writes are merged into
 * the last slot while they fit in its page, so "echo" after "echo" does not
 * use a page each. A write of at most PIPE_BUF (4096) bytes therefore lands
 * either wholly in the last page or wholly in a fresh slot: it is atomic,
 * never interleaved with another writer's bytes, as POSIX requires.
 *
 * Reads and writes sleep on the pipe itself (one channel for everybody):
 *   - read: returns what is there (up to the count). An empty pipe with no
 *     writers left is end of file (0); O_NONBLOCK gives EAGAIN; otherwise
 *     the reader sleeps until a writer adds data or goes away.
 *   - write: no readers left gives SIGPIPE and EPIPE. A full pipe makes the
 *     writer sleep, or return what it wrote so far (EAGAIN if nothing)
 *     with O_NONBLOCK.
 *   - a signal ends the wait: what was done so far, or -ERESTARTSYS.
 * Every change wakes the other side, and pollers (poll_wakeup).
 *
 * An anonymous pipe's inode lives on "pipefs", an internal filesystem with
 * no names: fstat shows a FIFO (S_IFIFO | 0600) owned by its creator. A
 * FIFO inode on ramfs gets its pipe when it is first opened (i_private);
 * opening it for reading waits for a writer and the other way round (Linux's
 * fifo_open), and the pipe is freed when the last file on it closes.
 */
#include "vfs.h"
#include <mm.h>
#include <poll.h>
#include <sched.h>
#include <signum.h>
#include <uaccess.h>
#include <x86.h>

#define PIPE_DEF_BUFFERS 16     /* slots of a new pipe: 64 KiB */
#define PIPE_BUF 4096           /* writes up to this size are atomic */
#define PIPE_MAX_SIZE 1048576   /* /proc/sys/fs/pipe-max-size: the limit for non-root */

#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032
#define FIONREAD 0x541B

struct pipe_buffer {
	char *page;             /* NULL while the slot is free */
	unsigned int offset, len;
};

struct pipe_inode_info {
	struct pipe_buffer *bufs;       /* ring_size slots */
	unsigned int ring_size;         /* a power of two */
	unsigned int head, tail;        /* free-running slot numbers */
	unsigned int readers, writers;  /* open files that read / write */
	unsigned int files;             /* open files of any kind */
	unsigned int r_counter, w_counter; /* readers / writers ever: FIFO opens wait for a change */
	char *tmp_page;                 /* one spare page, reused by the next write */
};

static bool pipe_empty(struct pipe_inode_info *pipe) { return pipe->head == pipe->tail; }
static bool pipe_full(struct pipe_inode_info *pipe) { return pipe->head - pipe->tail >= pipe->ring_size; }
static struct pipe_buffer *pipe_slot(struct pipe_inode_info *pipe, unsigned int n)
{
	return &pipe->bufs[n & (pipe->ring_size - 1)];
}

static struct pipe_inode_info *alloc_pipe_info(void)
{
	struct pipe_inode_info *pipe = kzalloc(sizeof(*pipe));

	if (!pipe)
		return NULL;
	pipe->bufs = kzalloc(PIPE_DEF_BUFFERS * sizeof(*pipe->bufs));
	if (!pipe->bufs) {
		kfree(pipe);
		return NULL;
	}
	pipe->ring_size = PIPE_DEF_BUFFERS;
	return pipe;
}

static void free_pipe_info(struct pipe_inode_info *pipe)
{
	for (unsigned int i = 0; i < pipe->ring_size; i++)
		if (pipe->bufs[i].page)
			free_page(pipe->bufs[i].page);
	if (pipe->tmp_page)
		free_page(pipe->tmp_page);
	kfree(pipe->bufs);
	kfree(pipe);
}

/* A slot was emptied: keep its page as the spare or give it back. */
static void release_buf(struct pipe_inode_info *pipe, struct pipe_buffer *buf)
{
	if (!pipe->tmp_page)
		pipe->tmp_page = buf->page;
	else
		free_page(buf->page);
	buf->page = NULL;
	buf->offset = buf->len = 0;
}

static struct pipe_inode_info *file_pipe(struct file *file)
{
	return file->f_inode->i_private;
}

/*
 * Sleep until cond(pipe) holds or a signal comes. 0, or -ERESTARTSYS.
 * Interrupts are off between the test and the sleep so that a signal sent
 * by an interrupt (^C) cannot slip in between.
 */
static int pipe_wait(struct pipe_inode_info *pipe, bool (*cond)(struct pipe_inode_info *))
{
	uint64_t flags = irq_save();
	int ret = 0;

	while (!cond(pipe)) {
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		sleep_on(pipe);
	}
	irq_restore(flags);
	return ret;
}

static bool can_read(struct pipe_inode_info *pipe) { return !pipe_empty(pipe) || !pipe->writers; }
static bool can_write(struct pipe_inode_info *pipe) { return !pipe_full(pipe) || !pipe->readers; }

/* ---- read and write ------------------------------------------------------- */

static ssize_t pipe_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct pipe_inode_info *pipe = file_pipe(file);
	ssize_t ret = 0;

	(void)pos;
	for (;;) {
		if (!pipe_empty(pipe)) {
			struct pipe_buffer *buf = pipe_slot(pipe, pipe->tail);
			size_t chars = MIN((size_t)buf->len, to->count);
			size_t copied = copy_to_iter(buf->page + buf->offset, chars, to);

			if (copied < chars) {
				if (!ret)
					ret = -EFAULT;
				break;
			}
			ret += chars;
			buf->offset += chars;
			buf->len -= chars;
			if (!buf->len) {
				release_buf(pipe, buf);
				pipe->tail++;
			}
			if (!to->count)
				break;
			if (!pipe_empty(pipe))
				continue;
		}
		if (!pipe->writers || ret)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		/* Empty, and nothing read yet: wait for data or the last writer's close. */
		int err = pipe_wait(pipe, can_read);
		if (err) {
			ret = err;
			break;
		}
	}
	if (ret > 0)
		poll_wakeup(pipe); /* room for writers */
	return ret;
}

/* A page for a new slot: the spare one, or a fresh one. */
static char *pipe_get_page(struct pipe_inode_info *pipe)
{
	char *page = pipe->tmp_page;

	if (page) {
		pipe->tmp_page = NULL;
		return page;
	}
	return alloc_page();
}

static ssize_t pipe_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	struct pipe_inode_info *pipe = file_pipe(file);
	size_t total = from->count;
	size_t chars = total & (PAGE_SIZE - 1);
	ssize_t ret = 0;

	(void)pos;
	if (total == 0)
		return 0; /* even with no reader left: no SIGPIPE */
	if (!pipe->readers) {
		send_sig(SIGPIPE, current);
		return -EPIPE;
	}
	/* The first part of the write (total mod page size) may go into the
	 * last slot's page, if it fits there whole. */
	if (chars && !pipe_empty(pipe)) {
		struct pipe_buffer *buf = pipe_slot(pipe, pipe->head - 1);
		size_t offset = buf->offset + buf->len;

		if (offset + chars <= PAGE_SIZE) {
			if (copy_from_iter(buf->page + offset, chars, from) < chars)
				return -EFAULT;
			buf->len += chars;
			ret = chars;
			if (!from->count)
				goto out;
		}
	}
	for (;;) {
		if (!pipe->readers) {
			send_sig(SIGPIPE, current);
			if (!ret)
				ret = -EPIPE;
			break;
		}
		if (!pipe_full(pipe)) {
			struct pipe_buffer *buf = pipe_slot(pipe, pipe->head);
			char *page = pipe_get_page(pipe);
			size_t want = MIN((size_t)PAGE_SIZE, from->count), copied;

			if (!page) {
				if (!ret)
					ret = -ENOMEM;
				break;
			}
			copied = copy_from_iter(page, want, from);
			if (copied < want) {
				pipe->tmp_page = page;
				if (!ret)
					ret = -EFAULT;
				break;
			}
			buf->page = page;
			buf->offset = 0;
			buf->len = copied;
			pipe->head++;
			ret += copied;
			if (!from->count)
				break;
			poll_wakeup(pipe); /* readers may start on what is there */
			continue;
		}
		/* Full: wait for a reader to make room. */
		if (file->f_flags & O_NONBLOCK) {
			if (!ret)
				ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			if (!ret)
				ret = -ERESTARTSYS;
			break;
		}
		int err = pipe_wait(pipe, can_write);
		if (err) {
			if (!ret)
				ret = err;
			break;
		}
	}
out:
	if (ret > 0) {
		poll_wakeup(pipe);
		inode_touch_mtime(file->f_inode);
	}
	return ret;
}

/* ---- poll, ioctl, fcntl ------------------------------------------------------ */

static unsigned int pipe_poll(struct file *file)
{
	struct pipe_inode_info *pipe = file_pipe(file);
	unsigned int mask = 0;

	if (file->f_mode & FMODE_READ) {
		if (!pipe_empty(pipe))
			mask |= POLLIN | POLLRDNORM;
		/* A FIFO opened with O_NONBLOCK before any writer came does
		 * not report a hangup until a writer has come and gone. */
		if (!pipe->writers && file->f_version != pipe->w_counter)
			mask |= POLLHUP;
	}
	if (file->f_mode & FMODE_WRITE) {
		if (!pipe_full(pipe))
			mask |= POLLOUT | POLLWRNORM;
		if (!pipe->readers)
			mask |= POLLERR;
	}
	return mask;
}

static long pipe_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pipe_inode_info *pipe = file_pipe(file);
	int count = 0;

	if (cmd != FIONREAD)
		return -ENOTTY;
	for (unsigned int n = pipe->tail; n != pipe->head; n++)
		count += pipe_slot(pipe, n)->len;
	return copy_to_user((void __user *)arg, &count, sizeof(count)) ? -EFAULT : 0;
}

/* The new ring size in slots for F_SETPIPE_SZ: a power of two >= one page. */
static unsigned int round_pipe_slots(unsigned long size)
{
	unsigned int slots = 1;

	while ((unsigned long)slots * PAGE_SIZE < size)
		slots <<= 1;
	return slots;
}

/* Move the slots in use into a ring of nr_slots. 0, -EBUSY or -ENOMEM. */
static int pipe_resize(struct pipe_inode_info *pipe, unsigned int nr_slots)
{
	unsigned int used = pipe->head - pipe->tail;
	struct pipe_buffer *bufs;

	if (nr_slots < used)
		return -EBUSY;
	bufs = kzalloc(nr_slots * sizeof(*bufs));
	if (!bufs)
		return -ENOMEM;
	for (unsigned int k = 0; k < used; k++)
		bufs[k] = *pipe_slot(pipe, pipe->tail + k);
	kfree(pipe->bufs);
	pipe->bufs = bufs;
	pipe->ring_size = nr_slots;
	pipe->tail = 0;
	pipe->head = used;
	poll_wakeup(pipe); /* there may be room now */
	return 0;
}

long pipe_fcntl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pipe_inode_info *pipe;
	unsigned int slots;
	int err;

	if (file->f_op != &pipefifo_fops || !(pipe = file_pipe(file)))
		return -EBADF;
	switch (cmd) {
	case F_GETPIPE_SZ:
		return pipe->ring_size * PAGE_SIZE;
	case F_SETPIPE_SZ:
		if (arg > 0x80000000UL)
			return -EINVAL;
		slots = round_pipe_slots(arg);
		if ((unsigned long)slots * PAGE_SIZE > PIPE_MAX_SIZE && !capable(CAP_SYS_RESOURCE))
			return -EPERM;
		err = pipe_resize(pipe, slots);
		return err ? err : (long)(slots * PAGE_SIZE);
	default:
		return -EINVAL;
	}
}

/* ---- opening and closing ------------------------------------------------------ */

/* The last file on the pipe closed: free it. */
static void put_pipe_info(struct inode *inode, struct pipe_inode_info *pipe)
{
	if (--pipe->files == 0) {
		inode->i_private = NULL;
		free_pipe_info(pipe);
	}
}

static void pipe_release(struct inode *inode, struct file *file)
{
	struct pipe_inode_info *pipe = inode->i_private;

	if (file->f_mode & FMODE_READ)
		pipe->readers--;
	if (file->f_mode & FMODE_WRITE)
		pipe->writers--;
	/* The other side learns of end of file or of a broken pipe. */
	poll_wakeup(pipe);
	put_pipe_info(inode, pipe);
}

/* Sleep until *counter moves: the other end of a FIFO was opened. */
static int wait_for_partner(struct pipe_inode_info *pipe, unsigned int *counter)
{
	unsigned int cur = *counter;
	uint64_t flags = irq_save();

	while (*counter == cur && !signal_pending(current))
		sleep_on(pipe);
	irq_restore(flags);
	return *counter == cur ? -ERESTARTSYS : 0;
}

/* open(2) of a FIFO (Linux's fifo_open). */
static int fifo_open(struct inode *inode, struct file *file)
{
	struct pipe_inode_info *pipe = inode->i_private;
	int ret = 0;

	if (!pipe) {
		pipe = alloc_pipe_info();
		if (!pipe)
			return -ENOMEM;
		inode->i_private = pipe;
	}
	pipe->files++;
	nonseekable_open(file);
	file->f_version = 0;
	switch (file->f_mode & (FMODE_READ | FMODE_WRITE)) {
	case FMODE_READ:
		pipe->r_counter++;
		if (pipe->readers++ == 0)
			poll_wakeup(pipe);
		if (!pipe->writers) {
			if (file->f_flags & O_NONBLOCK)
				file->f_version = pipe->w_counter;
			else if (wait_for_partner(pipe, &pipe->w_counter)) {
				if (--pipe->readers == 0)
					poll_wakeup(pipe);
				ret = -ERESTARTSYS;
			}
		}
		break;
	case FMODE_WRITE:
		if ((file->f_flags & O_NONBLOCK) && !pipe->readers) {
			ret = -ENXIO;
			break;
		}
		pipe->w_counter++;
		if (pipe->writers++ == 0)
			poll_wakeup(pipe);
		if (!pipe->readers && wait_for_partner(pipe, &pipe->r_counter)) {
			if (--pipe->writers == 0)
				poll_wakeup(pipe);
			ret = -ERESTARTSYS;
		}
		break;
	case FMODE_READ | FMODE_WRITE:
		/* Never waits: this file is its own partner. */
		pipe->readers++;
		pipe->writers++;
		pipe->r_counter++;
		pipe->w_counter++;
		poll_wakeup(pipe);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	if (ret)
		put_pipe_info(inode, pipe);
	return ret;
}

const struct file_operations pipefifo_fops = {
	.open = fifo_open,
	.release = pipe_release,
	.read = pipe_read,
	.write = pipe_write,
	.ioctl = pipe_ioctl,
	.poll = pipe_poll,
};

/* ---- pipe(2) ---------------------------------------------------------------------- */

static struct super_block *pipe_sb;

/* pipefs: where the inodes of anonymous pipes live, made at the first pipe. */
static struct super_block *get_pipe_sb(void)
{
	if (!pipe_sb) {
		pipe_sb = kzalloc(sizeof(*pipe_sb));
		if (!pipe_sb)
			return NULL;
		pipe_sb->s_dev = get_anon_dev();
		pipe_sb->s_next_ino = 1;
		pipe_sb->s_type = "pipefs";
		pipe_sb->s_magic = PIPEFS_MAGIC;
		pipe_sb->s_drop_unused = true;
	}
	return pipe_sb;
}

static void pipefs_evict(struct inode *inode)
{
	if (inode->i_private) /* only if the files were never made */
		free_pipe_info(inode->i_private);
}

static const struct inode_operations pipefs_iops = {
	.evict = pipefs_evict,
};

/* A pipe: its read end and write end, with the given status flags. */
static int create_pipe_files(struct file **res, int flags)
{
	struct super_block *sb = get_pipe_sb();
	struct inode *inode;
	struct pipe_inode_info *pipe;

	if (!sb)
		return -ENOMEM;
	inode = new_inode(sb, S_IFIFO | 0600);
	if (!inode)
		return -ENOMEM;
	inode->i_nlink = 1; /* as fstat shows it; pipefs frees it when unused */
	inode->i_op = &pipefs_iops;
	inode->i_fop = &pipefifo_fops;
	pipe = alloc_pipe_info();
	if (!pipe) {
		iput(inode);
		return -ENOMEM;
	}
	inode->i_private = pipe;
	res[0] = alloc_file(NULL, inode, O_RDONLY | (flags & O_NONBLOCK), FMODE_READ);
	res[1] = res[0] ? alloc_file(NULL, inode, O_WRONLY | (flags & O_NONBLOCK), FMODE_WRITE) : NULL;
	if (!res[1]) {
		if (res[0]) {
			res[0]->f_op = NULL; /* no release: the pipe goes with the inode */
			fput(res[0]);
		}
		iput(inode);
		return -ENOMEM;
	}
	pipe->readers = pipe->writers = 1;
	pipe->r_counter = pipe->w_counter = 1;
	pipe->files = 2;
	nonseekable_open(res[0]);
	nonseekable_open(res[1]);
	iput(inode); /* the files hold it now */
	return 0;
}

long sys_pipe2(int __user *fildes, int flags)
{
	struct files_struct *files = current->files;
	struct file *f[2];
	int fd[2], err;

	/* O_DIRECT (Linux's "packet mode") is accepted and ignored. */
	if (flags & ~(O_CLOEXEC | O_NONBLOCK | O_DIRECT))
		return -EINVAL;
	err = create_pipe_files(f, flags);
	if (err)
		return err;
	fd[0] = get_unused_fd(files, 0);
	fd[1] = fd[0] < 0 ? fd[0] : get_unused_fd(files, fd[0] + 1);
	if (fd[1] < 0) {
		err = fd[1];
		goto fail;
	}
	if (copy_to_user(fildes, fd, sizeof(fd))) {
		err = -EFAULT;
		goto fail;
	}
	fd_install(files, fd[0], f[0], flags & O_CLOEXEC);
	fd_install(files, fd[1], f[1], flags & O_CLOEXEC);
	return 0;
fail:
	fput(f[0]);
	fput(f[1]);
	return err;
}

long sys_pipe(int __user *fildes)
{
	return sys_pipe2(fildes, 0);
}
