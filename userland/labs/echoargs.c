/* echoargs - print argv, one line each: an interpreter for the tests. */
#include <stdio.h>

int main(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		printf("  argv[%d] = '%s'\n", i, argv[i]);
	return 0;
}
