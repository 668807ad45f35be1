/*
 * irq.c - hardware interrupts through the two legacy 8259 PICs.
 * IRQ 0-15 are moved to vectors 32-47 (below 32 are CPU exceptions);
 * all lines start masked and are opened by irq_unmask when a driver
 * registers.
 */
#include <kernel.h>
#include <kernel_stat.h>
#include <trap.h>
#include <x86.h>

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xa0
#define PIC2_DATA 0xa1
#define PIC_EOI 0x20

static irq_handler_t handlers[16];
static const char *names[16];
static uint16_t irq_mask = 0xffff & ~(1 << 2); /* the cascade stays open */

static void pic_write_mask(void)
{
	outb(PIC1_DATA, irq_mask & 0xff);
	outb(PIC2_DATA, irq_mask >> 8);
}

void pic_init(void)
{
	outb(PIC1_CMD, 0x11); /* ICW1: init, expect ICW4 */
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, IRQ_BASE);     /* ICW2: vector offsets */
	outb(PIC2_DATA, IRQ_BASE + 8);
	outb(PIC1_DATA, 0x04); /* ICW3: slave on IRQ 2 */
	outb(PIC2_DATA, 0x02);
	outb(PIC1_DATA, 0x01); /* ICW4: 8086 mode */
	outb(PIC2_DATA, 0x01);
	pic_write_mask();
}

void irq_register(int irq, irq_handler_t handler, const char *name)
{
	handlers[irq] = handler;
	names[irq] = name;
}

const char *irq_name(int irq)
{
	return irq >= 0 && irq < 16 ? names[irq] : NULL;
}

void irq_unmask(int irq)
{
	irq_mask &= ~(1 << irq);
	pic_write_mask();
}

void irq_dispatch(struct trapframe *tf)
{
	int irq = (int)tf->vector - IRQ_BASE;

	if (irq < 0 || irq >= 16)
		return;
	/* IRQ 7 and 15 can be spurious: the PIC's in-service bit is clear. */
	if (irq == 7 || irq == 15) {
		outb(irq == 7 ? PIC1_CMD : PIC2_CMD, 0x0b);
		if (!(inb(irq == 7 ? PIC1_CMD : PIC2_CMD) & 0x80)) {
			if (irq == 15)
				outb(PIC1_CMD, PIC_EOI);
			return;
		}
	}
	if (irq >= 8)
		outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
	kstat.irqs[irq]++;
	if (handlers[irq])
		handlers[irq](tf);
}
