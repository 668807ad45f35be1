/*
 * ramfs.c - the in-memory filesystem that holds the root of the tree.
 *
 * Everything lives in kernel memory and is gone at power-off, like Linux's
 * rootfs (tmpfs) that the initramfs is unpacked into:
 *   - a regular file keeps its bytes in whole pages, found through an array
 *     of page pointers indexed by offset / PAGE_SIZE. The array grows by
 *     doubling; a missing page (a hole) reads as zeros. Bytes past i_size
 *     inside a page are always zero, so growing a file never shows old data.
 *     These pages are the file's page cache: mmap maps them as they are
 *     (find_get_page, for mm/fault.c), so a page may have other owners
 *     than the file. The file holds one reference to each (put_page, never
 *     free_page); truncation unmaps the pages past the new end from every
 *     mapping (unmap_mapping_range), as Linux does.
 *   - a directory is its list of child dentries (see dcache.c); its size is
 *     reported as tmpfs does (20 bytes an entry, 40 when empty), or as 0 on
 *     a filesystem mounted as "ramfs", like Linux's ramfs.
 *   - a symlink keeps its target as a string.
 *   - device nodes have no data: opening one goes to fs/char_dev.c.
 * A regular file of a tmpfs has seals (mm/memfd.c): writes, truncation and
 * fallocate check them here, with EPERM, as Linux's shmem does.
 */
#include "vfs.h"
#include <memfd.h>
#include <mm.h>
#include <vm.h>

#define BOGO_DIRENT_SIZE 20     /* tmpfs's size of a directory entry */

/* Pages holding file data on every ramfs and tmpfs (meminfo's Shmem), and
 * per super block in s_pages (statfs). */
uint64_t ramfs_nr_pages;

static void account_pages(struct inode *inode, long pages)
{
	ramfs_nr_pages += pages;
	inode->i_sb->s_pages += pages;
	inode->i_blocks += pages * (long)(PAGE_SIZE / 512);
}

static const struct inode_operations ramfs_dir_iops;
static const struct inode_operations ramfs_file_iops;
static const struct inode_operations ramfs_symlink_iops;
static const struct inode_operations ramfs_special_iops;
static const struct file_operations ramfs_file_fops;
static const struct file_operations ramfs_dir_fops;

/* ---- regular files ---------------------------------------------------- */

/* The page holding byte offset pos, or NULL (a hole). */
static char *ramfs_find_page(struct inode *inode, loff_t pos)
{
	return radix_tree_lookup(&inode->i_pages, (uint64_t)pos >> PAGE_SHIFT);
}

/* The page holding byte offset pos, allocated (zeroed) if missing; NULL if no memory. */
static char *ramfs_get_page(struct inode *inode, loff_t pos)
{
	uint64_t idx = (uint64_t)pos >> PAGE_SHIFT;
	char *page = radix_tree_lookup(&inode->i_pages, idx);

	if (page)
		return page;
	page = alloc_page();
	if (!page)
		return NULL;
	spin_lock(&inode->i_pages_lock);
	int err = radix_tree_insert(&inode->i_pages, idx, page);
	spin_unlock(&inode->i_pages_lock);
	if (err) {
		free_page(page);
		return NULL;
	}
	account_pages(inode, 1);
	return page;
}

/* Drop page idx (the file's reference: mappings may keep theirs). */
static void ramfs_drop_page(struct inode *inode, uint64_t idx)
{
	spin_lock(&inode->i_pages_lock);
	void *page = radix_tree_delete(&inode->i_pages, idx);
	spin_unlock(&inode->i_pages_lock);

	if (page) {
		put_page(page);
		account_pages(inode, -1);
	}
}

/* Drop every page from index first on. */
static void ramfs_drop_pages_from(struct inode *inode, uint64_t first)
{
	for (uint64_t idx = first; radix_tree_next(&inode->i_pages, &idx); idx++)
		ramfs_drop_page(inode, idx);
}

static ssize_t ramfs_read(struct file *file, struct iov_iter *to, loff_t *ppos)
{
	struct inode *inode = file->f_inode;
	loff_t pos = *ppos;
	size_t done = 0, n;

	if (pos >= inode->i_size || to->count == 0)
		return 0;
	n = MIN(to->count, (size_t)(inode->i_size - pos));
	while (done < n) {
		size_t off = pos & (PAGE_SIZE - 1);
		size_t chunk = MIN(PAGE_SIZE - off, n - done), copied;
		char *page = ramfs_find_page(inode, pos);

		copied = page ? copy_to_iter(page + off, chunk, to) : iov_iter_zero(chunk, to);
		done += copied;
		pos += copied;
		if (copied < chunk)
			break;
	}
	if (done == 0)
		return -EFAULT;
	*ppos = pos;
	/* relatime, as Linux mounts by default: only if atime is not newer than mtime. */
	if (inode->i_atime.tv_sec <= inode->i_mtime.tv_sec)
		inode_now(&inode->i_atime);
	return done;
}

/* May [pos, pos + len) be written, under the file's seals? 0 or -EPERM.
 * Linux asks this for each page a write goes through (shmem_write_begin),
 * so a write that runs past a F_SEAL_GROW size is short, or fails. */
static int seals_allow_write(struct inode *inode, loff_t pos, size_t len)
{
	if (inode->i_seals & F_SEALS_NO_WRITE)
		return -EPERM;
	if ((inode->i_seals & F_SEAL_GROW) && pos + (loff_t)len > inode->i_size)
		return -EPERM;
	return 0;
}

static ssize_t ramfs_write(struct file *file, struct iov_iter *from, loff_t *ppos)
{
	struct inode *inode = file->f_inode;
	loff_t pos = (file->f_flags & O_APPEND) ? inode->i_size : *ppos;
	size_t done = 0, n = from->count;
	int err = 0;

	if (n == 0)
		return 0;
	if (S_ISREG(inode->i_mode) && (err = file_write_limit(pos, &n)))
		return err;
	if (pos < 0 || (uint64_t)pos + n > (uint64_t)MAX_LFS_FILESIZE)
		return -EFBIG;
	while (done < n) {
		size_t off = pos & (PAGE_SIZE - 1);
		size_t chunk = MIN(PAGE_SIZE - off, n - done), copied;
		char *page;

		err = seals_allow_write(inode, pos, chunk);
		if (err)
			break;
		page = ramfs_get_page(inode, pos);
		if (!page) {
			err = -ENOMEM;
			break;
		}
		copied = copy_from_iter(page + off, chunk, from);
		done += copied;
		pos += copied;
		if (copied < chunk) {
			err = -EFAULT;
			break;
		}
	}
	if (pos > inode->i_size)
		inode->i_size = pos;
	if (done == 0)
		return err;
	*ppos = pos;
	inode_touch_mtime(inode);
	/* Writing drops set-user-ID (and set-group-ID if group-executable). */
	inode_kill_suid(inode);
	return done;
}

/* Free the pages wholly past size and zero the tail of the last one. */
static int ramfs_truncate(struct inode *inode, loff_t size)
{
	size_t keep = ALIGN_UP((uint64_t)size, PAGE_SIZE) >> PAGE_SHIFT;

	if (size < 0)
		return -EINVAL;
	if ((size < inode->i_size && (inode->i_seals & F_SEAL_SHRINK)) ||
	    (size > inode->i_size && (inode->i_seals & F_SEAL_GROW)))
		return -EPERM;
	ramfs_drop_pages_from(inode, keep);
	if (size & (PAGE_SIZE - 1)) {
		char *page = ramfs_find_page(inode, size);
		size_t off = size & (PAGE_SIZE - 1);
		if (page)
			memset(page + off, 0, PAGE_SIZE - off);
	}
	inode->i_size = size;
	/* Mappings must not keep showing what is no longer there. */
	unmap_mapping_range(inode, keep);
	inode_touch_mtime(inode);
	return 0;
}

/* Zero [from, to), which lie in one page, if the page is there. */
static void zero_in_page(struct inode *inode, loff_t from, loff_t to)
{
	char *page = ramfs_find_page(inode, from);

	if (page)
		memset(page + (from & (PAGE_SIZE - 1)), 0, (size_t)(to - from));
}

/* Zero [from, to) of the file's pages; pages wholly inside are freed (a
 * hole reads as zeros), and mappings let go of them. Only the pages the
 * file has are visited, however large the hole. */
static void ramfs_punch_hole(struct inode *inode, loff_t from, loff_t to)
{
	uint64_t first_whole = ALIGN_UP((uint64_t)from, PAGE_SIZE) >> PAGE_SHIFT;
	uint64_t end_whole = (uint64_t)to >> PAGE_SHIFT;

	if (first_whole > end_whole) {
		zero_in_page(inode, from, to); /* inside one page */
	} else {
		if (from & (PAGE_SIZE - 1))
			zero_in_page(inode, from, (loff_t)(first_whole << PAGE_SHIFT));
		for (uint64_t idx = first_whole;
		     radix_tree_next(&inode->i_pages, &idx) && idx < end_whole; idx++)
			ramfs_drop_page(inode, idx);
		if (to & (PAGE_SIZE - 1))
			zero_in_page(inode, (loff_t)(end_whole << PAGE_SHIFT), to);
	}
	unmap_mapping_range(inode, first_whole);
}

/*
 * fallocate(2) on tmpfs (Linux's shmem_fallocate; its ramfs has none):
 * give [offset, offset + len) its pages now, growing the file unless
 * FALLOC_FL_KEEP_SIZE, or with FALLOC_FL_PUNCH_HOLE free them. The other
 * modes: EOPNOTSUPP. vfs_fallocate (fs/open.c) checked the rest.
 */
static long ramfs_fallocate(struct file *file, int mode, loff_t offset, loff_t len)
{
	struct inode *inode = file->f_inode;

	if (inode->i_sb->s_magic != TMPFS_MAGIC || (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE)))
		return -EOPNOTSUPP;
	if (mode & FALLOC_FL_PUNCH_HOLE) {
		if (inode->i_seals & F_SEALS_NO_WRITE)
			return -EPERM;
		ramfs_punch_hole(inode, offset, offset + len); /* past the end too, as shmem */
		inode_touch_mtime(inode);
		return 0;
	}
	if (inode_newsize_ok(inode, offset + len)) /* even with KEEP_SIZE, as Linux */
		return -EFBIG;
	if ((inode->i_seals & F_SEAL_GROW) && offset + len > inode->i_size)
		return -EPERM;
	for (loff_t pos = ALIGN_DOWN(offset, PAGE_SIZE); pos < offset + len; pos += PAGE_SIZE)
		if (!ramfs_get_page(inode, pos))
			return -ENOSPC; /* as shmem says it when memory runs out */
	if (!(mode & FALLOC_FL_KEEP_SIZE) && offset + len > inode->i_size) {
		inode->i_size = offset + len;
		inode_touch_mtime(inode);
	}
	return 0;
}

void *find_get_page(struct file *file, uint64_t index)
{
	struct inode *inode = file->f_inode;
	void *page;

	if (inode->i_op != &ramfs_file_iops)
		return NULL;
	/* The page fault may look without the big kernel lock (mm/fault.c). */
	spin_lock(&inode->i_pages_lock);
	page = radix_tree_lookup(&inode->i_pages, index);
	if (page)
		get_page(page);
	spin_unlock(&inode->i_pages_lock);
	return page;
}

void *find_or_create_page(struct file *file, uint64_t index)
{
	struct inode *inode = file->f_inode;
	void *page;

	if (inode->i_op != &ramfs_file_iops || index > (uint64_t)MAX_LFS_FILESIZE >> PAGE_SHIFT)
		return NULL;
	page = ramfs_get_page(inode, (loff_t)(index << PAGE_SHIFT));
	if (page)
		get_page(page);
	return page;
}

/*
 * The memory of a MAP_SHARED | MAP_ANONYMOUS mapping: a regular file of
 * size bytes with no name, on the root filesystem (Linux's shmem_zero_setup
 * makes one on its internal tmpfs, "/dev/zero (deleted)" in the maps). Its
 * pages go when the last mapping goes (the last fput).
 */
struct file *shmem_zero_setup(uint64_t size)
{
	struct dentry *root = current_root();
	struct inode *inode = ramfs_get_inode(root->d_sb, S_IFREG | 0600, 0);
	struct file *file;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	inode->i_nlink = 0; /* no name: freed with its last user */
	inode->i_size = size;
	file = alloc_file(NULL, inode, O_RDWR, FMODE_READ | FMODE_WRITE);
	/* The file took a reference of its own (alloc_file); ours goes, or
	 * the inode and its pages would outlive every mapping. */
	iput(inode);
	return file ? file : ERR_PTR(-ENOMEM);
}

/* The inode is going away: give back its pages and its link target. */
static void ramfs_evict(struct inode *inode)
{
	ramfs_drop_pages_from(inode, 0);
	kfree(inode->i_link);
}

/* ---- directories ------------------------------------------------------ */

/* A new entry went into (or left) dir: its size, link count, times. */
static void dir_changed(struct inode *dir, int entries, int subdirs)
{
	if (dir->i_sb->s_magic == TMPFS_MAGIC) /* ramfs directories stay at size 0 */
		dir->i_size += (loff_t)entries * BOGO_DIRENT_SIZE;
	dir->i_nlink += subdirs;
	inode_touch_mtime(dir);
}

/*
 * Group inheritance for a new inode in a set-group-ID directory (Linux's
 * inode_init_owner): the inode takes the directory's group, a directory
 * also the S_ISGID bit; a group-executable S_ISGID file made by someone
 * outside that group loses the bit.
 */
static void init_owner(struct inode *inode, struct inode *dir)
{
	if (!(dir->i_mode & S_ISGID))
		return;
	inode->i_gid = dir->i_gid;
	if (S_ISDIR(inode->i_mode))
		inode->i_mode |= S_ISGID;
	else if ((inode->i_mode & (S_ISGID | 0010)) == (S_ISGID | 0010) &&
		 !in_group_p(dir->i_gid) && !capable(CAP_FSETID))
		inode->i_mode &= ~S_ISGID;
}

static int ramfs_create(struct inode *dir, struct dentry *dentry, mode_t mode, dev_t rdev)
{
	struct inode *inode = ramfs_get_inode(dir->i_sb, mode, rdev);
	if (!inode)
		return -ENOMEM;
	init_owner(inode, dir);
	d_add(dentry, inode);
	dir_changed(dir, 1, S_ISDIR(mode) ? 1 : 0);
	return 0;
}

static int ramfs_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	size_t len = strlen(target);
	struct inode *inode = ramfs_get_inode(dir->i_sb, S_IFLNK | 0777, 0);
	if (!inode)
		return -ENOMEM;
	inode->i_link = kmalloc(len + 1);
	if (!inode->i_link) {
		inode->i_nlink = 0;
		iput(inode);
		return -ENOMEM;
	}
	memcpy(inode->i_link, target, len + 1);
	inode->i_size = len;
	init_owner(inode, dir);
	d_add(dentry, inode);
	dir_changed(dir, 1, 0);
	return 0;
}

static int ramfs_link(struct dentry *old, struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = old->d_inode;
	inode_inc_link_count(inode);
	d_add(dentry, igrab(inode));
	dir_changed(dir, 1, 0);
	return 0;
}

static int ramfs_unlink(struct inode *dir, struct dentry *dentry)
{
	inode_dec_link_count(dentry->d_inode);
	dir_changed(dir, -1, 0);
	d_delete(dentry);
	return 0;
}

static int ramfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	inode->i_nlink = 0;     /* its name and its "." */
	inode_touch_ctime(inode);
	dir_changed(dir, -1, -1);
	d_delete(dentry);
	return 0;
}

static int ramfs_rename(struct inode *old_dir, struct dentry *old_dentry,
			struct inode *new_dir, struct dentry *new_dentry)
{
	struct inode *inode = old_dentry->d_inode;
	bool is_dir = S_ISDIR(inode->i_mode);
	/* The name is copied before anything changes, so ENOMEM leaves all as it was. */
	int err = d_move(old_dentry, new_dentry->d_parent, new_dentry->d_name, new_dentry->d_namelen);
	if (err)
		return err;
	if (new_dentry->d_flags & DCACHE_LINKED) { /* replace the target */
		if (S_ISDIR(new_dentry->d_inode->i_mode))
			ramfs_rmdir(new_dir, new_dentry);
		else
			ramfs_unlink(new_dir, new_dentry);
	}
	dir_changed(old_dir, -1, is_dir ? -1 : 0);
	dir_changed(new_dir, 1, is_dir ? 1 : 0);
	inode_touch_ctime(inode);
	return 0;
}

int dcache_readdir(struct file *file, struct dir_context *ctx)
{
	struct dentry *dir = file->f_dentry, *parent = dir->d_parent;

	if (parent == dir && d_covers(dir)) /* a mount's root: ".." is above it */
		parent = d_covers(dir)->d_parent;
	if (!dir_emit_dots(ctx, dir->d_inode->i_ino, parent->d_inode->i_ino))
		return 0;
	for (struct dentry *d = dir->d_first_child; d; d = d->d_next) {
		if ((loff_t)d->d_pos < ctx->pos)
			continue;
		if (!dir_emit(ctx, d->d_name, d->d_namelen, d->d_inode->i_ino,
			      mode_to_dt(d->d_inode->i_mode)))
			return 0;
		ctx->pos = d->d_pos + 1;
	}
	return 0;
}

/* A directory offset is a readdir position, not a byte count: no SEEK_END. */
static loff_t ramfs_dir_llseek(struct file *file, loff_t offset, int whence)
{
	if (whence == SEEK_END)
		return -EINVAL;
	return generic_file_llseek(file, offset, whence);
}

static const struct inode_operations ramfs_dir_iops = {
	.create = ramfs_create,
	.symlink = ramfs_symlink,
	.link = ramfs_link,
	.unlink = ramfs_unlink,
	.rmdir = ramfs_rmdir,
	.rename = ramfs_rename,
	.evict = ramfs_evict,
};

static const struct inode_operations ramfs_file_iops = {
	.truncate = ramfs_truncate,
	.evict = ramfs_evict,
};

static const char *ramfs_get_link(struct inode *inode) { return inode->i_link; }

static const struct inode_operations ramfs_symlink_iops = {
	.get_link = ramfs_get_link,
	.evict = ramfs_evict,
};

static const struct inode_operations ramfs_special_iops = {
	.evict = ramfs_evict,
};

static const struct file_operations ramfs_file_fops = {
	.read = ramfs_read,
	.write = ramfs_write,
	.llseek = generic_file_llseek,
	.fallocate = ramfs_fallocate,
};

static const struct file_operations ramfs_dir_fops = {
	.llseek = ramfs_dir_llseek,
	.iterate = dcache_readdir,
};

struct inode *ramfs_get_inode(struct super_block *sb, mode_t mode, dev_t rdev)
{
	struct inode *inode = new_inode(sb, mode);
	if (!inode)
		return NULL;
	inode->i_nlink = 1;
	switch (mode & S_IFMT) {
	case S_IFDIR:
		inode->i_op = &ramfs_dir_iops;
		inode->i_fop = &ramfs_dir_fops;
		inode->i_nlink = 2;
		if (sb->s_magic == TMPFS_MAGIC)
			inode->i_size = 2 * BOGO_DIRENT_SIZE;
		break;
	case S_IFREG:
		inode->i_op = &ramfs_file_iops;
		inode->i_fop = &ramfs_file_fops;
		if (sb->s_magic == TMPFS_MAGIC)
			inode->i_seals = F_SEAL_SEAL; /* no seals, and none to add */
		break;
	case S_IFLNK:
		inode->i_op = &ramfs_symlink_iops;
		break;
	case S_IFCHR:
		inode->i_op = &ramfs_special_iops;
		inode->i_fop = &def_chr_fops;
		inode->i_rdev = rdev;
		break;
	case S_IFIFO:
		inode->i_op = &ramfs_special_iops;
		inode->i_fop = &pipefifo_fops;
		break;
	default: /* block devices, sockets: names only, for now */
		inode->i_op = &ramfs_special_iops;
		inode->i_rdev = rdev;
		break;
	}
	return inode;
}

/* A new ramfs: a super block and its root directory (mode 0755, root's). */
struct super_block *ramfs_mount(const char *type)
{
	struct super_block *sb = kzalloc(sizeof(*sb));
	struct inode *root;

	if (!sb)
		return NULL;
	sb->s_next_ino = 1;
	sb->s_type = type;
	sb->s_magic = strcmp(type, "ramfs") == 0 ? RAMFS_MAGIC : TMPFS_MAGIC;
	root = ramfs_get_inode(sb, S_IFDIR | 0755, 0);
	if (root) {
		root->i_uid = root->i_gid = 0;
		sb->s_root = d_make_root(root);
	}
	if (!sb->s_root) {
		sb->s_unmounted = true; /* freed with the root inode */
		if (root) {
			root->i_nlink = 0;
			iput(root);
		} else {
			kfree(sb);
		}
		return NULL;
	}
	sb->s_dev = get_anon_dev();
	return sb;
}
