/*
 * ldt.c - modify_ldt(2): a process's own segment descriptors (the Local
 * Descriptor Table), as Linux 6.1 keeps them (arch/x86/kernel/ldt.c there).
 *
 * A 64-bit program hardly needs segments, but some do: emulators and
 * DOSEMU-style programs that run 16-bit or 32-bit code, and the tests of
 * the kernel's own entry code (a sigreturn to an LDT code segment). The
 * table belongs to the memory map (struct mm): threads share it, fork
 * copies it, exec starts without one. Only user descriptors can be made
 * (privilege 3, no 64-bit code segments, no system segments); a
 * descriptor with every field empty clears its slot. While a process with
 * a table runs, the GDT's LDT descriptor points at it and LDTR holds it
 * (load_mm_ldt, from the scheduler); otherwise LDTR is null.
 */
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <smp.h>
#include <string.h>
#include <uaccess.h>
#include <vm.h>

#define LDT_ENTRIES 8192
#define LDT_ENTRY_SIZE 8

struct ldt {
	unsigned int nr_entries;
	uint64_t entries[];
};

/* The user's struct user_desc (asm/ldt.h). */
struct user_desc {
	uint32_t entry_number;
	uint32_t base_addr;
	uint32_t limit;
	uint32_t seg_32bit : 1, contents : 2, read_exec_only : 1, limit_in_pages : 1,
		 seg_not_present : 1, useable : 1, lm : 1;
};

/* arch/x86/kernel/gdt.c: point the GDT's LDT descriptor at a table and
 * load LDTR, or load the null selector (table NULL). */
void gdt_load_ldt(const void *table, unsigned int nr_entries);

void load_mm_ldt(struct mm *mm)
{
	if (mm && mm->ldt) {
		gdt_load_ldt(mm->ldt->entries, mm->ldt->nr_entries);
		this_cpu_write(ldt_loaded, true);
	} else if (this_cpu_read(ldt_loaded)) {
		gdt_load_ldt(NULL, 0);
		this_cpu_write(ldt_loaded, false);
	}
}

/* On another CPU that runs a thread of mm: take mm's new table. */
static void reload_ldt_ipi(void *info)
{
	struct mm *mm = info;

	if (current->mm == mm)
		load_mm_ldt(mm);
}

static struct ldt *ldt_alloc(unsigned int nr_entries)
{
	struct ldt *ldt = kzalloc(sizeof(*ldt) + nr_entries * LDT_ENTRY_SIZE);
	if (ldt)
		ldt->nr_entries = nr_entries;
	return ldt;
}

/* fork: the child's copy (mm_fork copied the pointer). 0 or -ENOMEM. */
int ldt_dup(struct mm *child, struct mm *parent)
{
	child->ldt = NULL;
	if (!parent->ldt)
		return 0;
	child->ldt = ldt_alloc(parent->ldt->nr_entries);
	if (!child->ldt)
		return -ENOMEM;
	memcpy(child->ldt->entries, parent->ldt->entries, parent->ldt->nr_entries * LDT_ENTRY_SIZE);
	return 0;
}

void ldt_free(struct mm *mm)
{
	kfree(mm->ldt);
	mm->ldt = NULL;
}

/* Every field as a cleared slot reads back (Linux's LDT_empty). */
static bool desc_empty(const struct user_desc *d)
{
	return !d->base_addr && !d->limit && !d->contents && d->read_exec_only && !d->seg_32bit &&
	       !d->limit_in_pages && d->seg_not_present && !d->useable && !d->lm;
}

/* The 8-byte descriptor: accessed, user privilege, never 64-bit code. */
static uint64_t make_desc(const struct user_desc *d, bool oldmode)
{
	uint64_t type = 1 | (uint64_t)(d->read_exec_only ^ 1) << 1 | (uint64_t)d->contents << 2;
	uint64_t access = type | 1 << 4 /* S */ | 3 << 5 /* DPL 3 */ | (uint64_t)(d->seg_not_present ^ 1) << 7;
	uint64_t flags = (oldmode ? 0 : d->useable) | (uint64_t)d->seg_32bit << 2 | (uint64_t)d->limit_in_pages << 3;

	return (d->limit & 0xffff) | (uint64_t)(d->base_addr & 0xffffff) << 16 | access << 40 |
	       (uint64_t)((d->limit >> 16) & 0xf) << 48 | flags << 52 |
	       (uint64_t)(d->base_addr >> 24) << 56;
}

static int write_ldt(const void __user *ptr, unsigned long bytecount, bool oldmode)
{
	struct mm *mm = current->mm;
	struct user_desc d;
	uint64_t desc = 0;

	if (bytecount != sizeof(d))
		return -EINVAL;
	if (copy_from_user(&d, ptr, sizeof(d)))
		return -EFAULT;
	if (d.entry_number >= LDT_ENTRIES)
		return -EINVAL;
	if (d.contents == 3 && (oldmode || !d.seg_not_present))
		return -EINVAL; /* conforming code, only not present */
	if (!(oldmode && !d.base_addr && !d.limit) && !desc_empty(&d))
		desc = make_desc(&d, oldmode);

	unsigned int old_nr = mm->ldt ? mm->ldt->nr_entries : 0;
	unsigned int nr = MAX(d.entry_number + 1, old_nr);
	struct ldt *ldt = ldt_alloc(nr);
	if (!ldt)
		return -ENOMEM;
	if (mm->ldt)
		memcpy(ldt->entries, mm->ldt->entries, old_nr * LDT_ENTRY_SIZE);
	ldt->entries[d.entry_number] = desc;
	struct ldt *old = mm->ldt;
	mm->ldt = ldt;
	load_mm_ldt(mm);
	/* Other CPUs may run threads of mm with the old table loaded: they
	 * take the new one before the old is freed (Linux's install_ldt). */
	smp_call_function_many(mm_cpumask(mm), reload_ldt_ipi, mm);
	kfree(old);
	return 0;
}

/* The table as bytes: bytecount of them at most 64 KiB, zeros past the
 * table's end (Linux pretends to have read them all). */
static long read_ldt(void __user *ptr, unsigned long bytecount)
{
	struct ldt *ldt = current->mm->ldt;

	if (!ldt)
		return 0;
	bytecount = MIN(bytecount, (unsigned long)LDT_ENTRIES * LDT_ENTRY_SIZE);
	unsigned long size = MIN(bytecount, (unsigned long)ldt->nr_entries * LDT_ENTRY_SIZE);
	if (copy_to_user(ptr, ldt->entries, size) || clear_user((char __user *)ptr + size, bytecount - size))
		return -EFAULT;
	return bytecount;
}

/* The "default LDT": 128 bytes of zeros on x86-64. */
static long read_default_ldt(void __user *ptr, unsigned long bytecount)
{
	bytecount = MIN(bytecount, 128UL);
	return clear_user(ptr, bytecount) ? -EFAULT : (long)bytecount;
}

/*
 * modify_ldt(func, ptr, bytecount): 0 reads the table, 1 writes an entry
 * (as 0x11 does; 1 is the old mode, which ignores "useable" and clears a
 * slot given base and limit 0), 2 reads the default table; another func
 * is ENOSYS. Linux returns an int in a long: an error reaches the
 * program as a large positive number, and so it does here.
 */
long sys_modify_ldt(int func, void __user *ptr, unsigned long bytecount)
{
	long ret = -ENOSYS;

	switch (func) {
	case 0:
		ret = read_ldt(ptr, bytecount);
		break;
	case 1:
		ret = write_ldt(ptr, bytecount, true);
		break;
	case 2:
		ret = read_default_ldt(ptr, bytecount);
		break;
	case 0x11:
		ret = write_ldt(ptr, bytecount, false);
		break;
	}
	return (unsigned int)ret;
}
