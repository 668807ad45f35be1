/*
 * kernel_read_file.c - a whole file into kernel memory, for finit_module
 * (Linux's fs/kernel_read_file.c).
 *
 * The file is closed to writers while it is read (ETXTBSY if someone has
 * it open for writing), so the module loaded is the file as it was when
 * the call began.
 */
#include "vfs.h"
#include <vmalloc.h>

ssize_t kernel_read_file_from_fd(int fd, void **buf, size_t max_size)
{
	struct file *file = fget(fd);
	loff_t size, pos = 0;
	ssize_t ret;
	char *data;

	*buf = NULL;
	/* Linux's fdget does not hand out O_PATH descriptors either. */
	if (!file || !(file->f_mode & FMODE_READ)) {
		ret = -EBADF;
		goto out_put;
	}
	if (!S_ISREG(file->f_inode->i_mode)) {
		ret = -EINVAL;
		goto out_put;
	}
	ret = deny_write_access(file);
	if (ret)
		goto out_put;
	size = file->f_inode->i_size;
	ret = -EINVAL;
	if (size <= 0)
		goto out_allow;
	ret = -EFBIG;
	if ((uint64_t)size > max_size)
		goto out_allow;
	ret = -ENOMEM;
	data = vmalloc(size);
	if (!data)
		goto out_allow;
	while (pos < size) {
		ssize_t n = kernel_read(file, data + pos, size - pos, pos);

		if (n <= 0) {
			ret = n < 0 ? n : -EIO; /* shorter than its size */
			vfree(data);
			goto out_allow;
		}
		pos += n;
	}
	*buf = data;
	ret = size;
out_allow:
	allow_write_access(file);
out_put:
	if (file)
		fput(file);
	return ret;
}
