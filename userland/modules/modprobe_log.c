/*
 * modprobe_log - stands in for modprobe in the module tests: write its
 * path to /proc/sys/kernel/modprobe, and each request_module of the kernel
 * runs this. It appends how it was called (argv, environment) to
 * /tmp/modprobe.log, then runs the real one, busybox's /sbin/modprobe,
 * with the same arguments: the module is loaded as it would have been.
 * (A program, not a script: with binfmt_script a module, a "#!" helper
 * could not run.)
 */
#include <stdio.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char *argv[])
{
	FILE *log = fopen("/tmp/modprobe.log", "a");

	if (log) {
		fprintf(log, "modprobe:");
		for (int i = 0; i < argc; i++)
			fprintf(log, " '%s'", argv[i]);
		fprintf(log, "\nmodprobe: env");
		for (char **e = environ; *e; e++)
			fprintf(log, " '%s'", *e);
		fprintf(log, "\n");
		fclose(log);
	}
	argv[0] = "/sbin/modprobe";
	execv(argv[0], argv);
	return 127;
}
