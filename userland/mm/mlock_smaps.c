/*
 * mlock_smaps - locked memory and what /proc/self/smaps and status show of
 * it: mlock, mlock2(MLOCK_ONFAULT), munlock splitting an area, mlockall
 * and munlockall, MAP_LOCKED and MAP_POPULATE, a locked area that mremap
 * grows or moves with MREMAP_DONTUNMAP, fork (locks are not inherited),
 * RLIMIT_MEMLOCK without CAP_IPC_LOCK, and the smaps figures of private,
 * shared and file-backed areas. Each area's smaps entry is printed whole
 * but for its addresses, which ASLR changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096UL
#define CAP_IPC_LOCK 14
#define CAPABILITY_VERSION_3 0x20080522 /* capget/capset: 2 words of 32 bits */

/* Print the smaps entry of the area holding addr, its header without the
 * address range and inode (which change from run to run). */
static void show_area(const char *what, const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0;

	printf("== %s\n", what);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long start, end;
		char perms[8];
		unsigned long off;
		if (sscanf(line, "%lx-%lx %7s %lx", &start, &end, perms, &off) == 4) {
			in = start <= (unsigned long)addr && (unsigned long)addr < end;
			if (in)
				printf("%s %08lx size %lu\n", perms, off, (end - start) / 1024);
		} else if (in) {
			fputs(line, stdout);
		}
	}
	if (f)
		fclose(f);
	fflush(stdout);
}

/* The VmLck line of /proc/self/status. */
static void show_vmlck(const char *what)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmLck:", 6))
			printf("%s: %s", what, line);
	if (f)
		fclose(f);
	fflush(stdout);
}

static void say(const char *what, long ret)
{
	printf("%s: %ld%s%s\n", what, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
	fflush(stdout);
}

/*
 * len bytes of private anonymous memory, between two inaccessible guard
 * pages, so that it never merges with an area the C library maps next to
 * it: which anonymous areas Linux merges depends on their history (their
 * anon_vma), which this test does not study.
 */
static char *map(size_t len, int flags)
{
	char *guard = mmap(NULL, len + 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return mmap(guard + PAGE, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | flags, -1, 0);
}

static void locking(void)
{
	char *a = map(4 * PAGE, 0);
	show_area("private, untouched", a);
	a[0] = 1;
	show_area("private, one page written", a);
	say("mlock 4 pages", mlock(a, 4 * PAGE));
	show_area("locked", a);
	show_vmlck("after mlock");
	say("munlock the 2 middle pages", munlock(a + PAGE, 2 * PAGE));
	show_area("first page: still locked", a);
	show_area("middle: unlocked", a + PAGE);
	show_vmlck("after munlock");
	say("mlock again, overlapping", mlock(a, 3 * PAGE));
	show_vmlck("after the overlapping mlock");
	munlock(a, 4 * PAGE);
	show_area("all unlocked: one area again", a);

	char *b = map(4 * PAGE, 0);
	say("mlock2 ONFAULT", syscall(SYS_mlock2, b, 4 * PAGE, 1));
	show_area("lock on fault, untouched", b);
	b[PAGE] = 1;
	show_area("lock on fault, one page touched", b);
	say("mlock2 bad flags", syscall(SYS_mlock2, b, PAGE, 2));
	say("mlock of a hole", mlock(b + 4 * PAGE + 64 * PAGE, PAGE));
	munmap(b, 4 * PAGE);
	show_vmlck("after munmap of a locked area");
	munmap(a, 4 * PAGE);
}

static void mapping_flags(void)
{
	char *p = map(3 * PAGE, MAP_POPULATE);
	show_area("MAP_POPULATE", p);
	char *l = map(2 * PAGE, MAP_LOCKED);
	show_area("MAP_LOCKED", l);
	/* Moved into guarded places, for the reason map() gives. */
	char *g = mremap(l, 2 * PAGE, 6 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, map(6 * PAGE, 0));
	show_area("locked area grown by mremap", g);
	show_vmlck("after mremap");
	char *d = mremap(g, 6 * PAGE, 6 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP | MREMAP_FIXED,
			 map(6 * PAGE, 0));
	show_area("MREMAP_DONTUNMAP: the new place", d);
	show_area("MREMAP_DONTUNMAP: the old place", g);
	show_vmlck("after MREMAP_DONTUNMAP");
	munmap(d, 6 * PAGE);
	munmap(g, 6 * PAGE);
	munmap(p, 3 * PAGE);
	char *h = map(4UL << 20, 0);
	show_area("4 MiB private", h);
	munmap(h, 4UL << 20);
}

static void all_and_fork(void)
{
	say("mlockall CURRENT|FUTURE", mlockall(MCL_CURRENT | MCL_FUTURE));
	char *f = map(2 * PAGE, 0);
	show_area("mapped after MCL_FUTURE", f);
	pid_t pid = fork();
	if (pid == 0) {
		show_area("the child's copy", f);
		show_vmlck("child");
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	say("munlockall", munlockall());
	show_vmlck("after munlockall");
	show_area("after munlockall", f);
	say("mlockall ONFAULT alone", mlockall(MCL_ONFAULT));
	say("mlockall FUTURE|ONFAULT", mlockall(MCL_FUTURE | MCL_ONFAULT));
	char *o = map(2 * PAGE, 0);
	show_area("mapped after MCL_FUTURE|MCL_ONFAULT", o);
	munlockall();
	munmap(o, 2 * PAGE);
	munmap(f, 2 * PAGE);
}

static void shared_and_file(void)
{
	char *s = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int go[2];
	s[0] = s[PAGE] = 1;
	pipe(go);
	pid_t pid = fork();
	if (pid == 0) {
		show_area("shared anonymous, two processes", s);
		write(go[1], "x", 1);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	show_area("shared anonymous, one process", s);
	munmap(s, 2 * PAGE);

	int fd = open("smaps-test-file", O_RDWR | O_CREAT | O_TRUNC, 0600);
	char buf[3 * PAGE];
	memset(buf, 'x', sizeof(buf));
	write(fd, buf, sizeof(buf));
	char *r = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	volatile char c = r[0];
	(void)c;
	r[PAGE] = 'y';
	show_area("private file mapping: one page read, one written", r);
	char *w = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	w[0] = 'z';
	show_area("shared file mapping, one page written", w);
	munmap(w, 3 * PAGE);
	munmap(r, 3 * PAGE);
	close(fd);
	unlink("smaps-test-file");
}

/* Drop CAP_IPC_LOCK from the effective set, so RLIMIT_MEMLOCK counts. */
static void drop_ipc_lock(void)
{
	struct { unsigned version; int pid; } h = { CAPABILITY_VERSION_3, 0 };
	struct { unsigned effective, permitted, inheritable; } d[2];
	syscall(SYS_capget, &h, d);
	d[0].effective &= ~(1u << CAP_IPC_LOCK);
	say("capset without CAP_IPC_LOCK", syscall(SYS_capset, &h, d));
}

static void limits(void)
{
	struct rlimit r = { 4 * PAGE, 4 * PAGE };
	drop_ipc_lock();
	setrlimit(RLIMIT_MEMLOCK, &r);
	char *a = map(8 * PAGE, 0);
	say("mlock 4 pages, limit 4", mlock(a, 4 * PAGE));
	say("mlock 2 of them again", mlock(a + PAGE, 2 * PAGE));
	say("mlock a 5th page", mlock(a + 4 * PAGE, PAGE));
	say("mlock2 ONFAULT a 5th page", syscall(SYS_mlock2, a + 4 * PAGE, PAGE, 1));
	char *l = map(PAGE, MAP_LOCKED);
	say("mmap MAP_LOCKED past the limit", l == MAP_FAILED ? -1 : 0);
	say("mlockall CURRENT past the limit", mlockall(MCL_CURRENT));
	show_vmlck("after the refusals");
	munlock(a, 8 * PAGE);
	r.rlim_cur = 0;
	setrlimit(RLIMIT_MEMLOCK, &r);
	say("mlock with RLIMIT_MEMLOCK 0", mlock(a, PAGE));
	say("mlockall with RLIMIT_MEMLOCK 0", mlockall(MCL_FUTURE));
	say("munlock with RLIMIT_MEMLOCK 0", munlock(a, PAGE));
	l = map(PAGE, MAP_LOCKED);
	say("mmap MAP_LOCKED with RLIMIT_MEMLOCK 0", l == MAP_FAILED ? -1 : 0);
}

int main(void)
{
	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there already */
	locking();
	mapping_flags();
	all_and_fork();
	shared_and_file();
	limits();
	return 0;
}
