/*
 * namei.c - path lookup, and the system calls that create and remove names.
 *
 * A path is walked one component at a time from a start directory (the
 * root for "/...", else the working directory or a directory descriptor).
 * The walk keeps a nameidata: the directory reached so far and the rest of
 * the path. Before each component the directory must be a directory
 * (ENOTDIR) that the caller may search (EACCES).
 *
 * Symlinks are followed by splicing: when a component is a symlink, the
 * rest of the path becomes "target/rest" and the walk goes on from the
 * symlink's directory (or from the root when the target is absolute). This
 * needs no recursion, so a chain of links costs no kernel stack; at most
 * MAXSYMLINKS (40) links are followed in one lookup, then ELOOP.
 *
 * The walk stops before the last component and hands it to the caller:
 * lookup (stat, chdir) resolves it, following a final symlink if asked;
 * create and remove operations use the parent directory and the name.
 * As in Linux, a path ending in "/" must name a directory, and "." and ".."
 * as the last component give each call its own errno.
 */
#include "vfs.h"
#include <cred.h>
#include <mm.h>
#include <sched.h>
#include <smp_lock.h>
#include <uaccess.h>

enum { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

struct nameidata {
	struct dentry *dir;     /* directory reached so far (reference held) */
	struct dentry *root;    /* where "/" and ".." stop (no reference) */
	char *buf;              /* kmalloc'd path being walked */
	const char *p;          /* next character to parse in buf */
	const char *last;       /* the last component, once reached */
	size_t last_len;
	int last_type;
	bool trailing_slash;    /* the path ended in "/" after the last component */
	int total_links;        /* symlinks followed so far */
};

/* ---- names from user space --------------------------------------------- */

char *getname(const char __user *upath, bool empty_ok)
{
	char *name = kmalloc(PATH_MAX);
	long len;

	if (!name)
		return ERR_PTR(-ENOMEM);
	len = strncpy_from_user(name, upath, PATH_MAX);
	if (len < 0 || (len == 0 && !empty_ok)) {
		kfree(name);
		return ERR_PTR(len < 0 ? len : -ENOENT);
	}
	return name;
}

void putname(char *name)
{
	if (!IS_ERR_OR_NULL(name))
		kfree(name);
}

/* ---- the walk ----------------------------------------------------------- */

static void nd_set_dir(struct nameidata *nd, struct dentry *d)
{
	struct dentry *old = nd->dir;
	nd->dir = d;
	dput(old);
}

static void nd_free(struct nameidata *nd)
{
	dput(nd->dir);
	kfree(nd->buf);
	nd->dir = NULL;
	nd->buf = NULL;
}

int dfd_start(int dfd, const char *path, struct dentry **start)
{
	struct file *file;

	if (path[0] == '/' || dfd == AT_FDCWD) {
		*start = dget(path[0] == '/' ? current_root() : current_pwd());
		return 0;
	}
	file = fcheck(dfd);
	if (!file)
		return -EBADF;
	if (!file->f_dentry || (path[0] && !S_ISDIR(file->f_inode->i_mode)))
		return -ENOTDIR;
	*start = dget(file->f_dentry);
	return 0;
}

/* Set up a walk of path (a kernel string). 0 or -errno; nothing to free on error. */
static int nd_init(struct nameidata *nd, int dfd, const char *path, unsigned int flags)
{
	size_t len = strnlen(path, PATH_MAX);
	int err;

	memset(nd, 0, sizeof(*nd));
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	if (len == 0 && !(flags & LOOKUP_EMPTY))
		return -ENOENT;
	nd->buf = kmalloc(len + 1);
	if (!nd->buf)
		return -ENOMEM;
	memcpy(nd->buf, path, len + 1);
	nd->p = nd->buf;
	nd->root = current_root();
	err = dfd_start(dfd, path, &nd->dir);
	if (err) {
		kfree(nd->buf);
		nd->buf = NULL;
	}
	return err;
}

static int component_type(const char *name, size_t len)
{
	if (len == 1 && name[0] == '.')
		return LAST_DOT;
	if (len == 2 && name[0] == '.' && name[1] == '.')
		return LAST_DOTDOT;
	return LAST_NORM;
}

/* Go up one level: stays at the process's root, and leaves a mounted
 * filesystem through the directory it covers. */
static void follow_dotdot(struct nameidata *nd)
{
	struct dentry *d = nd->dir;

	while (d != nd->root) {
		if (d->d_parent != d) {
			d = d->d_parent;
			break;
		}
		if (!d_covers(d))
			break;
		d = d_covers(d);
	}
	nd_set_dir(nd, dget(d));
}

/* d with a reference, or the root of what is mounted on it. */
static struct dentry *follow_mount(struct dentry *d)
{
	while (d_mounted(d)) {
		struct dentry *m = dget(d_mounted(d));
		dput(d);
		d = m;
	}
	return d;
}

/* The child called name in dir (reference held), NULL if none, or ERR_PTR. */
static struct dentry *lookup_child(struct dentry *dir, const char *name, size_t len)
{
	struct dentry *d = d_lookup(dir, name, len);
	struct inode *inode = dir->d_inode;

	if (!d && inode->i_op && inode->i_op->lookup)
		d = inode->i_op->lookup(inode, dir, name, len);
	return d;
}

/*
 * fs.protected_symlinks, on in Debian's kernel (its patch enables it by
 * default): in a sticky directory that everyone may write (/tmp), a
 * symlink is followed only by its owner, or when it belongs to the
 * directory's owner (EACCES): another user cannot lay a trap there.
 */
static int may_follow_link(struct nameidata *nd, const struct inode *link)
{
	const struct inode *dir = nd->dir->d_inode;

	if (link->i_uid == current_fsuid())
		return 0;
	if ((dir->i_mode & (S_ISVTX | 0002)) != (S_ISVTX | 0002))
		return 0;
	return dir->i_uid == link->i_uid ? 0 : -EACCES;
}

/*
 * Replace the unparsed path by "target/rest" for the symlink link, which
 * sits in nd->dir. rest must point into nd->buf or be a literal.
 */
static int nd_splice_link(struct nameidata *nd, struct dentry *link, const char *rest)
{
	struct inode *inode = link->d_inode;
	const char *target;
	size_t tlen, rlen;
	char *buf;

	if (++nd->total_links > MAXSYMLINKS)
		return -ELOOP;
	int err = may_follow_link(nd, inode);
	if (err)
		return err;
	target = inode->i_op && inode->i_op->get_link ? inode->i_op->get_link(inode) : NULL;
	if (!target)
		return -EINVAL;
	if (IS_ERR(target))
		return PTR_ERR(target);
	if (!target[0])
		return -ENOENT;
	tlen = strlen(target);
	rlen = strlen(rest);
	buf = kmalloc(tlen + 1 + rlen + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, target, tlen);
	if (rlen) {
		buf[tlen] = '/';
		memcpy(buf + tlen + 1, rest, rlen);
		tlen += 1 + rlen;
	}
	buf[tlen] = '\0';
	kfree(nd->buf); /* rest may point into it: freed only after the copy */
	nd->buf = buf;
	nd->p = buf;
	return 0;
}

/*
 * A magic link (inode_operations.get_link_dentry, /proc/PID/fd/N): 1 with
 * *target (a reference) if the walk jumps to a dentry, 0 if the link is
 * to be followed by its text, or -errno. It counts against MAXSYMLINKS.
 */
static int nd_jump_link(struct nameidata *nd, struct dentry *link, struct dentry **target)
{
	struct inode *inode = link->d_inode;
	struct dentry *d;

	if (!inode->i_op || !inode->i_op->get_link_dentry)
		return 0;
	if (nd->total_links >= MAXSYMLINKS)
		return -ELOOP;
	d = inode->i_op->get_link_dentry(inode);
	if (IS_ERR_OR_NULL(d))
		return PTR_ERR(d); /* 0 for NULL */
	nd->total_links++;
	*target = follow_mount(d);
	return 1;
}

/*
 * Walk every component but the last. On return nd->dir is the directory
 * that holds the last component (nd->last, nd->last_type): LAST_ROOT when
 * the path has no components left ("/"), which then names nd->dir itself.
 */
static int link_path_walk(struct nameidata *nd)
{
	const char *p;

restart:
	p = nd->p;
	if (*p == '/') {
		nd_set_dir(nd, dget(nd->root));
		while (*p == '/')
			p++;
	}
	if (!*p) {
		nd->last_type = LAST_ROOT;
		nd->last = p;
		nd->last_len = 0;
		nd->trailing_slash = false;
		nd->p = p;
		return 0;
	}
	for (;;) {
		struct inode *dir = nd->dir->d_inode;
		const char *name = p;
		size_t len;
		bool slash;
		int type, err;

		if (!S_ISDIR(dir->i_mode))
			return -ENOTDIR;
		err = inode_permission(dir, MAY_EXEC);
		if (err)
			return err;
		while (*p && *p != '/')
			p++;
		len = p - name;
		if (len > NAME_MAX)
			return -ENAMETOOLONG;
		slash = *p == '/';
		while (*p == '/')
			p++;
		type = component_type(name, len);
		if (!*p) {
			nd->last = name;
			nd->last_len = len;
			nd->last_type = type;
			nd->trailing_slash = slash;
			nd->p = p;
			return 0;
		}
		if (type == LAST_DOT)
			continue;
		if (type == LAST_DOTDOT) {
			follow_dotdot(nd);
			continue;
		}
		struct dentry *child = lookup_child(nd->dir, name, len);
		if (IS_ERR(child))
			return PTR_ERR(child);
		if (!child)
			return -ENOENT;
		if (S_ISLNK(child->d_inode->i_mode)) {
			struct dentry *target;

			err = nd_jump_link(nd, child, &target);
			if (err > 0) {
				dput(child);
				nd_set_dir(nd, target);
				continue;
			}
			if (!err)
				err = nd_splice_link(nd, child, p);
			dput(child);
			if (err)
				return err;
			goto restart;
		}
		nd_set_dir(nd, follow_mount(child));
	}
}

/*
 * Follow link, the last component (its reference is dropped): a magic link
 * jumps to its target (1, with *target), any other has its text walked in
 * place of the component (0: the new last component is to be looked up),
 * or -errno.
 */
static int follow_last_link(struct nameidata *nd, struct dentry *link, struct dentry **target)
{
	int err = nd_jump_link(nd, link, target);

	if (!err)
		err = nd_splice_link(nd, link, nd->trailing_slash ? "/" : "");
	dput(link);
	if (!err)
		err = link_path_walk(nd);
	return err;
}

/*
 * Resolve the last component for a lookup. With follow, a final symlink is
 * followed (and always when the path ends in "/"). Returns the dentry in
 * *result with a reference.
 */
static int lookup_last(struct nameidata *nd, unsigned int flags, struct dentry **result)
{
	struct dentry *d;
	int err;

	for (;;) {
		if (nd->last_type == LAST_DOTDOT)
			follow_dotdot(nd);
		if (nd->last_type != LAST_NORM) {
			d = dget(nd->dir);
			break;
		}
		d = lookup_child(nd->dir, nd->last, nd->last_len);
		if (IS_ERR(d))
			return PTR_ERR(d);
		if (!d)
			return -ENOENT;
		if (S_ISLNK(d->d_inode->i_mode) &&
		    ((flags & LOOKUP_FOLLOW) || nd->trailing_slash)) {
			err = follow_last_link(nd, d, &d);
			if (err > 0)
				break;
			if (err)
				return err;
			continue;
		}
		d = follow_mount(d);
		break;
	}
	if ((nd->trailing_slash || (flags & LOOKUP_DIRECTORY)) && !S_ISDIR(d->d_inode->i_mode)) {
		dput(d);
		return -ENOTDIR;
	}
	*result = d;
	return 0;
}

int kern_path_at(int dfd, const char *path, unsigned int flags, struct dentry **result)
{
	struct nameidata nd;
	int err = nd_init(&nd, dfd, path, flags);

	if (err)
		return err;
	err = link_path_walk(&nd);
	if (!err)
		err = lookup_last(&nd, flags, result);
	nd_free(&nd);
	return err;
}

/* kern_path_at for a name in user memory (LOOKUP_EMPTY lets "" through). */
int user_path_at(int dfd, const char __user *name, unsigned int flags, struct dentry **result)
{
	char *path = getname(name, flags & LOOKUP_EMPTY);
	int err;

	if (IS_ERR(path))
		return PTR_ERR(path);
	err = kern_path_at(dfd, path, flags, result);
	putname(path);
	return err;
}

/* Walk to the parent of the last component: nd->dir, nd->last. */
static int path_parentat(struct nameidata *nd, int dfd, const char *path)
{
	int err = nd_init(nd, dfd, path, 0);
	if (err)
		return err;
	err = link_path_walk(nd);
	if (err)
		nd_free(nd);
	return err;
}

/* ---- permission rules for creating and removing ------------------------ */

/* May current add a name to dir? A removed directory takes no new names. */
static int may_create(struct dentry *dir)
{
	if (dir->d_inode->i_nlink == 0)
		return -ENOENT;
	return inode_permission(dir->d_inode, MAY_WRITE | MAY_EXEC);
}

/*
 * May current remove victim from dir? isdir says whether the caller wants
 * a directory (rmdir) or not (unlink): the wrong kind gives ENOTDIR or
 * EISDIR. In a sticky directory (/tmp) only the owner of the file or of
 * the directory, or root, may remove it.
 */
static int may_delete(struct dentry *dir, struct dentry *victim, bool isdir)
{
	struct inode *inode = victim->d_inode;
	uid_t uid = current_fsuid();
	int err = inode_permission(dir->d_inode, MAY_WRITE | MAY_EXEC);

	if (err)
		return err;
	if ((dir->d_inode->i_mode & S_ISVTX) && uid != inode->i_uid &&
	    uid != dir->d_inode->i_uid && !capable(CAP_FOWNER))
		return -EPERM;
	if (isdir && !S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (!isdir && S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (victim->d_mounts || victim == current_root() || victim->d_parent == victim)
		return -EBUSY;
	return 0;
}

/*
 * Create name in dir with the given mode (type included). On success
 * *out (if not NULL) gets the new dentry with a reference.
 */
static int vfs_create(struct dentry *dir, const char *name, size_t len, mode_t mode,
		      dev_t rdev, struct dentry **out)
{
	struct inode *inode = dir->d_inode;
	struct dentry *d;
	int err;

	if (!inode->i_op || !inode->i_op->create)
		return -EPERM;
	d = d_alloc(dir, name, len);
	if (!d)
		return -ENOMEM;
	err = inode->i_op->create(inode, d, mode, rdev);
	if (err || !out)
		dput(d);
	else
		*out = d;
	return err;
}

/*
 * The common start of mkdir, mknod and symlink (Linux's filename_create):
 * walk to the parent, refuse "." "..", "/" and an existing name (EEXIST),
 * and a trailing "/" unless a directory is being made (ENOENT).
 */
static int filename_create(struct nameidata *nd, int dfd, const char *path, bool is_dir)
{
	struct dentry *d;
	int err = path_parentat(nd, dfd, path);

	if (err)
		return err;
	err = -EEXIST;
	if (nd->last_type != LAST_NORM)
		goto fail;
	d = lookup_child(nd->dir, nd->last, nd->last_len);
	if (IS_ERR(d)) {
		err = PTR_ERR(d);
		goto fail;
	}
	if (d) {
		dput(d);
		goto fail;
	}
	err = -ENOENT;
	if (nd->trailing_slash && !is_dir)
		goto fail;
	err = may_create(nd->dir);
	if (err)
		goto fail;
	return 0;
fail:
	nd_free(nd);
	return err;
}

int vfs_mknod_at(int dfd, const char *path, mode_t mode, dev_t rdev)
{
	struct nameidata nd;
	int err = filename_create(&nd, dfd, path, S_ISDIR(mode));

	if (err)
		return err;
	err = vfs_create(nd.dir, nd.last, nd.last_len, mode, rdev, NULL);
	nd_free(&nd);
	return err;
}

int vfs_mkdir_at(int dfd, const char *path, mode_t mode)
{
	return vfs_mknod_at(dfd, path, S_IFDIR | (mode & 01777 & ~current_umask()), 0);
}

int vfs_symlink_at(const char *target, int dfd, const char *path)
{
	struct nameidata nd;
	struct inode *dir;
	struct dentry *d;
	int err;

	if (!target[0])
		return -ENOENT;
	err = filename_create(&nd, dfd, path, false);
	if (err)
		return err;
	dir = nd.dir->d_inode;
	err = -EPERM;
	if (dir->i_op && dir->i_op->symlink) {
		err = -ENOMEM;
		d = d_alloc(nd.dir, nd.last, nd.last_len);
		if (d) {
			err = dir->i_op->symlink(dir, d, target);
			dput(d);
		}
	}
	nd_free(&nd);
	return err;
}

/*
 * fs.protected_hardlinks, on in Debian's kernel: a user may hard-link a
 * file of someone else only if it is a regular file, neither set-user-ID
 * nor executable set-group-ID, that the user may read and write (EPERM):
 * a link must not pin another user's privileged or secret file.
 */
static int may_linkat(struct inode *inode)
{
	mode_t mode = inode->i_mode;

	if (inode->i_uid == current_fsuid() || capable(CAP_FOWNER))
		return 0;
	if (!S_ISREG(mode) || (mode & S_ISUID) || (mode & (S_ISGID | 0010)) == (S_ISGID | 0010) ||
	    inode_permission(inode, MAY_READ | MAY_WRITE))
		return -EPERM;
	return 0;
}

int vfs_link_at(int olddfd, const char *oldpath, int newdfd, const char *newpath)
{
	struct nameidata nd;
	struct dentry *old, *d;
	struct inode *dir;
	int err = kern_path_at(olddfd, oldpath, 0, &old);

	if (err)
		return err;
	err = filename_create(&nd, newdfd, newpath, false);
	if (err)
		goto out;
	dir = nd.dir->d_inode;
	if (old->d_sb != nd.dir->d_sb)
		err = -EXDEV;
	else if ((err = may_linkat(old->d_inode)))
		;
	else if (S_ISDIR(old->d_inode->i_mode))
		err = -EPERM;
	else if (!dir->i_op || !dir->i_op->link)
		err = -EPERM;
	else if (old->d_inode->i_nlink == 0)
		err = -ENOENT;
	else if (!(d = d_alloc(nd.dir, nd.last, nd.last_len)))
		err = -ENOMEM;
	else {
		err = dir->i_op->link(old, dir, d);
		dput(d);
	}
	nd_free(&nd);
out:
	dput(old);
	return err;
}

/* Remove a directory (rmdir, unlinkat with AT_REMOVEDIR). */
static int do_rmdir(int dfd, const char *path)
{
	struct nameidata nd;
	struct dentry *d;
	struct inode *dir;
	int err = path_parentat(&nd, dfd, path);

	if (err)
		return err;
	switch (nd.last_type) {
	case LAST_DOT:
		err = -EINVAL;
		goto out;
	case LAST_DOTDOT:
		err = -ENOTEMPTY;
		goto out;
	case LAST_ROOT:
		err = -EBUSY;
		goto out;
	}
	d = lookup_child(nd.dir, nd.last, nd.last_len);
	err = IS_ERR(d) ? PTR_ERR(d) : -ENOENT;
	if (IS_ERR_OR_NULL(d))
		goto out;
	dir = nd.dir->d_inode;
	err = may_delete(nd.dir, d, true);
	if (!err && d->d_nr_children)
		err = -ENOTEMPTY;
	if (!err && !dir->i_op->rmdir)
		err = -EPERM;
	if (!err)
		err = dir->i_op->rmdir(dir, d);
	dput(d);
out:
	nd_free(&nd);
	return err;
}

/* Remove a name that is not a directory (unlink, unlinkat). */
static int do_unlink(int dfd, const char *path)
{
	struct nameidata nd;
	struct dentry *d;
	struct inode *dir;
	int err = path_parentat(&nd, dfd, path);

	if (err)
		return err;
	err = -EISDIR;
	if (nd.last_type != LAST_NORM)
		goto out;
	d = lookup_child(nd.dir, nd.last, nd.last_len);
	err = IS_ERR(d) ? PTR_ERR(d) : -ENOENT;
	if (IS_ERR_OR_NULL(d))
		goto out;
	dir = nd.dir->d_inode;
	if (nd.trailing_slash)
		err = S_ISDIR(d->d_inode->i_mode) ? -EISDIR : -ENOTDIR;
	else
		err = may_delete(nd.dir, d, false);
	if (!err && !dir->i_op->unlink)
		err = -EPERM;
	if (!err)
		err = dir->i_op->unlink(dir, d);
	dput(d);
out:
	nd_free(&nd);
	return err;
}

int vfs_unlink_at(int dfd, const char *path, bool rmdir)
{
	return rmdir ? do_rmdir(dfd, path) : do_unlink(dfd, path);
}

#define RENAME_NOREPLACE 1

/* Checks of rename once both names are looked up; see do_renameat2. */
static int may_rename(struct nameidata *o, struct dentry *old,
		      struct nameidata *n, struct dentry *new, unsigned int flags)
{
	bool is_dir = S_ISDIR(old->d_inode->i_mode);
	int err = may_delete(o->dir, old, is_dir);
	if (err)
		return err;
	if (new) {
		if (flags & RENAME_NOREPLACE)
			return -EEXIST;
		err = may_delete(n->dir, new, is_dir);
		if (err)
			return err;
		if (new->d_nr_children)
			return -ENOTEMPTY;
	} else {
		err = may_create(n->dir);
		if (err)
			return err;
	}
	if (is_dir && is_subdir(n->dir, old))
		return -EINVAL;        /* a directory into itself */
	if (is_dir && n->dir != o->dir)
		return inode_permission(old->d_inode, MAY_WRITE); /* its ".." changes */
	return 0;
}

static int do_renameat2(int olddfd, const char *oldpath, int newdfd, const char *newpath,
			unsigned int flags)
{
	struct nameidata o, n;
	struct dentry *old = NULL, *new = NULL, *target = NULL;
	struct inode *old_dir;
	int err;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	err = path_parentat(&o, olddfd, oldpath);
	if (err)
		return err;
	err = path_parentat(&n, newdfd, newpath);
	if (err) {
		nd_free(&o);
		return err;
	}
	err = -EBUSY;
	if (o.last_type != LAST_NORM || n.last_type != LAST_NORM)
		goto out;
	err = -EXDEV;
	if (o.dir->d_sb != n.dir->d_sb)
		goto out;
	old = lookup_child(o.dir, o.last, o.last_len);
	err = IS_ERR(old) ? PTR_ERR(old) : -ENOENT;
	if (IS_ERR_OR_NULL(old)) {
		old = NULL;
		goto out;
	}
	new = lookup_child(n.dir, n.last, n.last_len);
	if (IS_ERR(new)) {
		err = PTR_ERR(new);
		new = NULL;
		goto out;
	}
	err = -ENOTDIR;
	if (!S_ISDIR(old->d_inode->i_mode) && (o.trailing_slash || n.trailing_slash))
		goto out;
	err = 0;
	if (new && new->d_inode == old->d_inode)
		goto out; /* the same file under both names: nothing to do */
	err = may_rename(&o, old, &n, new, flags);
	if (err)
		goto out;
	old_dir = o.dir->d_inode;
	err = -EPERM;
	if (!old_dir->i_op->rename)
		goto out;
	err = -ENOMEM;
	target = new ? dget(new) : d_alloc(n.dir, n.last, n.last_len);
	if (!target)
		goto out;
	err = old_dir->i_op->rename(old_dir, old, n.dir->d_inode, target);
	dput(target);
out:
	dput(old);
	dput(new);
	nd_free(&o);
	nd_free(&n);
	return err;
}

/* ---- system calls -------------------------------------------------------- */

long sys_mkdirat(int dfd, const char __user *pathname, mode_t mode)
{
	char *path = getname(pathname, false);
	long err;

	if (IS_ERR(path))
		return PTR_ERR(path);
	err = vfs_mkdir_at(dfd, path, mode);
	putname(path);
	return err;
}

long sys_mkdir(const char __user *pathname, mode_t mode)
{
	return sys_mkdirat(AT_FDCWD, pathname, mode);
}

long sys_mknodat(int dfd, const char __user *pathname, mode_t mode, unsigned int dev)
{
	char *path;
	long err;

	switch (mode & S_IFMT) {
	case 0:
		mode |= S_IFREG;
		break;
	case S_IFREG:
	case S_IFIFO:
	case S_IFSOCK:
		break;
	case S_IFCHR:
	case S_IFBLK:
		if (!capable(CAP_MKNOD))
			return -EPERM;
		break;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
	path = getname(pathname, false);
	if (IS_ERR(path))
		return PTR_ERR(path);
	err = vfs_mknod_at(dfd, path, (mode & S_IFMT) | (mode & 07777 & ~current_umask()), dev);
	putname(path);
	return err;
}

long sys_mknod(const char __user *pathname, mode_t mode, unsigned int dev)
{
	return sys_mknodat(AT_FDCWD, pathname, mode, dev);
}

long sys_unlinkat(int dfd, const char __user *pathname, int flags)
{
	char *path;
	long err;

	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	path = getname(pathname, false);
	if (IS_ERR(path))
		return PTR_ERR(path);
	err = (flags & AT_REMOVEDIR) ? do_rmdir(dfd, path) : do_unlink(dfd, path);
	putname(path);
	return err;
}

long sys_unlink(const char __user *pathname)
{
	return sys_unlinkat(AT_FDCWD, pathname, 0);
}

long sys_rmdir(const char __user *pathname)
{
	return sys_unlinkat(AT_FDCWD, pathname, AT_REMOVEDIR);
}

long sys_symlinkat(const char __user *oldname, int newdfd, const char __user *newname)
{
	char *target = getname(oldname, true);
	char *path;
	long err;

	if (IS_ERR(target))
		return PTR_ERR(target);
	path = getname(newname, false);
	err = IS_ERR(path) ? PTR_ERR(path) : vfs_symlink_at(target, newdfd, path);
	putname(path);
	putname(target);
	return err;
}

long sys_symlink(const char __user *oldname, const char __user *newname)
{
	return sys_symlinkat(oldname, AT_FDCWD, newname);
}

long sys_linkat(int olddfd, const char __user *oldname, int newdfd,
		const char __user *newname, int flags)
{
	char *oldpath, *newpath;
	struct dentry *d;
	long err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	oldpath = getname(oldname, flags & AT_EMPTY_PATH);
	if (IS_ERR(oldpath))
		return PTR_ERR(oldpath);
	newpath = getname(newname, false);
	err = IS_ERR(newpath) ? PTR_ERR(newpath) : 0;
	/* Without AT_SYMLINK_FOLLOW a symlink itself gets the new name. */
	if (!err && (flags & AT_SYMLINK_FOLLOW)) {
		err = kern_path_at(olddfd, oldpath, LOOKUP_FOLLOW, &d);
		if (!err) {
			char *buf = kmalloc(PATH_MAX);
			char *p = buf ? d_path(d, current_root(), buf, PATH_MAX) : ERR_PTR(-ENOMEM);
			err = IS_ERR(p) ? PTR_ERR(p) : vfs_link_at(AT_FDCWD, p, newdfd, newpath);
			kfree(buf);
			dput(d);
		}
	} else if (!err) {
		err = vfs_link_at(olddfd, oldpath, newdfd, newpath);
	}
	putname(newpath);
	putname(oldpath);
	return err;
}

long sys_link(const char __user *oldname, const char __user *newname)
{
	return sys_linkat(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

long sys_renameat2(int olddfd, const char __user *oldname, int newdfd,
		   const char __user *newname, unsigned int flags)
{
	char *oldpath = getname(oldname, false);
	char *newpath;
	long err;

	if (IS_ERR(oldpath))
		return PTR_ERR(oldpath);
	newpath = getname(newname, false);
	err = IS_ERR(newpath) ? PTR_ERR(newpath)
			      : do_renameat2(olddfd, oldpath, newdfd, newpath, flags);
	putname(newpath);
	putname(oldpath);
	return err;
}

long sys_renameat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname)
{
	return sys_renameat2(olddfd, oldname, newdfd, newname, 0);
}

long sys_rename(const char __user *oldname, const char __user *newname)
{
	return sys_renameat2(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

/* getcwd: the length including the NUL, ERANGE if size is too small. */
long sys_getcwd(char __user *ubuf, unsigned long size)
{
	char *buf = kmalloc(PATH_MAX);
	char *p;
	long len;

	if (!buf)
		return -ENOMEM;
	p = d_path(current_pwd(), current_root(), buf, PATH_MAX);
	if (IS_ERR(p)) {
		len = PTR_ERR(p);
	} else {
		len = strlen(p) + 1;
		if ((unsigned long)len > size)
			len = -ERANGE;
		else if (copy_to_user(ubuf, p, len))
			len = -EFAULT;
	}
	kfree(buf);
	return len;
}

/* ---- open ----------------------------------------------------------------- */

/* FMODE_* for an open(2) access mode. O_ACCMODE (3) opens for ioctl only. */
static unsigned int open_fmode(int flags)
{
	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		return FMODE_READ;
	case O_WRONLY:
		return FMODE_WRITE;
	case O_RDWR:
		return FMODE_READ | FMODE_WRITE;
	default:
		return 0;
	}
}

/* MAY_* that open must check. */
static int open_acc_mode(int flags)
{
	static const int acc[4] = { MAY_READ, MAY_WRITE, MAY_READ | MAY_WRITE, MAY_READ | MAY_WRITE };
	int mask;

	if (flags & __FMODE_EXEC)
		return MAY_EXEC;
	mask = acc[flags & O_ACCMODE];
	if (flags & O_TRUNC)
		mask |= MAY_WRITE;
	return mask;
}

/*
 * Linux's may_open: what kind of file may be opened how. Only a regular
 * file may be opened to run it (MAY_EXEC, execve's open), and not on a
 * noexec mount: anything else is EACCES before permissions are looked at.
 */
static int may_open(struct dentry *d, int acc_mode, int flags)
{
	struct inode *inode = d->d_inode;
	int err;

	(void)flags;
	if (S_ISLNK(inode->i_mode))
		return -ELOOP;
	if (S_ISDIR(inode->i_mode) && (acc_mode & MAY_WRITE))
		return -EISDIR;
	if ((acc_mode & MAY_EXEC) && (!S_ISREG(inode->i_mode) || path_noexec(d)))
		return -EACCES;
	err = inode_permission(inode, acc_mode);
	/* A mount can be read-only when its filesystem is not (a second
	 * mount of binfmt_misc's one super block, mounted ro). */
	if (!err && (acc_mode & MAY_WRITE) && (mnt_flags(d) & SB_RDONLY) &&
	    (S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) || S_ISLNK(inode->i_mode)))
		err = -EROFS;
	return err;
}

/*
 * Resolve the last component for open: create it with O_CREAT, follow a
 * final symlink unless O_NOFOLLOW (ELOOP) or O_CREAT|O_EXCL (EEXIST).
 * *created tells whether the file is new.
 */
static int open_last(struct nameidata *nd, int flags, mode_t mode,
		     struct dentry **result, bool *created)
{
	struct dentry *d;
	int err;

	for (;;) {
		if (nd->last_type != LAST_NORM) {
			if (flags & O_CREAT)
				return -EISDIR;
			if (nd->last_type == LAST_DOTDOT)
				follow_dotdot(nd);
			d = dget(nd->dir);
			break;
		}
		d = lookup_child(nd->dir, nd->last, nd->last_len);
		if (IS_ERR(d))
			return PTR_ERR(d);
		if (!d) {
			if (!(flags & O_CREAT))
				return -ENOENT;
			if (nd->trailing_slash)
				return -EISDIR;
			err = may_create(nd->dir);
			/* Linux's lookup_open: a directory that cannot hold new
			 * files (procfs, binfmt_misc) refuses with EACCES, where
			 * mknod and mkdir get EPERM. */
			if (!err && (!nd->dir->d_inode->i_op || !nd->dir->d_inode->i_op->create))
				err = -EACCES;
			if (!err)
				err = vfs_create(nd->dir, nd->last, nd->last_len,
						 S_IFREG | (mode & 07777 & ~current_umask()), 0, &d);
			if (err)
				return err;
			*created = true;
			break;
		}
		if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
			dput(d);
			return -EEXIST;
		}
		if (S_ISLNK(d->d_inode->i_mode) && !(flags & O_PATH && flags & O_NOFOLLOW)) {
			if ((flags & O_NOFOLLOW) && !nd->trailing_slash) {
				dput(d);
				return -ELOOP;
			}
			err = follow_last_link(nd, d, &d);
			if (err > 0)
				break;
			if (err)
				return err;
			continue;
		}
		d = follow_mount(d);
		break;
	}
	*result = d;
	return 0;
}

/*
 * open(DIR, O_TMPFILE | O_RDWR): a new regular file on DIR's filesystem
 * that has no name, gone with its last descriptor (Linux's vfs_tmpfile).
 * Here it is made under a name nobody chose, "#N" (N its inode number, the
 * name Linux gives it too), and unlinked at once, before anyone else runs:
 * /proc/PID/fd shows "DIR/#N (deleted)", as on Linux. Only the memory
 * filesystems can (EOPNOTSUPP elsewhere); the directory must be writable.
 */
static struct file *open_tmpfile(struct dentry *dir, int flags, mode_t mode)
{
	struct inode *inode = dir->d_inode;
	struct dentry *d = NULL;
	struct file *file;
	char name[24];
	int err;

	if (!S_ISDIR(inode->i_mode))
		return ERR_PTR(-ENOTDIR);
	err = may_create(dir);
	if (err)
		return ERR_PTR(err);
	if (inode->i_sb->s_magic != TMPFS_MAGIC && inode->i_sb->s_magic != RAMFS_MAGIC)
		return ERR_PTR(-EOPNOTSUPP);
	do {
		snprintf(name, sizeof(name), "#%lu", (unsigned long)inode->i_sb->s_next_ino);
		err = vfs_create(dir, name, strlen(name), S_IFREG | (mode & 07777 & ~current_umask()), 0, &d);
		if (err == -EEXIST)
			inode->i_sb->s_next_ino++; /* someone took the name: the next */
	} while (err == -EEXIST);
	if (err)
		return ERR_PTR(err);
	file = vfs_open(d, flags & ~(O_TMPFILE | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC), open_fmode(flags));
	if (!file)
		file = ERR_PTR(-ENOMEM);
	inode->i_op->unlink(inode, d);
	dput(d);
	return file;
}

/* ---- the walk without the big kernel lock -------------------------------- */

/* May the walk go through directory d without asking its filesystem? */
static bool may_search_cached(struct dentry *d)
{
	struct inode *dir = d->d_inode;

	return S_ISDIR(dir->i_mode) && !(dir->i_op && dir->i_op->permission) &&
	       generic_permission(dir, MAY_EXEC) == 0;
}

/* The dentry p names from d, component by component, or NULL where the
 * ordinary walk would do anything but find a directory entry. */
static struct dentry *walk_cached_components(struct dentry *d, const char *p)
{
	while (*p == '/')
		p++;
	if (!*p)
		return NULL; /* "/": the ordinary walk knows its cases */
	for (;;) {
		const char *name = p;
		size_t len;

		if (!may_search_cached(d))
			return NULL;
		while (*p && *p != '/')
			p++;
		len = p - name;
		if (len > NAME_MAX || component_type(name, len) != LAST_NORM)
			return NULL;
		d = __d_lookup(d, name, len);
		if (!d || !d->d_inode || S_ISLNK(d->d_inode->i_mode) || d->d_mounts)
			return NULL;
		if (!*p)
			return d;
		while (*p == '/')
			p++;
		if (!*p)
			return NULL; /* a trailing slash */
	}
}

/*
 * Linux's RCU-walk, with dcache_lock read-held for RCU (fs/dcache.c): the
 * walk of a name the dcache holds whole, without the big kernel lock, for
 * an open. It follows directory entries through directories it may
 * search, to one that is neither a symlink nor a mount point, and returns
 * that dentry with a reference. Anything else (a name the dcache lacks,
 * ".", "..", a symlink, a mount point, a filesystem's own permission
 * check, a refusal) and it gives up, NULL: the caller walks again the
 * ordinary way, under the big lock, which finds the answer and the errno.
 * So it answers only what the ordinary walk would.
 */
static struct dentry *walk_cached(int dfd, const char *path)
{
	size_t len = strnlen(path, PATH_MAX);
	struct dentry *d;
	uint64_t flags;

	if (len == 0 || len >= PATH_MAX || (path[0] != '/' && dfd != AT_FDCWD))
		return NULL;
	flags = dcache_read_lock();
	d = walk_cached_components(path[0] == '/' ? current_root() : current_pwd(), path);
	if (d && !dget_unless_zero(d))
		d = NULL;
	dcache_read_unlock(flags);
	return d;
}

/* An open that walk_cached may resolve: a plain name, no file made. */
static bool open_walks_cached(int flags, int at_flags)
{
	return !(flags & (O_CREAT | __O_TMPFILE | O_PATH)) && !(at_flags & AT_EMPTY_PATH);
}

/* The walk of path for an open, and its last component: 0 and *result,
 * or -errno. *must_be_dir: the name ended in a slash. */
static int open_walk(int dfd, const char *path, int flags, mode_t mode, int at_flags,
		     struct dentry **result, bool *created, bool *must_be_dir)
{
	struct nameidata nd;
	int err;

	if (open_walks_cached(flags, at_flags)) {
		bool locked = release_kernel_lock();
		*result = walk_cached(dfd, path);
		reacquire_kernel_lock(locked);
		if (*result)
			return 0;
	}
	err = nd_init(&nd, dfd, path, (at_flags & AT_EMPTY_PATH) ? LOOKUP_EMPTY : 0);
	if (err)
		return err;
	err = link_path_walk(&nd);
	if (!err)
		err = open_last(&nd, flags, mode, result, created);
	*must_be_dir = nd.trailing_slash;
	nd_free(&nd);
	return err;
}

struct file *do_filp_open_at(int dfd, const char *path, int flags, mode_t mode, int at_flags)
{
	struct dentry *d = NULL;
	struct inode *inode;
	struct file *file;
	bool created = false, must_be_dir = false;
	int err;

	/* O_TMPFILE: with O_DIRECTORY (its value has it), without O_CREAT,
	 * and for writing (EINVAL), as Linux's build_open_flags. */
	if ((flags & __O_TMPFILE) && ((flags & (O_TMPFILE | O_CREAT)) != O_TMPFILE ||
				      (flags & O_ACCMODE) == O_RDONLY))
		return ERR_PTR(-EINVAL);
	if (flags & O_PATH)
		flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	/* A final symlink is not followed: open_last gives ELOOP, may_open
	 * too for one reached through an empty name. */
	if (at_flags & AT_SYMLINK_NOFOLLOW)
		flags |= O_NOFOLLOW;
	err = open_walk(dfd, path, flags, mode, at_flags, &d, &created, &must_be_dir);
	if (err)
		return ERR_PTR(err);
	must_be_dir |= (flags & O_DIRECTORY) != 0;

	if (flags & __O_TMPFILE) {
		file = open_tmpfile(d, flags, mode);
		dput(d);
		return file;
	}
	/* What may be opened how: Linux's do_open and may_open. */
	inode = d->d_inode;
	if ((flags & O_CREAT) && S_ISDIR(inode->i_mode))
		err = -EISDIR;
	else if (must_be_dir && !S_ISDIR(inode->i_mode))
		err = -ENOTDIR;
	else if (!created && !(flags & O_PATH))
		err = may_open(d, open_acc_mode(flags), flags);
	if (err) {
		dput(d);
		return ERR_PTR(err);
	}
	if (flags & O_PATH) {
		file = alloc_file(d, inode, flags, FMODE_PATH);
		if (file) /* a handle on the name: no I/O, no ->open or ->release */
			file->f_op = NULL;
	} else
		/* f_flags keeps the status flags, as F_GETFL shows them. */
		file = vfs_open(d, flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC),
				open_fmode(flags) | ((flags & __FMODE_EXEC) ? FMODE_EXEC : 0));
	dput(d);
	if (!file)
		return ERR_PTR(-ENOMEM);
	if (IS_ERR(file))
		return file;
	if ((flags & O_TRUNC) && !created && S_ISREG(inode->i_mode) && !(flags & O_PATH)) {
		err = vfs_truncate(file->f_dentry, 0);
		if (err) {
			fput(file);
			return ERR_PTR(err);
		}
	}
	return file;
}

struct file *do_filp_open(int dfd, const char *path, int flags, mode_t mode)
{
	return do_filp_open_at(dfd, path, flags, mode, 0);
}

struct file *filp_open(const char *path, int flags, mode_t mode)
{
	return do_filp_open(AT_FDCWD, path, flags, mode);
}
