/*
 * aslr_child.c - where exec put this run of the program: one line of
 * hexadecimal numbers, read by /usr/lib/exec-tests/aslr (userland/elf/aslr.c):
 *   load-bias  AT_BASE  stack-top  mmap  start_brk  bss-end  vdso  AT_RANDOM
 * stack-top is the end of [stack] in /proc/self/maps; mmap is what a first
 * mmap of one page returns; start_brk is field 47 of /proc/self/stat (the
 * C library may have moved brk already); bss-end is the end of the
 * program's last page.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/mount.h>

extern const Elf64_Ehdr __ehdr_start;
extern char _end[];

int main(void)
{
	const Elf64_Ehdr *eh = &__ehdr_start;
	const Elf64_Phdr *ph = (const void *)((const char *)eh + eh->e_phoff);
	uintptr_t first = UINTPTR_MAX;
	unsigned long lo, hi, stack_top = 0, start_brk = 0;
	char line[512];
	FILE *f;
	void *m;

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr < first)
			first = ph[i].p_vaddr & ~0xfffUL;
	mount("proc", "/proc", "proc", 0, NULL);
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			stack_top = hi;
	if (f)
		fclose(f);
	f = fopen("/proc/self/stat", "r");
	if (f && fgets(line, sizeof(line), f)) {
		char *p = strrchr(line, ')');
		/* fields 3.. follow ") "; start_brk is field 47 */
		for (int field = 2; p && field < 47; field++)
			p = strchr(p + 1, ' ');
		if (p)
			sscanf(p + 1, "%lu", &start_brk);
	}
	if (f)
		fclose(f);
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("%lx %lx %lx %lx %lx %lx %lx %lx\n", (unsigned long)((uintptr_t)eh - first),
	       getauxval(AT_BASE), stack_top, (unsigned long)m, start_brk,
	       ((unsigned long)_end + 4095) & ~4095UL, getauxval(AT_SYSINFO_EHDR), getauxval(AT_RANDOM));
	return 0;
}
