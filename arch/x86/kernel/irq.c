/*
 * irq.c - hardware interrupt lines: who handles each, and the chip that
 * delivers them.
 *
 * The 16 ISA lines (IRQ 0-15) arrive as vectors IRQ_BASE + n (below 32 are
 * CPU exceptions). Two chips can deliver them: the legacy 8259 PICs
 * (i8259.c), which the kernel starts with, and the I/O APIC (io_apic.c),
 * which takes over once the local APICs are up (smp_init). All lines
 * start masked and are opened by irq_unmask when a driver registers; the
 * chip that takes over opens the same ones.
 */
#include <kernel.h>
#include <kernel_stat.h>
#include <trap.h>
#include <x86.h>

#include "irq_chip.h"

static irq_handler_t handlers[NR_IRQS_LEGACY];
static const char *names[NR_IRQS_LEGACY];
static uint16_t unmasked; /* the lines drivers opened */
static const struct irq_chip *chip = &i8259_chip;

void pic_init(void)
{
	chip->init();
}

void irq_register(int irq, irq_handler_t handler, const char *name)
{
	handlers[irq] = handler;
	names[irq] = name;
}

const char *irq_name(int irq)
{
	return irq >= 0 && irq < NR_IRQS_LEGACY ? names[irq] : NULL;
}

/* The controller of line irq and its input there, for /proc/interrupts. */
const char *irq_chip_name(int irq, unsigned *pin)
{
	*pin = chip->pin(irq);
	return chip->name;
}

void irq_unmask(int irq)
{
	unmasked |= 1 << irq;
	chip->unmask(irq);
}

/* Hand the lines to another chip (interrupts off): the old one masks
 * them all, the new one opens those that were open. */
void irq_set_chip(const struct irq_chip *new_chip)
{
	chip->shutdown();
	chip = new_chip;
	chip->init();
	for (int irq = 0; irq < NR_IRQS_LEGACY; irq++)
		if (unmasked & (1 << irq))
			chip->unmask(irq);
}

void irq_dispatch(struct trapframe *tf)
{
	int irq = (int)tf->vector - IRQ_BASE;

	if (irq < 0 || irq >= NR_IRQS_LEGACY)
		return;
	if (!chip->ack(irq)) /* spurious: nothing to handle */
		return;
	kstat.irqs[irq]++;
	if (handlers[irq])
		handlers[irq](tf);
}
