/*
 * read_write.c - moving bytes: read, write, their vector and positioned
 * forms, lseek, and kernel_read/kernel_write for the kernel's own use.
 *
 * Every transfer is described by an iov_iter: a list of (address, length)
 * segments in user or kernel space. A filesystem's ->read and ->write see
 * only the iov_iter, so one implementation serves read(2), readv(2) and the
 * exec loader's kernel_read. User segments are copied with the uaccess
 * helpers; a bad address ends the transfer, and the call returns what was
 * done before it or -EFAULT if nothing was.
 *
 * sendfile copies between two files through a kernel buffer, a page at a
 * time (Linux splices pages; busybox's cat uses it for every file).
 */
#include "vfs.h"
#include <mm.h>
#include <sched.h>
#include <uaccess.h>

#define UIO_MAXIOV 1024

/* ---- iov_iter ------------------------------------------------------------ */

void iov_iter_init(struct iov_iter *i, bool user, const struct iovec *iov,
		   unsigned long nr_segs, size_t count)
{
	i->user = user;
	i->iov = iov;
	i->nr_segs = nr_segs;
	i->iov_offset = 0;
	i->count = count;
	/* Skip empty leading segments so iov[0] always has room while count > 0. */
	while (i->nr_segs && i->iov->iov_len == 0) {
		i->iov++;
		i->nr_segs--;
	}
}

static void iov_iter_advance(struct iov_iter *i, size_t n)
{
	i->count -= n;
	i->iov_offset += n;
	while (i->nr_segs && i->iov_offset >= i->iov->iov_len) {
		i->iov_offset -= i->iov->iov_len;
		i->iov++;
		i->nr_segs--;
	}
	if (i->count == 0)
		i->nr_segs = 0;
}

/*
 * The common loop of the copy helpers: for each piece of the current
 * segment, call step(segment address, kernel buffer offset, length).
 * Returns the bytes done; stops early if step fails.
 */
enum iter_dir { ITER_TO, ITER_FROM, ITER_ZERO };

static size_t iter_copy(struct iov_iter *i, char *kbuf, size_t n, enum iter_dir dir)
{
	size_t done = 0;

	n = MIN(n, i->count);
	while (done < n && i->nr_segs) {
		char *seg = (char *)i->iov->iov_base + i->iov_offset;
		size_t len = MIN(n - done, i->iov->iov_len - i->iov_offset);
		int err = 0;

		if (dir == ITER_TO)
			err = i->user ? copy_to_user(seg, kbuf + done, len) : (memcpy(seg, kbuf + done, len), 0);
		else if (dir == ITER_FROM)
			err = i->user ? copy_from_user(kbuf + done, seg, len) : (memcpy(kbuf + done, seg, len), 0);
		else
			err = i->user ? clear_user(seg, len) : (memset(seg, 0, len), 0);
		if (err)
			break;
		done += len;
		iov_iter_advance(i, len);
	}
	return done;
}

size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i)
{
	return iter_copy(i, (char *)src, n, ITER_TO);
}

size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i)
{
	return iter_copy(i, dst, n, ITER_FROM);
}

size_t iov_iter_zero(size_t n, struct iov_iter *i)
{
	return iter_copy(i, NULL, n, ITER_ZERO);
}

/* ---- the dispatchers -------------------------------------------------------- */

ssize_t vfs_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	if (S_ISDIR(file->f_inode->i_mode))
		return -EISDIR;
	if (!file->f_op || !file->f_op->read)
		return -EINVAL;
	if (to->count > MAX_RW_COUNT)
		to->count = MAX_RW_COUNT;
	if (to->count == 0)
		return 0;
	return file->f_op->read(file, to, pos);
}

ssize_t vfs_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!file->f_op || !file->f_op->write)
		return -EINVAL;
	if (from->count > MAX_RW_COUNT)
		from->count = MAX_RW_COUNT;
	/* Even a write of 0 bytes reaches the file, as in Linux: /dev/full
	 * says ENOSPC, binfmt_misc's register EINVAL; most return 0. */
	return file->f_op->write(file, from, pos);
}

ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t pos)
{
	struct iovec iov = { buf, count };
	struct iov_iter it;

	iov_iter_init(&it, false, &iov, 1, count);
	return vfs_read(file, &it, &pos);
}

ssize_t kernel_write(struct file *file, const void *buf, size_t count, loff_t pos)
{
	struct iovec iov = { (void *)buf, count };
	struct iov_iter it;

	iov_iter_init(&it, false, &iov, 1, count);
	return vfs_write(file, &it, &pos);
}

/* ---- system calls ------------------------------------------------------------ */

/* One transfer on fd: the common body of read, write, readv, ..., pwritev.
 * pos < 0 means "at the file's offset". */
static ssize_t do_rw(int fd, struct iov_iter *it, loff_t pos, bool write)
{
	struct file *file = fget(fd);
	ssize_t ret;

	if (!file)
		return -EBADF;
	if (file->f_mode & FMODE_PATH)
		ret = -EBADF;
	else if (pos >= 0 && !(file->f_mode & (write ? FMODE_PWRITE : FMODE_PREAD)))
		ret = -ESPIPE;
	else if (pos >= 0)
		ret = write ? vfs_write(file, it, &pos) : vfs_read(file, it, &pos);
	else
		ret = write ? vfs_write(file, it, &file->f_pos) : vfs_read(file, it, &file->f_pos);
	fput(file);
	return ret;
}

static ssize_t do_rw_one(int fd, void __user *buf, size_t count, loff_t pos, bool write)
{
	struct iovec iov = { buf, count };
	struct iov_iter it;

	if ((ssize_t)count < 0)
		count = MAX_RW_COUNT;   /* Linux caps, it does not refuse */
	iov.iov_len = count;
	iov_iter_init(&it, true, &iov, 1, count);
	return do_rw(fd, &it, pos, write);
}

/* Copy a user iovec array in: EINVAL for a bad count or length. */
static ssize_t do_rw_vec(int fd, const struct iovec __user *uvec, int vlen, loff_t pos, bool write)
{
	struct iovec *iov;
	struct iov_iter it;
	size_t total = 0;
	ssize_t ret;

	if (vlen < 0 || vlen > UIO_MAXIOV)
		return -EINVAL;
	if (vlen == 0) {
		struct file *file = fcheck(fd);
		return file && !(file->f_mode & FMODE_PATH) ? 0 : -EBADF;
	}
	iov = kmalloc(vlen * sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	if (copy_from_user(iov, uvec, vlen * sizeof(*iov))) {
		kfree(iov);
		return -EFAULT;
	}
	for (int k = 0; k < vlen; k++) {
		if ((ssize_t)iov[k].iov_len < 0) {
			kfree(iov);
			return -EINVAL;
		}
		if (iov[k].iov_len > MAX_RW_COUNT - total)
			iov[k].iov_len = MAX_RW_COUNT - total;
		total += iov[k].iov_len;
	}
	iov_iter_init(&it, true, iov, vlen, total);
	ret = do_rw(fd, &it, pos, write);
	kfree(iov);
	return ret;
}

long sys_read(int fd, char __user *buf, size_t count)
{
	return do_rw_one(fd, buf, count, -1, false);
}

long sys_write(int fd, const char __user *buf, size_t count)
{
	return do_rw_one(fd, (void __user *)buf, count, -1, true);
}

long sys_pread64(int fd, char __user *buf, size_t count, loff_t pos)
{
	if (pos < 0)
		return -EINVAL;
	return do_rw_one(fd, buf, count, pos, false);
}

long sys_pwrite64(int fd, const char __user *buf, size_t count, loff_t pos)
{
	if (pos < 0)
		return -EINVAL;
	return do_rw_one(fd, (void __user *)buf, count, pos, true);
}

long sys_readv(int fd, const struct iovec __user *vec, int vlen)
{
	return do_rw_vec(fd, vec, vlen, -1, false);
}

long sys_writev(int fd, const struct iovec __user *vec, int vlen)
{
	return do_rw_vec(fd, vec, vlen, -1, true);
}

/* preadv/pwritev: the offset comes split in two registers (low, high). */
long sys_preadv(int fd, const struct iovec __user *vec, int vlen, unsigned long lo, unsigned long hi)
{
	loff_t pos = (loff_t)(lo | (hi << 32 << 32));
	return pos < 0 ? -EINVAL : do_rw_vec(fd, vec, vlen, pos, false);
}

long sys_pwritev(int fd, const struct iovec __user *vec, int vlen, unsigned long lo, unsigned long hi)
{
	loff_t pos = (loff_t)(lo | (hi << 32 << 32));
	return pos < 0 ? -EINVAL : do_rw_vec(fd, vec, vlen, pos, true);
}

long sys_lseek(int fd, loff_t offset, unsigned int whence)
{
	struct file *file = fcheck(fd);

	if (!file || (file->f_mode & FMODE_PATH))
		return -EBADF;
	if (whence > SEEK_HOLE)
		return -EINVAL;
	if (!(file->f_mode & FMODE_LSEEK) || !file->f_op || !file->f_op->llseek)
		return -ESPIPE;
	return file->f_op->llseek(file, offset, whence);
}

/* ---- sendfile ------------------------------------------------------------------- */

long sys_sendfile(int out_fd, int in_fd, loff_t __user *offset, size_t count)
{
	struct file *in = fget(in_fd), *out = fget(out_fd);
	loff_t pos = 0, *ppos;
	size_t done = 0;
	char *buf = NULL;
	long ret;

	ret = -EBADF;
	if (!in || !(in->f_mode & FMODE_READ) || !out || !(out->f_mode & FMODE_WRITE))
		goto out;
	ret = -EFAULT;
	if (offset && copy_from_user(&pos, offset, sizeof(pos)))
		goto out;
	ret = -ESPIPE;
	if (offset && !(in->f_mode & FMODE_PREAD))
		goto out;
	ret = -EINVAL;
	if ((offset && pos < 0) || (out->f_flags & O_APPEND))
		goto out;
	ppos = offset ? &pos : &in->f_pos;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	ret = 0;
	if (count == 0)
		goto out;
	ret = -ENOMEM;
	buf = kmalloc(PAGE_SIZE);
	if (!buf)
		goto out;
	ret = 0;
	while (done < count) {
		size_t want = MIN(count - done, (size_t)PAGE_SIZE);
		struct iovec iov = { buf, want };
		struct iov_iter it;
		loff_t rpos = *ppos;
		ssize_t n, w;

		iov_iter_init(&it, false, &iov, 1, want);
		n = vfs_read(in, &it, &rpos);
		if (n <= 0) {
			ret = n;
			break;
		}
		iov.iov_len = n;
		iov_iter_init(&it, false, &iov, 1, n);
		w = vfs_write(out, &it, &out->f_pos);
		if (w <= 0) {
			ret = w;
			break;
		}
		/* The input moves by what was written: the rest is read again. */
		*ppos += w;
		done += w;
		if (w < n || (size_t)n < want || signal_pending(current))
			break;
	}
	if (done)
		ret = done;
	if (offset && copy_to_user(offset, &pos, sizeof(pos)))
		ret = -EFAULT;
out:
	kfree(buf);
	if (in)
		fput(in);
	if (out)
		fput(out);
	return ret;
}
