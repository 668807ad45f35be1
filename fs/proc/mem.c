/*
 * mem.c - /proc/PID/mem: the process's memory as a file, the offset being
 * the address (debuggers read and write it so).
 *
 * Opening it asks what ptrace's attach asks (PTRACE_MODE_ATTACH_FSCREDS):
 * the same user, not a set-user-ID program, or CAP_SYS_PTRACE; a process
 * may always open its own. The check is made once, at open, as Linux
 * does: the open file keeps the address space it was opened on, even if
 * the process execs or exits. Once no task uses that address space any
 * more, reading and writing give 0 bytes.
 *
 * Access ignores the areas' protections as a debugger's does (Linux's
 * FOLL_FORCE): PROT_NONE memory reads, and a write to a private read-only
 * mapping (program text: a breakpoint) goes to the process's own copy of
 * the page. What cannot be reached: an address in no area, [vvar], and
 * for writing, a shared mapping that is not writable (the file's page
 * itself). A transfer stops at the first such page: the bytes before it
 * are the result, or EIO if there are none.
 * One difference: Linux writes into the [vdso] page's copy too; here it
 * is refused (EIO), the vDSO pages being the kernel's own.
 */
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <security.h>
#include <vm.h>

#include "../vfs.h"
#include "internal.h"

static int mem_open(struct inode *inode, struct file *file)
{
	struct task *t = inode_task(inode);

	if (!t)
		return -ESRCH;
	if (t->mm && t->mm != current->mm && !ptrace_may_access(t, PTRACE_MODE_ATTACH_FSCREDS))
		return -EACCES;
	file->private_data = t->mm ? mm_get(t->mm) : NULL;
	return 0;
}

static void mem_release(struct inode *inode, struct file *file)
{
	(void)inode;
	if (file->private_data)
		mm_put(file->private_data);
}

/* May a debugger's access reach the page at va? (Linux's check_vma_flags
 * with FOLL_FORCE.) */
static bool mem_reachable(struct mm *mm, uint64_t va, bool write)
{
	mmap_read_lock(mm);
	const struct vma *v = vma_find(mm, va);
	bool ok = v && !(v->vm_special && (write || v->vm_special->no_remote_access)) &&
		  (!write || (v->flags & VM_WRITE) || !(v->flags & VM_SHARED));
	mmap_read_unlock(mm);
	return ok;
}

/* Copy up to len bytes between buf and mm at va, page by page, stopping
 * at the first page out of reach: the bytes copied. */
static size_t mem_copy(struct mm *mm, uint64_t va, char *buf, size_t len, bool write)
{
	size_t done = 0;

	while (done < len && va < TASK_SIZE) {
		size_t n = MIN(len - done, PAGE_SIZE - va % PAGE_SIZE);
		if (!mem_reachable(mm, va, write))
			break;
		if (write ? mm_write(mm, va, buf + done, n) : mm_read(mm, va, buf + done, n))
			break;
		done += n;
		va += n;
	}
	return done;
}

/* At most a page at a time goes through a kernel buffer, as Linux's
 * mem_rw: a bad user buffer ends the call with EFAULT. */
static ssize_t mem_rw(struct file *file, struct iov_iter *iter, loff_t *pos, bool write)
{
	struct mm *mm = file->private_data;
	uint64_t addr = (uint64_t)*pos;
	ssize_t copied = 0;
	char *page;

	if (!mm || mm->users <= 1) /* only this file holds it: no process */
		return 0;
	page = alloc_page();
	if (!page)
		return -ENOMEM;
	while (iter->count) {
		size_t len = MIN(iter->count, PAGE_SIZE);
		if (write && copy_from_iter(page, len, iter) < len) {
			copied = -EFAULT;
			break;
		}
		size_t done = mem_copy(mm, addr, page, len, write);
		if (!done) {
			if (!copied)
				copied = -EIO;
			break;
		}
		if (!write && copy_to_iter(page, done, iter) < done) {
			copied = -EFAULT;
			break;
		}
		addr += done;
		copied += done;
		if (done < len)
			break; /* the next page is out of reach */
	}
	free_page(page);
	*pos = (loff_t)addr;
	return copied;
}

static ssize_t mem_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	return mem_rw(file, to, pos, false);
}

static ssize_t mem_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	return mem_rw(file, from, pos, true);
}

/* Any address may be the offset: SEEK_SET and SEEK_CUR only, as Linux. */
static loff_t mem_lseek(struct file *file, loff_t offset, int whence)
{
	switch (whence) {
	case SEEK_SET:
		file->f_pos = offset;
		break;
	case SEEK_CUR:
		file->f_pos += offset;
		break;
	default:
		return -EINVAL;
	}
	return file->f_pos;
}

const struct file_operations proc_mem_fops = {
	.open = mem_open,
	.release = mem_release,
	.read = mem_read,
	.write = mem_write,
	.llseek = mem_lseek,
};
