/*
 * fault_counts - page faults counted as Linux counts them: getrusage's
 * ru_minflt for the process, a thread and the reaped children, wait4's
 * rusage, and /proc/self/stat's minflt and cminflt fields (10 and 11).
 * Each first touch of a fresh anonymous page is one minor fault; the
 * counts here include the program's own faults besides, so what is
 * printed is whether they grew by at least the pages touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGES 100

static void touch_pages(void)
{
	char *p = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	for (int i = 0; i < PAGES; i++)
		p[i * 4096] = 1;
	munmap(p, PAGES * 4096);
}

static long minflt(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_minflt;
}

/* Fields 10 and 11 of /proc/self/stat (after "pid (comm) state"). */
static void stat_faults(long *min, long *cmin)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	char *p = f && fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;

	*min = *cmin = -1;
	if (p)
		sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %ld %ld", min, cmin);
	if (f)
		fclose(f);
}

static const char *grew(long before, long after)
{
	return after - before >= PAGES ? "yes" : "no";
}

int main(void)
{
	struct rusage ru;
	long self = minflt(RUSAGE_SELF), thread = minflt(RUSAGE_THREAD), stat_min, stat_cmin;
	int status;

	mount("proc", "/proc", "proc", 0, NULL); /* init does not, for tests */
	touch_pages();
	printf("RUSAGE_SELF grew by the pages touched: %s\n", grew(self, minflt(RUSAGE_SELF)));
	printf("RUSAGE_THREAD grew by the pages touched: %s\n", grew(thread, minflt(RUSAGE_THREAD)));
	stat_faults(&stat_min, &stat_cmin);
	printf("/proc/self/stat minflt at least as many: %s\n", stat_min >= PAGES ? "yes" : "no");

	long children = minflt(RUSAGE_CHILDREN);
	pid_t pid = fork();
	if (pid == 0) {
		touch_pages();
		_exit(0);
	}
	wait4(pid, &status, 0, &ru);
	printf("wait4's rusage counts the child's: %s\n", ru.ru_minflt >= PAGES ? "yes" : "no");
	printf("RUSAGE_CHILDREN grew by them: %s\n", grew(children, minflt(RUSAGE_CHILDREN)));
	stat_faults(&stat_min, &stat_cmin);
	printf("/proc/self/stat cminflt too: %s\n", stat_cmin >= PAGES ? "yes" : "no");
	return 0;
}
