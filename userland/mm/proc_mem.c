/*
 * proc_mem - /proc/PID/mem as a debugger uses it: reading and writing a
 * process's memory at an address, through protections (a read-only page
 * gets the process's own copy, PROT_NONE memory reads), EIO where nothing
 * is mapped, a transfer cut short at the first unmapped page, [vvar] out
 * of reach, a shared read-only mapping not writable, lseek's rules,
 * another process's memory (and nothing once it is gone), and the
 * ptrace-mode check at open for another user.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096UL

static const char rodata_text[] = "read-only text";

static void report(const char *what, long r)
{
	if (r < 0)
		printf("%-40s %s\n", what, strerror(errno));
	else
		printf("%-40s %ld\n", what, r);
}

/* The start of the area /proc/self/maps calls name, or 0. */
static unsigned long area_of(const char *name)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long start = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, name)) {
			sscanf(line, "%lx", &start);
			break;
		}
	if (f)
		fclose(f);
	return start;
}

static void own_memory(int fd)
{
	char buf[64] = "";

	report("pread rodata", pread(fd, buf, sizeof(rodata_text), (long)rodata_text));
	printf("  read: %s\n", buf);
	report("pwrite rodata", pwrite(fd, "READ", 4, (long)rodata_text));
	printf("  now: %s\n", rodata_text);

	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	strcpy(p, "hidden");
	mprotect(p, PAGE, PROT_NONE);
	memset(buf, 0, sizeof(buf));
	report("pread PROT_NONE", pread(fd, buf, 7, (long)p));
	printf("  read: %s\n", buf);
	munmap(p + 2 * PAGE, PAGE);
	report("pread across the end", pread(fd, buf, 20, (long)(p + 2 * PAGE - 8)));
	report("pread unmapped", pread(fd, buf, 8, (long)(p + 2 * PAGE)));
	report("pwrite unmapped", pwrite(fd, "x", 1, (long)(p + 2 * PAGE)));
	report("pread address 0", pread(fd, buf, 8, 0));
	report("pread bad buffer", pread(fd, (void *)8, 8, (long)rodata_text));

	unsigned long vvar = area_of("[vvar]"), vdso = area_of("[vdso]");
	report("pread [vvar]", vvar ? pread(fd, buf, 4, vvar) : -1);
	report("pread [vdso]", vdso ? pread(fd, buf, 4, vdso) : -1);
	printf("  vdso magic: %.3s\n", buf + 1);

	report("lseek SEEK_SET", lseek(fd, 0x12345000, SEEK_SET) == 0x12345000);
	report("lseek SEEK_CUR", lseek(fd, 0x10, SEEK_CUR) == 0x12345010);
	report("lseek SEEK_END", lseek(fd, 0, SEEK_END));
}

/* A shared mapping of a file opened read-only is not written through. */
static void shared_readonly(int fd)
{
	int f = open("/tmp/proc_mem_file", O_CREAT | O_RDWR | O_TRUNC, 0644);
	char page[PAGE] = "file text";

	write(f, page, PAGE);
	close(f);
	f = open("/tmp/proc_mem_file", O_RDONLY);
	char *m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, f, 0);
	report("pwrite shared read-only file", pwrite(fd, "X", 1, (long)m));
	char *q = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, f, 0);
	report("pwrite private read-only file", pwrite(fd, "X", 1, (long)q));
	printf("  private now %.9s, shared still %.9s\n", q, m);
	close(f);
	unlink("/tmp/proc_mem_file");
}

/* Another process's memory, and none once it has exited. */
static void child_memory(void)
{
	static char message[32] = "child's message";
	int ready[2], go[2];
	char path[64], buf[32] = "", c;

	pipe(ready);
	pipe(go);
	pid_t pid = fork();
	if (pid == 0) {
		strcpy(message, "changed by child");
		write(ready[1], "r", 1);
		read(go[0], &c, 1);
		_exit(message[0] == 'C' ? 7 : 1);
	}
	read(ready[0], &c, 1);
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	int fd = open(path, O_RDWR);
	report("open child's mem", fd >= 0 ? 0 : -1);
	report("pread child", pread(fd, buf, 17, (long)message));
	printf("  read: %s\n", buf);
	report("pwrite child", pwrite(fd, "C", 1, (long)message));
	write(go[1], "g", 1);
	int status;
	waitpid(pid, &status, 0);
	printf("  child exited %d\n", WEXITSTATUS(status));
	report("pread after exit", pread(fd, buf, 4, (long)message));
	close(fd);
}

/* Another user may not open root's processes' memory, but its own. */
static void other_user(void)
{
	if (fork() == 0) {
		setgid(1000);
		setuid(1000);
		report("uid 1000 opens /proc/1/mem", open("/proc/1/mem", O_RDONLY));
		int fd = open("/proc/self/mem", O_RDONLY);
		report("uid 1000 opens its own", fd >= 0 ? 0 : -1);
		_exit(0);
	}
	wait(NULL);
}

int main(void)
{
	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there already */
	int fd = open("/proc/self/mem", O_RDWR);
	if (fd < 0) {
		perror("open /proc/self/mem");
		return 1;
	}
	own_memory(fd);
	shared_readonly(fd);
	close(fd);
	child_memory();
	other_user();
	return 0;
}
