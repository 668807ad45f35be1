/*
 * gdt.c - segments and the TSS. Long mode barely uses segments, but the
 * CPU still needs descriptors for kernel and user code and data, laid out
 * the way syscall/sysret expect, and a TSS that holds the stack to switch
 * to when an interrupt arrives in user mode (rsp0), a spare stack for
 * double faults (ist1), and the I/O permission bitmap of the running
 * thread (arch/x86/kernel/ioport.c).
 *
 * Each CPU has its own GDT and TSS: the TSS holds what runs on that CPU
 * (and its descriptor is marked busy once loaded), and the GDT's LDT
 * descriptor points at the LDT of the process running there. Only the
 * CPU itself writes them.
 */
#include <kernel.h>
#include <sched.h>
#include <string.h>
#include <trap.h>
#include <x86.h>

struct tss {
	uint32_t reserved0;
	uint64_t rsp0, rsp1, rsp2;
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3, iomap_base;
	/* A bit a port, 1 = denied; the CPU reads a byte past the last
	 * port's, which must be all ones. */
	uint8_t io_bitmap[IO_BITMAP_BYTES + 1];
} __packed;

#define IO_BITMAP_VALID offsetof(struct tss, io_bitmap)
#define IO_BITMAP_INVALID 0xffff /* past the TSS's limit: every port denied */

static struct tss tss_of_cpu[NR_CPUS];
uint8_t double_fault_stack[NR_CPUS][DOUBLE_FAULT_STACK_SIZE] __attribute__((aligned(16)));
uint8_t nmi_stack[NR_CPUS][PARANOID_STACK_SIZE] __attribute__((aligned(16)));
uint8_t mce_stack[NR_CPUS][PARANOID_STACK_SIZE] __attribute__((aligned(16)));

/* Descriptors: access byte and flags nibble as the manuals lay them out. */
#define SEG(access, flags) (((uint64_t)(flags) << 52) | ((uint64_t)(access) << 40) | 0x000f00000000ffffUL)
static const uint64_t gdt_template[] = {
	0,
	SEG(0x9a, 0xa), /* 0x08 kernel code, 64-bit */
	SEG(0x92, 0xc), /* 0x10 kernel data */
	0,              /* 0x18 unused */
	SEG(0xfa, 0xc), /* 0x20 user code, 32-bit (unused, for sysret's layout) */
	SEG(0xf2, 0xc), /* 0x28 user data */
	SEG(0xfa, 0xa), /* 0x30 user code, 64-bit */
	0, 0,           /* 0x38 TSS, two slots */
	0, 0,           /* 0x48 a process's LDT (arch/x86/kernel/ldt.c), two slots */
	0, 0, 0, 0,     /* 0x58-0x70 unused (Linux's 32-bit TLS slots are 0x60-0x70) */
	0,              /* 0x78 the CPU's number, for getcpu in the vDSO: below */
};
#define LDT_SEL 0x48
#define CPUNODE_ENTRY 15 /* selector 0x7b, Linux's GDT_ENTRY_CPUNODE */
#define GDT_ENTRIES (sizeof(gdt_template) / 8)
static uint64_t gdt_of_cpu[NR_CPUS][GDT_ENTRIES];

static struct tss *this_tss(void) { return this_cpu_read(tss); }

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __packed;

void tss_set_kernel_stack(uint64_t top)
{
	this_tss()->rsp0 = top;
}

/* Point the LDT descriptor at table (nr_entries descriptors) and load
 * LDTR with it; a NULL table loads the null selector. */
void gdt_load_ldt(const void *table, unsigned int nr_entries)
{
	uint64_t base = (uint64_t)table, limit = nr_entries * 8 - 1;
	uint64_t *gdt = this_cpu_read(gdt);

	if (!table) {
		__asm__ volatile("lldt %w0" ::"r"(0));
		return;
	}
	gdt[LDT_SEL / 8] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x82UL << 40) |
			   (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[LDT_SEL / 8 + 1] = base >> 32;
	__asm__ volatile("lldt %w0" ::"r"(LDT_SEL));
}

/* The running thread's ports: bitmap (NULL: none), or every one. */
void tss_set_io_bitmap(const uint8_t *bitmap, bool allow_all)
{
	struct tss *tss = this_tss();

	if (allow_all)
		memset(tss->io_bitmap, 0, IO_BITMAP_BYTES);
	else if (bitmap)
		memcpy(tss->io_bitmap, bitmap, IO_BITMAP_BYTES);
	tss->iomap_base = allow_all || bitmap ? IO_BITMAP_VALID : IO_BITMAP_INVALID;
}

/* Load the calling CPU's GDT and TSS (its struct percpu is set up). */
void gdt_init(void)
{
	int cpu = smp_processor_id();
	struct tss *tss = &tss_of_cpu[cpu];
	uint64_t *gdt = gdt_of_cpu[cpu];
	uint64_t base = (uint64_t)tss, limit = sizeof(*tss) - 1;
	struct desc_ptr ptr = { sizeof(gdt_template) - 1, (uint64_t)gdt };

	memcpy(gdt, gdt_template, sizeof(gdt_template));
	this_cpu_write(tss, tss);
	this_cpu_write(gdt, gdt);
	tss->ist[IST_DOUBLE_FAULT - 1] = (uint64_t)double_fault_stack[cpu] + DOUBLE_FAULT_STACK_SIZE;
	tss->ist[IST_NMI - 1] = (uint64_t)nmi_stack[cpu] + PARANOID_STACK_SIZE;
	tss->ist[IST_MCE - 1] = (uint64_t)mce_stack[cpu] + PARANOID_STACK_SIZE;
	tss->iomap_base = IO_BITMAP_INVALID;
	tss->io_bitmap[IO_BITMAP_BYTES] = 0xff;
	/* A user data segment whose limit is the CPU's number (and, from bit
	 * 12, its node): user code reads it with lsl, as Linux's vDSO does. */
	gdt[CPUNODE_ENTRY] = ((uint64_t)cpu & 0xffff) | (0xf2UL << 40) | (0x4UL << 52);
	gdt[7] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89UL << 40) |
		 (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[8] = base >> 32;

	__asm__ volatile("lgdt %0" ::"m"(ptr));
	/* Reload the segment registers: cs by a far return, the rest directly. */
	__asm__ volatile("pushq %0\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movl %1, %%eax\n\t"
			 "movl %%eax, %%ds\n\t"
			 "movl %%eax, %%es\n\t"
			 "movl %%eax, %%ss\n\t"
			 ::"i"((uint64_t)KERNEL_CS), "i"(KERNEL_DS) : "rax", "memory");
	__asm__ volatile("ltr %w0" ::"r"(TSS_SEL));
	/*
	 * No local descriptor table: the boot loader may leave LDTR as the
	 * CPU came out of reset (base 0, limit 0xffff), and then a user's LDT
	 * selector (in a sigreturn frame) would make iretq read low memory.
	 * With the null selector, such a selector is a #GP, the user's fault.
	 */
	__asm__ volatile("lldt %w0" ::"r"(0));
}
