/* irq_chip.h - what irq.c asks of an interrupt controller. */
#pragma once
#include <kernel.h>

struct irq_chip {
	const char *name;        /* as /proc/interrupts shows it */
	unsigned (*pin)(int irq); /* the chip's input for line irq */
	void (*init)(void);      /* set up, every line masked */
	void (*shutdown)(void);  /* mask every line: another chip takes over */
	void (*unmask)(int irq); /* deliver line irq as vector IRQ_BASE + irq */
	bool (*ack)(int irq);    /* end of interrupt; false if it was spurious */
};

extern const struct irq_chip i8259_chip;  /* i8259.c */
extern const struct irq_chip ioapic_chip; /* io_apic.c */
void irq_set_chip(const struct irq_chip *chip);
