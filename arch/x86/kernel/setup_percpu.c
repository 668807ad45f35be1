/*
 * setup_percpu.c - each CPU's struct percpu, and pointing GS at it
 * (include/percpu.h says why).
 */
#include <percpu.h>
#include <x86.h>

struct percpu cpus[NR_CPUS];
int nr_cpu_ids = 1; /* the boot CPU; smpboot.c counts the others */

/*
 * Make cpus[n] the calling CPU's: the first thing each CPU does in C,
 * before anything reads current. The user's GS base (MSR_KERNEL_GS_BASE
 * until the first swapgs to user mode) starts at 0.
 */
void setup_percpu(int n)
{
	struct percpu *p = &cpus[n];

	p->self = p;
	p->cpu = n;
	wrmsr(MSR_GS_BASE, (uint64_t)p);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}
