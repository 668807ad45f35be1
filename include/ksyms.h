/* ksyms.h - kernel symbol lookup for backtraces (kernel/ksyms.c). */
#pragma once
#include <kernel.h>

/* Name of the function holding addr and addr's offset into it, or NULL. */
const char *ksym_lookup(uint64_t addr, uint64_t *offset);
