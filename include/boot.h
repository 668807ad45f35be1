/*
 * boot.h - what the boot loader told us, in a loader-neutral form.
 * kernel/multiboot.c fills it from a multiboot1 or multiboot2 info block;
 * nothing after that looks at the multiboot structures.
 */
#pragma once
#include <kernel.h>

#define BOOT_MAX_REGIONS 64
#define BOOT_MAX_MODULES 8
#define BOOT_CMDLINE_MAX 2048

struct mem_region {
	uint64_t base;
	uint64_t len;
};

struct boot_module {
	uint64_t start; /* physical, first byte */
	uint64_t end;   /* physical, one past the last byte */
};

struct boot_info {
	char cmdline[BOOT_CMDLINE_MAX];
	int nr_regions; /* usable RAM only */
	struct mem_region regions[BOOT_MAX_REGIONS];
	int nr_modules;
	struct boot_module modules[BOOT_MAX_MODULES];
	/* Physical ranges the frame allocator must not hand out. */
	uint64_t kernel_start, kernel_end;
	uint64_t info_start, info_end; /* the multiboot info block */
};

extern struct boot_info boot_info;

void multiboot_parse(uint32_t magic, uint64_t info_phys);
