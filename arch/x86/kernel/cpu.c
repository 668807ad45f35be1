/*
 * cpu.c - what the CPU offers user programs, in the terms of Linux's
 * auxiliary vector (include/cpu.h).
 */
#include <cpu.h>
#include <sched.h>
#include <x86.h>

#define HWCAP2_FSGSBASE (1UL << 1)
#define CR4_FSGSBASE (1UL << 16)

static uint64_t hwcap2;

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

/*
 * Let user programs read and write their FS and GS bases themselves
 * (rdfsbase, wrfsbase, rdgsbase, wrgsbase) when the CPU can, as Linux 5.9
 * and later do, and say so in AT_HWCAP2. The kernel never uses GS itself,
 * so a user's GS base is safe; the bases a task set itself are read back
 * from the CPU when it is switched out or forks (save_fsgs,
 * arch/x86/kernel/process_64.c).
 */
void cpu_init(void)
{
	uint32_t r[4];

	cpuid(0, 0, r);
	if (r[0] < 7)
		return;
	cpuid(7, 0, r);
	if (r[1] & 1) { /* CPUID.7.0:EBX.FSGSBASE */
		uint64_t cr4;

		__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
		__asm__ volatile("mov %0, %%cr4" ::"r"(cr4 | CR4_FSGSBASE));
		hwcap2 |= HWCAP2_FSGSBASE;
	}
}

uint64_t elf_hwcap2(void)
{
	return hwcap2; /* FSGSBASE, if enabled; never ring-3 MWAIT */
}


/*
 * The room a 64-bit signal frame keeps for the registers beyond the
 * general ones, as Linux's: what XSAVE writes for every user feature this
 * CPU has (CPUID 0xd: ecx) and the 4 bytes of the end marker
 * (FP_XSTATE_MAGIC2); without XSAVE, fxsave's 512 bytes.
 */
uint64_t fpu_sigframe_size(void)
{
	uint32_t r[4];

	cpuid(0, 0, r);
	if (r[0] >= 0xd) {
		cpuid(1, 0, r);
		if (r[2] & (1U << 26)) { /* XSAVE */
			cpuid(0xd, 0, r);
			return r[2] + 4;
		}
	}
	return 512;
}

/*
 * Linux computes, once at boot (init_sigframe_size), the most a signal
 * frame can take, for AT_MINSIGSTKSZ: the largest of its frame structures
 * (a 32-bit program's sigframe_ia32, 732 bytes, since Debian's kernel runs
 * 32-bit programs too) with 15 bytes to align it, then the register state
 * (fpu_sigframe_size), the 112 of a 32-bit fsave header, and 63 bytes to
 * align it to 64; rounded up to 16.
 */
uint64_t sigframe_size(void)
{
	return ALIGN_UP(732 + 15 + fpu_sigframe_size() + 112 + 63, 16);
}
