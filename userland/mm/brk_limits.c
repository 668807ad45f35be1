/*
 * brk_limits - how far an address space may grow: brk against
 * RLIMIT_DATA and the next mapping, shrinking a heap the program has
 * unmapped, mmap, mprotect and mremap against RLIMIT_DATA (private
 * writable memory only) and RLIMIT_AS (everything), and the soft limit 0
 * that Linux lets through up to the hard limit (for Valgrind). Each
 * limit is tried in a child of its own, so one part cannot spoil the
 * next. Addresses change from run to run (ASLR): only offsets and
 * outcomes are printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096UL
#define MB (1UL << 20)

static unsigned long cur_brk(void)
{
	return syscall(SYS_brk, 0);
}

/* Ask for the break at base + off; print where it is now, from base. */
static void try_brk(const char *what, unsigned long base, unsigned long off)
{
	unsigned long got = syscall(SYS_brk, base + off);
	printf("%-34s brk at base%+ld\n", what, (long)(got - base));
}

static const char *errname(int e)
{
	static char buf[32];
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case EAGAIN: return "EAGAIN";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case EPERM: return "EPERM";
	}
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

static const char *outcome(void *p)
{
	return p != MAP_FAILED ? "mapped" : errname(errno);
}

static void *map(unsigned long len, int prot, int flags)
{
	return mmap(NULL, len, prot, flags | MAP_ANONYMOUS, -1, 0);
}

static void set_limit(int which, rlim_t soft, rlim_t hard)
{
	struct rlimit r = { soft, hard };
	if (setrlimit(which, &r))
		printf("setrlimit: %s\n", strerror(errno));
}

/* VmData of /proc/self/status, in kB. */
static long vm_data_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmData: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* The heap grows and shrinks; it stops a page short of a mapping. */
static void heap_and_neighbour(void)
{
	unsigned long base = (cur_brk() + PAGE - 1) & ~(PAGE - 1);

	try_brk("grow 3 pages", base, 3 * PAGE);
	try_brk("shrink to 1 page", base, PAGE);
	try_brk("below the start", base, -(long)(64 * MB));
	void *wall = mmap((void *)(base + 8 * PAGE), PAGE, PROT_READ,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	printf("mapping 8 pages above: %s\n", outcome(wall));
	try_brk("grow to 7 pages (a page short)", base, 7 * PAGE);
	try_brk("grow to 7 pages + 1 byte", base, 7 * PAGE + 1);
	try_brk("grow onto the mapping", base, 9 * PAGE);
	munmap(wall, PAGE);
	try_brk("grow past it, now gone", base, 9 * PAGE);
	/* A heap the program unmapped cannot be shrunk. */
	munmap((void *)(base + PAGE), 8 * PAGE);
	try_brk("shrink an unmapped heap", base, PAGE);
}

/* RLIMIT_DATA counts the heap with the data segment, and private
 * writable mappings; shared and read-only ones are not data. */
static void data_limit(void)
{
	unsigned long base = (cur_brk() + PAGE - 1) & ~(PAGE - 1);
	long before = vm_data_kb();

	set_limit(RLIMIT_DATA, 4 * MB, RLIM_INFINITY);
	try_brk("RLIMIT_DATA 4M: brk +64M", base, 64 * MB);
	printf("private rw 64M: %s\n", outcome(map(64 * MB, PROT_READ | PROT_WRITE, MAP_PRIVATE)));
	void *shared = map(64 * MB, PROT_READ | PROT_WRITE, MAP_SHARED);
	printf("shared rw 64M: %s\n", outcome(shared));
	void *ro = map(64 * MB, PROT_READ, MAP_PRIVATE);
	printf("private ro 64M: %s\n", outcome(ro));
	printf("VmData grew by %ld kB\n", vm_data_kb() - before);
	printf("mprotect it rw: %s\n",
	       mprotect(ro, 64 * MB, PROT_READ | PROT_WRITE) ? errname(errno) : "ok");
	void *small = map(PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	printf("private rw 1 page: %s\n", outcome(small));
	void *grown = mremap(small, PAGE, 64 * MB, MREMAP_MAYMOVE);
	printf("mremap it to 64M: %s\n", outcome(grown));
	printf("mremap shared to 128M: %s\n",
	       outcome(mremap(shared, 64 * MB, 128 * MB, MREMAP_MAYMOVE)));
}

/* A soft limit of 0 lets data through up to the hard limit. */
static void valgrind_workaround(void)
{
	set_limit(RLIMIT_DATA, 0, 64 * MB);
	printf("RLIMIT_DATA 0/64M: private rw 16M: %s\n",
	       outcome(map(16 * MB, PROT_READ | PROT_WRITE, MAP_PRIVATE)));
	printf("RLIMIT_DATA 0/64M: private rw 128M: %s\n",
	       outcome(map(128 * MB, PROT_READ | PROT_WRITE, MAP_PRIVATE)));
}

/* RLIMIT_AS counts every mapping; MAP_FIXED over a mapping counts only
 * what it adds. */
static void as_limit(void)
{
	unsigned long base = (cur_brk() + PAGE - 1) & ~(PAGE - 1);
	void *big = map(32 * MB, PROT_NONE, MAP_PRIVATE);

	printf("private none 32M: %s\n", outcome(big));
	set_limit(RLIMIT_AS, 40 * MB, RLIM_INFINITY);
	printf("RLIMIT_AS 40M: shared ro 16M: %s\n", outcome(map(16 * MB, PROT_READ, MAP_SHARED)));
	printf("RLIMIT_AS 40M: private none 16M: %s\n", outcome(map(16 * MB, PROT_NONE, MAP_PRIVATE)));
	void *over = mmap(big, 16 * MB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	printf("RLIMIT_AS 40M: fixed 16M over it: %s\n", outcome(over));
	try_brk("RLIMIT_AS 40M: brk +16M", base, 16 * MB);
	printf("mremap 32M to 48M: %s\n", outcome(mremap(big, 32 * MB, 48 * MB, MREMAP_MAYMOVE)));
	printf("munmap it: %s\n", munmap(big, 32 * MB) ? strerror(errno) : "ok");
	try_brk("RLIMIT_AS 40M: brk +16M again", base, 16 * MB);
}

static void in_child(const char *title, void (*part)(void))
{
	int status;

	printf("== %s\n", title);
	fflush(stdout);
	if (fork() == 0) {
		part();
		fflush(stdout);
		_exit(0);
	}
	wait(&status);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("child status %#x\n", status);
}

int main(void)
{
	vm_data_kb(); /* malloc's first use may move the break: before any base */
	in_child("the heap and its neighbour", heap_and_neighbour);
	in_child("RLIMIT_DATA", data_limit);
	in_child("RLIMIT_DATA soft 0", valgrind_workaround);
	in_child("RLIMIT_AS", as_limit);
	return 0;
}
