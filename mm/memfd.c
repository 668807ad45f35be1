/*
 * memfd.c - memfd_create(2), and the seals of tmpfs files: fcntl's
 * F_ADD_SEALS and F_GET_SEALS.
 *
 * A memfd is an ordinary regular file of the in-memory filesystem
 * (fs/ramfs.c: its pages, read, write, mmap, truncate are a tmpfs file's),
 * on an internal tmpfs that is mounted nowhere, as Linux's shm_mnt. Its
 * dentry, "memfd:NAME", is linked in no directory and its link count is 0:
 * /proc/PID/fd/N and the maps show "/memfd:NAME (deleted)", and the file
 * is freed with its last open file or mapping. It can still be reopened
 * through /proc/PID/fd/N.
 *
 * Seals (include/memfd.h) live in the inode and can only be added.
 * Adding F_SEAL_WRITE must fail with EBUSY while some process has a shared
 * mapping of the file that is or may become writable: Linux counts those
 * in i_mmap_writable; here the areas are looked up when asked
 * (mapping_writably_mapped, mm/vm.c). Linux also waits for pages pinned
 * by I/O in flight; nothing pins pages here.
 *
 * Concurrency: seals change only here, with interrupts off (one CPU: the
 * kernel is not preempted); readers (fs/ramfs.c, mm/mmap.c) look at them
 * once per check.
 */
#include "../fs/vfs.h" /* struct file, struct inode, as Linux's <linux/fs.h> */
#include <linux/init.h>
#include <memfd.h>
#include <mm.h>
#include <sched.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

#define O_LARGEFILE 00100000 /* F_GETFL shows it, as for every file open(2) opens */
#define MFD_CLOEXEC 0x0001U
#define MFD_ALLOW_SEALING 0x0002U
#define MFD_HUGETLB 0x0004U
#define MFD_ALL_FLAGS (MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB)
/* With MFD_HUGETLB, bits 26-31 may give the huge page size (log2). */
#define MFD_HUGE_SHIFT 26
#define MFD_HUGE_MASK 0x3fU

#define MFD_NAME_PREFIX "memfd:"
#define MFD_NAME_PREFIX_LEN (sizeof(MFD_NAME_PREFIX) - 1)
/* The dentry's name must fit NAME_MAX (255) with its prefix. */
#define MFD_NAME_MAX_LEN (255 - MFD_NAME_PREFIX_LEN)

/* The internal tmpfs of every memfd, made at boot as Linux's shm_mnt (so
 * that the first memfd_create does not leave memory behind it). */
static struct super_block *shm_sb;

/* Seals for regular files of tmpfs only (Linux: shmem and hugetlbfs). */
static unsigned int *file_seals_ptr(struct file *file)
{
	struct inode *inode = file->f_inode;

	if (!S_ISREG(inode->i_mode) || !inode->i_sb || inode->i_sb->s_magic != TMPFS_MAGIC)
		return NULL;
	return &inode->i_seals;
}

unsigned int memfd_file_seals(struct file *file)
{
	unsigned int *seals = file_seals_ptr(file);

	return seals ? *seals : 0;
}

/* Add seals, in Linux's order of checks: EPERM for a file not open for
 * writing, EINVAL for unknown seals or a file that cannot have them,
 * EPERM once F_SEAL_SEAL is set, EBUSY for F_SEAL_WRITE while a shared
 * mapping may write. */
static long memfd_add_seals(struct file *file, unsigned int seals)
{
	unsigned int *file_seals;
	long err = 0;

	if (!(file->f_mode & FMODE_WRITE))
		return -EPERM;
	if (seals & ~(unsigned int)F_ALL_SEALS)
		return -EINVAL;
	file_seals = file_seals_ptr(file);
	if (!file_seals)
		return -EINVAL;
	uint64_t irq = irq_save();
	if (*file_seals & F_SEAL_SEAL)
		err = -EPERM;
	else if ((seals & F_SEAL_WRITE) && !(*file_seals & F_SEAL_WRITE) &&
		 mapping_writably_mapped(file->f_inode))
		err = -EBUSY;
	else
		*file_seals |= seals;
	irq_restore(irq);
	return err;
}

long memfd_fcntl(struct file *file, unsigned int cmd, unsigned long arg)
{
	unsigned int *seals;

	if (cmd == F_ADD_SEALS)
		return arg > UINT32_MAX ? -EINVAL : memfd_add_seals(file, (unsigned int)arg);
	seals = file_seals_ptr(file);
	return seals ? (long)*seals : -EINVAL;
}

static int memfd_init(void)
{
	shm_sb = ramfs_mount("tmpfs");
	return shm_sb ? 0 : -ENOMEM;
}
fs_initcall(memfd_init);

/* The internal tmpfs; NULL if there was no memory for it at boot. */
static struct super_block *get_shm_sb(void)
{
	return shm_sb;
}

/*
 * A new memfd called name ("memfd:..."), open for reading and writing
 * (Linux's shmem_file_setup): mode 0777, no link, no seal but F_SEAL_SEAL.
 * The file or ERR_PTR(-ENOMEM).
 */
static struct file *memfd_file_setup(const char *name)
{
	struct super_block *sb = get_shm_sb();
	struct inode *inode;
	struct dentry *dentry;
	struct file *file;

	if (!sb)
		return ERR_PTR(-ENOMEM);
	dentry = d_alloc(sb->s_root, name, strlen(name));
	if (!dentry)
		return ERR_PTR(-ENOMEM);
	inode = ramfs_get_inode(sb, S_IFREG | 0777, 0);
	if (!inode) {
		dput(dentry);
		return ERR_PTR(-ENOMEM);
	}
	inode->i_nlink = 0;     /* named nowhere: freed with its last user */
	dentry->d_inode = inode; /* takes over the reference; never linked */
	file = alloc_file(dentry, inode, O_RDWR | O_LARGEFILE, FMODE_READ | FMODE_WRITE);
	dput(dentry);            /* the file holds its own */
	return file ? file : ERR_PTR(-ENOMEM);
}

/* Copy the user's name after the prefix: a kmalloc'd "memfd:NAME", or
 * ERR_PTR: EFAULT, EINVAL for a name over MFD_NAME_MAX_LEN bytes. */
static char *memfd_name(const char __user *uname)
{
	long len = strnlen_user(uname, MFD_NAME_MAX_LEN + 1); /* with its NUL */
	char *name;

	if (len <= 0)
		return ERR_PTR(-EFAULT);
	if (len > (long)MFD_NAME_MAX_LEN + 1)
		return ERR_PTR(-EINVAL);
	name = kmalloc(MFD_NAME_PREFIX_LEN + len);
	if (!name)
		return ERR_PTR(-ENOMEM);
	memcpy(name, MFD_NAME_PREFIX, MFD_NAME_PREFIX_LEN);
	/* The NUL must still be where it was: the string may have changed. */
	if (copy_from_user(name + MFD_NAME_PREFIX_LEN, uname, len) ||
	    name[MFD_NAME_PREFIX_LEN + len - 1]) {
		kfree(name);
		return ERR_PTR(-EFAULT);
	}
	return name;
}

/* memfd_create(name, flags): a new memfd at the lowest free descriptor.
 * MFD_HUGETLB answers ENOSYS, as a Linux without hugetlbfs does. */
long sys_memfd_create(const char __user *uname, unsigned int flags)
{
	unsigned int allowed = MFD_ALL_FLAGS;
	struct file *file;
	char *name;
	long fd;

	if (flags & MFD_HUGETLB)
		allowed |= MFD_HUGE_MASK << MFD_HUGE_SHIFT;
	if (flags & ~allowed)
		return -EINVAL;
	name = memfd_name(uname);
	if (IS_ERR(name))
		return PTR_ERR(name);
	fd = get_unused_fd(current->files, 0);
	if (fd < 0)
		goto out;
	file = flags & MFD_HUGETLB ? ERR_PTR(-ENOSYS) : memfd_file_setup(name);
	if (IS_ERR(file)) {
		fd = PTR_ERR(file);
		goto out;
	}
	if (flags & MFD_ALLOW_SEALING)
		file->f_inode->i_seals &= ~F_SEAL_SEAL;
	fd_install(current->files, fd, file, flags & MFD_CLOEXEC);
out:
	kfree(name);
	return fd;
}
