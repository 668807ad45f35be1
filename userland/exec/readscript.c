/*
 * readscript - a "#!" interpreter for the exec tests: prints its
 * arguments, then opens the script it was given (argv[1]: a "#!/usr/lib/exec-tests/readscript"
 * line has no argument of its own) and
 * prints the script's second line, or why it could not open it. Shows
 * that the name exec hands to an interpreter (/dev/fd/N, /dev/fd/N/NAME)
 * can be opened, or cannot.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char *argv[])
{
	char line[256] = "";
	FILE *f;

	if (argc < 2)
		return 2;
	printf("  readscript:");
	for (int i = 0; i < argc; i++)
		printf(" [%s]", argv[i]);
	printf("\n");
	f = fopen(argv[1], "r");
	if (!f) {
		printf("  cannot open %s: errno %d\n", argv[1], errno);
		return 1;
	}
	if (fgets(line, sizeof(line), f))
		fgets(line, sizeof(line), f);
	printf("  read %s: %s", argv[1], line);
	fclose(f);
	return 0;
}
