/*
 * kthread.c - kthreadd, pid 2. Linux starts it right after init, and it
 * makes every other kernel thread (kthread_create asks it) and is their
 * parent; /proc shows it and them with PF_KTHREAD in the flags of
 * /proc/PID/stat, no memory, no files, and a command line that is empty
 * (ps shows "[kthreadd]"). This kernel does its deferred work without
 * threads of its own, so kthreadd has no request to serve yet: it sleeps.
 * It is there so that pid 2 and /proc look as they do on Linux, where
 * programs look for kernel threads (Linux's selftests walk /proc from
 * pid 2 up to find one).
 */
#include <kernel.h>
#include <sched.h>
#include <x86.h>

/* What kthreadd would be woken on: a kernel thread to make. */
static char kthread_create_requests;

static void kthreadd(void *unused)
{
	(void)unused;
	sti();
	for (;;)
		sleep_on(&kthread_create_requests);
}

void kthreadd_start(void)
{
	if (!kernel_thread(kthreadd, NULL, "kthreadd"))
		panic("out of memory creating kthreadd");
}
