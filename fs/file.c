/*
 * file.c - the per-process descriptor table (struct files_struct).
 *
 * max_fds slots, each empty or holding one reference on a struct file,
 * plus a close-on-exec bit per slot. A new table has the NR_OPEN_DEFAULT
 * slots inside the struct; a descriptor past them grows the table,
 * doubling, up to the process's RLIMIT_NOFILE (EMFILE beyond), as Linux's
 * fdtable does (/proc/PID/status shows max_fds as FDSize). fork() copies
 * the table (each file gains a reference: parent and child share offsets,
 * as Unix requires); a clone with CLONE_FILES shares the table itself
 * (count).
 */
#include "vfs.h"
#include <mm.h>
#include <sched.h>
#include <smp_lock.h>

static void files_init(struct files_struct *files)
{
	files->count = 1;
	files->max_fds = NR_OPEN_DEFAULT;
	files->fd = files->fd_array;
	files->close_on_exec = files->close_on_exec_init;
}

struct files_struct *files_alloc(void)
{
	struct files_struct *files = kzalloc(sizeof(*files));
	if (files)
		files_init(files);
	return files;
}

struct files_struct *files_get(struct files_struct *files)
{
	files->count++;
	return files;
}

/* Give files room for nr slots (a multiple of 64), keeping what it has. */
static int resize_table(struct files_struct *files, unsigned int nr)
{
	struct file **fd = kzalloc(nr * sizeof(*fd));
	uint64_t *coe = kzalloc(nr / 8);

	if (!fd || !coe) {
		kfree(fd);
		kfree(coe);
		return -ENOMEM;
	}
	memcpy(fd, files->fd, files->max_fds * sizeof(*fd));
	memcpy(coe, files->close_on_exec, files->max_fds / 8);
	if (files->fd != files->fd_array) {
		kfree(files->fd);
		kfree(files->close_on_exec);
	}
	files->fd = fd;
	files->close_on_exec = coe;
	files->max_fds = nr;
	return 0;
}

int expand_files(struct files_struct *files, unsigned int fd)
{
	unsigned int nr = files->max_fds;

	if (fd < nr)
		return 0;
	if (fd >= current->rlim[RLIMIT_NOFILE].cur || fd >= NR_OPEN)
		return -EMFILE;
	while (nr <= fd)
		nr *= 2;
	return resize_table(files, nr);
}

struct files_struct *files_dup(struct files_struct *old)
{
	struct files_struct *files = files_alloc();
	unsigned int last = 0; /* one past the highest open descriptor */

	if (!files)
		return NULL;
	for (unsigned int fd = 0; fd < old->max_fds; fd++)
		if (old->fd[fd])
			last = fd + 1;
	if (last > files->max_fds && resize_table(files, ALIGN_UP(last, 64))) {
		kfree(files);
		return NULL;
	}
	for (unsigned int fd = 0; fd < last; fd++)
		if (old->fd[fd])
			files->fd[fd] = get_file(old->fd[fd]);
	memcpy(files->close_on_exec, old->close_on_exec, ALIGN_UP(last, 64) / 8);
	return files;
}

/* A descriptor of file is closed (Linux's filp_close): the file's ->flush,
 * then the descriptor's reference goes. */
void filp_close(struct file *file)
{
	if (file && file->f_op && file->f_op->flush)
		file->f_op->flush(file);
	fput(file);
}

/* Free the table; close_all: whatever descriptors it still has. */
static void files_free(struct files_struct *files, bool close_all)
{
	for (unsigned int fd = 0; close_all && fd < files->max_fds; fd++)
		if (files->fd[fd])
			filp_close(files->fd[fd]);
	if (files->fd != files->fd_array) {
		kfree(files->fd);
		kfree(files->close_on_exec);
	}
	kfree(files);
}

void files_put(struct files_struct *files)
{
	if (files && --files->count == 0)
		files_free(files, true);
}

/*
 * Close the descriptors whose close needs no big kernel lock: the file
 * has no ->flush and another reference keeps it open (the commonest at
 * exit: the terminal a shell shares with its children). Whether any is
 * left for files_free.
 */
static bool close_files_unlocked(struct files_struct *files)
{
	bool left = false;

	for (unsigned int fd = 0; fd < files->max_fds; fd++) {
		struct file *f = files->fd[fd];
		if (f && !(f->f_op && f->f_op->flush) && fput_if_not_last(f))
			files->fd[fd] = NULL;
		else if (f)
			left = true;
	}
	return left;
}

/* The table is no task's any more (do_exit cleared its pointer, so no
 * /proc reader finds it), and no other holder is left: the big lock is
 * let go while the descriptors close. */
void files_exit(struct files_struct *files)
{
	if (!files || --files->count > 0)
		return;
	bool locked = release_kernel_lock();
	bool left = close_files_unlocked(files);
	reacquire_kernel_lock(locked);
	files_free(files, left);
}

bool fd_get_cloexec(struct files_struct *files, int fd)
{
	return files->close_on_exec[fd / 64] & (1ULL << (fd % 64));
}

bool get_close_on_exec(int fd)
{
	return files_lookup(current->files, fd) && fd_get_cloexec(current->files, fd);
}

void fd_set_cloexec(struct files_struct *files, int fd, bool on)
{
	if (on)
		files->close_on_exec[fd / 64] |= 1ULL << (fd % 64);
	else
		files->close_on_exec[fd / 64] &= ~(1ULL << (fd % 64));
}

void files_close_on_exec(struct files_struct *files)
{
	for (unsigned int w = 0; w < files->max_fds / 64; w++) {
		uint64_t bits = files->close_on_exec[w];
		for (; bits; bits &= bits - 1)
			filp_close(fd_remove(files, w * 64 + __builtin_ctzll(bits)));
		files->close_on_exec[w] = 0;
	}
}

/* The lowest free descriptor >= start and below RLIMIT_NOFILE (else
 * EMFILE), the table grown if need be. */
int get_unused_fd(struct files_struct *files, int start)
{
	uint64_t end = MIN(current->rlim[RLIMIT_NOFILE].cur, (uint64_t)NR_OPEN);

	for (uint64_t fd = start < 0 ? 0 : start; fd < end; fd++) {
		int err = expand_files(files, fd);
		if (err)
			return err;
		if (!files->fd[fd])
			return fd;
	}
	return -EMFILE;
}

/* fd must be in the table (get_unused_fd, expand_files). */
void fd_install(struct files_struct *files, int fd, struct file *file, bool cloexec)
{
	struct file *old = files->fd[fd];
	files->fd[fd] = file;
	fd_set_cloexec(files, fd, cloexec);
	filp_close(old); /* after the slot is updated: release may not see a stale fd */
}

int fd_install_lowest(struct files_struct *files, struct file *file, bool cloexec)
{
	int fd = get_unused_fd(files, 0);
	if (fd >= 0)
		fd_install(files, fd, file, cloexec);
	return fd;
}

struct file *fd_remove(struct files_struct *files, int fd)
{
	struct file *file = files_lookup(files, fd);

	if (file) {
		files->fd[fd] = NULL;
		fd_set_cloexec(files, fd, false);
	}
	return file;
}

struct file *task_file(struct task *t, int fd)
{
	return files_lookup(t->files, fd);
}

int close_fd(int fd)
{
	struct file *file = fd_remove(current->files, fd);

	if (!file)
		return -EBADF;
	filp_close(file);
	return 0;
}

struct file *fcheck(int fd)
{
	return current ? files_lookup(current->files, fd) : NULL;
}

struct file *fget(int fd)
{
	struct file *file = fcheck(fd);
	return file ? get_file(file) : NULL;
}
