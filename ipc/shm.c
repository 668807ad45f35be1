/*
 * ipc/shm.c - System V shared memory: shmget, shmat, shmdt, shmctl (Linux:
 * ipc/shm.c and the parts of ipc/util.c it uses).
 *
 * A segment is an unnamed file of the in-memory filesystem (the one a
 * MAP_SHARED | MAP_ANONYMOUS mapping gets, shmem_zero_setup), known by a
 * key and an id: shmget makes or finds it, shmat maps the file MAP_SHARED,
 * shmdt unmaps it. The futex selftests share futexes this way.
 *
 * Design notes:
 *  - Ids as Linux makes them: an index (the lowest free one after the last
 *    given, cyclically, below max(64, in use * 3 / 2)) plus a sequence
 *    number times 32768, which grows each time the indexes wrap, so that a
 *    stale id is refused (EINVAL).
 *  - The attach count is the file's reference count less the segment's own
 *    reference: every area that maps it holds one (fork copies them, exit
 *    and munmap drop them), as Linux's shm_open and shm_close count.
 *  - IPC_RMID of an attached segment makes it private (key IPC_PRIVATE)
 *    and marks it SHM_DEST; Linux frees it at the last detach, here the
 *    next shm call (or /proc/sysvipc/shm read) that looks finds it
 *    unattached and frees it.
 *  - The table of ids is the IPC namespace's (ipc/util.c), which keeps
 *    them as above; shm does not take its lock yet (nothing here sleeps).
 */
#include <cred.h>
#include <linux/pid_namespace.h>
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <linux/init.h>
#include <proc_fs.h>
#include <mm.h>
#include <mman.h>
#include <sched.h>
#include <string.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <vm.h>
#include "util.h"

#define SHM_RDONLY 010000
#define SHM_RND 020000
#define SHM_REMAP 040000
#define SHM_EXEC 0100000
#define SHM_LOCK 11
#define SHM_UNLOCK 12
#define SHM_STAT 13
#define SHM_INFO 14
#define SHM_STAT_ANY 15
#define SHM_DEST 01000   /* in the mode: removed, freed at the last detach */
#define SHM_LOCKED 02000 /* in the mode: SHM_LOCK (nothing is swapped here) */

#define SHMMIN 1
#define SHMMNI 4096
#define SHMMAX (UINT64_MAX - (1UL << 24))
#define SHMALL (UINT64_MAX - (1UL << 24)) /* in pages */
#define SHMLBA PAGE_SIZE

struct shmid_kernel {
	struct kern_ipc_perm perm; /* first: the table (util.c) holds this */
	uint64_t segsz;
	int64_t atim, dtim, ctim;
	pid_t cpid, lpid;
	struct file *file;
};

/* The user's view (x86-64's struct shmid64_ds). */
struct shmid64_ds {
	struct ipc64_perm shm_perm;
	uint64_t shm_segsz;
	int64_t shm_atime, shm_dtime, shm_ctime;
	int shm_cpid, shm_lpid;
	uint64_t shm_nattch;
	uint64_t unused4, unused5;
};
struct shminfo64 {
	uint64_t shmmax, shmmin, shmmni, shmseg, shmall, unused[4];
};
struct shm_info {
	int used_ids;
	uint64_t shm_tot, shm_rss, shm_swp, swap_attempts, swap_successes;
};

static uint64_t shm_tot; /* pages */

static struct ipc_ids *shm_ids(void)
{
	return &current_ipc_ns()->ids[IPC_SHM_IDS];
}

/* The segment in slot idx, or NULL. */
static struct shmid_kernel *seg(int idx)
{
	struct ipc_ids *ids = shm_ids();
	return idx <= ids->max_idx ? (struct shmid_kernel *)ids->entries[idx] : NULL;
}

static int64_t now_seconds(void)
{
	struct timespec ts;
	ktime_get_real(&ts);
	return ts.tv_sec;
}

static uint64_t nattch(const struct shmid_kernel *shp)
{
	return file_count(shp->file) - 1;
}

static void shm_free(struct kern_ipc_perm *perm)
{
	struct shmid_kernel *shp = (struct shmid_kernel *)perm;

	fput(shp->file);
	kfree(shp);
}

static void shm_destroy(int idx)
{
	struct shmid_kernel *shp = seg(idx);

	shm_tot -= ALIGN_UP(shp->segsz, PAGE_SIZE) / PAGE_SIZE;
	ipc_rmid(shm_ids(), &shp->perm);
}

/* Free the removed segments nobody has attached any more. */
static void shm_reap(void)
{
	for (int i = 0; i < SHMMNI; i++)
		if (seg(i) && (seg(i)->perm.mode & SHM_DEST) && !nattch(seg(i)))
			shm_destroy(i);
}

/* The segment of an id (EINVAL if there is none, or the id is stale). */
static struct shmid_kernel *shm_obtain_object_check(int id)
{
	return (struct shmid_kernel *)ipc_obtain_object_check(shm_ids(), id);
}

/* Only the creator, the owner or CAP_SYS_ADMIN may change or remove it. */
static bool ipc_owner(const struct shmid_kernel *shp)
{
	return current_euid() == shp->perm.cuid || current_euid() == shp->perm.uid || capable(CAP_SYS_ADMIN);
}

static long newseg(int key, uint64_t size, int shmflg)
{
	uint64_t numpages = ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE;
	struct shmid_kernel *shp;
	int idx;

	if (size < SHMMIN || size > SHMMAX)
		return -EINVAL;
	if (numpages * PAGE_SIZE < size || shm_tot + numpages < shm_tot || shm_tot + numpages > SHMALL)
		return -ENOSPC;
	if (shm_ids()->in_use >= SHMMNI || !(shp = kzalloc(sizeof(*shp))))
		return shm_ids()->in_use >= SHMMNI ? -ENOSPC : -ENOMEM;
	shp->file = shmem_zero_setup(size);
	if (IS_ERR(shp->file)) {
		long err = PTR_ERR(shp->file);
		kfree(shp);
		return err;
	}
	shp->perm.key = key;
	shp->perm.mode = shmflg & S_IRWXUGO;
	shp->perm.free = shm_free;
	idx = ipc_addid(shm_ids(), &shp->perm, SHMMNI);
	if (idx < 0) {
		fput(shp->file);
		kfree(shp);
		return idx;
	}
	shp->segsz = size;
	shp->cpid = current->tgid;
	shp->ctim = now_seconds();
	shm_tot += numpages;
	return shp->perm.id;
}

long sys_shmget(int key, uint64_t size, int shmflg)
{
	shm_reap();
	if (key == IPC_PRIVATE)
		return newseg(key, size, shmflg);
	for (int i = 0; i < SHMMNI; i++) {
		struct shmid_kernel *shp = seg(i);
		if (!shp || shp->perm.key != key)
			continue;
		if ((shmflg & IPC_CREAT) && (shmflg & IPC_EXCL))
			return -EEXIST;
		if (shp->segsz < size)
			return -EINVAL;
		return ipcperms(&shp->perm, shmflg) ? shp->perm.id : -EACCES;
	}
	return (shmflg & IPC_CREAT) ? newseg(key, size, shmflg) : -ENOENT;
}

/* Where shmat maps: EINVAL for an address not on an SHMLBA boundary
 * (unless SHM_RND rounds it down) or SHM_REMAP without one. */
static long shmat_address(uint64_t addr, int shmflg, unsigned long *flags)
{
	if (!addr)
		return (shmflg & SHM_REMAP) ? -EINVAL : 0;
	if (addr & (SHMLBA - 1)) {
		if (!(shmflg & SHM_RND))
			return -EINVAL;
		addr &= ~(SHMLBA - 1);
		if (!addr && (shmflg & SHM_REMAP))
			return -EINVAL;
	}
	*flags |= MAP_FIXED;
	return (long)addr;
}

long sys_shmat(int shmid, uint64_t shmaddr, int shmflg)
{
	unsigned long flags = MAP_SHARED, prot = PROT_READ;
	int acc_mode = 0444;
	struct shmid_kernel *shp;
	long addr;

	shm_reap();
	if (shmid < 0)
		return -EINVAL;
	addr = shmat_address(shmaddr, shmflg, &flags);
	if (addr < 0)
		return addr;
	if (!(shmflg & SHM_RDONLY)) {
		prot |= PROT_WRITE;
		acc_mode |= 0222;
	}
	if (shmflg & SHM_EXEC) {
		prot |= PROT_EXEC;
		acc_mode |= 0111;
	}
	shp = shm_obtain_object_check(shmid);
	if (IS_ERR(shp))
		return PTR_ERR(shp);
	if (!ipcperms(&shp->perm, acc_mode))
		return -EACCES;
	uint64_t size = ALIGN_UP(shp->segsz, PAGE_SIZE);
	/* Without SHM_REMAP, what is there stays: EINVAL. */
	if (addr && !(shmflg & SHM_REMAP) &&
	    ((uint64_t)addr + size < (uint64_t)addr ||
	     find_vma_intersection(current->mm, addr, addr + size)))
		return -EINVAL;
	addr = do_mmap(shp->file, addr, shp->segsz, prot, flags, 0);
	if (addr >= 0) {
		shp->atim = now_seconds();
		shp->lpid = current->tgid;
	}
	return addr;
}

/* Is v an area of a segment, mapped from shmaddr on? Its segment then. */
static struct shmid_kernel *shm_area(const struct vma *v, uint64_t shmaddr)
{
	if (!v->vm_file || (v->start - shmaddr) / PAGE_SIZE != v->vm_pgoff)
		return NULL;
	for (int i = 0; i < SHMMNI; i++)
		if (seg(i) && seg(i)->file == v->vm_file)
			return seg(i);
	return NULL;
}

/*
 * shmdt: unmap the segment attached at shmaddr: the first area of a
 * segment from there whose offset matches, then the pieces of that same
 * segment (mprotect or munmap may have split it) within its size.
 */
long sys_shmdt(uint64_t shmaddr)
{
	struct mm *mm = current->mm;
	struct shmid_kernel *shp = NULL;
	uint64_t size = 0;
	struct vma *v;

	if (shmaddr & (PAGE_SIZE - 1))
		return -EINVAL;
	for (v = mm->vmas; v; v = v->next) {
		if (v->start >= shmaddr && (shp = shm_area(v, shmaddr)))
			break;
	}
	if (!shp)
		return -EINVAL;
	size = ALIGN_UP(shp->segsz, PAGE_SIZE);
	struct vma *next = v->next;
	vm_munmap(v->start, v->end - v->start);
	for (v = next; v && v->end - shmaddr <= size; v = next) {
		next = v->next;
		if (shm_area(v, shmaddr) == shp)
			vm_munmap(v->start, v->end - v->start);
	}
	shm_reap();
	return 0;
}

/* Linux's shm_close, for every area of a segment that goes. */
void shm_area_close(struct file *file)
{
	for (int i = 0; i < SHMMNI; i++) {
		if (seg(i) && seg(i)->file == file) {
			seg(i)->dtim = now_seconds();
			seg(i)->lpid = current->tgid;
			return;
		}
	}
}

static void shm_fill_stat(const struct shmid_kernel *shp, struct shmid64_ds *out)
{
	memset(out, 0, sizeof(*out));
	out->shm_perm = (struct ipc64_perm){
		.key = shp->perm.key, .uid = shp->perm.uid, .gid = shp->perm.gid, .cuid = shp->perm.cuid,
		.cgid = shp->perm.cgid, .mode = shp->perm.mode, .seq = shp->perm.seq,
	};
	out->shm_segsz = shp->segsz;
	out->shm_atime = shp->atim;
	out->shm_dtime = shp->dtim;
	out->shm_ctime = shp->ctim;
	out->shm_cpid = pid_global_to_vnr(shp->cpid); /* as the caller's pid namespace numbers it */
	out->shm_lpid = pid_global_to_vnr(shp->lpid);
	out->shm_nattch = nattch(shp);
}

/* IPC_STAT (by id; returns 0), SHM_STAT and SHM_STAT_ANY (by index;
 * return the id). SHM_STAT_ANY skips the read permission. */
static long shmctl_stat(int shmid, int cmd, void __user *buf)
{
	struct shmid_kernel *shp;
	struct shmid64_ds ds;

	if (cmd == IPC_STAT)
		shp = shm_obtain_object_check(shmid);
	else
		shp = (struct shmid_kernel *)ipc_obtain_object_idr(shm_ids(), shmid);
	if (IS_ERR(shp))
		return PTR_ERR(shp);
	if (cmd != SHM_STAT_ANY && !ipcperms(&shp->perm, 0444))
		return -EACCES;
	shm_fill_stat(shp, &ds);
	if (copy_to_user(buf, &ds, sizeof(ds)))
		return -EFAULT;
	return cmd == IPC_STAT ? 0 : shp->perm.id;
}

/* IPC_SET (owner, group, the permission bits) and IPC_RMID. */
static long shmctl_down(int shmid, int cmd, const struct shmid64_ds *ds)
{
	struct shmid_kernel *shp = shm_obtain_object_check(shmid);

	if (IS_ERR(shp))
		return PTR_ERR(shp);
	if (!ipc_owner(shp))
		return -EPERM;
	if (cmd == IPC_SET) {
		if (ds->shm_perm.uid == (uint32_t)-1 || ds->shm_perm.gid == (uint32_t)-1)
			return -EINVAL;
		shp->perm.uid = ds->shm_perm.uid;
		shp->perm.gid = ds->shm_perm.gid;
		shp->perm.mode = (shp->perm.mode & ~S_IRWXUGO) | (ds->shm_perm.mode & S_IRWXUGO);
		shp->ctim = now_seconds();
		return 0;
	}
	shp->perm.mode |= SHM_DEST;
	shp->perm.key = IPC_PRIVATE; /* shmget finds it no more */
	shm_reap();
	return 0;
}

/* The highest index in use (Linux's ipc_get_maxidx), 0 if none. */
static int max_idx(void)
{
	for (int i = SHMMNI - 1; i >= 0; i--)
		if (seg(i))
			return i;
	return 0;
}

static long shmctl_info(int cmd, void __user *buf)
{
	if (cmd == IPC_INFO) {
		struct shminfo64 info = {
			.shmmax = SHMMAX, .shmmin = SHMMIN, .shmmni = SHMMNI,
			.shmseg = SHMMNI, .shmall = SHMALL,
		};
		return copy_to_user(buf, &info, sizeof(info)) ? -EFAULT : max_idx();
	}
	struct shm_info info = { .used_ids = shm_ids()->in_use, .shm_tot = shm_tot };
	for (int i = 0; i < SHMMNI; i++)
		if (seg(i))
			info.shm_rss += inode_blocks(file_inode(seg(i)->file)) * 512 / PAGE_SIZE;
	return copy_to_user(buf, &info, sizeof(info)) ? -EFAULT : max_idx();
}

/* SHM_LOCK, SHM_UNLOCK: only a mark here (no swap to keep pages from). */
static long shmctl_do_lock(int shmid, int cmd)
{
	struct shmid_kernel *shp = shm_obtain_object_check(shmid);

	if (IS_ERR(shp))
		return PTR_ERR(shp);
	if (!capable(CAP_IPC_LOCK)) {
		if (current_euid() != shp->perm.uid && current_euid() != shp->perm.cuid)
			return -EPERM;
		if (cmd == SHM_LOCK && !current->rlim[RLIMIT_MEMLOCK].cur)
			return -EPERM;
	}
	if (cmd == SHM_LOCK)
		shp->perm.mode |= SHM_LOCKED;
	else
		shp->perm.mode &= ~SHM_LOCKED;
	return 0;
}

long sys_shmctl(int shmid, int cmd, void __user *buf)
{
	struct shmid64_ds ds;

	shm_reap();
	if (cmd < 0 || shmid < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case SHM_INFO:
		return shmctl_info(cmd, buf);
	case IPC_STAT:
	case SHM_STAT:
	case SHM_STAT_ANY:
		return shmctl_stat(shmid, cmd, buf);
	case IPC_SET:
		if (copy_from_user(&ds, buf, sizeof(ds)))
			return -EFAULT;
		/* fall through */
	case IPC_RMID:
		return shmctl_down(shmid, cmd, &ds);
	case SHM_LOCK:
	case SHM_UNLOCK:
		return shmctl_do_lock(shmid, cmd);
	}
	return -EINVAL;
}

/* /proc/sysvipc/shm, Linux's columns (rss in bytes; nothing is swapped). */
static int shm_proc_show(struct seq_file *m)
{
	shm_reap();
	seq_puts(m, "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n");
	for (int i = 0; i < SHMMNI; i++) {
		struct shmid_kernel *shp = seg(i);
		if (!shp)
			continue;
		uint64_t rss = inode_blocks(file_inode(shp->file)) * 512;
		seq_printf(m, "%10d %10d  %4o %21lu %5u %5u  %5lu %5u %5u %5u %5u %10lld %10lld %10lld %21lu %21lu\n",
			   shp->perm.key, shp->perm.id, shp->perm.mode, (unsigned long)shp->segsz,
			   shp->cpid, shp->lpid, (unsigned long)nattch(shp), shp->perm.uid,
			   shp->perm.gid, shp->perm.cuid, shp->perm.cgid, (long long)shp->atim,
			   (long long)shp->dtim, (long long)shp->ctim, (unsigned long)rss, 0UL);
	}
	return 0;
}

static int shm_init(void)
{
	return proc_create("sysvipc/shm", 0444, shm_proc_show, NULL);
}
device_initcall(shm_init);
