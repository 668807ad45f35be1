/*
 * cpu.h - what the CPU, as this kernel set it up, offers user programs
 * (arch/x86/kernel/cpu.c): the values exec puts in the auxiliary vector.
 */
#pragma once
#include <kernel.h>

struct task;

/* At boot: turn on what user programs may use (FSGSBASE). */
void cpu_init(void);
/* Read back the FS and GS selectors and bases t's program may have set
 * itself (mov to %gs, wrfsbase) into t; t must be current. */
void save_fsgs(struct task *t);
/* Make the CPU's FS and GS t's (switching to t): selectors, then bases. */
void load_fsgs(struct task *t);
/* Load sel into %fs or %gs; a selector the CPU refuses (an LDT entry gone
 * since it was saved) loads the null selector instead, as Linux's
 * loadsegment. */
void load_fs_index(uint16_t sel);
void load_gs_index(uint16_t sel);
/* The trap handler: where to go on when a fault in the kernel at rip was
 * one of those loads; 0 if it was not. */
uint64_t segment_load_fixup(uint64_t rip);
/* AT_HWCAP2: HWCAP2_RING3MWAIT (bit 0), HWCAP2_FSGSBASE (bit 1). */
uint64_t elf_hwcap2(void);
/* AT_MINSIGSTKSZ: Linux's largest signal frame for this CPU's register
 * state (its get_sigframe_size). */
uint64_t sigframe_size(void);
/* The room a 64-bit signal frame keeps for the x87/SSE/AVX registers. */
uint64_t fpu_sigframe_size(void);
