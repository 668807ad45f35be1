/*
 * smp_exec - execve from a thread while its siblings run on other CPUs
 * (Linux's de_thread: the siblings are killed and waited for, the
 * execing thread takes the leader's pid):
 *
 *   smp_exec chain   a thread that is not the leader execs while one
 *                    sibling spins on each CPU; the new program must be
 *                    alone in /proc/self/task, with the old pid; it does
 *                    the same again, 20 times over
 *   smp_exec fail    execs that fail (a directory, a missing file, a file
 *                    that is not an ELF) from a thread while its siblings
 *                    spin: the siblings live on and keep running
 *   smp_exec binfmt  execs on CPU 1 of a file only binfmt_misc can run,
 *                    while CPU 0 registers and removes its entry over and
 *                    over: each exec runs the interpreter or fails with
 *                    ENOEXEC, nothing else
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cpus.h"
#include "exectest.h"

#define SELF "/usr/lib/exec-tests/smp_exec"
#define EXECS 20
#define MAX_CPUS 64

static int ncpus;
static atomic_int spinning;          /* spinners started */
static atomic_int stop;              /* spinners, toggler: return */
static atomic_long laps[MAX_CPUS];   /* spinner i's turns of its loop */

static void *spinner(void *arg)
{
	int cpu = (int)(long)arg;

	pin_to(cpu);
	atomic_fetch_add(&spinning, 1);
	while (!atomic_load(&stop))
		atomic_fetch_add(&laps[cpu], 1);
	return NULL;
}

static void start_spinners(pthread_t *t)
{
	for (long cpu = 0; cpu < ncpus; cpu++)
		pthread_create(&t[cpu], NULL, spinner, (void *)cpu);
	while (atomic_load(&spinning) < ncpus)
		;
}

static int tasks_of_self(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* ---- chain ---- */

/* Exec, from a thread that is not the leader, "smp_exec chain left pid". */
static void *exec_again(void *arg)
{
	char left[16], pid[16];

	snprintf(left, sizeof(left), "%d", (int)(long)arg);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	execl(SELF, SELF, "chain", left, pid, (char *)NULL);
	perror("execl");
	exit(1);
}

/* Generation left of the chain; pid is the first one's. */
static void chain(int left, pid_t pid)
{
	int tasks = tasks_of_self();
	pthread_t t[MAX_CPUS], execer;

	if (tasks != 1 || getpid() != pid)
		printf("chain: %d execs to go: %d tasks in /proc/self/task, pid %s\n", left, tasks,
		       getpid() == pid ? "kept" : "CHANGED");
	if (left == 0) {
		printf("chain: %d execs from a thread while a sibling spun on each of the %d CPUs: "
		       "/proc/self/task has %d entry, the pid stayed\n", EXECS, ncpus, tasks);
		return;
	}
	fflush(stdout);
	start_spinners(t);
	pthread_create(&execer, NULL, exec_again, (void *)(long)(left - 1));
	for (;;)
		pause();
}

/* ---- fail ---- */

/* The execs that fail; returns the tasks in /proc/self/task after them,
 * counted while this thread lives (once joined, an exited thread can
 * still be listed for a moment: pthread_join wakes at the tid's clearing,
 * before the kernel has quite let go of it). */
static void *failing_execs(void *arg)
{
	static const char not_elf[] = "\177ELF this is not an ELF header at all, only its magic";
	char *const argv[] = { "x", NULL };
	FILE *f = fopen("/tmp/smp_exec_not_elf", "w");

	(void)arg;
	if (f) {
		fwrite(not_elf, 1, sizeof(not_elf), f);
		fclose(f);
	}
	chmod("/tmp/smp_exec_not_elf", 0755);
	execv("/", argv);
	printf("fail: execve of a directory: %s\n", ename(errno));
	execv("/nonexistent", argv);
	printf("fail: execve of a missing file: %s\n", ename(errno));
	execv("/tmp/smp_exec_not_elf", argv);
	printf("fail: execve of ELF magic and junk: %s\n", ename(errno));
	unlink("/tmp/smp_exec_not_elf");
	return (void *)(long)tasks_of_self();
}

static void fail(void)
{
	pthread_t t[MAX_CPUS], execer;
	long before[MAX_CPUS];
	int still = 0;
	void *tasks;

	start_spinners(t);
	pthread_create(&execer, NULL, failing_execs, NULL);
	pthread_join(execer, &tasks);
	for (int cpu = 0; cpu < ncpus; cpu++)
		before[cpu] = atomic_load(&laps[cpu]);
	for (int cpu = 0; cpu < ncpus; cpu++)
		while (atomic_load(&laps[cpu]) == before[cpu])
			;
	atomic_store(&stop, 1);
	for (int cpu = 0; cpu < ncpus; cpu++)
		still += pthread_join(t[cpu], NULL) == 0;
	printf("fail: then %d tasks in /proc/self/task (the leader, the execing thread, %d spinners); "
	       "all %d spinners still turning, %d joined\n", (int)(long)tasks, ncpus, ncpus, still);
}

/* ---- binfmt ---- */

#define BM_DIR "/proc/sys/fs/binfmt_misc"
#define BM_ENTRY ":smprace:E::smprace::/bin/true:"
#define RACE_FILE "/tmp/smp_exec.smprace"
#define RACE_EXECS 200

static atomic_int toggles;       /* registrations made and removed */
static atomic_int toggle_errors; /* writes that failed */

static int bm_write(const char *file, const char *s)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", BM_DIR, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/* On CPU 0: register the entry, remove it, again, until stop. */
static void *toggler(void *arg)
{
	(void)arg;
	pin_to(0);
	while (!atomic_load(&stop)) {
		if (bm_write("register", BM_ENTRY) || bm_write("smprace", "-1"))
			atomic_fetch_add(&toggle_errors, 1);
		atomic_fetch_add(&toggles, 1);
	}
	return NULL;
}

/* Fork, exec the file in the child: 0 (the interpreter ran), ENOEXEC, or
 * another wait status, printed. */
static int exec_race_file(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execl(RACE_FILE, RACE_FILE, (char *)NULL);
		_exit(errno == ENOEXEC ? 100 : 101);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 100)
		return ENOEXEC;
	printf("binfmt: an exec ended with wait status %#x\n", status);
	return -1;
}

static void binfmt(void)
{
	int fd, ran = 0, noexec = 0, other = 0;
	pthread_t t;

	if (access(BM_DIR "/register", F_OK))
		mount("binfmt_misc", BM_DIR, "binfmt_misc", 0, NULL);
	fd = open(RACE_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0 || write(fd, "neither ELF nor #!\n", 19) != 19) {
		perror(RACE_FILE);
		return;
	}
	close(fd);
	pin_to(1);
	pthread_create(&t, NULL, toggler, NULL);
	while (atomic_load(&toggles) < 1)
		;
	for (int i = 0; i < RACE_EXECS; i++) {
		int r = exec_race_file();
		ran += r == 0;
		noexec += r == ENOEXEC;
		other += r < 0;
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	bm_write("smprace", "-1"); /* if the last removal lost a race */
	unlink(RACE_FILE);
	printf("binfmt: %d execs on CPU 1 while CPU 0 registered and removed their entry: "
	       "%s; %d other results; %d failed writes to binfmt_misc\n", RACE_EXECS,
	       ran + noexec == RACE_EXECS ? "each ran the interpreter or failed with ENOEXEC" : "NOT ALL",
	       other, atomic_load(&toggle_errors));
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_proc(); /* for /proc/self/task */
	ncpus = cpus_allowed();
	if (ncpus < 2 || ncpus > MAX_CPUS) {
		printf("smp_exec: %d CPUs, needs 2 to %d\n", ncpus, MAX_CPUS);
		return 1;
	}
	if (!strcmp(what, "chain"))
		chain(argc > 2 ? atoi(argv[2]) : EXECS, argc > 3 ? atoi(argv[3]) : getpid());
	else if (!strcmp(what, "fail"))
		fail();
	else if (!strcmp(what, "binfmt"))
		binfmt();
	else {
		fprintf(stderr, "usage: smp_exec chain|fail|binfmt\n");
		return 2;
	}
	return 0;
}
