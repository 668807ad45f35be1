/*
 * io_apic.c - the I/O APIC: device interrupts delivered to a CPU's local
 * APIC, in place of the 8259 PICs once the local APICs are up.
 *
 * Its registers are reached through two windows at ioapic_phys (from the
 * MADT): write a register's number to IOREGSEL, then read or write IOWIN.
 * Each input pin has a 64-bit redirection entry: the vector, the trigger
 * and polarity, a mask bit, and the destination APIC ID. ISA line n is on
 * pin n unless the MADT says otherwise (on a PC the PIT's IRQ 0 is on pin
 * 2). ISA interrupts are edge-triggered, active high. Every line goes to
 * the boot CPU, which ends each with its local APIC's EOI.
 */
#include <acpi.h>
#include <apic.h>
#include <kernel.h>
#include <mm.h>
#include <percpu.h>
#include <trap.h>

#include "irq_chip.h"

#define IOREGSEL 0x00
#define IOWIN 0x10
#define IOAPIC_VER 0x01
#define IOAPIC_REDTBL(pin) (0x10 + 2 * (pin))
#define REDIR_MASKED (1U << 16)

static volatile uint32_t *ioapic;
static unsigned nr_pins;

static uint32_t io_read(uint32_t reg)
{
	ioapic[IOREGSEL / 4] = reg;
	return ioapic[IOWIN / 4];
}

static void io_write(uint32_t reg, uint32_t v)
{
	ioapic[IOREGSEL / 4] = reg;
	ioapic[IOWIN / 4] = v;
}

static unsigned pin_of(int irq)
{
	return acpi_cpus.isa_gsi[irq] ? acpi_cpus.isa_gsi[irq] - 1 : (unsigned)irq;
}

static void ioapic_init(void)
{
	nr_pins = ((io_read(IOAPIC_VER) >> 16) & 0xff) + 1;
	for (unsigned pin = 0; pin < nr_pins; pin++) {
		io_write(IOAPIC_REDTBL(pin) + 1, 0);
		io_write(IOAPIC_REDTBL(pin), REDIR_MASKED);
	}
}

static void ioapic_unmask(int irq)
{
	unsigned pin = pin_of(irq);

	if (pin >= nr_pins)
		return;
	io_write(IOAPIC_REDTBL(pin) + 1, cpus[0].apic_id << 24);
	io_write(IOAPIC_REDTBL(pin), IRQ_BASE + irq); /* fixed, physical, edge, high */
}

static bool ioapic_ack(int irq)
{
	(void)irq;
	lapic_eoi();
	return true;
}

const struct irq_chip ioapic_chip = {
	.name = "IO-APIC",
	.pin = pin_of,
	.init = ioapic_init,
	.shutdown = ioapic_init, /* all masked */
	.unmask = ioapic_unmask,
	.ack = ioapic_ack,
};

/* Take the device interrupts over from the PICs, if the MADT names an I/O
 * APIC (interrupts off). */
void io_apic_setup(void)
{
	if (!acpi_cpus.ioapic_phys || !(ioapic = ioremap(acpi_cpus.ioapic_phys, 0x20)))
		return;
	irq_set_chip(&ioapic_chip);
	lapic_mask_lint0();
	printk(KERN_INFO "IOAPIC[0]: apic_id %u, address 0x%lx, GSI 0-%u\n",
	       (unsigned)(io_read(0) >> 24) & 0xf, (unsigned long)acpi_cpus.ioapic_phys, nr_pins - 1);
}
