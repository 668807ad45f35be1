/* x86.h for the host fuzzers: the kernel's parsers run as a user program,
 * so the few CPU instructions they could reach are stand-ins. */
#pragma once
#include <kernel.h>

static inline uint64_t irq_save(void) { return 0x200; }
static inline void irq_restore(uint64_t flags) { (void)flags; }
static inline void cli(void) {}
static inline void sti(void) {}
static inline uint64_t rdtsc(void) { return 12345; }
static inline void wrmsr(uint32_t msr, uint64_t v) { (void)msr, (void)v; }
static inline uint64_t rdmsr(uint32_t msr) { (void)msr; return 0; }
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
