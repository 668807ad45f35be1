/* host stand-in for include/x86.h */
#pragma once
#include <kernel.h>
static inline uint64_t irq_save(void) { return 0x200; }
static inline void irq_restore(uint64_t f) { (void)f; }
static inline void cli(void) {}
static inline void sti(void) {}
static inline uint64_t rdtsc(void) { return 12345; }
