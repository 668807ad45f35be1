/*
 * piebase - the test of lab 06 (labs/06-interp): where exec put a program
 * and its interpreter, told as facts that hold whatever the randomization:
 *   - the load bias (where the ELF header is, minus the first PT_LOAD's
 *     p_vaddr): 0 for ET_EXEC; for
 *     a PIE with an interpreter, page-aligned, from ELF_ET_DYN_BASE
 *     (0x555555554000 on x86-64, 2/3 of the user space) up to 1 TiB above;
 *   - AT_BASE: 0 without an interpreter; else where the interpreter's
 *     first page is mapped (/proc/self/maps), holding an ELF header;
 *   - AT_ENTRY: the program's e_entry plus the load bias.
 * Built as every kind of ELF file (userland/elf/kinds/): /usr/lib/exec-tests/piebase-dyn,
 * /usr/lib/exec-tests/piebase-gdyn, /piebase-static...
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>

extern const Elf64_Ehdr __ehdr_start;

int main(int argc, char **argv)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM), bias = 0, base = getauxval(AT_BASE);
	const char *interp = NULL;
	char line[512];
	FILE *f;

	(void)argc;
	/* The first PT_LOAD maps the ELF header (file offset 0). */
	for (unsigned long i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD) {
			bias = (unsigned long)&__ehdr_start - ph[i].p_vaddr;
			break;
		}
	for (unsigned long i = 0; i < n; i++)
		if (ph[i].p_type == PT_INTERP)
			interp = (const char *)(bias + ph[i].p_vaddr);
	printf("%s: %s, interpreter %s\n", argv[0],
	       __ehdr_start.e_type == ET_DYN ? "ET_DYN" : "ET_EXEC", interp ? interp : "none");
	if (__ehdr_start.e_type == ET_EXEC)
		printf("  load bias: %s\n", bias == 0 ? "0" : "not 0");
	else if (interp)
		printf("  load bias from ELF_ET_DYN_BASE, within 1 TiB, page-aligned: %s\n",
		       bias >= 0x555555554000UL && bias < 0x555555554000UL + (1UL << 40) &&
		       !(bias & 0xfff) ? "yes" : "no");
	printf("  AT_ENTRY is e_entry + load bias: %s\n",
	       getauxval(AT_ENTRY) == __ehdr_start.e_entry + bias ? "yes" : "no");
	if (!interp) {
		printf("  AT_BASE: %s\n", base ? "not 0" : "0");
		return 0;
	}
	/* The interpreter's lowest mapping, by its path (or the path it
	 * links to: /lib64/ld-linux-x86-64.so.2 is a link). */
	unsigned long lowest = 0;
	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there */
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long start;
		char path[256] = "";

		if (sscanf(line, "%lx-%*x %*s %*s %*s %*s %255s", &start, path) < 1)
			continue;
		if (!strcmp(path, interp) || (strstr(path, "/ld-") && strstr(interp, "/ld-")))
			if (!lowest || start < lowest)
				lowest = start;
	}
	if (f)
		fclose(f);

	printf("  AT_BASE is where the interpreter's first page is mapped: %s\n",
	       base && base == lowest ? "yes" : "no");
	printf("  AT_BASE holds an ELF header: %s\n",
	       base && !memcmp((void *)base, ELFMAG, SELFMAG) ? "yes" : "no");
	return 0;
}
