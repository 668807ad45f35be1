/*
 * hello - the smallest test program: print one line and exit 0.
 */
#include <stdio.h>

int main(void)
{
	printf("Hello, world!\n");
	return 0;
}
