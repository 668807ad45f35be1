/* x86.h for the host test: CR3 and invlpg are recorded, not executed. */
#pragma once
#ifdef __ASSEMBLER__
/* A host program runs in user mode: no SMAP window to open. */
.macro ASM_STAC
.endm
.macro ASM_CLAC
.endm
#else
#include <kernel.h>

extern uint64_t fake_cr3;
extern int nr_invlpg, nr_cr3_writes;
static inline uint64_t read_cr3(void) { return fake_cr3; }
static inline void write_cr3(uint64_t v)
{
	fake_cr3 = v;
	nr_cr3_writes++;
}
/* One thread, no interrupts: the interrupt flag is not there to change. */
static inline uint64_t irq_save(void) { return 0; }
static inline void irq_restore(uint64_t flags) { (void)flags; }
static inline void cli(void) {}
static inline void sti(void) {}
static inline void invlpg(uint64_t va)
{
	(void)va;
	nr_invlpg++;
}
#endif
