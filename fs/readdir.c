/*
 * readdir.c - getdents64 and getdents: a directory's entries as
 * linux_dirent64 records, or as the older linux_dirent (d_type in the
 * record's last byte, after the name).
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

struct linux_dirent {
	unsigned long d_ino;
	unsigned long d_off;
	uint16_t d_reclen;
	char d_name[];          /* then a NUL, padding, and d_type in the last byte */
} __packed;

struct getdents_callback {
	struct dir_context ctx;
	bool old;               /* linux_dirent, for getdents */
	char *buf;              /* kernel buffer */
	size_t size, used;
	void *prev;             /* last record, whose d_off is not yet known */
	int error;              /* -EINVAL if not even one record fits */
};

/* Set the d_off of the record before this one: where reading resumes. */
static void set_prev_off(struct getdents_callback *cb, loff_t off)
{
	if (!cb->prev)
		return;
	if (cb->old)
		((struct linux_dirent *)cb->prev)->d_off = off;
	else
		((struct linux_dirent64 *)cb->prev)->d_off = off;
}

static bool filldir64(struct dir_context *ctx, const char *name, size_t len,
		      ino_t ino, unsigned int type)
{
	struct getdents_callback *cb = container_of(ctx, struct getdents_callback, ctx);
	size_t reclen = cb->old ? ALIGN_UP(offsetof(struct linux_dirent, d_name) + len + 2, sizeof(long))
				: ALIGN_UP(offsetof(struct linux_dirent64, d_name) + len + 1, 8);
	char *rec;

	if (cb->used + reclen > cb->size) {
		if (!cb->prev)
			cb->error = -EINVAL;
		return false;
	}
	set_prev_off(cb, ctx->pos);
	rec = cb->buf + cb->used;
	memset(rec, 0, reclen);
	if (cb->old) {
		struct linux_dirent *de = (struct linux_dirent *)rec;
		de->d_ino = ino;
		de->d_reclen = reclen;
		memcpy(de->d_name, name, len);
		rec[reclen - 1] = type;
	} else {
		struct linux_dirent64 *de = (struct linux_dirent64 *)rec;
		de->d_ino = ino;
		de->d_reclen = reclen;
		de->d_type = type;
		memcpy(de->d_name, name, len);
	}
	cb->prev = rec;
	cb->used += reclen;
	return true;
}

static long do_getdents(int fd, void __user *dirent, unsigned int count, bool old)
{
	struct file *file = fcheck(fd);
	struct getdents_callback cb = { .ctx.actor = filldir64, .old = old };
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
		set_prev_off(&cb, cb.ctx.pos);
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

long sys_getdents64(int fd, void __user *dirent, unsigned int count)
{
	return do_getdents(fd, dirent, count, false);
}

long sys_getdents(int fd, void __user *dirent, unsigned int count)
{
	return do_getdents(fd, dirent, count, true);
}
