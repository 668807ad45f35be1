/* x86.h for the host test: CR3 and invlpg are recorded, not executed. */
#pragma once
#include <kernel.h>

extern uint64_t fake_cr3;
extern int nr_invlpg, nr_cr3_writes;
static inline uint64_t read_cr3(void) { return fake_cr3; }
static inline void write_cr3(uint64_t v)
{
	fake_cr3 = v;
	nr_cr3_writes++;
}
static inline void invlpg(uint64_t va)
{
	(void)va;
	nr_invlpg++;
}
