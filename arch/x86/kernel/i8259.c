/*
 * i8259.c - the two legacy 8259 PICs, cascaded (the second on the first's
 * line 2). IRQ 0-15 are moved to vectors IRQ_BASE..IRQ_BASE+15.
 */
#include <kernel.h>
#include <trap.h>
#include <x86.h>

#include "irq_chip.h"

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xa0
#define PIC2_DATA 0xa1
#define PIC_EOI 0x20
#define PIC_READ_ISR 0x0b

static uint16_t irq_mask = 0xffff & ~(1 << 2); /* the cascade stays open */

static void pic_write_mask(void)
{
	outb(PIC1_DATA, irq_mask & 0xff);
	outb(PIC2_DATA, irq_mask >> 8);
}

static void i8259_init(void)
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

static void i8259_shutdown(void)
{
	irq_mask = 0xffff;
	pic_write_mask();
}

static void i8259_unmask(int irq)
{
	irq_mask &= ~(1 << irq);
	pic_write_mask();
}

static bool i8259_ack(int irq)
{
	/* IRQ 7 and 15 can be spurious: the PIC's in-service bit is clear. */
	if (irq == 7 || irq == 15) {
		outb(irq == 7 ? PIC1_CMD : PIC2_CMD, PIC_READ_ISR);
		if (!(inb(irq == 7 ? PIC1_CMD : PIC2_CMD) & 0x80)) {
			if (irq == 15)
				outb(PIC1_CMD, PIC_EOI);
			return false;
		}
	}
	if (irq >= 8)
		outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
	return true;
}

static unsigned i8259_pin(int irq)
{
	return irq;
}

const struct irq_chip i8259_chip = {
	.name = "XT-PIC",
	.pin = i8259_pin,
	.init = i8259_init,
	.shutdown = i8259_shutdown,
	.unmask = i8259_unmask,
	.ack = i8259_ack,
};
