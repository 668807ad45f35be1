/*
 * smpboot.c - starting the other CPUs ("application processors").
 *
 * The boot CPU finds them in the ACPI MADT (drivers/acpi/tables.c), one
 * local APIC ID each, and starts them one at a time: it copies the
 * real-mode trampoline (trampoline_64.S) below 1 MiB, fills in the page
 * table, stack and CPU number the new CPU is to use, and sends it INIT and
 * two start-up IPIs. The new CPU comes up in real mode in the trampoline,
 * climbs to long mode and enters start_secondary, which sets up its own
 * GS base, GDT, TSS, IDT, system-call MSRs and local APIC, makes its idle
 * task and says it is online; then the boot CPU starts the next one.
 *
 * nosmp (or maxcpus=0 or 1) keeps the boot CPU alone; maxcpus=N brings up
 * at most N CPUs in all, as on Linux.
 */
#include <acpi.h>
#include <apic.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <smp.h>
#include <smp_lock.h>
#include <string.h>
#include <trap.h>
#include <vm.h>
#include <x86.h>

#include "fpu_internal.h"

#define TRAMPOLINE_PHYS 0x70000
#define MSR_TSC_AUX 0xc0000103

extern char trampoline_start[], trampoline_end[];
extern uint32_t tr_cr3, tr_efer, tr_cr4, tr_cpu;
extern uint64_t tr_stack, tr_entry;

int setup_max_cpus = NR_CPUS;
static uint64_t boot_cr0, boot_xcr0;

void trap_init_cpu(void); /* arch/x86/kernel/traps.c */

/* What getcpu's vDSO half reads with rdtscp/rdpid: the CPU's number (and,
 * from bit 12, its node: 0), as Linux sets it. */
static void set_tsc_aux(int cpu)
{
	wrmsr(MSR_TSC_AUX, (uint64_t)cpu);
}

/* The CPU's own registers, as the boot CPU set its own. */
static void cpu_init_secondary(int cpu)
{
	__asm__ volatile("mov %0, %%cr0" ::"r"(boot_cr0));
	if (boot_xcr0)
		__asm__ volatile("xsetbv" ::"c"(0), "a"((uint32_t)boot_xcr0), "d"((uint32_t)(boot_xcr0 >> 32)));
	__asm__ volatile("fninit");
	trap_init_cpu();
	syscall_init();
	set_tsc_aux(cpu);
}

/* The trampoline's entry into the kernel, on the new CPU. */
static void __noreturn start_secondary(int cpu)
{
	setup_percpu(cpu);
	mm_activate(NULL); /* leave the trampoline's table for the kernel's */
	cpu_init_secondary(cpu);
	lapic_init();
	sched_init_cpu(cpu);
	lapic_timer_start();
	cpus[cpu].online = true; /* the boot CPU waits for this */
	lock_kernel();
	cpu_idle();
}

/* A page table for the trampoline: the kernel's half, and the first 2 MiB
 * where they are (the trampoline runs there until it jumps up). */
static uint64_t *trampoline_pml4(void)
{
	uint64_t *pml4 = alloc_page(), *pdpt = alloc_page(), *pd = alloc_page();

	if (!pml4 || !pdpt || !pd)
		panic("smpboot: no memory for the trampoline's page table");
	memcpy(pml4 + 256, boot_pml4 + 256, 256 * 8);
	pd[0] = 0 | PTE_P | PTE_W | PTE_PS;
	pdpt[0] = virt_to_phys(pd) | PTE_P | PTE_W;
	pml4[0] = virt_to_phys(pdpt) | PTE_P | PTE_W;
	return pml4;
}

static void free_trampoline_pml4(uint64_t *pml4)
{
	uint64_t *pdpt = phys_to_virt(pml4[0] & PTE_ADDR);

	free_page(phys_to_virt(pdpt[0] & PTE_ADDR));
	free_page(pdpt);
	free_page(pml4);
}

/* Start CPU n (APIC ID apic_id); true once it is online. */
static bool boot_cpu(int n, uint32_t apic_id)
{
	uint8_t *stack = kstack_alloc();

	if (!stack)
		return false;
	cpus[n].apic_id = apic_id;
	tr_cpu = n;
	tr_stack = (uint64_t)stack + KSTACK_SIZE;
	tr_entry = (uint64_t)start_secondary;
	memcpy(phys_to_virt(TRAMPOLINE_PHYS), trampoline_start, trampoline_end - trampoline_start);
	lapic_send_init_sipi(apic_id, TRAMPOLINE_PHYS);
	for (long spins = 0; spins < 200000000L; spins++) {
		if (__atomic_load_n(&cpus[n].online, __ATOMIC_ACQUIRE)) {
			cpus[n].idle->kstack = stack;
			return true;
		}
		__asm__ volatile("pause");
	}
	printk(KERN_ERR "smpboot: CPU%d (APIC 0x%x) did not come up\n", n, apic_id);
	return false; /* its stack stays: it might still run on it */
}

void smp_init(void)
{
	uint32_t me;

	if (!acpi_parse_madt())
		acpi_cpus.nr = 0;
	lapic_init();
	me = cpus[0].apic_id = lapic_id();
	io_apic_setup();
	cpus[0].online = true;
	cpus[0].active_pml4 = read_cr3() & PTE_ADDR;
	set_tsc_aux(0);
	lapic_timer_calibrate();
	printk(KERN_INFO "smp: Bringing up secondary CPUs ...\n");

	__asm__ volatile("mov %%cr0, %0" : "=r"(boot_cr0));
	boot_xcr0 = fpu_xfeatures;
	uint64_t *pml4 = trampoline_pml4();
	tr_cr3 = virt_to_phys(pml4);
	tr_cr4 = read_cr4();
	tr_efer = rdmsr(MSR_EFER);
	for (int i = 0; i < acpi_cpus.nr && nr_cpu_ids < NR_CPUS && nr_cpu_ids < setup_max_cpus; i++) {
		if (acpi_cpus.apic_ids[i] == me)
			continue;
		if (boot_cpu(nr_cpu_ids, acpi_cpus.apic_ids[i]))
			nr_cpu_ids++;
	}
	free_trampoline_pml4(pml4);
	printk(KERN_INFO "smp: Brought up 1 node, %d CPU%s\n", nr_cpu_ids, nr_cpu_ids > 1 ? "s" : "");
}
