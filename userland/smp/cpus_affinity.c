/*
 * cpus_affinity - sched_setaffinity and getcpu on every CPU: pinned to
 * each CPU in turn, getcpu(2), the C library's sched_getcpu (musl: the
 * vDSO's getcpu; glibc: rseq's cpu_id, else the vDSO) and the CPU's own
 * RDPID and RDTSCP (the TSC_AUX the kernel writes on each CPU; those the
 * CPU has: QEMU's -cpu max has RDTSCP, not RDPID) must all name it, and
 * so must the vDSO's __vdso_getcpu called directly. Then the masks Linux
 * refuses (no online CPU in them: EINVAL), the mask sizes, and the affinity a child gets at fork, keeps at execve,
 * and a thread gets at pthread_create. Also built with glibc.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cpus.h"
#include "exectest.h"

static int has_rdpid, has_rdtscp;
static long (*vdso_getcpu)(unsigned *cpu, unsigned *node, void *unused);

/* The address of the vDSO's function name, or NULL: its dynamic symbol
 * table, whose size DT_HASH's chain count gives. */
static void *vdso_sym(const char *name)
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = NULL;
	const Elf64_Sym *syms = NULL;
	const char *strs = NULL;
	uintptr_t bias = 0;
	unsigned nsyms = 0;

	if (!eh)
		return NULL;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (int i = eh->e_phnum - 1; i >= 0; i--) {
		if (ph[i].p_type == PT_LOAD)
			bias = (uintptr_t)eh + ph[i].p_offset - ph[i].p_vaddr;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)((const char *)eh + ph[i].p_offset);
	}
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_SYMTAB)
			syms = (const void *)(bias + dyn->d_un.d_ptr);
		if (dyn->d_tag == DT_STRTAB)
			strs = (const void *)(bias + dyn->d_un.d_ptr);
		if (dyn->d_tag == DT_HASH)
			nsyms = ((const Elf32_Word *)(bias + dyn->d_un.d_ptr))[1];
	}
	for (unsigned i = 1; syms && strs && i < nsyms; i++)
		if (syms[i].st_shndx != SHN_UNDEF && !strcmp(strs + syms[i].st_name, name))
			return (void *)(bias + syms[i].st_value);
	return NULL;
}

static void cpu_features(void)
{
	unsigned a, b, c, d;

	if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
		has_rdpid = c >> 22 & 1;
	if (__get_cpuid(0x80000001, &a, &b, &c, &d))
		has_rdtscp = d >> 27 & 1;
}

/* The CPU number in TSC_AUX (Linux: node << 12 | cpu). */
static int rdpid_cpu(void)
{
	unsigned long aux;

	__asm__ volatile("rdpid %0" : "=r"(aux));
	return aux & 0xfff;
}

static int rdtscp_cpu(void)
{
	unsigned lo, hi, aux;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	return aux & 0xfff;
}

/* Pinned to cpu: do the four agree, 100 times over (with yields between)? */
static void check_cpu(int cpu)
{
	unsigned got, node = 99;
	int wrong = 0;

	if (pin_to(cpu) < 0) {
		printf("CPU %d: sched_setaffinity: %s\n", cpu, ename(errno));
		return;
	}
	for (int i = 0; i < 100; i++) {
		wrong += syscall(SYS_getcpu, &got, &node, NULL) != 0 || got != (unsigned)cpu || node != 0;
		wrong += sched_getcpu() != cpu;
		got = 99;
		wrong += vdso_getcpu && (vdso_getcpu(&got, NULL, NULL) != 0 || got != (unsigned)cpu);
		wrong += has_rdpid && rdpid_cpu() != cpu;
		wrong += has_rdtscp && rdtscp_cpu() != cpu;
		sched_yield();
	}
	printf("CPU %d: affinity %s; getcpu(2), sched_getcpu()%s%s%s: %d wrong in 100 rounds\n", cpu,
	       my_cpus(), vdso_getcpu ? ", __vdso_getcpu" : "", has_rdpid ? ", RDPID" : "",
	       has_rdtscp ? ", RDTSCP" : "", wrong);
}

static void try_set(const char *what, pid_t pid, size_t len, const void *mask)
{
	long r = syscall(SYS_sched_setaffinity, pid, len, mask);

	printf("sched_setaffinity(%s): %s, affinity now %s\n", what, res(r), my_cpus());
}

static void back_to_all(int ncpus)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int cpu = 0; cpu < ncpus; cpu++)
		CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	printf("back on every CPU: %s\n", my_cpus());
}

/* The masks and sizes the system calls take and refuse. */
static void bad_masks(int ncpus)
{
	unsigned long words[16] = { 0 };
	cpu_set_t set;

	printf("sched_getaffinity(len 128): %s\n", res(syscall(SYS_sched_getaffinity, 0, 128, words)));
	printf("sched_getaffinity(len 8): %s\n", res(syscall(SYS_sched_getaffinity, 0, 8, words)));
	printf("sched_getaffinity(len 4): %s\n", res(syscall(SYS_sched_getaffinity, 0, 4, words)));
	printf("sched_getaffinity(len 0): %s\n", res(syscall(SYS_sched_getaffinity, 0, 0, words)));
	printf("sched_getaffinity(pid 999999): %s\n",
	       res(syscall(SYS_sched_getaffinity, 999999, 128, words)));
	printf("sched_getaffinity(bad address): %s\n",
	       res(syscall(SYS_sched_getaffinity, 0, 128, (void *)8)));

	CPU_ZERO(&set);
	try_set("empty mask", 0, sizeof(set), &set);
	CPU_SET(ncpus, &set);
	try_set("the first CPU past the online ones", 0, sizeof(set), &set);
	CPU_ZERO(&set);
	CPU_SET(1000, &set);
	try_set("CPU 1000", 0, sizeof(set), &set);
	CPU_SET(ncpus - 1, &set);
	try_set("the last online CPU and CPU 1000", 0, sizeof(set), &set);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	try_set("CPU 0, len 4", 0, 4, &set);
	try_set("CPU 0, len 0", 0, 0, &set);
	try_set("pid 999999", 999999, sizeof(set), &set);
	try_set("bad address", 0, sizeof(set), (void *)8);
}

static void *thread_mask(void *arg)
{
	printf("  a thread it creates: %s\n", my_cpus());
	if (arg) {
		pin_to(0);
		printf("  that thread pins itself to CPU 0: %s\n", my_cpus());
	}
	return NULL;
}

static void show_in_thread(int pin)
{
	pthread_t t;

	fflush(stdout);
	pthread_create(&t, NULL, thread_mask, pin ? (void *)1 : NULL);
	pthread_join(t, NULL);
}

/* A child pinned at fork keeps its mask across execve; its parent can
 * change it by pid. */
static void inheritance(const char *self, int last)
{
	int go[2], ready[2], status;
	char buf[1];
	cpu_set_t set;
	pid_t pid;

	pin_to(last);
	printf("parent pinned to CPU %d: %s\n", last, my_cpus());
	show_in_thread(1);
	printf("  the parent after that: %s\n", my_cpus());
	fflush(stdout);
	if (pipe(go) < 0 || pipe(ready) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		printf("  child after fork: %s, on CPU %d\n", my_cpus(), sched_getcpu());
		fflush(stdout);
		if (write(ready[1], "r", 1) != 1 || read(go[0], buf, 1) != 1)
			_exit(1);
		execl(self, self, "show", (char *)NULL);
		_exit(127);
	}
	/* while the child waits: set its mask by pid */
	if (read(ready[0], buf, 1) != 1)
		return;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	printf("  parent sets the child's mask to CPU 0: %s\n",
	       res(sched_setaffinity(pid, sizeof(set), &set)));
	fflush(stdout);
	if (write(go[1], "x", 1) != 1)
		return;
	waitpid(pid, &status, 0);
	printf("  parent after the child: %s\n", my_cpus());
}

int main(int argc, char **argv)
{
	int ncpus = cpus_allowed();

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "show")) {
		printf("  child after execve: %s, on CPU %d\n", my_cpus(), sched_getcpu());
		show_in_thread(0);
		return 0;
	}
	printf("cpus_affinity (%s): affinity at start %s\n",
#ifdef __GLIBC__
	       "glibc",
#else
	       "musl",
#endif
	       my_cpus());
	cpu_features();
	vdso_getcpu = vdso_sym("__vdso_getcpu");
	for (int cpu = 0; cpu < ncpus; cpu++)
		check_cpu(cpu);
	back_to_all(ncpus);
	bad_masks(ncpus);
	inheritance(argv[0], ncpus - 1);
	return 0;
}
