/*
 * segments - a thread's FS and GS selectors are its own, compared with
 * Linux: a selector a program loads (mov to %gs) stays across context
 * switches to other processes and threads, ARCH_SET_GS makes it 0, exec
 * starts at 0, and an LDT selector whose entry another thread cleared
 * comes back as the null selector (not a kernel fault). And MAP_32BIT,
 * which places a mapping in the first 2 GiB (a segment's base is 32 bits).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARCH_SET_GS 0x1001

/* modify_ldt's entry (Linux's asm/ldt.h). */
struct user_desc {
	unsigned int entry_number;
	unsigned int base_addr;
	unsigned int limit;
	unsigned int seg_32bit : 1;
	unsigned int contents : 2;
	unsigned int read_exec_only : 1;
	unsigned int limit_in_pages : 1;
	unsigned int seg_not_present : 1;
	unsigned int useable : 1;
	unsigned int lm : 1;
};
#define VALUE 0x1337f00d

static uint16_t gs_sel(void)
{
	uint16_t sel;
	__asm__ volatile("mov %%gs, %0" : "=r"(sel));
	return sel;
}

static void set_gs(uint16_t sel)
{
	__asm__ volatile("mov %0, %%gs" ::"r"(sel));
}

static uint16_t ss_sel(void)
{
	uint16_t sel;
	__asm__ volatile("mov %%ss, %0" : "=r"(sel));
	return sel;
}

static unsigned int gs_word0(void)
{
	unsigned int v;
	__asm__ volatile("mov %%gs:(0), %0" : "=r"(v));
	return v;
}

static int set_ldt0(uint32_t base, int present)
{
	struct user_desc d = {
		.entry_number = 0, .base_addr = base, .limit = 4095, .seg_32bit = 1,
		.seg_not_present = !present,
	};
	if (!present)
		memset(&d, 0, sizeof(d)); /* an empty entry: cleared */
	return syscall(SYS_modify_ldt, 1, &d, sizeof(d));
}

static void map_32bit(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	char *h = mmap((void *)0x300000000UL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	char *low = mmap((void *)0x50000000UL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	printf("MAP_32BIT: in [1 GiB, 2 GiB): %s\n",
	       (uintptr_t)p >= 0x40000000 && (uintptr_t)p + 8192 <= 0x80000000 ? "yes" : "no");
	printf("MAP_32BIT with a hint above 2 GiB: below 2 GiB: %s\n", (uintptr_t)h < 0x80000000 ? "yes" : "no");
	printf("MAP_32BIT with a free hint below: taken: %s\n", low == (void *)0x50000000UL ? "yes" : "no");
}

static volatile int turn;

static void *other_thread(void *arg)
{
	set_gs(ss_sel()); /* its own selector */
	while (turn != 1)
		sched_yield();
	if (arg)
		set_ldt0(0, 0); /* clear the entry the main thread's GS uses */
	turn = 2;
	return NULL;
}

/* Run another thread that loads its own GS (and clears LDT entry 0 if
 * clear), switching to it and back. */
static void switch_to_thread(int clear)
{
	pthread_t t;

	turn = 0;
	pthread_create(&t, NULL, other_thread, clear ? (void *)1 : NULL);
	turn = 1;
	while (turn != 2)
		sched_yield();
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("after exec: GS selector %#x\n", gs_sel());
		return 0;
	}
	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there */
	map_32bit();
	unsigned int *target = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	*target = VALUE;
	printf("modify_ldt: %d\n", set_ldt0((uint32_t)(uintptr_t)target, 1));
	set_gs(0x7);
	printf("GS = LDT entry 0: selector %#x, reads %s\n", gs_sel(), gs_word0() == VALUE ? "the value" : "something else");
	pid_t pid = fork();
	if (pid == 0) {
		set_gs(ss_sel());
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("after a child ran: selector %#x, reads %s\n", gs_sel(), gs_word0() == VALUE ? "the value" : "something else");
	switch_to_thread(0);
	printf("after a thread ran: selector %#x, reads %s\n", gs_sel(), gs_word0() == VALUE ? "the value" : "something else");
	switch_to_thread(1);
	printf("after a thread cleared the entry: selector %#x\n", gs_sel());
	set_gs(ss_sel());
	syscall(SYS_arch_prctl, ARCH_SET_GS, 0);
	printf("ARCH_SET_GS: selector %#x\n", gs_sel());
	set_gs(ss_sel());
	fflush(stdout);
	execl("/proc/self/exe", argv[0], "again", (char *)NULL);
	return 1;
}
