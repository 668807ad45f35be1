/*
 * root.c - procfs: the filesystem behind /proc, and the registry that
 * the rest of the kernel adds files to (include/proc_fs.h).
 *
 * Reading a /proc file: the first read at offset 0 runs the file's show
 * function into a seq_file buffer kept with the open file; reads copy from
 * it, so a text made of several read(2) calls is consistent, and a reader
 * that seeks back to 0 gets a fresh text. If the text does not fit, the
 * buffer is doubled and the show function runs again (up to PROC_MAX_TEXT).
 * /proc files report size 0, as in Linux: readers read to end of file
 * (but those made by proc_create_size).
 *
 * See internal.h for how entries become inodes and dentries.
 */
#include "internal.h"
#include <mm.h>
#include <sched.h>
#include <uaccess.h>

#define PROC_MAX_TEXT (4UL << 20)       /* the largest text a show function may make */

/* ---- seq_file ------------------------------------------------------------ */

void seq_write(struct seq_file *m, const void *data, size_t len)
{
	if (m->count + len > m->size) {
		m->count = m->size; /* overflow: the caller retries with more room */
		return;
	}
	memcpy(m->buf + m->count, data, len);
	m->count += len;
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	size_t room = m->size - m->count;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->count, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		m->count = m->size;
	else
		m->count += n;
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_write(m, s, strlen(s));
}

void seq_putc(struct seq_file *m, char c)
{
	seq_write(m, &c, 1);
}

/* ---- the registry ------------------------------------------------------------ */

static struct proc_dir_entry proc_root = {
	.name = "",
	.mode = S_IFDIR | 0555,
	.ino = PROC_ROOT_INO,
};
/* Inode numbers of registered entries, as Linux: from PROC_DYNAMIC_FIRST (nsproxy.h). */
static ino_t next_proc_ino = PROC_DYNAMIC_FIRST;

static struct proc_dir_entry *pde_find(const struct proc_dir_entry *dir, const char *name, size_t len)
{
	for (struct proc_dir_entry *e = dir->first_child; e; e = e->next)
		if (e->namelen == len && memcmp(e->name, name, len) == 0)
			return e;
	return NULL;
}

static struct proc_dir_entry *pde_add(struct proc_dir_entry *dir, const char *name, size_t len, mode_t mode)
{
	struct proc_dir_entry *e = kzalloc(sizeof(*e));

	if (!e)
		return NULL;
	e->name = kmalloc(len + 1);
	if (!e->name) {
		kfree(e);
		return NULL;
	}
	memcpy(e->name, name, len);
	e->name[len] = '\0';
	e->namelen = len;
	e->mode = mode;
	e->ino = next_proc_ino++;
	e->parent = dir;
	if (dir->last_child)
		dir->last_child->next = e;
	else
		dir->first_child = e;
	dir->last_child = e;
	return e;
}

/*
 * Make the entry at path with the given mode, creating the directories on
 * the way. mode 0 asks for a directory that may already exist.
 */
static int pde_create(const char *path, mode_t mode, struct proc_dir_entry **res)
{
	struct proc_dir_entry *dir = &proc_root;
	const char *p = path;

	for (;;) {
		const char *name;
		size_t len;
		struct proc_dir_entry *e;

		while (*p == '/')
			p++;
		name = p;
		while (*p && *p != '/')
			p++;
		len = p - name;
		if (len == 0 || len > NAME_MAX || (len <= 2 && name[0] == '.' && name[len - 1] == '.'))
			return -EINVAL;
		while (*p == '/')
			p++;
		e = pde_find(dir, name, len);
		if (!*p) { /* the last component */
			if (e) {
				if (mode == 0 && S_ISDIR(e->mode)) {
					*res = e;
					return 0;
				}
				return -EEXIST;
			}
			e = pde_add(dir, name, len, mode ? mode : S_IFDIR | 0555);
			if (!e)
				return -ENOMEM;
			*res = e;
			return 0;
		}
		if (!e)
			e = pde_add(dir, name, len, S_IFDIR | 0555);
		if (!e)
			return -ENOMEM;
		if (!S_ISDIR(e->mode))
			return -ENOTDIR;
		dir = e;
	}
}

int proc_create_size(const char *path, mode_t mode, loff_t size, proc_show_t show,
		     proc_write_t write)
{
	struct proc_dir_entry *e;
	int err = pde_create(path, S_IFREG | (mode & 07777), &e);

	if (err)
		return err;
	e->show = show;
	e->write = write;
	e->size = size;
	return 0;
}

int proc_create(const char *path, mode_t mode, proc_show_t show, proc_write_t write)
{
	return proc_create_size(path, mode, 0, show, write);
}

int proc_mkdir(const char *path)
{
	struct proc_dir_entry *e;
	return pde_create(path, 0, &e);
}

int proc_symlink(const char *path, const char *target)
{
	struct proc_dir_entry *e;
	size_t len = strlen(target);
	char *copy = kmalloc(len + 1);
	int err;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, target, len + 1);
	err = pde_create(path, S_IFLNK | 0777, &e);
	if (err) {
		kfree(copy);
		return err;
	}
	e->link = copy;
	return 0;
}

/* ---- inodes and dentries --------------------------------------------------------- */

static const struct inode_operations proc_dir_iops;
static const struct file_operations proc_dir_fops;

void proc_evict(struct inode *inode)
{
	struct proc_inode *pi = PROC_I(inode);

	if (pi)
		kfree(pi->link);
	kfree(pi);
}

static const char *proc_get_link(struct inode *inode)
{
	return PROC_I(inode)->link;
}

const struct inode_operations proc_link_iops = {
	.get_link = proc_get_link,
	.evict = proc_evict,
};

static const struct inode_operations proc_file_iops = {
	.evict = proc_evict,
};

struct inode *proc_new_inode(struct super_block *sb, mode_t mode, ino_t ino)
{
	struct inode *inode = new_inode(sb, mode);

	if (!inode)
		return NULL;
	inode->i_private = kzalloc(sizeof(struct proc_inode));
	if (!inode->i_private) {
		iput(inode);
		return NULL;
	}
	PROC_I(inode)->fd = -1;
	inode->i_ino = ino;
	inode->i_uid = inode->i_gid = 0;
	inode->i_nlink = 1;
	switch (mode & S_IFMT) {
	case S_IFDIR:
		inode->i_nlink = 2;
		inode->i_op = &proc_dir_iops;
		inode->i_fop = &proc_dir_fops;
		break;
	case S_IFLNK:
		inode->i_op = &proc_link_iops;
		break;
	default:
		inode->i_op = &proc_file_iops;
		inode->i_fop = &proc_file_fops;
		break;
	}
	return inode;
}

struct dentry *proc_detached_dentry(struct dentry *parent, const char *name, size_t len,
				   struct inode *inode)
{
	struct dentry *d = d_alloc(parent, name, len);

	if (!d) {
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	d->d_inode = inode;
	d->d_flags |= DCACHE_DETACHED;
	return d;
}

/* An inode for a registered entry. */
static struct inode *pde_inode(struct super_block *sb, const struct proc_dir_entry *e)
{
	struct inode *inode = proc_new_inode(sb, e->mode, e->ino);

	if (!inode)
		return NULL;
	PROC_I(inode)->pde = e;
	inode->i_size = e->size;
	if (e->link) {
		size_t len = strlen(e->link);
		PROC_I(inode)->link = kmalloc(len + 1);
		if (!PROC_I(inode)->link) {
			iput(inode);
			return NULL;
		}
		memcpy(PROC_I(inode)->link, e->link, len + 1);
		inode->i_size = len;
	}
	return inode;
}

/* ---- directories of registered entries (the root, /proc/sys, ...) ---------------- */

/*
 * A registered entry gets a dentry linked into the tree: it stays. A name
 * that is not there is ENOENT at once, as from Linux's proc_lookup_de, so
 * that creating one (open O_CREAT, mkdir: in /proc, /proc/sys, the empty
 * /proc/sys/fs/binfmt_misc) is ENOENT, not the EACCES of a directory that
 * cannot create.
 */
static struct dentry *proc_lookup(struct inode *dir, struct dentry *parent, const char *name, size_t len)
{
	const struct proc_dir_entry *de = PROC_I(dir)->pde;
	const struct proc_dir_entry *e = de ? pde_find(de, name, len) : NULL;
	struct inode *inode;
	struct dentry *d;

	if (de == &proc_root && proc_pid_only(dir->i_sb))
		e = NULL; /* subset=pid: the processes only */
	if (!e && de == &proc_root) {
		d = proc_pid_lookup(parent, name, len);
		if (d)
			return d;
	}
	/* subset=pid: nothing but the processes (and self, thread-self). */
	if (de == &proc_root && proc_sb_info(dir->i_sb) && proc_sb_info(dir->i_sb)->pidonly)
		return ERR_PTR(-ENOENT);
	if (!e)
		return ERR_PTR(-ENOENT);
	inode = pde_inode(dir->i_sb, e);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	d = d_alloc(parent, name, len);
	if (!d) {
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	d_add(d, inode);
	return d;
}

static int proc_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file->f_inode;
	const struct proc_dir_entry *de = PROC_I(inode)->pde;
	loff_t pos = DIR_POS_FIRST;

	if (!dir_emit_dots(ctx, inode->i_ino, de->parent ? de->parent->ino : PROC_ROOT_INO))
		return 0;
	for (const struct proc_dir_entry *e = de->first_child; e; e = e->next, pos++) {
		if (pos < ctx->pos || (de == &proc_root && proc_pid_only(inode->i_sb)))
			continue;
		if (!dir_emit(ctx, e->name, e->namelen, e->ino, mode_to_dt(e->mode)))
			return 0;
		ctx->pos = pos + 1;
	}
	if (de == &proc_root) {
		if (ctx->pos < PROC_SELF_POS)
			ctx->pos = PROC_SELF_POS;
		proc_pid_readdir(inode->i_sb, ctx);
	}
	return 0;
}

static const struct inode_operations proc_dir_iops = {
	.lookup = proc_lookup,
	.evict = proc_evict,
};

static const struct file_operations proc_dir_fops = {
	.llseek = generic_file_llseek,
	.iterate = proc_readdir,
};

/* ---- files ----------------------------------------------------------------------- */

int proc_show(struct inode *inode, struct seq_file *m)
{
	struct proc_inode *pi = PROC_I(inode);

	if (pi->pent)
		return proc_pid_show(inode, m);
	if (pi->net_entry)
		return proc_net_show(inode, m);
	if (!pi->pde || !pi->pde->show)
		return -EIO;
	return pi->pde->show(m);
}

int proc_write(struct inode *inode, const char *buf, size_t count)
{
	struct proc_inode *pi = PROC_I(inode);

	if (pi->pent)
		return proc_pid_write(inode, buf, count);
	if (!pi->pde || !pi->pde->write)
		return -EIO;
	return pi->pde->write(buf, count);
}

/* Make the file's text afresh. 0 or -errno. */
static int seq_fill(struct file *file)
{
	struct seq_file *m = file->private_data;
	size_t size = PAGE_SIZE;

	for (;;) {
		int err;

		kfree(m->buf);
		m->buf = kmalloc(size);
		if (!m->buf)
			return -ENOMEM;
		m->size = size;
		m->count = 0;
		m->pid_ns = proc_pid_ns(file->f_inode->i_sb);
		err = proc_show(file->f_inode, m);
		if (err)
			return err;
		if (m->count < m->size)
			return 0;
		if (size >= PROC_MAX_TEXT)
			return 0; /* what fitted */
		size *= 2;
	}
}

static int proc_open(struct inode *inode, struct file *file)
{
	if (PROC_I(inode)->pent) {
		int err = proc_pid_open(inode);
		if (err)
			return err;
	}
	file->private_data = kzalloc(sizeof(struct seq_file));
	return file->private_data ? 0 : -ENOMEM;
}

static void proc_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	(void)inode;
	if (m)
		kfree(m->buf);
	kfree(m);
}

static ssize_t proc_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct seq_file *m = file->private_data;
	size_t n, copied;

	if (*pos == 0 || !m->buf) {
		int err = seq_fill(file);
		if (err) {
			kfree(m->buf);
			m->buf = NULL;
			return err;
		}
	}
	if (*pos >= (loff_t)m->count)
		return 0;
	n = MIN(to->count, m->count - (size_t)*pos);
	copied = copy_to_iter(m->buf + *pos, n, to);
	if (copied == 0)
		return -EFAULT;
	*pos += copied;
	return copied;
}

static ssize_t proc_write_file(struct file *file, struct iov_iter *from, loff_t *pos)
{
	size_t count = MIN(from->count, PAGE_SIZE - 1);
	char *buf = kmalloc(count + 1);
	int err;

	(void)pos;
	if (!buf)
		return -ENOMEM;
	if (count == 0) {
		kfree(buf);
		return 0;
	}
	if (copy_from_iter(buf, count, from) < count) {
		kfree(buf);
		return -EFAULT;
	}
	buf[count] = '\0';
	err = proc_write(file->f_inode, buf, count);
	kfree(buf);
	return err ? err : (ssize_t)count;
}

const struct file_operations proc_file_fops = {
	.open = proc_open,
	.release = proc_release,
	.read = proc_read,
	.write = proc_write_file,
	.llseek = generic_file_llseek,
};

/* ---- mounting ------------------------------------------------------------------------ */

static void proc_free_fs_info(struct super_block *sb)
{
	struct proc_fs_info *fs = sb->s_fs_info;

	if (fs)
		put_pid_ns(fs->pid_ns);
	kfree(fs);
}

struct pid_namespace *proc_pid_ns(struct super_block *sb)
{
	struct proc_fs_info *fs = sb->s_fs_info;

	return fs ? fs->pid_ns : &init_pid_ns;
}

bool proc_pid_only(struct super_block *sb)
{
	struct proc_fs_info *fs = sb->s_fs_info;

	return fs && fs->pidonly;
}

/* A new instance of procfs (each mount gets its own). It shows the
 * processes of the mounter's pid namespace, numbered as it numbers them;
 * its options (hidepid=, gid=, subset=pid) come from its mount context
 * (fs/namespace_move.c). */
struct super_block *proc_mount(void)
{
	struct super_block *sb = kzalloc(sizeof(*sb));
	struct proc_fs_info *fs = kzalloc(sizeof(*fs));
	struct inode *root;

	if (!sb || !fs) {
		kfree(sb);
		kfree(fs);
		return NULL;
	}
	fs->pid_ns = get_pid_ns(task_active_pid_ns(current));
	sb->s_fs_info = fs; /* freed with sb, on every path below */
	sb->s_free_fs_info = proc_free_fs_info;
	sb->s_type = "proc";
	sb->s_magic = PROC_SUPER_MAGIC;
	sb->s_drop_unused = true;
	root = pde_inode(sb, &proc_root);
	if (root)
		sb->s_root = d_make_root(root);
	if (!sb->s_root) {
		sb->s_unmounted = true; /* freed with the root inode */
		if (root) {
			iput(root);
		} else {
			proc_free_fs_info(sb);
			kfree(sb);
		}
		return NULL;
	}
	sb->s_dev = get_anon_dev();
	return sb;
}

/* The fixed files, registered at boot (vfs_init). */
void proc_root_init(void)
{
	proc_misc_init();
}
