/*
 * dcache.c - dentries: the names of the directory tree.
 *
 * A dentry joins a name to an inode and to the directory (parent dentry)
 * that holds the name. The in-memory filesystem has no other record of its
 * directories: a directory's entries are its list of child dentries, kept
 * in the order they were added, each with a readdir position (d_pos) that
 * never changes while the entry stays, so that a program that removes
 * entries while it reads the directory (rm -r) sees each remaining entry
 * exactly once.
 *
 * Walking up the parent links gives getcwd its answer (d_path).
 *
 * Looking a name up does not walk the directory's list: every linked
 * dentry is also on a chain of a hash table, found from its parent and its
 * name (Linux's dentry_hashtable). /usr/bin holds a thousand names, and
 * each lookup of a command in it used to compare them one by one.
 *
 * The tree, the lists and the hash table are guarded by the big kernel
 * lock (include/smp_lock.h), and also by dcache_lock, for the one reader
 * that runs without the big lock: the walk of a name the dcache holds
 * whole (walk_cached, fs/namei.c). A change to the hash chains, a
 * dentry's name, parent or inode, and the freeing of a dentry, write-hold
 * dcache_lock; that walk read-holds it, so nothing it can reach changes
 * or goes away under it. The reference counts are atomic: the walk takes
 * one on the dentry it ends at.
 *
 * Lock order: the big kernel lock, then dcache_lock; nothing is taken
 * inside it. A CPU without the big lock holds it with interrupts off (an
 * interrupt handler takes the big lock, whose holder may wait for this).
 */
#include "vfs.h"
#include <mm.h>
#include <rwlock.h>
#include <smp.h>
#include <x86.h>

static DEFINE_RWLOCK(dcache_lock);

/* Write-hold dcache_lock, interrupts off; the flags to give back. */
static uint64_t dcache_write_lock(void)
{
	uint64_t flags = irq_save();

	write_lock_relax(&dcache_lock, cpu_relax_answering_calls);
	return flags;
}

static void dcache_write_unlock(uint64_t flags)
{
	write_unlock(&dcache_lock);
	irq_restore(flags);
}

uint64_t dcache_read_lock(void)
{
	uint64_t flags = irq_save();

	read_lock(&dcache_lock);
	return flags;
}

void dcache_read_unlock(uint64_t flags)
{
	read_unlock(&dcache_lock);
	irq_restore(flags);
}

/* A dentry named name[0..len) with one reference and no parent yet. */
static struct dentry *__d_alloc(const char *name, size_t len)
{
	struct dentry *d = kzalloc(sizeof(*d));
	char *copy = kmalloc(len + 1);
	if (!d || !copy) {
		kfree(d);
		kfree(copy);
		return NULL;
	}
	memcpy(copy, name, len);
	copy[len] = '\0';
	d->d_name = copy;
	d->d_namelen = len;
	d->d_count = 1;
	d->d_next_pos = DIR_POS_FIRST;
	return d;
}

struct dentry *d_alloc(struct dentry *parent, const char *name, size_t len)
{
	struct dentry *d = __d_alloc(name, len);
	if (!d)
		return NULL;
	d->d_parent = dget(parent);
	d->d_sb = parent->d_sb;
	return d;
}

struct dentry *d_make_root(struct inode *inode)
{
	struct dentry *d = __d_alloc("/", 1);
	if (!d)
		return NULL;
	d->d_parent = d;
	d->d_inode = inode;
	d->d_sb = inode->i_sb;
	return d;
}

struct dentry *dget(struct dentry *dentry)
{
	if (dentry)
		__atomic_fetch_add(&dentry->d_count, 1, __ATOMIC_RELAXED);
	return dentry;
}

bool dget_unless_zero(struct dentry *dentry)
{
	int count = __atomic_load_n(&dentry->d_count, __ATOMIC_RELAXED);

	while (count > 0)
		if (__atomic_compare_exchange_n(&dentry->d_count, &count, count + 1, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	return false;
}

/*
 * Drop a reference. The last one frees the dentry, which then lets go of
 * its inode and its parent (iteratively: a deep chain must not recurse).
 * A dentry at its last reference is out of the hash table, and no task's
 * root or working directory: only a walk_cached that found it before
 * could still look at it, so the first free waits for the walks under
 * way (it write-holds dcache_lock once) and needs no lock after.
 */
void dput(struct dentry *dentry)
{
	bool walks_done = false;

	while (dentry) {
		BUG_ON(__atomic_load_n(&dentry->d_count, __ATOMIC_RELAXED) <= 0);
		if (__atomic_sub_fetch(&dentry->d_count, 1, __ATOMIC_ACQ_REL) > 0)
			return;
		if (!walks_done) {
			dcache_write_unlock(dcache_write_lock());
			walks_done = true;
		}
		struct dentry *parent = dentry->d_parent;
		iput(dentry->d_inode);
		kfree(dentry->d_name);
		kfree(dentry);
		if (parent == dentry)
			return;
		dentry = parent;
	}
}

#define D_HASH_BITS 12
static struct dentry *dentry_hashtable[1 << D_HASH_BITS];

/* The hash of the name name[0..len) in the directory parent (FNV-1a,
 * seeded with the parent's address). */
static unsigned int d_hash_of(const struct dentry *parent, const char *name, size_t len)
{
	uint64_t h = 14695981039346656037UL ^ (uint64_t)parent;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211UL;
	return (unsigned int)(h ^ (h >> 32));
}

static struct dentry **d_bucket(unsigned int hash)
{
	return &dentry_hashtable[hash & ((1 << D_HASH_BITS) - 1)];
}

static void d_hash_add(struct dentry *d)
{
	struct dentry **head;

	d->d_hash = d_hash_of(d->d_parent, d->d_name, d->d_namelen);
	head = d_bucket(d->d_hash);
	d->d_hash_next = *head;
	if (*head)
		(*head)->d_hash_pprev = &d->d_hash_next;
	d->d_hash_pprev = head;
	*head = d;
}

static void d_hash_del(struct dentry *d)
{
	*d->d_hash_pprev = d->d_hash_next;
	if (d->d_hash_next)
		d->d_hash_next->d_hash_pprev = d->d_hash_pprev;
	d->d_hash_next = NULL;
	d->d_hash_pprev = NULL;
}

/* Append d to its parent's children with a fresh readdir position. */
static void link_child(struct dentry *d)
{
	struct dentry *p = d->d_parent;
	d->d_pos = p->d_next_pos++;
	d->d_prev = p->d_last_child;
	d->d_next = NULL;
	if (p->d_last_child)
		p->d_last_child->d_next = d;
	else
		p->d_first_child = d;
	p->d_last_child = d;
	p->d_nr_children++;
	d->d_flags |= DCACHE_LINKED;
	d_hash_add(d);
}

static void unlink_child(struct dentry *d)
{
	struct dentry *p = d->d_parent;
	if (d->d_prev)
		d->d_prev->d_next = d->d_next;
	else
		p->d_first_child = d->d_next;
	if (d->d_next)
		d->d_next->d_prev = d->d_prev;
	else
		p->d_last_child = d->d_prev;
	d->d_prev = d->d_next = NULL;
	p->d_nr_children--;
	d->d_flags &= ~DCACHE_LINKED;
	d_hash_del(d);
}

void d_add(struct dentry *dentry, struct inode *inode)
{
	dget(dentry); /* the directory's reference */
	uint64_t flags = dcache_write_lock();
	dentry->d_inode = inode;
	link_child(dentry);
	dcache_write_unlock(flags);
}

void d_delete(struct dentry *dentry)
{
	if (!(dentry->d_flags & DCACHE_LINKED))
		return;
	uint64_t flags = dcache_write_lock();
	unlink_child(dentry);
	dcache_write_unlock(flags);
	dput(dentry);
}

int d_move(struct dentry *dentry, struct dentry *new_parent, const char *name, size_t len)
{
	char *copy = kmalloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, name, len);
	copy[len] = '\0';
	struct dentry *old_parent = dentry->d_parent;
	char *old_name = dentry->d_name;
	uint64_t flags = dcache_write_lock();
	unlink_child(dentry);
	dentry->d_name = copy;
	dentry->d_namelen = len;
	dentry->d_parent = new_parent != old_parent ? dget(new_parent) : old_parent;
	link_child(dentry);
	dcache_write_unlock(flags);
	/* No walk sees the old name or parent once the lock is let go. */
	kfree(old_name);
	if (new_parent != old_parent)
		dput(old_parent);
	return 0;
}

struct dentry *__d_lookup(struct dentry *dir, const char *name, size_t len)
{
	unsigned int hash = d_hash_of(dir, name, len);

	for (struct dentry *d = *d_bucket(hash); d; d = d->d_hash_next)
		if (d->d_hash == hash && d->d_parent == dir && d->d_namelen == len &&
		    memcmp(d->d_name, name, len) == 0)
			return d;
	return NULL;
}

struct dentry *d_lookup(struct dentry *dir, const char *name, size_t len)
{
	return dget(__d_lookup(dir, name, len));
}

bool is_subdir(struct dentry *d, struct dentry *anc)
{
	for (;;) {
		if (d == anc)
			return true;
		if (d->d_parent == d) {
			if (!d_covers(d))
				return false;
			d = d_covers(d);
			continue;
		}
		d = d->d_parent;
	}
}

char *d_path(struct dentry *d, struct dentry *root, char *buf, size_t size)
{
	char *p = buf + size;
	bool unlinked = false;

	if (size < 2)
		return ERR_PTR(-ENAMETOOLONG);
	*--p = '\0';
	while (d != root) {
		if (d->d_parent == d) {         /* a filesystem root */
			if (!d_covers(d))
				break;          /* above the process's root: stop */
			d = d_covers(d);
			continue;
		}
		if (d_unlinked(d))
			unlinked = true;
		if ((size_t)(p - buf) < d->d_namelen + 1)
			return ERR_PTR(-ENAMETOOLONG);
		p -= d->d_namelen;
		memcpy(p, d->d_name, d->d_namelen);
		*--p = '/';
		d = d->d_parent;
	}
	if (unlinked)
		return ERR_PTR(-ENOENT);
	if (*p == '\0')
		*--p = '/';
	return p;
}

/*
 * The path of an open file from current's root, for messages (a security
 * module's log): "/tmp/x", or "x (deleted)" once it has no name.
 */
char *file_path(struct file *file, char *buf, size_t size)
{
	char *p;

	if (!file->f_dentry)
		return ERR_PTR(-ENOENT);
	p = d_path(file->f_dentry, current_root(), buf, size);
	if (p == ERR_PTR(-ENOENT)) {
		snprintf(buf, size, "%s (deleted)", file->f_dentry->d_name);
		p = buf;
	}
	return p;
}
