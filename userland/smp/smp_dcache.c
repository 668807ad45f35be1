/*
 * smp_dcache - opens and execs by name on CPU 1 while CPU 0 renames a
 * directory on the way back and forth and replaces the file at its end.
 * The kernel walks names the dcache holds without the big kernel lock
 * (fs/namei.c, walk_cached), so the walk and the renames run at once:
 * each open must find the file, with its content, or fail with ENOENT
 * (the directory was away); each exec must run the program or fail with
 * ENOENT; nothing else, and the kernel lives.
 *
 * Needs 2 CPUs and a writable /tmp.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cpus.h"
#include "exectest.h"

#define DIR "/tmp/smp_dcache"
#define OPENS 20000
#define EXECS 200
#define PROG "/usr/lib/exec-tests/true"

static atomic_int done;

/* Make the file anew under another name and put it in place at once. */
static void replace_file(void)
{
	int fd = open(DIR "/new", O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, "x", 1) != 1) {
		perror("smp_dcache: " DIR "/new");
		exit(1);
	}
	close(fd);
	if (rename(DIR "/new", DIR "/a/b/file") < 0)
		rename(DIR "/new", DIR "/away/b/file"); /* a is away now */
}

static void *renamer(void *arg)
{
	(void)arg;
	pin_to(0);
	for (int i = 0; !atomic_load(&done); i++) {
		if (rename(DIR "/a", DIR "/away") < 0 || rename(DIR "/away", DIR "/a") < 0) {
			perror("smp_dcache: rename");
			exit(1);
		}
		if (i % 8 == 0)
			replace_file();
	}
	return NULL;
}

/* Open the file by name over and over: how many opens went otherwise
 * than "found, content x" or ENOENT. */
static int open_many(void)
{
	int wrong = 0;

	for (int i = 0; i < OPENS; i++) {
		int fd = open(DIR "/a/b/file", O_RDONLY);
		char c = 0;
		if (fd < 0) {
			wrong += errno != ENOENT;
			continue;
		}
		wrong += read(fd, &c, 1) != 1 || c != 'x';
		close(fd);
	}
	return wrong;
}

/* Exec the program by name: how many ended otherwise than run (0) or
 * ENOENT (the child says 100). */
static int exec_many(void)
{
	int wrong = 0;

	for (int i = 0; i < EXECS; i++) {
		int status;
		pid_t pid = fork();
		if (pid == 0) {
			execl(DIR "/a/b/prog", "prog", (char *)NULL);
			_exit(errno == ENOENT ? 100 : 101);
		}
		waitpid(pid, &status, 0);
		wrong += !WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 100);
	}
	return wrong;
}

int main(void)
{
	pthread_t t;

	if (cpus_allowed() < 2) {
		printf("smp_dcache: needs 2 CPUs, has %d\n", cpus_allowed());
		return 1;
	}
	mkdir(DIR, 0755);
	mkdir(DIR "/a", 0755);
	mkdir(DIR "/a/b", 0755);
	replace_file();
	copy_file(PROG, DIR "/a/b/prog", 0755);
	pin_to(1);
	pthread_create(&t, NULL, renamer, NULL);
	int opens_wrong = open_many(), execs_wrong = exec_many();
	atomic_store(&done, 1);
	pthread_join(t, NULL);
	printf("smp_dcache: %d opens while a directory on the way was renamed back and forth: "
	       "%d neither found the file nor said ENOENT\n", OPENS, opens_wrong);
	printf("smp_dcache: %d execs meanwhile: %d neither ran nor said ENOENT\n", EXECS, execs_wrong);
	unlink(DIR "/a/b/file");
	unlink(DIR "/a/b/prog");
	rmdir(DIR "/a/b");
	rmdir(DIR "/a");
	printf("smp_dcache: cleaned up: %s\n", rmdir(DIR) == 0 ? "yes" : "no");
	return 0;
}
