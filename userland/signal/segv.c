/*
 * segv - store through a NULL pointer. The kernel must kill this process
 * with SIGSEGV and keep running; init then reports "killed by signal 11".
 */
#include <stdio.h>

int main(void)
{
	/* Both volatile: the compiler must neither see that p is NULL (it
	 * would emit a trap instruction) nor drop the store as unused. */
	volatile int *volatile p = NULL;

	printf("segv: storing to address 0\n");
	fflush(stdout);
	*p = 42;
	printf("segv: still alive\n");
	return 1;
}
