/*
 * fuzz_cpio.c - the initramfs unpacker (fs/initramfs.c): cpio "newc"
 * headers, names, data, hard links, concatenated archives.
 *
 * The input is the archive, as the boot loader leaves it in memory
 * (libFuzzer's buffer is exactly its size, so AddressSanitizer catches a
 * read past its end). The unpacker is included whole; the filesystem under
 * it is a stand-in that keeps names in a list: enough for the unpacker's
 * own logic (an existing name of another type is removed, missing parents
 * are made, hard links find their first name, directory times are set
 * last) and strict about what it is handed: every name is an absolute,
 * NUL-terminated path shorter than PATH_MAX + 2, every byte of file data
 * is read (so it must lie in the archive). At the end of each run no
 * dentry or file reference is held and no kmalloc'd byte is left.
 */
#include "../../../fs/initramfs.c"
#include "host.h"

#define MAX_NODES 512

struct node {
	struct node *next;
	char *name;
	bool removed;
	struct dentry d;
	struct inode i;
};

static struct node *nodes;
static int nr_nodes, open_files;
static unsigned long data_sum;

static void check_name(const char *name)
{
	CHECK(name[0] == '/');
	CHECK(strlen(name) < PATH_MAX + 2);
}

static struct node *find(const char *name)
{
	for (struct node *n = nodes; n; n = n->next)
		if (!n->removed && !strcmp(n->name, name))
			return n;
	return NULL;
}

/* Does the parent directory of name exist? ("/" always does.) */
static bool parent_exists(const char *name)
{
	const char *slash = strrchr(name, '/');
	size_t len = slash - name;
	char parent[PATH_MAX + 2];

	if (len == 0)
		return true;
	memcpy(parent, name, len);
	parent[len] = '\0';
	struct node *p = find(parent);
	return p && S_ISDIR(p->i.i_mode);
}

static int add(const char *name, mode_t mode)
{
	check_name(name);
	if (find(name))
		return -EEXIST;
	if (!parent_exists(name))
		return -ENOENT;
	if (nr_nodes == MAX_NODES)
		return -ENOSPC;
	struct node *n = calloc(1, sizeof(*n));
	n->name = malloc(strlen(name) + 1);
	memcpy(n->name, name, strlen(name) + 1);
	n->i.i_mode = mode;
	n->d.d_inode = &n->i;
	n->next = nodes;
	nodes = n;
	nr_nodes++;
	return 0;
}

int kern_path_at(int dfd, const char *path, unsigned int flags, struct dentry **result)
{
	CHECK(dfd == AT_FDCWD);
	(void)flags;
	check_name(path);
	struct node *n = find(path);
	if (!n)
		return -ENOENT;
	n->d.d_count++;
	*result = &n->d;
	return 0;
}

void dput(struct dentry *d)
{
	CHECK(d->d_count > 0);
	d->d_count--;
}

int vfs_mkdir_at(int dfd, const char *path, mode_t mode)
{
	CHECK(dfd == AT_FDCWD);
	return add(path, S_IFDIR | (mode & 07777));
}

int vfs_mknod_at(int dfd, const char *path, mode_t mode, dev_t rdev)
{
	CHECK(dfd == AT_FDCWD);
	(void)rdev;
	return add(path, mode);
}

int vfs_symlink_at(const char *target, int dfd, const char *path)
{
	CHECK(dfd == AT_FDCWD);
	CHECK(strlen(target) < PATH_MAX);
	return add(path, S_IFLNK | 0777);
}

int vfs_link_at(int olddfd, const char *oldpath, int newdfd, const char *newpath)
{
	CHECK(olddfd == AT_FDCWD && newdfd == AT_FDCWD);
	check_name(oldpath);
	struct node *old = find(oldpath);
	if (!old)
		return -ENOENT;
	return add(newpath, old->i.i_mode);
}

int vfs_unlink_at(int dfd, const char *path, bool rmdir)
{
	CHECK(dfd == AT_FDCWD);
	check_name(path);
	struct node *n = find(path);
	if (!n)
		return -ENOENT;
	if (rmdir != S_ISDIR(n->i.i_mode))
		return rmdir ? -ENOTDIR : -EISDIR;
	n->removed = true; /* its memory stays: a dentry may still be held */
	return 0;
}

struct file *do_filp_open(int dfd, const char *path, int flags, mode_t mode)
{
	CHECK(dfd == AT_FDCWD);
	struct node *n = find(path);
	if (!n && (flags & O_CREAT)) {
		int err = add(path, S_IFREG | (mode & 07777));
		if (err)
			return ERR_PTR(err);
		n = find(path);
	}
	if (!n)
		return ERR_PTR(-ENOENT);
	if (S_ISDIR(n->i.i_mode))
		return ERR_PTR(-EISDIR);
	struct file *f = calloc(1, sizeof(*f));
	f->f_dentry = &n->d;
	f->f_inode = &n->i;
	n->d.d_count++;
	open_files++;
	return f;
}

ssize_t kernel_write(struct file *file, const void *buf, size_t count, loff_t pos)
{
	CHECK(pos == 0 && file->f_inode);
	for (size_t i = 0; i < count; i++)
		data_sum += ((const unsigned char *)buf)[i]; /* every byte must be readable */
	return count;
}

void fput(struct file *file)
{
	dput(file->f_dentry);
	open_files--;
	free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long allocs = host_allocs;

	add("/", S_IFDIR | 0755);
	unpack_initramfs(data, size);
	CHECK(open_files == 0);
	while (nodes) {
		struct node *n = nodes;
		nodes = n->next;
		CHECK(n->d.d_count == 0); /* no dentry reference left behind */
		free(n->name);
		free(n);
	}
	nr_nodes = 0;
	CHECK(host_allocs == allocs);
	return 0;
}
