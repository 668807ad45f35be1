/*
 * file.c - the per-process descriptor table (struct files_struct).
 *
 * A table of NR_OPEN slots, each empty or holding one reference on a
 * struct file, plus a close-on-exec bit per slot. fork() copies the table
 * (each file gains a reference: parent and child share offsets, as Unix
 * requires); a clone with CLONE_FILES shares the table itself (count).
 */
#include "vfs.h"
#include <mm.h>
#include <sched.h>

struct files_struct *files_alloc(void)
{
	struct files_struct *files = kzalloc(sizeof(*files));
	if (files)
		files->count = 1;
	return files;
}

struct files_struct *files_get(struct files_struct *files)
{
	files->count++;
	return files;
}

struct files_struct *files_dup(struct files_struct *old)
{
	struct files_struct *files = files_alloc();
	if (!files)
		return NULL;
	for (int fd = 0; fd < NR_OPEN; fd++)
		if (old->fd[fd])
			files->fd[fd] = get_file(old->fd[fd]);
	memcpy(files->close_on_exec, old->close_on_exec, sizeof(files->close_on_exec));
	return files;
}

void files_put(struct files_struct *files)
{
	if (!files || --files->count > 0)
		return;
	for (int fd = 0; fd < NR_OPEN; fd++)
		fput(files->fd[fd]);
	kfree(files);
}

bool fd_get_cloexec(struct files_struct *files, int fd)
{
	return files->close_on_exec[fd / 64] & (1ULL << (fd % 64));
}

bool get_close_on_exec(int fd)
{
	return current->files && fd >= 0 && fd < NR_OPEN && fd_get_cloexec(current->files, fd);
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
	for (int fd = 0; fd < NR_OPEN; fd++)
		if (fd_get_cloexec(files, fd))
			fput(fd_remove(files, fd));
}

int get_unused_fd(struct files_struct *files, int start)
{
	for (int fd = start < 0 ? 0 : start; fd < NR_OPEN; fd++)
		if (!files->fd[fd])
			return fd;
	return -EMFILE;
}

void fd_install(struct files_struct *files, int fd, struct file *file, bool cloexec)
{
	struct file *old = files->fd[fd];
	files->fd[fd] = file;
	fd_set_cloexec(files, fd, cloexec);
	fput(old); /* after the slot is updated: release may not see a stale fd */
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
	struct file *file;
	if (fd < 0 || fd >= NR_OPEN)
		return NULL;
	file = files->fd[fd];
	files->fd[fd] = NULL;
	fd_set_cloexec(files, fd, false);
	return file;
}

int close_fd(int fd)
{
	struct file *file = fd_remove(current->files, fd);

	if (!file)
		return -EBADF;
	fput(file);
	return 0;
}

struct file *fcheck(int fd)
{
	if (!current || !current->files || fd < 0 || fd >= NR_OPEN)
		return NULL;
	return current->files->fd[fd];
}

struct file *fget(int fd)
{
	struct file *file = fcheck(fd);
	return file ? get_file(file) : NULL;
}
