/* x86.h - small wrappers for x86-64 instructions and registers. */
#pragma once

/* Segment selectors: the layout syscall/sysret need, and Linux's values. */
#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER32_CS 0x23
#define USER_DS 0x2b
#define USER_CS 0x33
#define TSS_SEL 0x38

/* Control register and EFER bits the kernel sets (arch/x86/kernel/cpu_protect.c). */
#define CR4_UMIP (1UL << 11)
#define CR4_SMEP (1UL << 20)
#define CR4_SMAP (1UL << 21)
#define EFER_NX (1UL << 11)
/* RFLAGS bits. */
#define RFLAGS_CF (1UL << 0)
#define RFLAGS_PF (1UL << 2)
#define RFLAGS_AF (1UL << 4)
#define RFLAGS_ZF (1UL << 6)
#define RFLAGS_SF (1UL << 7)
#define RFLAGS_TF (1UL << 8)
#define RFLAGS_IF (1UL << 9)
#define RFLAGS_DF (1UL << 10)
#define RFLAGS_OF (1UL << 11)
#define RFLAGS_IOPL (3UL << 12)
#define RFLAGS_NT (1UL << 14)
#define RFLAGS_RF (1UL << 16)
#define RFLAGS_AC (1UL << 18)
#define RFLAGS_ID (1UL << 21)

#ifdef __ASSEMBLY__
/*
 * stac and clac open and close a window in which the kernel may touch user
 * pages (SMAP): only the user-copy routines of mm/uaccess.S open it. Each
 * use is recorded in .smap_sites, so that on a CPU without SMAP, where the
 * two instructions do not exist, arch/x86/kernel/cpu_protect.c turns them into no-ops.
 */
.macro ASM_STAC
661:	stac
	.pushsection .smap_sites, "a"
	.quad 661b
	.popsection
.endm
.macro ASM_CLAC
661:	clac
	.pushsection .smap_sites, "a"
	.quad 661b
	.popsection
.endm
#else
#include <kernel.h>

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" ::"a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}
static inline uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}
static inline void write_cr3(uint64_t v) { __asm__ volatile("mov %0, %%cr3" ::"r"(v) : "memory"); }
static inline uint64_t read_cr4(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}
static inline void write_cr4(uint64_t v) { __asm__ volatile("mov %0, %%cr4" ::"r"(v) : "memory"); }
static inline void cpuid_count(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}
static inline void invlpg(uint64_t va) { __asm__ volatile("invlpg (%0)" ::"r"(va) : "memory"); }

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}
static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" ::"c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}
static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

#define MSR_EFER 0xc0000080
#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_CSTAR 0xc0000083
#define MSR_FMASK 0xc0000084
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102

/* A full barrier: no load below it is done before a store above it is
 * seen by every CPU (the one reordering x86 allows). */
static inline void smp_mb(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

static inline void cli(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void sti(void) { __asm__ volatile("sti" ::: "memory"); }
static inline void hlt(void) { __asm__ volatile("hlt" ::: "memory"); }
static inline uint64_t irq_save(void)
{
	uint64_t flags;
	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags)::"memory");
	return flags;
}
static inline void irq_restore(uint64_t flags)
{
	if (flags & 0x200)
		sti();
}

#endif /* __ASSEMBLY__ */
