/*
 * stackprotector.c - the canary that -fstack-protector-strong checks.
 *
 * The compiler gives every function that keeps an array or takes the
 * address of a local a canary: on entry it copies __stack_chk_guard just
 * below the return address, on exit it compares, and on a difference it
 * calls __stack_chk_fail instead of returning. A buffer overflow on the
 * stack that reaches the return address must overwrite the canary first,
 * so it is caught before the corrupted return address is used.
 *
 * The canary is random, chosen by boot/boot.S's call to
 * boot_init_stack_canary before the first function that checks it runs
 * (from RDRAND when the CPU has it, mixed with the time stamp counter),
 * and its low byte is zero, so that a string copy stops at it. One canary
 * for the whole kernel (-mstack-protector-guard=global), where Linux keeps
 * one per CPU and changes it at every fork.
 */
#include <kernel.h>
#include <ksyms.h>
#include <x86.h>

uint64_t __stack_chk_guard;

#define CPUID1_ECX_RDRAND (1u << 30)

/* Not itself protected: it changes the canary under its own feet. */
__attribute__((no_stack_protector)) void boot_init_stack_canary(void)
{
	uint32_t a, b, c, d;
	uint64_t canary = rdtsc(), r = 0;

	cpuid_count(1, 0, &a, &b, &c, &d);
	if (c & CPUID1_ECX_RDRAND) {
		for (int tries = 0; tries < 10; tries++) {
			uint8_t ok;
			__asm__ volatile("rdrand %0; setc %1" : "=r"(r), "=qm"(ok));
			if (ok)
				break;
		}
	}
	canary ^= r ^ (rdtsc() << 32);
	__stack_chk_guard = canary & ~0xffUL;
}

void __noreturn __stack_chk_fail(void)
{
	uint64_t ret = (uint64_t)__builtin_return_address(0), off = 0;
	const char *name = ksym_lookup(ret, &off);

	panic("stack-protector: Kernel stack is corrupted in: %s+0x%lx", name ? name : "?",
	      (unsigned long)off);
}
