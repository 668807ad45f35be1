/*
 * memfd.h - memfd_create(2) and file seals (mm/memfd.c).
 *
 * A memfd is a file of the kernel's internal tmpfs with no name in any
 * directory. Seals are a property of the inode (i_seals) that only grows:
 * every regular tmpfs file has them (and starts with F_SEAL_SEAL, so that
 * nothing can be added), a memfd made with MFD_ALLOW_SEALING starts with
 * none. fs/ramfs.c enforces them on write, truncate and fallocate,
 * mm/mmap.c on mmap; fcntl(F_ADD_SEALS, F_GET_SEALS) reaches memfd_fcntl.
 */
#pragma once
#include <kernel.h>

struct file;

/* fcntl's commands (Linux's F_LINUX_SPECIFIC_BASE + 9, + 10). */
#define F_ADD_SEALS 1033
#define F_GET_SEALS 1034

#define F_SEAL_SEAL 0x0001          /* no seal may be added any more */
#define F_SEAL_SHRINK 0x0002        /* the size may not go down */
#define F_SEAL_GROW 0x0004          /* the size may not go up */
#define F_SEAL_WRITE 0x0008         /* no write, no writable shared mapping */
#define F_SEAL_FUTURE_WRITE 0x0010  /* as WRITE, but mappings made before stay writable */
#define F_ALL_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)
#define F_SEALS_NO_WRITE (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)

/* fcntl(fd, F_ADD_SEALS or F_GET_SEALS, arg): the seals, 0, or -errno. */
long memfd_fcntl(struct file *file, unsigned int cmd, unsigned long arg);
/* The seals of file's inode, 0 for a file that cannot have any. */
unsigned int memfd_file_seals(struct file *file);
