/*
 * initramfs.c - unpack a cpio "newc" archive into the root filesystem.
 *
 * The archive is what `find . | cpio -o -H newc` writes: a sequence of
 * entries, each a 110-byte ASCII header, the NUL-terminated name padded so
 * that header + name fill a multiple of 4 bytes, then the file's data
 * padded to 4 bytes. The header starts with the magic "070701" ("070702"
 * adds checksums, which we do not verify) and continues with 13 fields of
 * 8 hex digits:
 *
 *   ino mode uid gid nlink mtime filesize devmajor devminor
 *   rdevmajor rdevminor namesize check
 *
 * An entry named "TRAILER!!!" ends an archive; NUL bytes may pad it, and
 * another archive may follow (Linux accepts concatenated archives).
 *
 * As Linux does: an existing name of another type is removed first; a
 * regular file that has other names (nlink >= 2, same ino) becomes a hard
 * link to the first one seen, and the data (carried by the last entry)
 * goes into the shared inode; directory times are set at the end, since
 * filling a directory changes its time. Unlike Linux we also create missing
 * parent directories (mode 0755). A malformed archive stops the unpacking
 * with "Initramfs unpacking failed: <reason>"; what was unpacked stays.
 */
#include "vfs.h"
#include <mm.h>

#define CPIO_HEADER_SIZE 110
#define CPIO_FIELDS 13

struct cpio_header {
	uint64_t ino, mode, uid, gid, nlink, mtime, filesize;
	uint64_t devmajor, devminor, rdevmajor, rdevminor, namesize, check;
};

/* Names seen with nlink >= 2, to link later entries to (Linux's find_link). */
struct hardlink {
	struct hardlink *next;
	uint64_t ino, major, minor;
	mode_t type;
	char *name;
};

/* Directories whose time is set once the archive is unpacked (Linux's dir_utime). */
struct dir_time {
	struct dir_time *next;
	struct dentry *dentry;
	int64_t mtime;
};

struct unpacker {
	struct hardlink *links;
	struct dir_time *dirs;
};

/* ---- parsing ------------------------------------------------------------------ */

/* Parse the header at p (CPIO_HEADER_SIZE bytes available). NULL or the error. */
static const char *parse_header(const char *p, struct cpio_header *h)
{
	uint64_t *fields = &h->ino;

	if (memcmp(p, "07070", 5) != 0 || (p[5] != '1' && p[5] != '2'))
		return "no cpio magic";
	p += 6;
	for (int f = 0; f < CPIO_FIELDS; f++) {
		uint64_t v = 0;
		for (int k = 0; k < 8; k++) {
			int d = hex_to_bin(*p++);
			if (d < 0)
				return "broken header";
			v = v << 4 | d;
		}
		fields[f] = v;
	}
	return NULL;
}

/* ---- creating the entries ------------------------------------------------------------ */

static void set_attrs(struct dentry *d, const struct cpio_header *h, bool set_mode)
{
	struct inode *inode = d->d_inode;

	inode->i_uid = h->uid;
	inode->i_gid = h->gid;
	if (set_mode)
		inode->i_mode = (inode->i_mode & S_IFMT) | (h->mode & 07777);
	inode->i_mtime.tv_sec = inode->i_atime.tv_sec = (int64_t)h->mtime;
	inode->i_mtime.tv_nsec = inode->i_atime.tv_nsec = 0;
}

/* Look name up without following a final symlink; NULL if it does not exist. */
static struct dentry *lookup_nofollow(const char *name)
{
	struct dentry *d;
	return kern_path_at(AT_FDCWD, name, 0, &d) ? NULL : d;
}

/* Create every missing directory above name, mode 0755. */
static void make_parents(const char *name)
{
	char *copy = strdup_k(name);

	if (!copy)
		return;
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		vfs_mkdir_at(AT_FDCWD, copy, 0755);
		*p = '/';
	}
	kfree(copy);
}

/* Remove an existing name of another type (Linux's clean_path). */
static void clean_path(const char *name, mode_t mode)
{
	struct dentry *d = lookup_nofollow(name);

	if (!d)
		return;
	mode_t old = d->d_inode->i_mode;
	dput(d);
	if ((old ^ mode) & S_IFMT)
		vfs_unlink_at(AT_FDCWD, name, S_ISDIR(old));
}

/*
 * For an entry with other names: link it to the first name with the same
 * inode number. 1 if linked, 0 if this is the first name, -errno on failure.
 */
static int maybe_link(struct unpacker *u, const struct cpio_header *h, const char *name)
{
	mode_t type = h->mode & S_IFMT;

	if (h->nlink < 2)
		return 0;
	for (struct hardlink *l = u->links; l; l = l->next) {
		if (l->ino == h->ino && l->major == h->devmajor && l->minor == h->devminor &&
		    l->type == type) {
			clean_path(name, 0);
			return vfs_link_at(AT_FDCWD, l->name, AT_FDCWD, name) < 0 ? -1 : 1;
		}
	}
	struct hardlink *l = kmalloc(sizeof(*l));
	char *copy = strdup_k(name);
	if (!l || !copy) {
		kfree(l);
		kfree(copy);
		return 0;
	}
	*l = (struct hardlink){ u->links, h->ino, h->devmajor, h->devminor, type, copy };
	u->links = l;
	return 0;
}

static void make_dir(struct unpacker *u, const struct cpio_header *h, const char *name)
{
	int err = vfs_mkdir_at(AT_FDCWD, name, h->mode & 07777);
	struct dentry *d;
	struct dir_time *t;

	if (err == -ENOENT) {
		make_parents(name);
		vfs_mkdir_at(AT_FDCWD, name, h->mode & 07777);
	}
	d = lookup_nofollow(name);
	if (!d)
		return;
	if (!S_ISDIR(d->d_inode->i_mode)) {
		dput(d);
		return;
	}
	set_attrs(d, h, true);
	t = kmalloc(sizeof(*t));
	if (!t) {
		dput(d);
		return;
	}
	*t = (struct dir_time){ u->dirs, d, (int64_t)h->mtime };
	u->dirs = t;
}

static void make_file(struct unpacker *u, const struct cpio_header *h, const char *name,
		      const char *data)
{
	int linked = maybe_link(u, h, name);
	int flags = O_WRONLY | O_CREAT | (linked == 1 ? 0 : O_TRUNC);
	struct file *file;

	if (linked < 0)
		return;
	file = do_filp_open(AT_FDCWD, name, flags, h->mode & 07777);
	if (IS_ERR(file) && PTR_ERR(file) == -ENOENT) {
		make_parents(name);
		file = do_filp_open(AT_FDCWD, name, flags, h->mode & 07777);
	}
	if (IS_ERR(file)) {
		pr_warn("initramfs: cannot create %s (error %ld)\n", name, -PTR_ERR(file));
		return;
	}
	if (h->filesize && kernel_write(file, data, h->filesize, 0) != (ssize_t)h->filesize)
		pr_warn("initramfs: short write to %s\n", name);
	set_attrs(file->f_dentry, h, true);
	fput(file);
}

static void make_symlink(const struct cpio_header *h, const char *name, const char *data)
{
	char *target;
	struct dentry *d;
	int err;

	if (h->filesize == 0 || h->filesize >= PATH_MAX)
		return;
	target = kmalloc(h->filesize + 1);
	if (!target)
		return;
	memcpy(target, data, h->filesize);
	target[h->filesize] = '\0';
	err = vfs_symlink_at(target, AT_FDCWD, name);
	if (err == -ENOENT) {
		make_parents(name);
		err = vfs_symlink_at(target, AT_FDCWD, name);
	}
	kfree(target);
	if (err == 0 && (d = lookup_nofollow(name))) {
		set_attrs(d, h, false);
		dput(d);
	}
}

static void make_node(struct unpacker *u, const struct cpio_header *h, const char *name)
{
	dev_t rdev = MKDEV(h->rdevmajor, h->rdevminor);
	mode_t mode = h->mode & (S_IFMT | 07777);
	struct dentry *d;
	int err;

	if (maybe_link(u, h, name) != 0)
		return;
	err = vfs_mknod_at(AT_FDCWD, name, mode, rdev);
	if (err == -ENOENT) {
		make_parents(name);
		err = vfs_mknod_at(AT_FDCWD, name, mode, rdev);
	}
	if (err == 0 && (d = lookup_nofollow(name))) {
		set_attrs(d, h, true);
		dput(d);
	}
}

/* Create what one archive entry describes. Failures are skipped, as Linux does. */
static void do_entry(struct unpacker *u, const struct cpio_header *h, const char *name,
		     const char *data)
{
	mode_t mode = h->mode;

	clean_path(name, mode);
	switch (mode & S_IFMT) {
	case S_IFDIR:
		make_dir(u, h, name);
		break;
	case S_IFREG:
		make_file(u, h, name, data);
		break;
	case S_IFLNK:
		make_symlink(h, name, data);
		break;
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		make_node(u, h, name);
		break;
	}
}

static void free_links(struct unpacker *u)
{
	while (u->links) {
		struct hardlink *l = u->links;
		u->links = l->next;
		kfree(l->name);
		kfree(l);
	}
}

/* ---- the archive ------------------------------------------------------------------- */

/* Walk the archive entry by entry. NULL when it ended well, else the reason.
 * Nothing of an entry is kept once it is made: release (if not NULL) then
 * gets the part of the archive read so far. */
static const char *unpack(struct unpacker *u, const char *buf, size_t len,
			  void (*release)(const void *data, const void *upto))
{
	size_t off = 0;

	for (;;) {
		struct cpio_header h;
		const char *err, *name;
		size_t data_off;

		while (off < len && buf[off] == '\0') /* padding between archives */
			off++;
		if (off >= len)
			return NULL;
		if (len - off < CPIO_HEADER_SIZE)
			return "truncated header";
		err = parse_header(buf + off, &h);
		if (err)
			return err;
		name = buf + off + CPIO_HEADER_SIZE;
		if (h.namesize == 0 || h.namesize > PATH_MAX)
			return "bad name size";
		if (len - off - CPIO_HEADER_SIZE < h.namesize)
			return "truncated name";
		if (name[h.namesize - 1] != '\0' || strlen(name) + 1 != h.namesize)
			return "broken name";
		data_off = ALIGN_UP(off + CPIO_HEADER_SIZE + h.namesize, 4);
		if (h.filesize && (data_off > len || len - data_off < h.filesize))
			return "truncated file data";
		off = ALIGN_UP(data_off + h.filesize, 4);
		if (strcmp(name, "TRAILER!!!") == 0) {
			free_links(u); /* hard links do not span archives */
			continue;
		}
		/* Names are relative to the root, whatever current's directory. */
		char *path = kmalloc(h.namesize + 1);
		if (!path)
			return "out of memory";
		path[0] = '/';
		memcpy(path + 1, name, h.namesize);
		do_entry(u, &h, path, buf + data_off);
		kfree(path);
		if (release)
			release(buf, buf + MIN(off, len));
	}
}

int unpack_initramfs(const void *data, size_t len)
{
	return unpack_initramfs_release(data, len, NULL);
}

int unpack_initramfs_release(const void *data, size_t len,
			     void (*release)(const void *data, const void *upto))
{
	struct unpacker u = { NULL, NULL };
	const char *err;

	pr_info("Trying to unpack rootfs image as initramfs...\n");
	err = unpack(&u, data, len, release);
	free_links(&u);
	while (u.dirs) {
		struct dir_time *t = u.dirs;
		struct inode *inode = t->dentry->d_inode;
		u.dirs = t->next;
		inode->i_mtime.tv_sec = inode->i_atime.tv_sec = t->mtime;
		inode->i_mtime.tv_nsec = inode->i_atime.tv_nsec = 0;
		dput(t->dentry);
		kfree(t);
	}
	if (err) {
		printk(KERN_EMERG "Initramfs unpacking failed: %s\n", err);
		return -EINVAL;
	}
	return 0;
}
