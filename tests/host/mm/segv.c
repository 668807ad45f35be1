/*
 * segv.c - the host test's stand-in for the page-fault handler's last step:
 * a SIGSEGV inside mm/uaccess.S resumes at uaccess_fixup(rip), as
 * arch/x86/kernel/traps.c does for a kernel-mode fault it cannot satisfy.
 *
 * This file is compiled with the host's headers only: the kernel's
 * include/signal.h (which test.c gets through sched.h) has the same name as
 * the host's <signal.h>, so the two cannot meet in one file.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <ucontext.h>
#include <unistd.h>

uint64_t uaccess_fixup(uint64_t rip);

static void on_segv(int sig, siginfo_t *si, void *ucontext)
{
	ucontext_t *uc = ucontext;
	uint64_t fixup = uaccess_fixup(uc->uc_mcontext.gregs[REG_RIP]);
	(void)sig;
	if (!fixup) {
		printf("FAIL: real segfault at %p\n", si->si_addr);
		_exit(1);
	}
	uc->uc_mcontext.gregs[REG_RIP] = fixup;
}

void install_segv_handler(void)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	sigaction(SIGSEGV, &sa, NULL);
}
