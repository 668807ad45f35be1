/*
 * cpu.h - what the CPU, as this kernel set it up, offers user programs
 * (arch/x86/kernel/cpu.c): the values exec puts in the auxiliary vector.
 */
#pragma once
#include <kernel.h>

struct task;

/* At boot: turn on what user programs may use (FSGSBASE). */
void cpu_init(void);
/* Read back the FS and GS bases t's program may have set itself
 * (wrfsbase) into t->fs_base and t->gs_base; t must be current. */
void save_fsgs(struct task *t);
/* AT_HWCAP2: HWCAP2_RING3MWAIT (bit 0), HWCAP2_FSGSBASE (bit 1). */
uint64_t elf_hwcap2(void);
/* AT_MINSIGSTKSZ: Linux's largest signal frame for this CPU's register
 * state (its get_sigframe_size). */
uint64_t sigframe_size(void);
/* The room a 64-bit signal frame keeps for the x87/SSE/AVX registers. */
uint64_t fpu_sigframe_size(void);
