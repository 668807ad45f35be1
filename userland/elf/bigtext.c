/*
 * bigtext [touch] - a program with 8 MiB of read-only data in its file
 * (2048 pages, as a large program's text): without an argument it exits
 * at once, so exec costs only the mapping; with "touch" it reads one byte
 * of every page first, so each page must come from the file (make bench:
 * fault-around makes that cheaper, on Linux and here).
 */
#include <stddef.h>

#define SIZE (8 << 20)

/* Not all zeros, so that the linker keeps it in the file. */
static const volatile char big[SIZE] = { 1, [SIZE - 4096] = 1 };

int main(int argc, char **argv)
{
	unsigned sum = 0;

	(void)argv;
	if (argc > 1)
		for (size_t i = 0; i < SIZE; i += 4096)
			sum += big[i];
	return sum == 2 || argc == 1 ? 0 : 1;
}
