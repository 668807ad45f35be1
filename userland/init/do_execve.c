/*
 * do_execve PROGRAM - execve PROGRAM with a fixed argv {"zero", "one", "two"}
 * and environment {"ENVVAR1=1", "ENVVAR2=2"}. If execve fails, say why on
 * stderr and exit 1. From LWN's "How programs get run" (2015):
 * "./do_execve ./show_info" shows what the new program receives.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	char *new_argv[] = { "zero", "one", "two", NULL };
	char *new_envp[] = { "ENVVAR1=1", "ENVVAR2=2", NULL };

	if (argc < 2) {
		fprintf(stderr, "usage: do_execve PROGRAM\n");
		return 2;
	}
	execve(argv[1], new_argv, new_envp);
	fprintf(stderr, "Failed to execute '%s', %s\n", argv[1], strerror(errno));
	return 1;
}
