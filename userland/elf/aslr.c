/*
 * aslr.c - address space layout randomization, as Linux 6.1 does it on
 * x86-64, checked by running a program many times and looking at where
 * things landed (the program, /aslr_child-KIND, prints them: see
 * userland/elf/kinds/aslr_child.c).
 *
 *   /usr/lib/exec-tests/aslr PROGRAM [ARG]       32 runs: for each address, how many
 *                             different values, whether all lie in the
 *                             range Linux gives them, their alignment
 *   /usr/lib/exec-tests/aslr -R PROGRAM [ARG]    personality(ADDR_NO_RANDOMIZE), as setarch
 *                             -R: one run, every address exactly
 *   /usr/lib/exec-tests/aslr -s N PROGRAM [ARG]  /proc/sys/kernel/randomize_va_space = N for
 *                             the run (2 after it): one run, exactly for
 *                             0; for 1 only brk, which 1 leaves alone
 *
 * Linux's ranges (rlimit stack 8 MiB): a PIE at 0x555555554000 plus up to
 * 2^28 pages; the mmap area's top (mmap_base) at 0x7ffbff700000 minus up to
 * 2^28 pages; the stack's top at 0x7ffffffff000 minus up to 2^22 pages (and
 * one more page); brk up to 1 GiB above the end of the bss (Debian's 6.1
 * has the 64-bit range of later kernels; 32 MiB before); the vDSO above
 * the stack's top, inside the same 2 MiB region.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

enum { BIAS, BASE, STACK, MMAP, BRK, BSS_END, VDSO, RANDOM, NVALS };
#define MAXRUNS 64

static unsigned long v[MAXRUNS][NVALS];

static const char *prog_arg; /* an argument for the program, or NULL */

static int run(const char *prog, unsigned long *out)
{
	int fds[2], status;
	char buf[512];
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl(prog, prog, prog_arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	buf[got] = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return sscanf(buf, "%lx %lx %lx %lx %lx %lx %lx %lx", &out[0], &out[1], &out[2], &out[3],
		      &out[4], &out[5], &out[6], &out[7]) == NVALS ? 0 : -1;
}

static int distinct(int runs, int k, unsigned long mask)
{
	int d = 0;

	for (int i = 0; i < runs; i++) {
		int seen = 0;
		for (int j = 0; j < i; j++)
			if ((v[j][k] & mask) == (v[i][k] & mask))
				seen = 1;
		d += !seen;
	}
	return d;
}

/* "all in [lo, hi]" and "page-aligned" for value k (minus sub[k] if given). */
static void report(const char *what, int runs, int k, int sub, unsigned long lo, unsigned long hi,
		   int min_distinct)
{
	int in = 1, aligned = 1, d;

	for (int i = 0; i < runs; i++) {
		unsigned long x = v[i][k] - (sub >= 0 ? v[i][sub] : 0);
		if (x < lo || x > hi)
			in = 0;
		if (x & 0xfff)
			aligned = 0;
	}
	d = distinct(runs, k, ~0UL);
	printf("%-24s %s, %s, %s\n", what,
	       d >= min_distinct ? (min_distinct == runs ? "all different" : "different enough") : "too few different values",
	       in ? "all in range" : "NOT ALL IN RANGE", aligned ? "page-aligned" : "NOT PAGE-ALIGNED");
	if (!in || d < min_distinct)
		for (int i = 0; i < runs; i++)
			printf("    %#lx\n", v[i][k] - (sub >= 0 ? v[i][sub] : 0));
}

int main(int argc, char **argv)
{
	int runs = 32, exact = 0, i;
	
	const char *prog, *setting = NULL;

	mount("proc", "/proc", "proc", 0, NULL);
	if (argc > 2 && !strcmp(argv[1], "-R")) {
		personality(ADDR_NO_RANDOMIZE);
		exact = 1;
		argv++;
	} else if (argc > 3 && !strcmp(argv[1], "-s")) {
		setting = argv[2];
		exact = 1;
		argv += 2;
	}
	prog = argv[1];
	if (!prog) {
		fprintf(stderr, "usage: aslr [-R | -s N] PROGRAM [RUNS]\n");
		return 2;
	}
	prog_arg = argv[2];
	if (exact) {
		FILE *f;

		if (setting && (f = fopen("/proc/sys/kernel/randomize_va_space", "w"))) {
			fprintf(f, "%s\n", setting);
			fclose(f);
		}
		i = run(prog, v[0]);
		if (setting && (f = fopen("/proc/sys/kernel/randomize_va_space", "w"))) {
			fprintf(f, "2\n");
			fclose(f);
		}
		if (i) {
			printf("%s did not run\n", prog);
			return 1;
		}
		printf("%s%s%s:\n", prog, setting ? " with randomize_va_space " : ", ADDR_NO_RANDOMIZE",
		       setting ? setting : "");
		if (setting && strcmp(setting, "0")) {
			/* the rest is random: only brk is not */
			printf("  brk - bss end  %#lx\n", v[0][BRK] - v[0][BSS_END]);
			return 0;
		}
		printf("  load bias      %#lx\n  AT_BASE        %#lx\n  stack top      %#lx\n"
		       "  first mmap     %#lx\n  brk - bss end  %#lx\n  vDSO           %#lx\n"
		       "  AT_RANDOM      %#lx\n",
		       v[0][BIAS], v[0][BASE], v[0][STACK], v[0][MMAP], v[0][BRK] - v[0][BSS_END],
		       v[0][VDSO], v[0][RANDOM]);
		return 0;
	}

	if (runs > MAXRUNS)
		runs = MAXRUNS;
	for (i = 0; i < runs; i++)
		if (run(prog, v[i])) {
			printf("run %d of %s failed\n", i, prog);
			return 1;
		}
	printf("%s, %d runs:\n", prog, runs);
	if (v[0][BASE]) { /* a PIE with an interpreter */
		report("PIE load bias", runs, BIAS, -1, 0x555555554000UL, 0x565555553000UL, runs);
		report("interpreter (AT_BASE)", runs, BASE, -1, 0x7eeb00000000UL, 0x7ffbff700000UL, runs);
	} else if (v[0][BIAS]) { /* static-pie, or a loader run as a program */
		report("load bias (mmap area)", runs, BIAS, -1, 0x7eeb00000000UL, 0x7ffbff700000UL, runs);
	}
	report("stack top", runs, STACK, -1, 0x7ffbfffff000UL, 0x7ffffffff000UL, runs);
	report("first mmap", runs, MMAP, -1, 0x7eeb00000000UL, 0x7ffbff700000UL, runs);
	if (v[0][BASE] || !v[0][BIAS])
		report("brk - end of bss", runs, BRK, BSS_END, 0, 0x40000000UL - 0x1000, runs - 4);
	else
		report("brk (ELF_ET_DYN_BASE)", runs, BRK, -1, 0x555555555000UL, 0x555595554000UL, runs - 4);
	{
		int above = 1;
		for (i = 0; i < runs; i++) {
			unsigned long vvar = v[i][VDSO] - 0x4000, pmd_end = (v[i][STACK] + 0x6000 + 0x1fffff) & ~0x1fffffUL;
			if (vvar < v[i][STACK] || v[i][VDSO] + 0x2000 > pmd_end)
				above = 0;
		}
		printf("%-24s %s, %s\n", "vDSO", distinct(runs, VDSO, ~0UL) == runs ? "all different" : "too few different values",
		       above ? "above the stack, in its 2 MiB region" : "NOT ALWAYS ABOVE THE STACK");
	}
	printf("%-24s %s\n", "AT_RANDOM's page offset",
	       distinct(runs, RANDOM, 0xfff) >= runs / 2 ? "different enough" : "too few different values");
	return 0;
}
