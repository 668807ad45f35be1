/*
 * show_info - print the arguments and the environment this program was
 * given: "argv[N] = '...'" for each argument, then each environment string
 * on its own line. The program from LWN's "How programs get run" (2015).
 */
#include <stdio.h>

extern char **environ;

int main(int argc, char *argv[])
{
	for (int i = 0; i < argc; i++)
		printf("argv[%d] = '%s'\n", i, argv[i]);
	for (char **e = environ; *e; e++)
		printf("%s\n", *e);
	return 0;
}
