/*
 * task_mmu.c - a process's memory areas as /proc shows them, in Linux's
 * formats:
 *
 *   /proc/PID/maps          one line per area: range, rights, file
 *   /proc/PID/smaps         the same lines, each followed by what the
 *                           area's pages amount to (Rss, Pss, Locked...)
 *                           and its flags (VmFlags)
 *   /proc/PID/smaps_rollup  those figures summed over every area
 *
 * The figures come from a walk over the area's page-table entries
 * (walk_page_range). What a page counts as:
 *  - resident: every page with a frame.
 *  - shared or private, and the proportional share (Pss): the frame's
 *    number of mappings, found from its reference count less the page
 *    cache's own reference (a file's page) or the kernel's (the vDSO's).
 *  - anonymous: a page that is no file's and not the kernel's.
 *  - dirty: every page but the vDSO's. An anonymous page here was written,
 *    or would be Linux's shared zero page, which Linux does not count at
 *    all; and a file's page lives only in memory (ramfs, tmpfs), where
 *    Linux too keeps it dirty for ever.
 *  - referenced: every resident page: each was just faulted or populated,
 *    and nothing here ages pages (no reclaim, no clear_refs).
 */
#include "internal.h"
#include <fs.h>
#include <mm.h>
#include <sched.h>
#include <vm.h>
#include <x86.h>

/* Pss is kept in bytes << PSS_SHIFT, so that a page shared by three
 * mappings adds a third of a page without losing precision (as Linux). */
#define PSS_SHIFT 12

struct smaps_stats {
	uint64_t resident, shared_clean, shared_dirty, private_clean, private_dirty;
	uint64_t referenced, anonymous;                                 /* bytes */
	uint64_t pss, pss_dirty, pss_anon, pss_file, pss_shmem, pss_locked; /* << PSS_SHIFT */
};

struct smaps_walk {
	const struct vma *v;
	struct smaps_stats *s;
};

/* Is page (mapped at va of file-backed area v) the file's own page? */
static bool is_file_page(const struct vma *v, uint64_t va, void *page)
{
	void *own = find_get_page(v->vm_file, v->vm_pgoff + (va - v->start) / PAGE_SIZE);
	if (own)
		put_page(own);
	return own == page;
}

static void account_page(uint64_t va, uint64_t pte, void *arg)
{
	struct smaps_walk *w = arg;
	struct smaps_stats *s = w->s;
	void *page = phys_to_virt(pte & PTE_ADDR);
	bool file = vma_backing_file(w->v) && is_file_page(w->v, va, page);
	bool special = w->v->vm_special != NULL;
	unsigned owners = page_count(page) - file - special;
	bool dirty = !special;

	if (owners < 1)
		owners = 1;
	uint64_t pss = ((uint64_t)PAGE_SIZE << PSS_SHIFT) / owners;
	s->resident += PAGE_SIZE;
	s->referenced += PAGE_SIZE;
	if (owners > 1)
		*(dirty ? &s->shared_dirty : &s->shared_clean) += PAGE_SIZE;
	else
		*(dirty ? &s->private_dirty : &s->private_clean) += PAGE_SIZE;
	s->pss += pss;
	if (dirty)
		s->pss_dirty += pss;
	if (!file && !special) {
		s->anonymous += PAGE_SIZE;
		s->pss_anon += pss;
	} else if (w->v->flags & VM_SHMEM) {
		s->pss_shmem += pss;
	} else {
		s->pss_file += pss;
	}
	if (w->v->flags & VM_LOCKED)
		s->pss_locked += pss;
}

static void gather_stats(struct mm *mm, const struct vma *v, struct smaps_stats *s)
{
	struct smaps_walk w = { v, s };
	walk_page_range(mm, v->start, v->end, account_page, &w);
}

/*
 * The start of a maps line, up to and including the space after the inode
 * number: "start-end perms offset major:minor inode ". A name that follows
 * starts at column 74 (pad_name).
 */
static void show_vma_header(struct seq_file *m, uint64_t start, uint64_t end, const char perms[5],
			    uint64_t offset, dev_t dev, ino_t ino)
{
	seq_printf(m, "%08lx-%08lx %s %08lx %02x:%02x %lu ", (unsigned long)start,
		   (unsigned long)end, perms, (unsigned long)offset, (unsigned)(dev >> 8) & 0xfff,
		   (unsigned)dev & 0xff, (unsigned long)ino);
}

/* The name of a line that began at line_start, padded as Linux pads it. */
static void pad_name(struct seq_file *m, size_t line_start, const char *name)
{
	int pad = 72 - (int)(m->count - line_start);
	if (pad > 0)
		seq_printf(m, "%*s", pad, "");
	seq_printf(m, " %s", name);
}

/* Linux calls [heap] any area without a file that overlaps the range
 * from the heap's start to the break, whatever made it: a guard page a
 * malloc put there with mmap is "[heap]" too. */
static bool is_initial_heap(const struct mm *mm, const struct vma *v)
{
	return v->start <= mm->brk && v->end >= mm->start_brk;
}

/* Linux's show_map_vma: one line of /proc/PID/maps, without its newline. */
static void show_map_vma(struct seq_file *m, const struct mm *mm, const struct vma *v)
{
	const char *name = v->vm_special ? v->vm_special->name :
			   is_initial_heap(mm, v) ? "[heap]" : (v->flags & VM_STACK) ? "[stack]" : NULL;
	struct file *f = v->vm_file;
	char path[256];
	size_t start = m->count;
	char perms[5] = {
		v->flags & VM_READ ? 'r' : '-', v->flags & VM_WRITE ? 'w' : '-',
		v->flags & VM_EXEC ? 'x' : '-', v->flags & VM_SHARED ? 's' : 'p', 0,
	};

	if (v->flags & VM_SHMEM) {
		name = "/dev/zero (deleted)"; /* as Linux names shared anonymous memory */
	} else if (f) {
		char *p = proc_file_path(f, path, sizeof(path));
		name = IS_ERR(p) ? NULL : p;
	}
	show_vma_header(m, v->start, v->end, perms, f ? v->vm_pgoff << PAGE_SHIFT : 0,
			f ? f->f_inode->i_sb->s_dev : 0, f ? f->f_inode->i_ino : 0);
	if (name)
		pad_name(m, start, name);
}

int show_maps(struct seq_file *m, struct task *t)
{
	if (!t->mm)
		return 0;
	mmap_read_lock(t->mm); /* t may be building it in execve (fs/exec.c) */
	for (struct vma *v = t->mm->vmas; v; v = v->next) {
		show_map_vma(m, t->mm, v);
		seq_putc(m, '\n');
	}
	mmap_read_unlock(t->mm);
	return 0;
}

/* One "Name:   N kB" line: the value right-aligned in 8 columns. */
static void show_kb(struct seq_file *m, const char *label, uint64_t bytes)
{
	seq_printf(m, "%-16s%8lu kB\n", label, (unsigned long)(bytes >> 10));
}

static void show_smap_stats(struct seq_file *m, const struct smaps_stats *s, bool rollup)
{
	show_kb(m, "Rss:", s->resident);
	show_kb(m, "Pss:", s->pss >> PSS_SHIFT);
	show_kb(m, "Pss_Dirty:", s->pss_dirty >> PSS_SHIFT);
	if (rollup) {
		show_kb(m, "Pss_Anon:", s->pss_anon >> PSS_SHIFT);
		show_kb(m, "Pss_File:", s->pss_file >> PSS_SHIFT);
		show_kb(m, "Pss_Shmem:", s->pss_shmem >> PSS_SHIFT);
	}
	show_kb(m, "Shared_Clean:", s->shared_clean);
	show_kb(m, "Shared_Dirty:", s->shared_dirty);
	show_kb(m, "Private_Clean:", s->private_clean);
	show_kb(m, "Private_Dirty:", s->private_dirty);
	show_kb(m, "Referenced:", s->referenced);
	show_kb(m, "Anonymous:", s->anonymous);
	show_kb(m, "LazyFree:", 0);
	show_kb(m, "AnonHugePages:", 0);
	show_kb(m, "ShmemPmdMapped:", 0);
	show_kb(m, "FilePmdMapped:", 0);
	show_kb(m, "Shared_Hugetlb:", 0);
	seq_printf(m, "Private_Hugetlb: %7u kB\n", 0); /* one column less: Linux's layout */
	show_kb(m, "Swap:", 0);
	show_kb(m, "SwapPss:", 0);
	show_kb(m, "Locked:", s->pss_locked >> PSS_SHIFT);
}

/*
 * Linux prints each area's protection key when the CPU has protection keys
 * (CPUID 7: PKU), as QEMU's "max" CPU does. Every area here has key 0.
 */
static bool cpu_has_pku(void)
{
	uint32_t a, b, c, d;
	cpuid_count(7, 0, &a, &b, &c, &d);
	return c & (1u << 3);
}

/*
 * Linux's VmFlags, in its bit order, for what an area here can be: rights,
 * the "may" rights (a private mapping may always become writable, a shared
 * one if its file was open for writing), grows-down, locked, accounted
 * (private writable), and soft-dirty, which every area has until
 * clear_refs (not done here). The vDSO is "do not expand".
 */
static void show_vm_flags(struct seq_file *m, const struct vma *v)
{
	bool shared = v->flags & VM_SHARED, special = v->vm_special != NULL;
	const struct { bool on; const char *name; } bits[] = {
		{ v->flags & VM_READ, "rd" },   { v->flags & VM_WRITE, "wr" },
		{ v->flags & VM_EXEC, "ex" },   { shared && (v->flags & VM_MAYWRITE), "sh" },
		{ true, "mr" },                 { !shared || (v->flags & VM_MAYWRITE), "mw" },
		{ true, "me" },                 { shared, "ms" },
		{ v->flags & VM_STACK, "gd" },  { v->flags & VM_LOCKED, "lo" },
		{ special, "de" },              { v->flags & VM_LOCKONFAULT, "??" }, /* no name in Linux */
		{ !shared && !special && (v->flags & VM_WRITE), "ac" },
		{ true, "sd" },
	};

	seq_puts(m, "VmFlags: ");
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		if (bits[i].on)
			seq_printf(m, "%s ", bits[i].name);
	seq_putc(m, '\n');
}

int show_smaps(struct seq_file *m, struct task *t)
{
	if (!t->mm)
		return 0;
	mmap_read_lock(t->mm);
	for (struct vma *v = t->mm->vmas; v; v = v->next) {
		struct smaps_stats s = { 0 };

		gather_stats(t->mm, v, &s);
		show_map_vma(m, t->mm, v);
		seq_putc(m, '\n');
		show_kb(m, "Size:", v->end - v->start);
		show_kb(m, "KernelPageSize:", PAGE_SIZE);
		show_kb(m, "MMUPageSize:", PAGE_SIZE);
		show_smap_stats(m, &s, false);
		/* Could the area hold a transparent huge page? Debian's Linux
		 * makes them only where MADV_HUGEPAGE asks ("madvise"), which
		 * this kernel accepts and ignores: never. */
		seq_printf(m, "THPeligible:    %d\n", 0);
		if (cpu_has_pku())
			seq_printf(m, "ProtectionKey:  %8u\n", 0);
		show_vm_flags(m, v);
	}
	mmap_read_unlock(t->mm);
	return 0;
}

/* One header line from the first area's start to the last one's end. */
int show_smaps_rollup(struct seq_file *m, struct task *t)
{
	struct smaps_stats s = { 0 };
	uint64_t start = 0, end = 0;

	if (!t->mm)
		return 0;
	mmap_read_lock(t->mm);
	for (struct vma *v = t->mm->vmas; v; v = v->next) {
		if (v == t->mm->vmas)
			start = v->start;
		end = v->end;
		gather_stats(t->mm, v, &s);
	}
	mmap_read_unlock(t->mm);
	size_t line = m->count;
	show_vma_header(m, start, end, "---p", 0, 0, 0);
	pad_name(m, line, "[rollup]");
	seq_putc(m, '\n');
	show_smap_stats(m, &s, true);
	return 0;
}
