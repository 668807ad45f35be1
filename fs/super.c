/*
 * super.c - bringing up the filesystem tree at boot.
 *
 * vfs_init mounts an empty in-memory filesystem as "/" (mode 0755, like
 * Linux's rootfs) and registers the character devices. The initramfs is
 * then unpacked into it (fs/initramfs.c). Nothing else is created: as in
 * Linux, /dev/console exists only if the archive provides it.
 */
#include "vfs.h"

void vfs_init(void)
{
	struct super_block *sb = ramfs_mount("rootfs");

	if (!sb)
		panic("vfs_init: no memory for the root filesystem");
	root_dentry = sb->s_root;
	chrdev_init();
}
