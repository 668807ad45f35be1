/*
 * multiboot.c - read the boot loader's information block into boot_info.
 *
 * GRUB boots us with multiboot2 (magic 0x36d76289, a list of tags); QEMU's
 * -kernel with multiboot1 (magic 0x2badb002, a fixed structure). Both give
 * the command line, a memory map and the modules (our initramfs). At this
 * point only the first 4 GiB are mapped, at PHYS_MAP_BASE; that is where
 * loaders put these structures.
 */
#include <boot.h>
#include <kernel.h>
#include <mm.h>
#include <string.h>

#define MB1_BOOT_MAGIC 0x2badb002
#define MB2_BOOT_MAGIC 0x36d76289

struct boot_info boot_info;

extern char _kernel_start_phys[], _kernel_end_phys[];

static void add_region(uint64_t base, uint64_t len, uint32_t type)
{
	if (type != 1 || len == 0 || boot_info.nr_regions == BOOT_MAX_REGIONS)
		return; /* type 1 is usable RAM */
	boot_info.regions[boot_info.nr_regions].base = base;
	boot_info.regions[boot_info.nr_regions].len = len;
	boot_info.nr_regions++;
}

static void add_module(uint64_t start, uint64_t end)
{
	if (boot_info.nr_modules == BOOT_MAX_MODULES)
		return;
	boot_info.modules[boot_info.nr_modules].start = start;
	boot_info.modules[boot_info.nr_modules].end = end;
	boot_info.nr_modules++;
}

static void set_cmdline(uint64_t phys)
{
	if (phys)
		strlcpy(boot_info.cmdline, phys_to_virt(phys), sizeof(boot_info.cmdline));
}

struct mb1_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
} __packed;

struct mb1_module {
	uint32_t start, end, string, reserved;
};

struct mb1_mmap_entry {
	uint32_t size; /* of the rest of the entry */
	uint64_t addr, len;
	uint32_t type;
} __packed;

static void parse_mb1(uint64_t info_phys)
{
	const struct mb1_info *mbi = phys_to_virt(info_phys);

	boot_info.info_start = info_phys;
	boot_info.info_end = info_phys + sizeof(*mbi);
	if (mbi->flags & (1 << 2)) {
		/* QEMU's loader puts the kernel's file name first: drop it. */
		set_cmdline(mbi->cmdline);
		char *args = strchr(boot_info.cmdline, ' ');
		memmove(boot_info.cmdline, args ? args + 1 : "", args ? strlen(args + 1) + 1 : 1);
	}
	if (mbi->flags & (1 << 3)) {
		const struct mb1_module *mod = phys_to_virt(mbi->mods_addr);
		for (uint32_t i = 0; i < mbi->mods_count; i++)
			add_module(mod[i].start, mod[i].end);
	}
	if (mbi->flags & (1 << 6)) {
		uint64_t p = mbi->mmap_addr, end = p + mbi->mmap_length;
		while (p < end) {
			const struct mb1_mmap_entry *e = phys_to_virt(p);
			add_region(e->addr, e->len, e->type);
			p += e->size + sizeof(e->size);
		}
	} else if (mbi->flags & (1 << 0)) {
		add_region(0x100000, (uint64_t)mbi->mem_upper * 1024, 1);
	}
}

struct mb2_tag {
	uint32_t type, size;
};

static void parse_mb2(uint64_t info_phys)
{
	const uint32_t *hdr = phys_to_virt(info_phys);
	uint64_t p = info_phys + 8, end = info_phys + hdr[0];

	boot_info.info_start = info_phys;
	boot_info.info_end = end;
	while (p < end) {
		const struct mb2_tag *tag = phys_to_virt(p);
		const uint32_t *w = (const uint32_t *)(tag + 1);
		if (tag->type == 0)
			break;
		switch (tag->type) {
		case 1: /* command line */
			strlcpy(boot_info.cmdline, (const char *)w, sizeof(boot_info.cmdline));
			break;
		case 3: /* module: start, end, string */
			add_module(w[0], w[1]);
			break;
		case 6: { /* memory map: entry_size, entry_version, entries */
			uint32_t esize = w[0];
			uint64_t e = p + 16;
			for (; e + esize <= p + tag->size; e += esize) {
				const uint64_t *ent = phys_to_virt(e);
				add_region(ent[0], ent[1], (uint32_t)ent[2]);
			}
			break;
		}
		}
		p += ALIGN_UP((uint64_t)tag->size, 8);
	}
}

void multiboot_parse(uint32_t magic, uint64_t info_phys)
{
	boot_info.kernel_start = (uint64_t)_kernel_start_phys;
	boot_info.kernel_end = (uint64_t)_kernel_end_phys;
	if (magic == MB1_BOOT_MAGIC)
		parse_mb1(info_phys);
	else if (magic == MB2_BOOT_MAGIC)
		parse_mb2(info_phys);
	else
		panic("not started by a multiboot loader (magic 0x%x)", magic);
}
