/*
 * execprobe - print what a program finds when exec hands it over: its
 * arguments, the name exec was given (AT_EXECFN), the file it runs
 * (/proc/self/exe), its name (/proc/self/comm); and with PROBE=creds in
 * the environment, who it runs as: ids, groups, capabilities, AT_SECURE,
 * dumpable, no_new_privs, the parent-death signal and RLIMIT_STACK.
 * PROBE=brief prints only one line: its ids, AT_SECURE and dumpable.
 *
 * The exec tests run it by every route (execveat, fexecve, scripts,
 * set-user-ID copies of it). /proc must be mounted.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

/* The lines of /proc/self/status that start with one of the names. */
static void status_lines(const char *const names[])
{
	char line[512];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f) {
		printf("  (no /proc/self/status)\n");
		return;
	}
	while (fgets(line, sizeof(line), f))
		for (int i = 0; names[i]; i++)
			if (!strncmp(line, names[i], strlen(names[i])) && line[strlen(names[i])] == ':')
				printf("  %s", line);
	fclose(f);
}

int main(int argc, char *argv[])
{
	char buf[4096];
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	const char *probe = getenv("PROBE");
	ssize_t n;
	FILE *f;

	if (probe && !strcmp(probe, "brief")) {
		uid_t r, e, s;
		gid_t gr, ge, gs;

		getresuid(&r, &e, &s);
		getresgid(&gr, &ge, &gs);
		printf("  runs: uid %u/%u/%u gid %u/%u/%u, AT_SECURE %lu, dumpable %d\n", r, e, s, gr, ge, gs,
		       getauxval(AT_SECURE), prctl(PR_GET_DUMPABLE));
		return 0;
	}

	printf("  argv:");
	for (int i = 0; i < argc; i++)
		printf(" [%s]", argv[i]);
	printf("\n  AT_EXECFN: %s\n", execfn ? execfn : "(none)");
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	printf("  exe: %s\n", n < 0 ? "(unreadable)" : (buf[n] = '\0', buf));
	f = fopen("/proc/self/comm", "r");
	if (f && fgets(buf, sizeof(buf), f))
		printf("  comm: %s", buf);
	if (f)
		fclose(f);

	if (probe && !strcmp(probe, "creds")) {
		static const char *const names[] = { "Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff",
						     "CapBnd", "CapAmb", "NoNewPrivs", NULL };
		struct rlimit rl;
		int sig = -1;

		status_lines(names);
		prctl(PR_GET_PDEATHSIG, &sig);
		getrlimit(RLIMIT_STACK, &rl);
		printf("  AT_SECURE %lu, dumpable %d, pdeathsig %d, RLIMIT_STACK %lu KiB\n",
		       getauxval(AT_SECURE), prctl(PR_GET_DUMPABLE), sig, (unsigned long)rl.rlim_cur / 1024);
	}
	fflush(stdout);
	return 0;
}
