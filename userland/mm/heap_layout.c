/*
 * heap_layout - where the heap is and how /proc/self/maps shows it: a
 * static program with a large bss grows its break, shrinks it, and
 * unmaps part of the heap; after each step the areas are printed with
 * their sizes and names, the addresses as offsets from the program's
 * first area (ASLR moves them) and the break as an offset from the
 * heap's start. Run both with and without address randomization.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE 4096UL

static char big_bss[5 * PAGE + 100];
static int randomized;

static void show(const char *step, unsigned long start_brk)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long first = 0;

	printf("== %s (break at start%+ld)\n", step, (long)(syscall(SYS_brk, 0) - start_brk));
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long s, e;
		char perms[8], name[256] = "";
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255[^\n]", &s, &e, perms, name) < 3)
			continue;
		if (strstr(name, "[stack]") || strstr(name, "[vdso]") || strstr(name, "[vvar]"))
			continue;
		if (!first)
			first = s;
		/* The program's own areas sit at fixed offsets; with
		 * randomization the heap starts anywhere in the 1 GiB
		 * after the bss (sometimes close), so it gets no offset. */
		if (strstr(name, "heap_layout") ||
		    (!randomized && s - first < (64UL << 20)))
			printf("  +%-8lx %5lu pages %s %s\n", s - first, (e - s) / PAGE, perms, name);
		else
			printf("  far       %5lu pages %s %s\n", (e - s) / PAGE, perms, name);
	}
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	unsigned long start = syscall(SYS_brk, 0);

	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there already */
	randomized = argc < 2;
	printf("%s\n", randomized ? "randomized" : "not randomized");
	big_bss[0] = 1;
	show("at start", start);
	start = syscall(SYS_brk, 0); /* malloc (fopen) may have moved it */
	syscall(SYS_brk, start + 3 * PAGE + 10);
	show("grown 3 pages + 10", start);
	syscall(SYS_brk, start + PAGE);
	show("shrunk to 1 page", start);
	syscall(SYS_brk, start + 4 * PAGE);
	munmap((void *)(((start + PAGE - 1) & ~(PAGE - 1)) + PAGE), PAGE);
	show("a hole in the heap", start);
	if (argc < 2) {
		/* Again without randomization: the heap then starts at the
		 * end of the bss. */
		fflush(stdout);
		personality(ADDR_NO_RANDOMIZE);
		execl("/proc/self/exe", argv[0], "norandom", (char *)NULL);
	}
	return 0;
}
