/*
 * priv [hlt|cli|cr3|in] - execute one privileged instruction in user mode
 * (default hlt). The CPU raises a general-protection fault; Linux answers
 * with SIGSEGV, and so must our kernel, which then runs the next program.
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char *argv[])
{
	const char *what = argc > 1 ? argv[1] : "hlt";
	unsigned long val = 0;

	printf("priv: executing %s\n", what);
	fflush(stdout);
	if (strcmp(what, "hlt") == 0)
		__asm__ volatile("hlt");
	else if (strcmp(what, "cli") == 0)
		__asm__ volatile("cli");
	else if (strcmp(what, "cr3") == 0)
		__asm__ volatile("mov %%cr3, %0" : "=r"(val));
	else if (strcmp(what, "in") == 0)	/* read a byte from COM1 */
		__asm__ volatile("inb %%dx, %%al" : "=a"(val) : "d"(0x3f8));
	else {
		fprintf(stderr, "priv: unknown instruction '%s'\n", what);
		return 2;
	}
	printf("priv: %s did not fault (%lu)\n", what, val);
	return 1;
}
