/* host stand-in for include/x86.h */
#pragma once
#include <kernel.h>
static inline uint64_t irq_save(void) { return 0x200; }
static inline void irq_restore(uint64_t f) { (void)f; }
static inline void cli(void) {}
static inline void sti(void) {}
static inline uint64_t rdtsc(void) { return 12345; }
static inline void cpuid_count(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c,
			       uint32_t *d)
{
	(void)leaf, (void)sub;
	*a = *b = *c = *d = 0; /* no CPU features */
}
