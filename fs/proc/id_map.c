/*
 * id_map.c - /proc/PID/uid_map, gid_map and setgroups: the files of the
 * process's user namespace (kernel/user_namespace_map.c has the rules).
 *
 * Opening one takes a reference on the namespace and on the opener's
 * credentials: what a read shows and what a write may do depend on who
 * opened the file (Linux's file->f_cred), not on who reads or writes it,
 * so that a privileged program cannot be tricked into writing a map
 * through a descriptor it was handed.
 */
#include "../vfs.h"
#include "internal.h"
#include <cred.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <linux/user_namespace.h>

struct id_map_file {
	struct user_namespace *ns;
	const struct cred *opener;
};

static int id_map_open(struct inode *inode, struct file *file)
{
	struct task *t = inode_task(inode);
	struct id_map_file *f;

	if (!t)
		return -ESRCH;
	f = kmalloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->ns = get_user_ns(task_cred(t)->user_ns);
	f->opener = get_cred(current_cred());
	file->private_data = f;
	file->f_mode &= ~FMODE_PWRITE; /* a seq_file in Linux: pwrite is ESPIPE */
	return 0;
}

/* setgroups: opening it to write needs CAP_SYS_ADMIN in the namespace. */
static int setgroups_open(struct inode *inode, struct file *file)
{
	struct task *t = inode_task(inode);

	if (!t)
		return -ESRCH;
	if ((file->f_mode & FMODE_WRITE) && !ns_capable(task_cred(t)->user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	return id_map_open(inode, file);
}

static void id_map_release(struct inode *inode, struct file *file)
{
	struct id_map_file *f = file->private_data;

	(void)inode;
	put_user_ns(f->ns);
	put_cred(f->opener);
	kfree(f);
}

/* The part of text (len bytes) from *pos on into to. */
static ssize_t read_text(const char *text, size_t len, struct iov_iter *to, loff_t *pos)
{
	size_t n;

	if (*pos < 0 || (size_t)*pos >= len)
		return 0;
	n = copy_to_iter(text + *pos, MIN(len - (size_t)*pos, to->count), to);
	if (!n && to->count)
		return -EFAULT;
	*pos += (loff_t)n;
	return (ssize_t)n;
}

/* 34 bytes a line ("%10u %10u %10u\n"), 340 lines at most. */
#define MAP_TEXT_MAX (34 * UID_GID_MAP_MAX_EXTENTS + 1)

static ssize_t map_read(struct file *file, struct iov_iter *to, loff_t *pos, bool gid)
{
	struct id_map_file *f = file->private_data;
	char *text = kmalloc(MAP_TEXT_MAX);
	ssize_t ret;

	if (!text)
		return -ENOMEM;
	ret = read_text(text, userns_map_text(text, MAP_TEXT_MAX, f->ns, gid, f->opener->user_ns), to, pos);
	kfree(text);
	return ret;
}

/* What a write gives, NUL-terminated, into *text (kmalloc'd): only at
 * offset 0 and shorter than max bytes (EINVAL), as Linux takes them. */
static ssize_t write_text(struct iov_iter *from, loff_t *pos, size_t max, char **text)
{
	size_t count = from->count;

	if (*pos != 0 || count >= max)
		return -EINVAL;
	*text = kmalloc(count + 1);
	if (!*text)
		return -ENOMEM;
	if (copy_from_iter(*text, count, from) != count) {
		kfree(*text);
		return -EFAULT;
	}
	(*text)[count] = '\0';
	return (ssize_t)count;
}

/* A map is one write of less than a page. */
static ssize_t map_write(struct file *file, struct iov_iter *from, loff_t *pos, bool gid)
{
	struct id_map_file *f = file->private_data;
	char *text;
	ssize_t ret = userns_map_writer_check(f->ns, f->opener);

	if (ret < 0 || (ret = write_text(from, pos, PAGE_SIZE, &text)) < 0)
		return ret;
	ret = userns_map_write(f->ns, gid, text, (size_t)ret, f->opener);
	kfree(text);
	if (ret > 0)
		*pos = ret;
	return ret;
}

static ssize_t uid_map_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	return map_read(file, to, pos, false);
}

static ssize_t gid_map_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	return map_read(file, to, pos, true);
}

static ssize_t uid_map_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	return map_write(file, from, pos, false);
}

static ssize_t gid_map_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	return map_write(file, from, pos, true);
}

static ssize_t setgroups_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct id_map_file *f = file->private_data;
	const char *text = (f->ns->flags & USERNS_SETGROUPS_ALLOWED) ? "allow\n" : "deny\n";

	return read_text(text, strlen(text), to, pos);
}

/* Linux takes at most 7 bytes ("allow" and a few spaces). */
static ssize_t setgroups_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	struct id_map_file *f = file->private_data;
	char *text;
	ssize_t ret = write_text(from, pos, 8, &text);

	if (ret < 0)
		return ret;
	ret = userns_setgroups_write(f->ns, text, (size_t)ret);
	kfree(text);
	if (ret > 0)
		*pos = ret;
	return ret;
}

const struct file_operations proc_uid_map_fops = {
	.open = id_map_open,
	.release = id_map_release,
	.read = uid_map_read,
	.write = uid_map_write,
	.llseek = generic_file_llseek,
};

const struct file_operations proc_gid_map_fops = {
	.open = id_map_open,
	.release = id_map_release,
	.read = gid_map_read,
	.write = gid_map_write,
	.llseek = generic_file_llseek,
};

const struct file_operations proc_setgroups_fops = {
	.open = setgroups_open,
	.release = id_map_release,
	.read = setgroups_read,
	.write = setgroups_write,
	.llseek = generic_file_llseek,
};
