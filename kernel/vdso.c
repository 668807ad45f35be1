/*
 * vdso.c - the kernel's side of the vDSO: its pages, the data page it
 * reads ([vvar]), and where exec maps both (Linux's
 * arch/x86/entry/vdso/vma.c). The vDSO's code is kernel/vdso/vdso.c;
 * include/vdso.h says what it is for.
 *
 * The image and the data page are allocated once at boot and never freed
 * (the kernel keeps a reference to each page), and every process maps the
 * same frames, read-only: a "special mapping" (include/vm.h) whose pages
 * the fault handler takes from the arrays below. A debugger that writes
 * into the vDSO (mprotect, then a write) gets a private copy, as on Linux.
 */
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <random.h>
#include <string.h>
#include <sched.h>
#include <time_namespace.h>
#include <timekeeping.h>
#include <vdso.h>
#include <vm.h>

extern const char vdso_image_start[], vdso_image_end[];

static void *vdso_pages[VDSO_PAGES];
static void *vvar_data; /* the clock's parameters: what [vvar] is for */

/*
 * [vvar]'s page i for the faulting task. In the initial time namespace,
 * the data first and nothing more (the pvclock, hvclock and timens pages
 * are SIGBUS, as on Linux without them). In another, its namespace's page
 * first and the data as the timens page (include/vdso.h).
 */
static void *vvar_page(unsigned i)
{
	struct time_namespace *ns = current_time_ns();

	if (ns == &init_time_ns)
		return i == 0 ? vvar_data : NULL;
	if (i == 0)
		return ns->vvar_page;
	return i == VVAR_TIMENS_PAGE ? vvar_data : NULL;
}

static const struct vm_special_mapping vdso_mapping = { "[vdso]", vdso_pages, VDSO_PAGES, false, NULL };
static const struct vm_special_mapping vvar_mapping = { "[vvar]", NULL, VVAR_PAGES, true, vvar_page };

void vdso_init(void)
{
	size_t size = vdso_image_end - vdso_image_start;
	struct vdso_data *vd;

	BUG_ON(size > VDSO_PAGES * PAGE_SIZE);
	for (int i = 0; i < VDSO_PAGES; i++) {
		vdso_pages[i] = alloc_page(); /* zeroed: the image's tail */
		BUG_ON(!vdso_pages[i]);
		if (size > i * PAGE_SIZE)
			memcpy(vdso_pages[i], vdso_image_start + i * PAGE_SIZE,
			       MIN(PAGE_SIZE, size - i * PAGE_SIZE));
	}
	vvar_data = alloc_page();
	BUG_ON(!vvar_data);
	vd = vvar_data;
	/* The clock does not change its rate; its offset changes when the
	 * wall clock is set (vdso_set_realtime_offset). */
	timekeeping_vdso_data(&vd->tsc_at_boot, &vd->tsc_khz, &vd->realtime_offset);
}

/* A writer makes seq odd while it changes the page: a reader that saw it
 * odd, or saw it change, reads again (kernel/vdso/vdso.c). One CPU, and
 * the caller has interrupts off or no reader can run meanwhile. */
void vdso_set_realtime_offset(int64_t offset)
{
	volatile struct vdso_data *vd = vvar_data;

	vd->seq++;
	__asm__ volatile("" ::: "memory");
	vd->realtime_offset = offset;
	__asm__ volatile("" ::: "memory");
	vd->seq++;
}

void vdso_set_timezone(int minuteswest, int dsttime)
{
	volatile struct vdso_data *vd = vvar_data;

	vd->tz_minuteswest = minuteswest;
	vd->tz_dsttime = dsttime;
}

/*
 * Linux's vdso_addr: above the stack, at a random page within the 2 MiB
 * region (PMD) that holds the stack's top, so that no page table more is
 * needed. When that range is taken (the stack reaches the end of the
 * address space, as without randomization), mmap places it instead: below
 * the interpreter. Linux draws the offset even when it does not randomize.
 */
static uint64_t vdso_addr(uint64_t start, uint64_t len)
{
	const uint64_t pmd_size = 2UL << 20;
	uint64_t addr, end;

	start = ALIGN_UP(start, PAGE_SIZE);
	end = (start + len + pmd_size - 1) & ~(pmd_size - 1);
	if (end >= TASK_SIZE)
		end = TASK_SIZE;
	end -= len;
	if (end > start) {
		uint64_t offset = (uint32_t)get_random_u64() % (((end - start) >> PAGE_SHIFT) + 1);
		addr = start + (offset << PAGE_SHIFT);
	} else {
		addr = start;
	}
	return addr;
}

int arch_setup_additional_pages(struct mm *mm)
{
	uint64_t len = (VVAR_PAGES + VDSO_PAGES) * PAGE_SIZE, addr, text;
	int err;

	addr = get_unmapped_area(mm, vdso_addr(mm->start_stack, len), len);
	if (!addr)
		return -ENOMEM;
	text = addr + VVAR_PAGES * PAGE_SIZE;
	err = vma_map_special(mm, text, VDSO_PAGES * PAGE_SIZE, VM_READ | VM_EXEC, &vdso_mapping);
	if (!err)
		err = vma_map_special(mm, addr, VVAR_PAGES * PAGE_SIZE, VM_READ, &vvar_mapping);
	if (err)
		return err;
	mm->vdso = text;
	return 0;
}

void vdso_timens_fill(void *page, int64_t monotonic_offset_ns, int64_t boottime_offset_ns)
{
	struct vdso_data *vd = page;

	memset(vd, 0, PAGE_SIZE);
	vd->seq = 1;
	vd->clock_mode = VDSO_CLOCKMODE_TIMENS;
	vd->monotonic_offset_ns = monotonic_offset_ns;
	vd->boottime_offset_ns = boottime_offset_ns;
}

void vdso_join_timens(struct task *t)
{
	if (t->mm)
		zap_special_mapping(t->mm, &vvar_mapping);
}
