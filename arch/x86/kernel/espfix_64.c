/*
 * espfix_64.c - returning to a 16-bit stack segment without losing the
 * stack pointer's bits 31:16 (Linux calls its version espfix64).
 *
 * iretq to a stack segment whose descriptor is 16-bit (an LDT data segment
 * with B = 0, which modify_ldt lets a program make) loads only SP, the low
 * 16 bits of RSP, from the frame: bits 63:16 keep what RSP held in the
 * kernel when iretq ran. An ordinary return would lose the program's bits
 * 31:16 and show it bits of a kernel stack address.
 *
 * So that iretq runs with an RSP whose bits 31:16 are the program's. One
 * page, the espfix page, is seen at every 64 KiB of a 4 GiB region of the
 * kernel half (ESPFIX_BASE, 4 GiB aligned): ESPFIX_BASE + (rsp & 0xffff0000)
 * + offset is always the page's byte at offset. The return path writes
 * the iret frame into the page through the direct map, then iretqs from
 * the alias whose bits 31:16 are the user's RSP's (entry.S: trap_return).
 * Three tables make the 65536 aliases: a page table whose every 16th entry
 * maps the page, a page directory whose 512 entries all point at that
 * table (1 GiB), and a PDPT whose first 4 entries point at that directory.
 *
 * The iretq from an alias must not fault: the fault's frame would land on
 * the read-only alias (a double fault). So the alias is used only when
 * the CPU's own checks (lar, lsl) say that the return will succeed; any
 * other frame returns the ordinary way and faults there, where traps.c
 * turns the fault into the program's signal (fixup_bad_iret).
 *
 * Each CPU has its own frame in the page (at FRAME_OFFSET(cpu), from the
 * top down) and its own pending alias (its struct percpu's espfix_rsp).
 */
#include <kernel.h>
#include <mm.h>
#include <percpu.h>
#include <trap.h>
#include <vm.h>
#include <x86.h>

#define ESPFIX_BASE 0xffffff0000000000UL /* PML4 entry 510 */
#define ALIAS_STRIDE 0x10000UL           /* 64 KiB: bits 15:0 are the page's */
#define FRAME_WORDS 5                    /* rip, cs, rflags, rsp, ss */
#define FRAME_SLOT 64                    /* a CPU's part of the page */
#define FRAME_OFFSET(cpu) (PAGE_SIZE - ((cpu) + 1) * FRAME_SLOT)

/* lar's access-rights bits (the descriptor's bytes 5 and 6, shifted). */
#define AR_TYPE_CODE (1U << 11)
#define AR_TYPE_CONFORMING (1U << 10)
#define AR_TYPE_WRITABLE (1U << 9)
#define AR_S (1U << 12)
#define AR_DPL3 (3U << 13)
#define AR_P (1U << 15)
#define AR_L (1U << 21)  /* a 64-bit code segment */
#define AR_DB (1U << 22) /* a 32-bit segment (B for a stack segment) */

static uint64_t *espfix_page;

/* A table of the kernel half: P and W (NX on the last level only). */
static uint64_t *new_table(void)
{
	uint64_t *t = alloc_page();
	if (!t)
		panic("espfix: no memory for the page tables");
	return t;
}

void espfix_init(void)
{
	uint64_t *pt = new_table(), *pd = new_table(), *pdpt = new_table();

	espfix_page = new_table();
	for (unsigned i = 0; i < 512; i += ALIAS_STRIDE / PAGE_SIZE)
		pt[i] = virt_to_phys(espfix_page) | PTE_P | pte_nx; /* read-only */
	for (unsigned i = 0; i < 512; i++)
		pd[i] = virt_to_phys(pt) | PTE_P | PTE_W;
	for (unsigned i = 0; i < 4; i++)
		pdpt[i] = virt_to_phys(pd) | PTE_P | PTE_W;
	/* Before any process exists: each mm copies the kernel half. */
	boot_pml4[(ESPFIX_BASE >> 39) & 511] = virt_to_phys(pdpt) | PTE_P | PTE_W;
}

/* The access rights of selector sel (lar), or false if it names none. */
static bool segment_rights(uint64_t sel, uint32_t *ar)
{
	uint8_t ok;
	*ar = 0;
	__asm__("lar %k2, %0\n\tsetz %1" : "+r"(*ar), "=q"(ok) : "r"(sel & 0xffff) : "cc");
	return ok;
}

static uint32_t segment_limit(uint64_t sel)
{
	uint32_t limit = 0;
	__asm__("lsl %k1, %0" : "+r"(limit) : "r"(sel & 0xffff) : "cc");
	return limit;
}

/* Will iretq to tf's cs:rip and ss succeed? The checks the CPU makes: a
 * present user code segment whose limit holds rip, a present writable
 * user data segment, both selectors of privilege 3. */
static bool iret_will_succeed(const struct trapframe *tf)
{
	uint32_t cs, ss;

	if ((tf->cs & 3) != 3 || (tf->ss & 3) != 3)
		return false;
	if (!segment_rights(tf->cs, &cs) || !segment_rights(tf->ss, &ss))
		return false;
	if ((cs & (AR_P | AR_S | AR_TYPE_CODE)) != (AR_P | AR_S | AR_TYPE_CODE) ||
	    (!(cs & AR_TYPE_CONFORMING) && (cs & AR_DPL3) != AR_DPL3))
		return false;
	if ((ss & (AR_P | AR_S | AR_TYPE_CODE | AR_TYPE_WRITABLE | AR_DPL3)) !=
	    (AR_P | AR_S | AR_TYPE_WRITABLE | AR_DPL3))
		return false;
	return (cs & AR_L) || tf->rip <= segment_limit(tf->cs);
}

/*
 * Called by trap_return, interrupts off, for a frame whose ss is in the
 * LDT: if it is a return to user mode that needs the alias (a 16-bit stack
 * segment under code that is not 64-bit, where RSP's upper bits matter),
 * and will succeed, copy the frame into the espfix page and set espfix_rsp.
 */
void espfix_prepare(struct trapframe *tf)
{
	uint32_t cs, ss;

	unsigned long offset = FRAME_OFFSET(smp_processor_id());

	/* The alias RSP the next iretq to user mode must use, or 0: read and
	 * cleared by entry.S (interrupts are off from here on). */
	this_cpu_write(espfix_rsp, 0);
	if (!trap_from_user(tf) || !segment_rights(tf->ss, &ss) || (ss & AR_DB) ||
	    !segment_rights(tf->cs, &cs) || (cs & AR_L) || !iret_will_succeed(tf))
		return;
	uint64_t *frame = espfix_page + offset / 8;
	frame[0] = tf->rip;
	frame[1] = tf->cs;
	frame[2] = tf->rflags;
	frame[3] = tf->rsp;
	frame[4] = tf->ss;
	this_cpu_write(espfix_rsp, ESPFIX_BASE + (tf->rsp & 0xffff0000UL) + offset);
}
