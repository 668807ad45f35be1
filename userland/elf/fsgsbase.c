/*
 * fsgsbase.c - AT_HWCAP2 says HWCAP2_FSGSBASE, and then the instructions
 * work from user mode, as Linux (5.9 and later) lets them: rdfsbase reads
 * the thread pointer the C library set, wrgsbase sets GS's base and
 * arch_prctl(ARCH_GET_GS) sees it, and the value survives a context switch
 * (the child of a fork runs meanwhile) and a fork.
 */
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define HWCAP2_FSGSBASE (1 << 1)

static uint64_t rdfsbase(void)
{
	uint64_t v;
	__asm__ volatile("rdfsbase %0" : "=r"(v));
	return v;
}

static uint64_t rdgsbase(void)
{
	uint64_t v;
	__asm__ volatile("rdgsbase %0" : "=r"(v));
	return v;
}

static void wrgsbase(uint64_t v)
{
	__asm__ volatile("wrgsbase %0" ::"r"(v));
}

int main(void)
{
	uint64_t fs, gs = 0;
	unsigned long hwcap2 = getauxval(AT_HWCAP2);
	int status;

	printf("AT_HWCAP2 has HWCAP2_FSGSBASE: %s\n", hwcap2 & HWCAP2_FSGSBASE ? "yes" : "no");
	if (!(hwcap2 & HWCAP2_FSGSBASE))
		return 0;
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	printf("rdfsbase == ARCH_GET_FS: %s\n", rdfsbase() == fs ? "yes" : "no");
	printf("gs base at start: %#lx\n", (unsigned long)rdgsbase());
	wrgsbase(0x12345000);
	syscall(SYS_arch_prctl, ARCH_GET_GS, &gs);
	printf("after wrgsbase: rdgsbase %#lx, ARCH_GET_GS %#lx\n", (unsigned long)rdgsbase(),
	       (unsigned long)gs);
	if (fork() == 0) {
		printf("child: gs base %#lx\n", (unsigned long)rdgsbase());
		wrgsbase(0x6789a000);
		printf("child: set %#lx\n", (unsigned long)rdgsbase());
		_exit(0);
	}
	wait(&status);
	printf("parent after the child ran: %#lx\n", (unsigned long)rdgsbase());
	return 0;
}
