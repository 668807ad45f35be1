/*
 * cpu_protect.c - the CPU's protection features, turned on at boot as Linux does
 * (arch/x86/kernel/cpu/common.c), and said in the boot log.
 *
 *   NX    pages marked no-execute cannot run (boot/boot.S sets EFER.NXE;
 *         mm/kernel_map.c gives the kernel's data and heap the bit).
 *   SMEP  Supervisor Mode Execution Prevention: the kernel cannot execute
 *         a user page. A kernel bug that jumps to an address chosen by
 *         user space faults instead of running the attacker's code.
 *   SMAP  Supervisor Mode Access Prevention: the kernel cannot read or
 *         write a user page either, except in a window it opens on
 *         purpose with stac and closes with clac: only the user-copy
 *         routines of mm/uaccess.S do. A kernel that follows a user
 *         pointer by mistake faults.
 *   UMIP  User Mode Instruction Prevention: sgdt, sidt, sldt, smsw and
 *         str fault in user mode, so that user space cannot learn where
 *         the kernel keeps its tables. (Linux then emulates sgdt, sidt and
 *         smsw with dummy values; here they are SIGSEGV.)
 * A feature the CPU lacks stays off; the boot log says so. stac and clac
 * themselves do not exist without SMAP: smap_init turns them into no-ops
 * (Linux's "alternatives"), before the kernel's text becomes read-only.
 */
#include <kernel.h>
#include <string.h>
#include <x86.h>

/* CPUID leaf 7, subleaf 0: EBX and ECX bits. */
#define CPUID7_EBX_SMEP (1u << 7)
#define CPUID7_EBX_SMAP (1u << 20)
#define CPUID7_ECX_UMIP (1u << 2)

static bool has_smep, has_smap, has_umip;

static void detect_features(void)
{
	uint32_t max, b, c, d;

	cpuid_count(0, 0, &max, &b, &c, &d);
	if (max < 7)
		return;
	cpuid_count(7, 0, &max, &b, &c, &d);
	has_smep = b & CPUID7_EBX_SMEP;
	has_smap = b & CPUID7_EBX_SMAP;
	has_umip = c & CPUID7_ECX_UMIP;
}

/* A 3-byte no-op (nopl (%rax)), the size of stac and clac. */
static const uint8_t nop3[3] = { 0x0f, 0x1f, 0x00 };

void smap_init(void)
{
	extern uint64_t __smap_sites[], __smap_sites_end[];

	detect_features();
	if (has_smap)
		return;
	for (uint64_t *site = __smap_sites; site < __smap_sites_end; site++)
		memcpy((void *)*site, nop3, sizeof(nop3));
}

void cpu_protections_init(void)
{
	uint64_t cr4 = read_cr4();

	if (has_smep) {
		cr4 |= CR4_SMEP;
		printk(KERN_INFO "x86/cpu: Activated Supervisor Mode Execution Prevention (SMEP)\n");
	} else {
		printk(KERN_INFO "x86/cpu: SMEP not supported by this CPU\n");
	}
	if (has_smap) {
		cr4 |= CR4_SMAP;
		printk(KERN_INFO "x86/cpu: Activated Supervisor Mode Access Prevention (SMAP)\n");
	} else {
		printk(KERN_INFO "x86/cpu: SMAP not supported by this CPU\n");
	}
	if (has_umip) {
		cr4 |= CR4_UMIP;
		printk(KERN_INFO "x86/cpu: Activated the Intel User Mode Instruction Prevention (UMIP) CPU feature\n");
	} else {
		printk(KERN_INFO "x86/cpu: UMIP not supported by this CPU\n");
	}
	write_cr4(cr4);

	/* One line that says it all (Linux has none such). */
	extern uint64_t pte_nx;
	printk(KERN_INFO "Protections on:%s W^X, guard pages below kernel stacks,%s%s%s "
	       "stack protector (strong, random canary)\n",
	       pte_nx ? " NX," : "", has_smep ? " SMEP," : "", has_smap ? " SMAP," : "",
	       has_umip ? " UMIP," : "");
}

bool cpu_smap_enabled(void) { return read_cr4() & CR4_SMAP; }
bool cpu_smep_enabled(void) { return read_cr4() & CR4_SMEP; }
