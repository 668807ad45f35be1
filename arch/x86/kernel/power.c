/*
 * power.c - powering off, restarting and stopping after a fatal error.
 * Written for QEMU's PC machine: ACPI power-off through the PIIX4 power
 * management port, restart through the keyboard controller.
 */
#include <kernel.h>
#include <power.h>
#include <x86.h>

/* QEMU's isa-debug-exit device (-device isa-debug-exit,iobase=0xf4):
 * writing v makes QEMU exit with status (v << 1) | 1. */
#define DEBUG_EXIT_PORT 0xf4

static void __noreturn halt_forever(void)
{
	for (;;) {
		cli();
		hlt();
	}
}

void machine_power_off(void)
{
	cli();
	outw(0x604, 0x2000);  /* QEMU: PIIX4 PM1a control, SLP_TYP=0 | SLP_EN */
	outw(0xb004, 0x2000); /* older QEMU and Bochs */
	halt_forever();
}

void machine_restart(void)
{
	cli();
	while (inb(0x64) & 0x02)
		;
	outb(0x64, 0xfe); /* pulse the CPU reset line */
	halt_forever();
}

void machine_halt_with_error(void)
{
	cli();
	outb(DEBUG_EXIT_PORT, 1); /* QEMU exits with status 3 */
	halt_forever();
}
