/*
 * super.c - super blocks: bringing up the filesystem tree at boot, device
 * numbers for filesystems without a disk, and freeing a filesystem once it
 * is unmounted and its last inode has gone.
 *
 * vfs_init mounts an empty in-memory filesystem as "/" (mode 0755, like
 * Linux's rootfs) and registers the character devices. The initramfs is
 * then unpacked into it (fs/initramfs.c). Nothing else is created: as in
 * Linux, /dev/console exists only if the archive provides it. Later mounts
 * (mount(2), fs/namespace.c) put other super blocks on directories.
 *
 * Besides ramfs, tmpfs and proc, which fs/namespace.c knows by name, a
 * filesystem can register its type (register_filesystem): binfmt_misc
 * does, as it does in Linux. Such a type may live in a module: mounting
 * an unknown type asks for the module "fs-TYPE" first (get_fs_type), and
 * each super block of a module's type keeps the module loaded until the
 * super block is freed, after umount and the last open file.
 */
#include "vfs.h"
#include <linux/kmod.h>
#include <linux/module.h>
#include <mm.h>
#include <proc_fs.h>

/*
 * Linux's anonymous devices 0:N (ramfs, tmpfs, proc, pipefs, binfmt_misc):
 * the lowest free N from 1, so that a filesystem mounted again after its
 * umount gets its number back, as from Linux's IDA. A bitmap of the first
 * 4096; past them (a teaching kernel does not mount that many at once),
 * numbers are not reused.
 */
#define ANON_BITMAP_MINORS 4096
static uint64_t anon_used[ANON_BITMAP_MINORS / 64];
static unsigned int anon_next = ANON_BITMAP_MINORS;

dev_t get_anon_dev(void)
{
	for (unsigned int minor = 1; minor < ANON_BITMAP_MINORS; minor++) {
		if (!(anon_used[minor / 64] & (1ULL << (minor % 64)))) {
			anon_used[minor / 64] |= 1ULL << (minor % 64);
			return MKDEV(0, minor);
		}
	}
	unsigned int minor = anon_next++;
	return MKDEV(0, minor);
}

static void put_anon_dev(dev_t dev)
{
	unsigned int minor = MINOR(dev);

	if (MAJOR(dev) == 0 && minor && minor < ANON_BITMAP_MINORS)
		anon_used[minor / 64] &= ~(1ULL << (minor % 64));
}

/* An inode of sb was freed (iput): the last one of an unmounted
 * filesystem frees the super block too. */
void put_super(struct super_block *sb)
{
	sb->s_inodes--;
	if (sb->s_unmounted && sb->s_inodes == 0) {
		if (sb->s_fs_type)
			put_filesystem(sb->s_fs_type);
		put_anon_dev(sb->s_dev);
		if (sb->s_free_fs_info)
			sb->s_free_fs_info(sb);
		else
			kfree(sb->s_fs_info);
		kfree(sb);
	}
}

/* ---- filesystem types beyond the built-in ones (Linux's register_filesystem) ---- */

static struct file_system_type *file_systems;

int register_filesystem(struct file_system_type *fs)
{
	struct file_system_type **pp = &file_systems;

	for (; *pp; pp = &(*pp)->next)
		if (strcmp((*pp)->name, fs->name) == 0)
			return -EBUSY;
	fs->next = NULL;
	*pp = fs;
	return 0;
}

int unregister_filesystem(struct file_system_type *fs)
{
	for (struct file_system_type **pp = &file_systems; *pp; pp = &(*pp)->next) {
		if (*pp == fs) {
			*pp = fs->next;
			fs->next = NULL;
			return 0;
		}
	}
	return -EINVAL;
}

/* The registered type called name, with a reference on its module; NULL
 * if there is none, or its module is being unloaded. */
static struct file_system_type *__get_fs_type(const char *name)
{
	struct file_system_type *fs = file_systems;

	while (fs && strcmp(fs->name, name) != 0)
		fs = fs->next;
	if (fs && !try_module_get(fs->owner))
		fs = NULL;
	return fs;
}

struct file_system_type *get_fs_type(const char *name)
{
	struct file_system_type *fs = __get_fs_type(name);

	/* request_module says 0 when modprobe exited with status 0. */
	if (!fs && request_module("fs-%s", name) == 0) {
		fs = __get_fs_type(name);
		if (!fs)
			pr_warn("request_module fs-%s succeeded, but still no fs?\n", name);
	}
	return fs;
}

void put_filesystem(struct file_system_type *fs)
{
	module_put(fs->owner);
}

struct super_block *mount_fs_type(struct file_system_type *fs)
{
	struct super_block *sb = fs->mount();

	if (!sb || sb->s_fs_type)
		put_filesystem(fs); /* the super block holds one already */
	else
		sb->s_fs_type = fs;
	return sb;
}

void show_registered_filesystems(struct seq_file *m)
{
	for (struct file_system_type *fs = file_systems; fs; fs = fs->next)
		seq_printf(m, "nodev\t%s\n", fs->name);
}

void vfs_init(void)
{
	struct super_block *sb = ramfs_mount("rootfs");

	if (!sb)
		panic("vfs_init: no memory for the root filesystem");
	root_dentry = sb->s_root;
	mnt_init_root(sb);
	chrdev_init();
	proc_root_init();
}
