/*
 * apic.c - each CPU's local APIC: its timer, the interprocessor
 * interrupts and the end-of-interrupt for the system vectors.
 *
 * Design notes:
 *  - The registers are a 4 KiB page at lapic_phys (the MADT says where,
 *    0xfee00000 on a PC), the same address on every CPU: each CPU sees its
 *    own APIC there. ioremap maps it once, uncached.
 *  - Device interrupts come from the I/O APIC (io_apic.c), all to the
 *    boot CPU; until it takes over, from the 8259 PICs through the boot
 *    CPU's LINT0 (virtual wire mode, as the BIOS left it). The PIT's tick
 *    counts jiffies and is the boot CPU's tick; every other CPU gets its
 *    tick from its APIC timer, at HZ, for its time slices and accounting.
 *  - The APIC timer counts down at a rate no register tells: the boot CPU
 *    measures it once against the PIT's channel 2 (10 ms), as Linux's
 *    calibrate_APIC_clock does against its own reference.
 */
#include <apic.h>
#include <kernel.h>
#include <kernel_stat.h>
#include <mm.h>
#include <profile.h>
#include <sched.h>
#include <smp.h>
#include <trap.h>
#include <x86.h>

#define APIC_ID 0x20
#define APIC_TPR 0x80
#define APIC_EOI 0xb0
#define APIC_SVR 0xf0
#define APIC_SVR_ENABLE (1U << 8)
#define APIC_ESR 0x280
#define APIC_ICR_LOW 0x300
#define APIC_ICR_HIGH 0x310
#define APIC_ICR_BUSY (1U << 12)
#define APIC_LVT_TIMER 0x320
#define APIC_LVT_LINT0 0x350
#define APIC_LVT_LINT1 0x360
#define APIC_LVT_ERROR 0x370
#define APIC_LVT_MASKED (1U << 16)
#define APIC_TIMER_PERIODIC (1U << 17)
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_COUNT 0x390
#define APIC_TIMER_DIV 0x3e0
#define APIC_DIV_16 0x3

#define ICR_INIT 0x4500    /* INIT, level assert */
#define ICR_STARTUP 0x4600 /* start-up IPI: vector = start page */

uint64_t lapic_phys = 0xfee00000;
static volatile uint32_t *lapic;
static uint32_t ticks_per_jiffy; /* APIC timer counts in 1/HZ s */

static uint32_t apic_read(unsigned reg) { return lapic[reg / 4]; }
static void apic_write(unsigned reg, uint32_t v) { lapic[reg / 4] = v; }

uint32_t lapic_id(void) { return apic_read(APIC_ID) >> 24; }

void lapic_init(void)
{
	if (!lapic && !(lapic = ioremap(lapic_phys, PAGE_SIZE)))
		panic("apic: cannot map the local APIC");
	apic_write(APIC_TPR, 0); /* accept every vector */
	apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED);
	if (smp_processor_id() != 0) { /* LINT0 is the PIC's on the boot CPU only */
		apic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);
		apic_write(APIC_LVT_LINT1, APIC_LVT_MASKED);
	}
	apic_write(APIC_SVR, APIC_SVR_ENABLE | SPURIOUS_APIC_VECTOR);
	apic_write(APIC_ESR, 0);
}

/* PIT channel 2, gated by port 0x61, counts 10 ms down in mode 0. */
#define PIT_HZ 1193182
static void pit_wait_10ms(void)
{
	uint16_t count = PIT_HZ / 100;

	outb(0x61, (inb(0x61) & ~0x02) | 0x01); /* gate on, speaker off */
	outb(0x43, 0xb0);                       /* channel 2, lobyte/hibyte, mode 0 */
	outb(0x42, count & 0xff);
	outb(0x42, count >> 8);
	while (!(inb(0x61) & 0x20)) /* OUT2 goes high at 0 */
		__asm__ volatile("pause");
}

void lapic_timer_calibrate(void)
{
	apic_write(APIC_TIMER_DIV, APIC_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, 0xffffffff);
	pit_wait_10ms();
	uint32_t elapsed = 0xffffffff - apic_read(APIC_TIMER_COUNT);
	apic_write(APIC_TIMER_INIT, 0);
	ticks_per_jiffy = elapsed * 100 / HZ;
	printk(KERN_INFO "APIC timer: %u counts a tick (%u.%03u MHz bus)\n", ticks_per_jiffy,
	       elapsed * 16 / 10000, elapsed * 16 / 10 % 1000);
}

void lapic_timer_start(void)
{
	apic_write(APIC_TIMER_DIV, APIC_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, ticks_per_jiffy);
}

static void icr_wait(void)
{
	while (apic_read(APIC_ICR_LOW) & APIC_ICR_BUSY)
		__asm__ volatile("pause");
}

/* Interrupts off meanwhile: an interrupt handler's own IPI must not come
 * between the two register writes. */
void lapic_send_ipi(uint32_t apic_id, uint32_t icr_low)
{
	uint64_t flags = irq_save();

	icr_wait();
	apic_write(APIC_ICR_HIGH, apic_id << 24);
	apic_write(APIC_ICR_LOW, icr_low);
	icr_wait();
	irq_restore(flags);
}

/* INIT, then two start-up IPIs (Intel's MP protocol): the CPU starts in
 * real mode at start_phys (page aligned, below 1 MiB). */
void lapic_send_init_sipi(uint32_t apic_id, uint64_t start_phys)
{
	lapic_send_ipi(apic_id, ICR_INIT);
	for (int i = 0; i < 2; i++)
		lapic_send_ipi(apic_id, ICR_STARTUP | (uint32_t)(start_phys >> 12));
}

void lapic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

void lapic_mask_lint0(void)
{
	apic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);
}

void apic_interrupt(struct trapframe *tf)
{
	switch (tf->vector) {
	case SPURIOUS_APIC_VECTOR:
		return; /* no EOI for a spurious interrupt */
	case LOCAL_TIMER_VECTOR:
		irq_stat[smp_processor_id()].apic_timer_irqs++;
		apic_write(APIC_EOI, 0);
		profile_tick(tf);
		sched_tick(trap_from_user(tf));
		return;
	case RESCHEDULE_VECTOR: /* need_resched, or a signal, was set by the sender */
		irq_stat[smp_processor_id()].irq_resched_count++;
		apic_write(APIC_EOI, 0);
		return;
	case CALL_FUNCTION_VECTOR:
		irq_stat[smp_processor_id()].irq_call_count++;
		apic_write(APIC_EOI, 0);
		smp_call_function_interrupt();
		return;
	}
	apic_write(APIC_EOI, 0);
}
