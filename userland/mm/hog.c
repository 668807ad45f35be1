/*
 * hog - take memory and touch it, a megabyte at a time, until the kernel's
 * OOM killer stops it (test oom_hog: the shell prompt comes back).
 */
#include <stdlib.h>
#include <string.h>

int main(void)
{
	for (;;) {
		char *p = malloc(1 << 20);
		if (p)
			memset(p, 0x5a, 1 << 20);
	}
}
