/*
 * shm_leak - shared anonymous memory gives back all it took: 1000 rounds
 * of mmap(MAP_SHARED | MAP_ANONYMOUS), a write, a fork that writes too,
 * and munmap leave free memory where it was (sysfuzz found that each such
 * mapping kept its hidden file's inode for ever).
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

static long free_kib(void)
{
	struct sysinfo si;
	return sysinfo(&si) ? -1 : (long)(si.freeram * si.mem_unit / 1024);
}

static void round_trip(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return;
	}
	p[0] = 1;
	pid_t pid = fork();
	if (pid == 0) {
		p[4096] = 2;
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	if (p[4096] != 2)
		printf("shm_leak: the child's write is not seen\n");
	munmap(p, 8192);
}

int main(void)
{
	for (int i = 0; i < 20; i++)
		round_trip(); /* warm up */
	long before = free_kib();
	for (int i = 0; i < 1000; i++)
		round_trip();
	usleep(50000);
	long after = free_kib();
	if (before == after)
		printf("shm_leak: free memory before and after 1000 shared mappings: same\n");
	else
		printf("shm_leak: free memory differs by %ld KiB\n", after - before);
	return 0;
}
