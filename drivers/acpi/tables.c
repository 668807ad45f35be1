/*
 * tables.c - the ACPI tables, as far as finding the CPUs needs them.
 *
 * The firmware leaves a "Root System Description Pointer" (RSDP) in the
 * BIOS area: on a 16-byte boundary of the first KiB of the EBDA or of
 * 0xe0000..0xfffff, starting "RSD PTR ". It points at the RSDT (32-bit
 * table addresses) or, from ACPI 2.0 on, the XSDT (64-bit ones). Among the
 * tables listed there, the MADT (signature "APIC") lists the interrupt
 * controllers: one entry per local APIC, hence per CPU, and the I/O
 * APICs. Every structure carries a checksum: its bytes add up to 0; one
 * that does not is ignored, as Linux ignores it. QEMU builds these tables
 * for -smp N.
 */
#include <acpi.h>
#include <apic.h>
#include <kernel.h>
#include <mm.h>
#include <string.h>

struct rsdp {
	char signature[8];
	uint8_t checksum;
	char oem_id[6];
	uint8_t revision;
	uint32_t rsdt;
	uint32_t length; /* ACPI 2.0 and later: */
	uint64_t xsdt;
	uint8_t extended_checksum;
	uint8_t reserved[3];
} __packed;

struct madt {
	struct acpi_table_header header;
	uint32_t lapic_address;
	uint32_t flags;
	uint8_t entries[];
} __packed;

enum { MADT_LAPIC = 0, MADT_IOAPIC = 1, MADT_INT_OVERRIDE = 2, MADT_LAPIC_ADDRESS = 5 };
#define MADT_LAPIC_ENABLED 1

struct acpi_cpus acpi_cpus;

/* Table fields are packed: read them byte by byte, whatever the alignment. */
static uint64_t read_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static bool checksum_ok(const void *p, size_t len)
{
	uint8_t sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += ((const uint8_t *)p)[i];
	return sum == 0;
}

/* Firmware tables sit in RAM the direct map may not cover (ACPI's own
 * regions, at the top of memory): map those. */
static const void *table_at(uint64_t phys, size_t len)
{
	if (phys + len <= direct_map_end())
		return phys_to_virt(phys);
	return ioremap(phys, len);
}

static const struct rsdp *rsdp_scan(uint64_t start, uint64_t len)
{
	for (uint64_t p = start; p + sizeof(struct rsdp) <= start + len; p += 16) {
		const struct rsdp *r = phys_to_virt(p);
		if (!memcmp(r->signature, "RSD PTR ", 8) && checksum_ok(r, 20))
			return r;
	}
	return NULL;
}

static const struct rsdp *find_rsdp(void)
{
	uint64_t ebda = read_le(phys_to_virt(0x40e), 2) << 4;
	const struct rsdp *r = NULL;

	if (ebda >= 0x80000 && ebda < 0xa0000)
		r = rsdp_scan(ebda, 1024);
	return r ? r : rsdp_scan(0xe0000, 0x20000);
}

/* The table with this signature, checksum checked; NULL if none. */
static const struct acpi_table_header *find_table(const struct rsdp *rsdp, const char *sig)
{
	bool x = rsdp->revision >= 2 && rsdp->xsdt;
	const struct acpi_table_header *root = table_at(x ? rsdp->xsdt : rsdp->rsdt, sizeof(*root));

	if (!root || !(root = table_at(x ? rsdp->xsdt : rsdp->rsdt, root->length)) ||
	    !checksum_ok(root, root->length))
		return NULL;
	size_t n = (root->length - sizeof(*root)) / (x ? 8 : 4);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *entry = (const uint8_t *)(root + 1) + i * (x ? 8 : 4);
		uint64_t phys = read_le(entry, x ? 8 : 4);
		const struct acpi_table_header *t = table_at(phys, sizeof(*t));
		if (!t || memcmp(t->signature, sig, 4))
			continue;
		t = table_at(phys, t->length);
		if (t && checksum_ok(t, t->length))
			return t;
	}
	return NULL;
}

static void madt_entry(const uint8_t *e)
{
	switch (e[0]) {
	case MADT_LAPIC:
		if ((read_le(e + 4, 4) & MADT_LAPIC_ENABLED) && acpi_cpus.nr < ACPI_MAX_CPUS)
			acpi_cpus.apic_ids[acpi_cpus.nr++] = e[3];
		break;
	case MADT_IOAPIC:
		acpi_cpus.ioapic_phys = read_le(e + 4, 4);
		break;
	case MADT_INT_OVERRIDE:
		if (e[3] < 16) /* an ISA line wired to another input */
			acpi_cpus.isa_gsi[e[3]] = read_le(e + 4, 4) + 1;
		break;
	case MADT_LAPIC_ADDRESS:
		lapic_phys = read_le(e + 4, 8);
		break;
	}
}

/* Fill acpi_cpus from the MADT. false if there is none. */
bool acpi_parse_madt(void)
{
	const struct rsdp *rsdp = find_rsdp();
	const struct madt *madt = rsdp ? (const struct madt *)find_table(rsdp, "APIC") : NULL;

	if (!madt)
		return false;
	printk(KERN_INFO "ACPI: RSDP 0x%08lx, MADT 0x%08lx\n", (unsigned long)virt_to_phys(rsdp),
	       (unsigned long)virt_to_phys(madt));
	lapic_phys = madt->lapic_address;
	const uint8_t *e = madt->entries, *end = (const uint8_t *)madt + madt->header.length;
	for (; e + 2 <= end && e[1] >= 2 && e + e[1] <= end; e += e[1])
		madt_entry(e);
	return acpi_cpus.nr > 0;
}
