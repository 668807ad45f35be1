/*
 * readdir.c - getdents64: a directory's entries as linux_dirent64 records.
 *
 * The filesystem's ->iterate walks its entries from the file's position and
 * hands each to dir_emit; filldir64 below packs them into a kernel buffer,
 * which is copied to the user once at the end. Each record's d_off is the
 * position just after it, where a later getdents64 (or lseek) resumes.
 */
#include "vfs.h"
#include <mm.h>
#include <uaccess.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	uint16_t d_reclen;
	uint8_t d_type;
	char d_name[];
} __packed;

struct getdents_callback {
	struct dir_context ctx;
	char *buf;              /* kernel buffer */
	size_t size, used;
	struct linux_dirent64 *prev; /* last record, whose d_off is not yet known */
	int error;              /* -EINVAL if not even one record fits */
};

static bool filldir64(struct dir_context *ctx, const char *name, size_t len,
		      ino_t ino, unsigned int type)
{
	struct getdents_callback *cb = container_of(ctx, struct getdents_callback, ctx);
	size_t reclen = ALIGN_UP(offsetof(struct linux_dirent64, d_name) + len + 1, 8);
	struct linux_dirent64 *de;

	if (cb->used + reclen > cb->size) {
		if (!cb->prev)
			cb->error = -EINVAL;
		return false;
	}
	if (cb->prev)
		cb->prev->d_off = ctx->pos;
	de = (struct linux_dirent64 *)(cb->buf + cb->used);
	memset(de, 0, reclen);
	de->d_ino = ino;
	de->d_reclen = reclen;
	de->d_type = type;
	memcpy(de->d_name, name, len);
	cb->prev = de;
	cb->used += reclen;
	return true;
}

long sys_getdents64(int fd, void __user *dirent, unsigned int count)
{
	struct file *file = fcheck(fd);
	struct getdents_callback cb = { .ctx.actor = filldir64 };
	long ret;

	if (!file || (file->f_mode & FMODE_PATH))
		return -EBADF;
	if (!file->f_op || !file->f_op->iterate)
		return -ENOTDIR;
	if (file->f_dentry && d_unlinked(file->f_dentry))
		return -ENOENT; /* a removed directory has no entries left, not even "." */
	/* One page at most: a short answer is allowed, and a page is always
	 * easy to find, where a larger buffer needs contiguous memory. */
	cb.size = MIN(count, (unsigned int)PAGE_SIZE);
	cb.buf = kmalloc(cb.size ? cb.size : 1);
	if (!cb.buf)
		return -ENOMEM;
	cb.ctx.pos = file->f_pos;
	ret = file->f_op->iterate(file, &cb.ctx);
	if (ret == 0 && cb.error)
		ret = cb.error;
	if (ret == 0 && cb.prev) {
		cb.prev->d_off = cb.ctx.pos;
		if (copy_to_user(dirent, cb.buf, cb.used))
			ret = -EFAULT;
		else
			ret = cb.used;
	}
	if (ret >= 0)
		file->f_pos = cb.ctx.pos;
	kfree(cb.buf);
	return ret;
}
