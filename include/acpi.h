/* acpi.h - what the ACPI tables tell (drivers/acpi/tables.c). */
#pragma once
#include <kernel.h>

struct acpi_table_header {
	char signature[4];
	uint32_t length;
	uint8_t revision;
	uint8_t checksum;
	char oem_id[6];
	char oem_table_id[8];
	uint32_t oem_revision;
	uint32_t creator_id;
	uint32_t creator_revision;
} __packed;

#define ACPI_MAX_CPUS 64

/* From the MADT: the CPUs' local APIC IDs (the boot CPU's among them),
 * the I/O APIC, and which input each ISA IRQ is wired to (+1; 0: to the
 * input of its own number). */
struct acpi_cpus {
	int nr;
	uint8_t apic_ids[ACPI_MAX_CPUS];
	uint64_t ioapic_phys;
	uint32_t isa_gsi[16];
};
extern struct acpi_cpus acpi_cpus;

bool acpi_parse_madt(void);
