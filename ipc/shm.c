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
 *    and marks it SHM_DEST; it is freed at the last detach (shm_area_close,
 *    called for each area that goes), as in Linux. So is any segment with
 *    the namespace's shm_rmid_forced set; and with it set, a segment whose
 *    creator has exited (exit_shm) goes as soon as nobody has it attached.
 *  - The table of ids is the IPC namespace's (ipc/util.c), which keeps
 *    them as above. A segment knows its namespace (shp->ns): it is
 *    detached, maybe after its process left the namespace, by its file,
 *    found in the list of all segments (all_segs). While attached it holds
 *    a reference on the namespace (holds_ns), as Linux's shm files do.
 *  - Locking: shm takes no lock yet (nothing here sleeps, one CPU, no
 *    preemption); all_segs would need one of its own, taken inside the
 *    table's.
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
#define SHMLBA PAGE_SIZE

struct shmid_kernel {
	struct kern_ipc_perm perm; /* first: the table (util.c) holds this */
	uint64_t segsz;
	int64_t atim, dtim, ctim;
	pid_t cpid, lpid;
	struct file *file;
	struct ipc_namespace *ns;
	struct task *creator;       /* NULL once it exited or left ns (exit_shm) */
	bool holds_ns;              /* attached somewhere: a reference on ns */
	struct shmid_kernel *next;  /* all_segs */
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

/* Every segment of every namespace, for the way from an area's file to
 * its segment. */
static struct shmid_kernel *all_segs;

static struct ipc_ids *shm_ids(struct ipc_namespace *ns)
{
	return &ns->ids[IPC_SHM_IDS];
}

/* The segment in slot idx of ns's table, or NULL. */
static struct shmid_kernel *seg(struct ipc_namespace *ns, int idx)
{
	struct ipc_ids *ids = shm_ids(ns);
	return idx <= ids->max_idx ? (struct shmid_kernel *)ids->entries[idx] : NULL;
}

static struct shmid_kernel *shm_by_file(const struct file *file)
{
	for (struct shmid_kernel *shp = all_segs; shp; shp = shp->next)
		if (shp->file == file)
			return shp;
	return NULL;
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
	struct shmid_kernel *shp = (struct shmid_kernel *)perm, **pp = &all_segs;

	while (*pp != shp)
		pp = &(*pp)->next;
	*pp = shp->next;
	fput(shp->file);
	kfree(shp);
}

static void shm_destroy(struct shmid_kernel *shp)
{
	shp->ns->shm_tot -= ALIGN_UP(shp->segsz, PAGE_SIZE) / PAGE_SIZE;
	ipc_rmid(shm_ids(shp->ns), &shp->perm);
}

/* Linux's shm_may_destroy: unattached, and removed or forced to go. */
static bool shm_may_destroy(const struct shmid_kernel *shp)
{
	return !nattch(shp) && (shp->ns->shm_rmid_forced || (shp->perm.mode & SHM_DEST));
}

static bool shm_may_destroy_detached(const struct shmid_kernel *shp)
{
	return shp->ns->shm_rmid_forced || (shp->perm.mode & SHM_DEST);
}

/* Nothing maps shp any more (the last area's file reference is about to
 * go, or went): it lets go of its namespace, and goes too if removed (or
 * forced). */
static void shm_last_detach(struct shmid_kernel *shp)
{
	struct ipc_namespace *ns = shp->ns;
	bool held = shp->holds_ns;

	shp->holds_ns = false;
	if (shm_may_destroy_detached(shp))
		shm_destroy(shp);
	if (held)
		put_ipc_ns(ns); /* its last put frees what is left in it */
}

void shm_exit_ns(struct ipc_namespace *ns)
{
	/* Nothing is attached: an attached segment holds ns. */
	while (shm_ids(ns)->max_idx >= 0)
		shm_destroy(seg(ns, shm_ids(ns)->max_idx));
}

void exit_shm(struct task *t)
{
	struct shmid_kernel *shp, *next;

	for (shp = all_segs; shp; shp = next) {
		next = shp->next;
		if (shp->creator != t)
			continue;
		shp->creator = NULL;
		if (shp->ns->shm_rmid_forced && !nattch(shp))
			shm_destroy(shp);
	}
}

void shm_destroy_orphaned(struct ipc_namespace *ns)
{
	struct shmid_kernel *shp, *next;

	for (shp = all_segs; shp; shp = next) {
		next = shp->next;
		if (shp->ns == ns && !shp->creator && shm_may_destroy(shp))
			shm_destroy(shp);
	}
}

/* The segment of an id (EINVAL if there is none, or the id is stale). */
static struct shmid_kernel *shm_obtain_object_check(struct ipc_namespace *ns, int id)
{
	return (struct shmid_kernel *)ipc_obtain_object_check(shm_ids(ns), id);
}

/* Only the creator, the owner or CAP_SYS_ADMIN may change or remove it. */
static bool ipc_owner(const struct shmid_kernel *shp)
{
	return current_euid() == shp->perm.cuid || current_euid() == shp->perm.uid ||
	       ns_capable(current_ipc_ns()->user_ns, CAP_SYS_ADMIN);
}

static long newseg(struct ipc_namespace *ns, int key, uint64_t size, int shmflg)
{
	uint64_t numpages = ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE;
	struct shmid_kernel *shp;
	int idx;

	if (size < SHMMIN || size > ns->shm_ctlmax)
		return -EINVAL;
	if (numpages * PAGE_SIZE < size || ns->shm_tot + numpages < ns->shm_tot ||
	    ns->shm_tot + numpages > ns->shm_ctlall)
		return -ENOSPC;
	if (shm_ids(ns)->in_use >= ns->shm_ctlmni)
		return -ENOSPC;
	if (!(shp = kzalloc(sizeof(*shp))))
		return -ENOMEM;
	shp->file = shmem_zero_setup(size);
	if (IS_ERR(shp->file)) {
		long err = PTR_ERR(shp->file);
		kfree(shp);
		return err;
	}
	shp->perm.key = key;
	shp->perm.mode = shmflg & S_IRWXUGO;
	shp->perm.free = shm_free;
	idx = ipc_addid(shm_ids(ns), &shp->perm, ns->shm_ctlmni);
	if (idx < 0) {
		fput(shp->file);
		kfree(shp);
		return idx;
	}
	shp->segsz = size;
	shp->cpid = current->tgid;
	shp->ctim = now_seconds();
	shp->ns = ns;
	shp->creator = current;
	shp->next = all_segs;
	all_segs = shp;
	ns->shm_tot += numpages;
	return shp->perm.id;
}

long sys_shmget(int key, uint64_t size, int shmflg)
{
	struct ipc_namespace *ns = current_ipc_ns();

	if (key == IPC_PRIVATE)
		return newseg(ns, key, size, shmflg);
	for (int i = 0; i <= shm_ids(ns)->max_idx; i++) {
		struct shmid_kernel *shp = seg(ns, i);
		if (!shp || shp->perm.key != key)
			continue;
		if ((shmflg & IPC_CREAT) && (shmflg & IPC_EXCL))
			return -EEXIST;
		if (shp->segsz < size)
			return -EINVAL;
		return ipcperms(&shp->perm, shmflg) ? shp->perm.id : -EACCES;
	}
	return (shmflg & IPC_CREAT) ? newseg(ns, key, size, shmflg) : -ENOENT;
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
	shp = shm_obtain_object_check(current_ipc_ns(), shmid);
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
	/* Our own reference meanwhile: SHM_REMAP may unmap its last area
	 * before mapping the new one. */
	get_file(shp->file);
	addr = do_mmap(shp->file, addr, shp->segsz, prot, flags, 0);
	fput(shp->file);
	if (addr >= 0) {
		shp->atim = now_seconds();
		shp->lpid = current->tgid;
		if (!shp->holds_ns) {
			shp->holds_ns = true;
			get_ipc_ns(shp->ns);
		}
	} else if (!nattch(shp)) {
		shm_last_detach(shp);
	}
	return addr;
}

/* Is v an area of a segment, mapped from shmaddr on? Its segment then. */
static struct shmid_kernel *shm_area(const struct vma *v, uint64_t shmaddr)
{
	if (!v->vm_file || (v->start - shmaddr) / PAGE_SIZE != v->vm_pgoff)
		return NULL;
	return shm_by_file(v->vm_file);
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
	return 0;
}

/* Linux's shm_close, for every area of a segment that goes. */
void shm_area_close(struct file *file)
{
	struct shmid_kernel *shp = shm_by_file(file);

	if (!shp)
		return;
	shp->dtim = now_seconds();
	shp->lpid = current->tgid;
	/* The segment's reference and the area's, which goes next. */
	if (file_count(file) == 2)
		shm_last_detach(shp);
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
static long shmctl_stat(struct ipc_namespace *ns, int shmid, int cmd, void __user *buf)
{
	struct shmid_kernel *shp;
	struct shmid64_ds ds;

	if (cmd == IPC_STAT)
		shp = shm_obtain_object_check(ns, shmid);
	else
		shp = (struct shmid_kernel *)ipc_obtain_object_idr(shm_ids(ns), shmid);
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
static long shmctl_down(struct ipc_namespace *ns, int shmid, int cmd, const struct shmid64_ds *ds)
{
	struct shmid_kernel *shp = shm_obtain_object_check(ns, shmid);

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
	if (!nattch(shp)) {
		shm_destroy(shp);
		return 0;
	}
	shp->perm.mode |= SHM_DEST;
	shp->perm.key = IPC_PRIVATE; /* shmget finds it no more */
	return 0;
}

static long shmctl_info(struct ipc_namespace *ns, int cmd, void __user *buf)
{
	int max_idx = MAX(ipc_get_maxidx(shm_ids(ns)), 0);

	if (cmd == IPC_INFO) {
		struct shminfo64 info = {
			.shmmax = ns->shm_ctlmax, .shmmin = SHMMIN, .shmmni = ns->shm_ctlmni,
			.shmseg = ns->shm_ctlmni, .shmall = ns->shm_ctlall,
		};
		return copy_to_user(buf, &info, sizeof(info)) ? -EFAULT : max_idx;
	}
	struct shm_info info = { .used_ids = shm_ids(ns)->in_use, .shm_tot = ns->shm_tot };
	for (int i = 0; i <= shm_ids(ns)->max_idx; i++)
		if (seg(ns, i))
			info.shm_rss += inode_blocks(file_inode(seg(ns, i)->file)) * 512 / PAGE_SIZE;
	return copy_to_user(buf, &info, sizeof(info)) ? -EFAULT : max_idx;
}

/* SHM_LOCK, SHM_UNLOCK: only a mark here (no swap to keep pages from). */
static long shmctl_do_lock(struct ipc_namespace *ns, int shmid, int cmd)
{
	struct shmid_kernel *shp = shm_obtain_object_check(ns, shmid);

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
	struct ipc_namespace *ns = current_ipc_ns();
	struct shmid64_ds ds;

	if (cmd < 0 || shmid < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case SHM_INFO:
		return shmctl_info(ns, cmd, buf);
	case IPC_STAT:
	case SHM_STAT:
	case SHM_STAT_ANY:
		return shmctl_stat(ns, shmid, cmd, buf);
	case IPC_SET:
		if (copy_from_user(&ds, buf, sizeof(ds)))
			return -EFAULT;
		/* fall through */
	case IPC_RMID:
		return shmctl_down(ns, shmid, cmd, &ds);
	case SHM_LOCK:
	case SHM_UNLOCK:
		return shmctl_do_lock(ns, shmid, cmd);
	}
	return -EINVAL;
}

/* /proc/sysvipc/shm, Linux's columns (rss in bytes; nothing is swapped). */
static int shm_proc_show(struct seq_file *m)
{
	struct ipc_namespace *ns = current_ipc_ns();

	seq_puts(m, "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n");
	for (int i = 0; i <= shm_ids(ns)->max_idx; i++) {
		struct shmid_kernel *shp = seg(ns, i);
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
