/*
 * stack_layout.c - the new program's stack as exec laid it out: argc, the
 * argv and envp pointers, the auxiliary vector, the 16 random bytes, the
 * platform string, the strings, the file name, and the [stack] area around
 * them. With "exact" as argv[1] (for a run without randomization:
 * norandmaps) every address is printed; otherwise only what Linux
 * guarantees whatever the random offsets are.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

static uint64_t auxval(uint64_t *av, uint64_t type)
{
	for (; av[0] != AT_NULL; av += 2)
		if (av[0] == type)
			return av[1];
	return 0;
}

/* The [stack] line of /proc/self/maps. */
static int stack_area(unsigned long *lo, unsigned long *hi)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", lo, hi) == 2) {
			fclose(f);
			return 0;
		}
	fclose(f);
	return -1;
}

#define CHECK(what, cond) printf("%-58s %s\n", what, (cond) ? "yes" : "NO")

int main(int argc, char **argv, char **envp)
{
	int exact = argc > 1 && !strcmp(argv[1], "exact");
	uint64_t *sp = (uint64_t *)argv - 1, *av;
	char **e = envp;
	unsigned long lo = 0, hi = 0;
	uint64_t platform, rnd, execfn, arg_start, end_of_strings, auxv_end, n;

	while (*e)
		e++;
	av = (uint64_t *)(e + 1);
	for (n = 0; av[2 * n] != AT_NULL; n++)
		;
	auxv_end = (uint64_t)&av[2 * n + 2];
	platform = auxval(av, AT_PLATFORM);
	rnd = auxval(av, AT_RANDOM);
	execfn = auxval(av, AT_EXECFN);
	arg_start = (uint64_t)argv[0];
	end_of_strings = execfn + strlen((char *)execfn) + 1;
	mount("proc", "/proc", "proc", 0, NULL); /* may be there already */
	stack_area(&lo, &hi);

	if (exact) {
		printf("argc      %#lx %d\n", (unsigned long)sp, argc);
		for (int i = 0; i <= argc; i++)
			printf("argv[%d]   %#lx %#lx %s\n", i, (unsigned long)&argv[i],
			       (unsigned long)argv[i], argv[i] ? argv[i] : "NULL");
		for (int i = 0; envp[i] || envp + i == e; i++) {
			printf("envp[%d]   %#lx %#lx %s\n", i, (unsigned long)&envp[i],
			       (unsigned long)envp[i], envp[i] ? envp[i] : "NULL");
			if (!envp[i])
				break;
		}
		printf("auxv      %#lx..%#lx, %lu entries\n", (unsigned long)av,
		       (unsigned long)auxv_end, (unsigned long)n);
		printf("AT_RANDOM %#lx\nplatform  %#lx\nexecfn    %#lx\n", (unsigned long)rnd,
		       (unsigned long)platform, (unsigned long)execfn);
		printf("[stack]   %#lx-%#lx\n", lo, hi);
	}
	CHECK("rsp (where argc is) is 16-byte aligned", ((uint64_t)sp & 15) == 0);
	CHECK("argv, NULL, envp, NULL, auxv follow one another", (uint64_t *)&argv[argc + 1] == (uint64_t *)envp);
	CHECK("the auxv ends 0 to 15 bytes below AT_RANDOM", rnd >= auxv_end && rnd - auxv_end < 16);
	CHECK("AT_RANDOM is right below the platform string", rnd + 16 == platform);
	CHECK("the platform string is \"x86_64\"", !strcmp((char *)platform, "x86_64"));
	CHECK("the platform string is 16-byte aligned", (platform + 7) % 16 == 0 || platform % 16 == 9);
	CHECK("the strings start 0 to 8207 bytes above the platform", arg_start >= platform + 7 &&
	      arg_start - (platform + 7) < 8192 + 16);
	CHECK("the strings follow one another, the file name last", end_of_strings > arg_start);
	CHECK("8 zero bytes end the stack after the file name", end_of_strings + 8 == hi &&
	      *(uint64_t *)end_of_strings == 0);
	CHECK("the stack's top is page-aligned", (hi & 0xfff) == 0);
	CHECK("[stack] is the strings' pages plus 128 KiB", hi - lo == (hi - (arg_start & ~0xfffUL)) + 0x20000);
	return 0;
}
