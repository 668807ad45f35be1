/*
 * sysfuzz - random system calls, to show that nothing a program does can
 * crash the kernel or leak its memory.
 *
 *   sysfuzz [-s SEED] [-n CALLS] [-p PROCS] [-v]
 *
 * Makes CALLS (default 100000) system calls with random numbers and
 * arguments from PROCS (default 4) processes at a time: the first half as
 * root, the second as uid 1000, each process shut in a scratch directory
 * (chroot /tmp/sysfuzz, with /proc mounted in it), its files at most
 * 4 MiB (RLIMIT_FSIZE: they are all in memory). The arguments come from
 * pools of what breaks kernels: boundary integers (0, -1, INT_MAX, 2^63...),
 * every flag bit, bad pointers (NULL, kernel addresses, unmapped, read-only
 * and PROT_NONE pages, strings that run into an unmapped page), huge
 * lengths, negative and closed descriptors, paths of every kind; and as
 * often good ones (a buffer of random bytes, open descriptors: files, a
 * pipe, timerfds; existing files), so that the calls get past their first
 * check. One call in eight
 * is made with random flags and segment selectors, and now and then comes
 * an rt_sigreturn on a random frame (cpufuzz.h): the CPU state a program
 * hands the kernel besides the arguments.
 *
 * Each process makes a batch of calls and exits; a process that blocks
 * (pause, a read of an empty pipe...) or loops is killed after a moment
 * and a new one takes its place. A process may hurt itself (munmap its
 * stack, close its descriptors, setuid) but nothing else: it never signals
 * another process, reboots, or makes a device node of the console, and a
 * fork-like call's child exits at once. The same SEED gives the same
 * calls (batch k of the run gets its own seed derived from SEED).
 *
 * Before and after, the free memory is measured (after a warm-up run and
 * a look at every fixed file of /proc, so that tables the kernel keeps
 * once made are counted in); the scratch
 * directory and its mounts are removed first, and so are the System V
 * shared memory segments, semaphore sets and message queues and the POSIX
 * message queues the calls made (they outlive their processes). The last line says
 *   sysfuzz: kernel alive, free memory back to baseline
 * or by how much it differs. -v logs every batch on stderr; -b FIRST-LAST
 * makes only those batches (numbered from 0 in the run, both phases), the
 * others count as done at once: a way to find the batch that does harm.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpufuzz.h"
#include "fuzz.h"
#include "leakcheck.h"

#define SCRATCH "/tmp/sysfuzz"
#define REPORT_FD 200           /* a batch reports its progress here */
#define BATCH 1000              /* calls per process */
#define REPORT_EVERY 16
#define STALL_MS 100            /* no progress for this long: kill it */
#define TICK_US 10000           /* a blocked call is interrupted this often */
#define MAX_PROCS 16
#define USER_UID 1000

/* The largest file a batch may make (RLIMIT_FSIZE). */
#define FSIZE_MAX (4UL << 20)

static int verbose;

/* ---- random numbers (rnd and below: fuzz.h) ---------------------------- */

/* A seed for batch b of a run seeded a. */
static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t x = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL);
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	return (x ^ x >> 29) | 1;
}

/* ---- argument pools ------------------------------------------------------ */

static const uint64_t boundary[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256, 511, 512,
	1023, 1024, 4095, 4096, 4097, 8192, 65535, 65536, 0x7fff, 0x8000, 0xffff,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL,
	0x8000000000000000ULL, 0xffffffffffffffffULL, 0xfffffffffffffffeULL,
	(uint64_t)-4095, (uint64_t)-4096, (uint64_t)-100 /* AT_FDCWD */,
	0x7ffffffff000ULL, 0x7fffffffffffULL, 0x800000000000ULL, 0xffff800000000000ULL,
	0xffffffff80100000ULL, 0xffffc90000000000ULL, 0x10000, 0x400000,
};

/* Paths, relative and absolute, inside the chroot; none names a device
 * node of the console nor /proc's crash switches. */
static const char *const paths[] = {
	"", ".", "..", "/", "f", "/f", "d", "d/", "d/e", "d/e/g", "d/../f", "l", "l/x",
	"loop", "p", "x", "new", "d/new", "nonexistent/x", "f/x", "//d///e",
	"/proc", "/proc/self", "/proc/self/maps", "/proc/self/status", "/proc/self/stat",
	"/proc/self/fd", "/proc/self/fd/0", "/proc/self/cwd", "/proc/self/exe",
	"/proc/self/cmdline", "/proc/self/environ", "/proc/self/mounts", "/proc/1/maps",
	"/proc/1/status", "/proc/meminfo", "/proc/uptime", "/proc/cpuinfo",
	"/proc/sys/kernel/hostname", "/proc/sys/fs/pipe-max-size", "/proc/version",
	"/proc/mounts", "/proc/filesystems",
	"proc", "tmpfs", "ramfs", "none", "ext4",
	"#!/f\n", "\177ELF",
};

static char *longpath;          /* PATH_MAX bytes and more */
static char *edge_string;       /* "aaaa..." running into an unmapped page */
static char *buf;               /* BUF_SIZE bytes of random data and pointers */
#define BUF_SIZE 65536
static char *ro_page, *none_page, *gap_page;

/* A pointer worth passing. */
static uint64_t pointer(void)
{
	switch (below(12)) {
	case 0:
		return 0;
	case 1:
		return boundary[below(sizeof(boundary) / sizeof(boundary[0]))];
	case 2:
		return (uint64_t)ro_page + below(4096);
	case 3:
		return (uint64_t)none_page + below(4096);
	case 4:
		return (uint64_t)gap_page + below(4096);
	case 5:
		return (uint64_t)edge_string + 4096 - 1 - below(16);
	case 6:
		return (uint64_t)longpath + below(64);
	case 7:
		return (uint64_t)paths[below(sizeof(paths) / sizeof(paths[0]))];
	case 8:
		return (uint64_t)buf + BUF_SIZE - below(64);
	default:
		return (uint64_t)buf + (below(BUF_SIZE / 8) & ~7ULL);
	}
}

static uint64_t argument(void)
{
	switch (below(10)) {
	case 0:
	case 1:
		return below(24);                       /* a descriptor, a small count */
	case 2:
		return boundary[below(sizeof(boundary) / sizeof(boundary[0]))];
	case 3:
		return 1ULL << below(64);               /* one flag bit */
	case 4:
		return rnd() & rnd();                   /* a few flag bits */
	case 5:
		return rnd();
	default:
		return pointer();
	}
}

/* Fill buf with random bytes, and here and there pointers and lengths, so
 * that iovecs, timespecs and pointer arrays in it hold some good values. */
static void fill_buffer(void)
{
	for (size_t i = 0; i < BUF_SIZE; i += 8) {
		uint64_t v;
		switch (below(6)) {
		case 0:
			v = pointer();
			break;
		case 1:
			v = below(4096);
			break;
		case 2:
			v = 0;
			break;
		default:
			v = rnd();
		}
		memcpy(buf + i, &v, 8);
	}
}

/* ---- one process's batch ------------------------------------------------- */

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#define CLONE_ALLOWED (0xff | CLONE_FS | CLONE_FILES | CLONE_SYSVSEM | CLONE_VFORK | \
		       CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | CLONE_PARENT_SETTID)

/*
 * Make a call safe for everyone else (not for this process): false if it
 * must not be made at all.
 */
static int tame(long nr, uint64_t a[6])
{
	for (int i = 0; i < 6; i++)
		if (a[i] == REPORT_FD)
			return 0; /* the progress pipe stays open */
	switch ((uint32_t)nr) { /* the kernel reads only the low 32 bits */
	case SYS_reboot:
	case SYS_iopl:
	case SYS_ioperm:
	case SYS_vhangup:
	case SYS_kexec_load:
	case SYS_init_module:
	case SYS_finit_module:
	case SYS_delete_module:
	case SYS_swapon:
	case SYS_swapoff:
	case SYS_acct:
	case SYS_pivot_root:
	case SYS_settimeofday:
	case SYS_clock_settime:
	case SYS_adjtimex:
	case SYS_clock_adjtime:
	case SYS_sched_setscheduler:
	case SYS_sched_setparam:
	case SYS_ptrace:
	case SYS_process_vm_writev:
	case SYS_unshare:
	case SYS_setns:
	case SYS_clone3:
	case SYS_rt_sigreturn:
		return 0;
	case SYS_kill:
	case SYS_tkill:
		if ((pid_t)a[0] != getpid())
			a[0] = 0; /* itself, or its own process group */
		return 1;
	case SYS_tgkill:
	case SYS_rt_tgsigqueueinfo:
		a[0] = a[1] = getpid();
		return 1;
	case SYS_rt_sigqueueinfo:
		a[0] = getpid();
		return 1;
	case SYS_syslog:
		return a[0] != 6 && a[0] != 8; /* the console stays as it is */
	case SYS_mknod:
	case SYS_mknodat: {
		uint64_t *dev = nr == SYS_mknod ? &a[2] : &a[3];
		unsigned major = (*dev >> 8) & 0xfff;
		if (major == 4 || major == 5)
			*dev = 0x103; /* not a tty: /dev/null */
		return 1;
	}
	case SYS_clone:
		a[0] &= CLONE_ALLOWED;
		a[1] = 0;
		return 1;
	case SYS_setpgid:
		return 0; /* its group must stay its own */
	case SYS_setrlimit:
		return (uint32_t)a[0] != RLIMIT_FSIZE; /* files stay small */
	case SYS_prlimit64:
		return (uint32_t)a[1] != RLIMIT_FSIZE;
	case SYS_exit:
	case SYS_exit_group:
		return below(8) == 0; /* or the batches would be short */
	}
	return 1;
}

static long number(void)
{
	switch (below(16)) {
	case 0:
		return (long)rnd();        /* anything: ENOSYS */
	case 1:
		return 424 + below(30);    /* the newer calls */
	case 2:
		return (long)(rnd() << 32 | below(335)); /* a call, with high bits */
	default:
		return below(335);
	}
}

static void on_tick(int sig)
{
	(void)sig;
}

static void batch(uint64_t seed, int as_user)
{
	unsigned count = 0;

	rng = seed;
	setpgid(0, 0);
	/* Files in the scratch directory live in memory: no call may fill
	 * it (a random write or fallocate of a quarter gigabyte did). */
	setrlimit(RLIMIT_FSIZE, &(struct rlimit){ FSIZE_MAX, FSIZE_MAX });
	if (chroot(SCRATCH) || chdir("/")) {
		perror("sysfuzz: chroot");
		_exit(1);
	}
	if (as_user && (setgroups(0, NULL) || setgid(USER_UID) || setuid(USER_UID))) {
		perror("sysfuzz: setuid");
		_exit(1);
	}
	for (int i = 0; i < 20; i++) {   /* some descriptors to play with */
		const char *p = paths[below(sizeof(paths) / sizeof(paths[0]))];
		open(p, below(2) ? O_RDONLY : O_RDWR | O_CREAT, 0644);
	}
	int pfd[2];
	pipe(pfd);
	/* Timers behind descriptors, for the random reads, polls, ioctls and
	 * timerfd_settime calls to find: one ticking every millisecond, one
	 * that a setting of the wall clock would cancel. */
	int tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	timerfd_settime(tfd, 0, &(struct itimerspec){ { 0, 1000000 }, { 0, 1000000 } }, NULL);
	tfd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	timerfd_settime(tfd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET,
			&(struct itimerspec){ { 1, 0 }, { time(NULL) + 1, 0 } }, NULL);
	/* A call that blocks is interrupted (EINTR) soon, unless the batch
	 * changes SIGALRM's action or its timer: then it is killed. */
	struct sigaction sa = { .sa_handler = on_tick };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, TICK_US }, { 0, TICK_US } };
	setitimer(ITIMER_REAL, &it, NULL);

	buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	none_page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	longpath = malloc(8192);
	if (buf == MAP_FAILED || ro_page == MAP_FAILED || none_page == MAP_FAILED || two == MAP_FAILED || !longpath)
		_exit(1);
	memset(two, 'a', 4096);
	munmap(two + 4096, 4096);
	edge_string = two;
	gap_page = two + 4096;
	for (int i = 0; i < 8191; i++)
		longpath[i] = i % 8 == 7 ? '/' : 'd';
	longpath[8191] = '\0';

	cpu_fuzz_init();

	for (unsigned i = 0; i < BATCH; i++) {
		uint64_t a[6];
		long nr = number(), ret;
		uint32_t low = (uint32_t)nr;
		int forks = low == SYS_fork || low == SYS_vfork || low == SYS_clone;

		if (i % 64 == 0)
			fill_buffer();
		if (below(32) == 0) {
			cpu_sigreturn(argument);
			goto done;
		}
		for (int k = 0; k < 6; k++)
			a[k] = argument();
		if (!tame(nr, a))
			continue;
		/* A fork-like call's child must not jump back into the batch. */
		if (!forks && below(8) == 0)
			ret = cpu_syscall(nr, a);
		else
			ret = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (forks && ret == 0)
			_exit(0); /* the child of a fork-like call goes no further */
		if (forks && ret > 0)
			waitpid(ret, NULL, __WALL);
	done:
		if (++count % REPORT_EVERY == 0) {
			unsigned char one = REPORT_EVERY;
			if (write(REPORT_FD, &one, 1) != 1)
				_exit(2);
		}
	}
	unsigned char rest = count % REPORT_EVERY;
	if (rest)
		write(REPORT_FD, &rest, 1);
	_exit(0);
}

/*
 * Look up every fixed file of /proc (not the processes): the kernel keeps
 * a dentry for each once looked up (fs/proc/internal.h), a cache that
 * fills once. Batches can reach this /proc as well (a chroot does not stop
 * the /proc/PID/root links), so it is filled before the first measure, as
 * the warm-up fills the kernel's other tables.
 */
static void touch_proc_tree(const char *dir, int depth)
{
	DIR *d = depth < 6 ? opendir(dir) : NULL;
	struct dirent *e;
	char path[512];
	struct stat st;

	while (d && (e = readdir(d))) {
		if ((e->d_name[0] >= '0' && e->d_name[0] <= '9') || e->d_name[0] == '.' ||
		    !strcmp(e->d_name, "self") || !strcmp(e->d_name, "thread-self"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			touch_proc_tree(path, depth + 1);
	}
	if (d)
		closedir(d);
}

/* ---- the run: processes at work, replaced as they end -------------------- */

struct worker {
	pid_t pid;
	int fd;
	long last_ms;
};

static uint64_t next_batch;
static uint64_t first_batch = 0, last_batch = UINT64_MAX; /* -b FIRST-LAST */

static void spawn(struct worker *w, uint64_t seed, int as_user)
{
	int p[2];
	uint64_t bseed = mix(seed, next_batch++);

	if (pipe(p)) {
		perror("sysfuzz: pipe");
		exit(1);
	}
	w->pid = fork();
	if (w->pid < 0) {
		perror("sysfuzz: fork");
		exit(1);
	}
	if (w->pid == 0) {
		int null = open("/dev/null", O_RDWR);
		close(p[0]);
		dup2(p[1], REPORT_FD);
		close(p[1]);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
		if (next_batch - 1 < first_batch || next_batch - 1 > last_batch) {
			unsigned char all = BATCH / 8;
			for (int k = 0; k < 8; k++)
				write(REPORT_FD, &all, 1); /* skipped: counted as done */
			_exit(0);
		}
		batch(bseed, as_user);
	}
	close(p[1]);
	w->fd = p[0];
	w->last_ms = now_ms();
	if (verbose)
		fprintf(stderr, "sysfuzz: batch %llu (seed %#llx) in pid %d\n",
			(unsigned long long)next_batch - 1, (unsigned long long)bseed, w->pid);
}

/* Reap whatever has ended (batches, and anything a batch left behind). */
static void reap(struct worker *ws, int n)
{
	pid_t pid;
	int status;
	while ((pid = waitpid(-1, &status, WNOHANG | __WALL)) > 0) {
		for (int i = 0; i < n; i++)
			if (ws[i].pid == pid)
				ws[i].pid = 0;
		if (verbose)
			fprintf(stderr, "sysfuzz: pid %d ended: %s %d\n", pid,
				WIFSIGNALED(status) ? "signal" : "exit",
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
}

static long run_phase(uint64_t seed, long calls, int procs, int as_user)
{
	struct worker ws[MAX_PROCS] = { 0 };
	long done = 0;

	for (;;) {
		struct pollfd pfds[MAX_PROCS];
		int live = 0;

		for (int i = 0; i < procs; i++) {
			if (ws[i].fd == 0 && ws[i].pid == 0 && done < calls)
				spawn(&ws[i], seed, as_user);
			pfds[i].fd = ws[i].fd ? ws[i].fd : -1;
			pfds[i].events = POLLIN;
			pfds[i].revents = 0;
			if (ws[i].fd || ws[i].pid)
				live++;
		}
		if (!live)
			return done;
		poll(pfds, procs, 20);
		for (int i = 0; i < procs; i++) {
			struct worker *w = &ws[i];
			if (!w->fd)
				continue;
			if (pfds[i].revents) {
				unsigned char b[64];
				ssize_t got = read(w->fd, b, sizeof(b));
				for (ssize_t k = 0; k < got; k++)
					done += b[k];
				if (got > 0)
					w->last_ms = now_ms();
				if (got <= 0) { /* the batch ended */
					close(w->fd);
					w->fd = 0;
				}
			} else if (now_ms() - w->last_ms > STALL_MS && w->pid) {
				kill(w->pid, SIGKILL); /* blocked or looping */
				w->last_ms = now_ms();
			}
		}
		reap(ws, procs);
	}
}

/* ---- the scratch directory ------------------------------------------------ */

/* Unmount everything mounted at or below SCRATCH, deepest first. */
static void unmount_all(void)
{
	for (int round = 0; round < 64; round++) {
		char line[512], deepest[256] = "";
		FILE *f = fopen("/proc/self/mounts", "r");
		if (!f)
			return;
		while (fgets(line, sizeof(line), f)) {
			char mp[256];
			if (sscanf(line, "%*s %255s", mp) == 1 &&
			    !strncmp(mp, SCRATCH, strlen(SCRATCH)) && strlen(mp) >= strlen(deepest))
				strcpy(deepest, mp);
		}
		fclose(f);
		if (!deepest[0] || umount2(deepest, MNT_DETACH))
			return;
	}
}

/* Remove the System V segments, semaphore sets and message queues the
 * calls made: they outlive their processes by design (ipcrm -a), so they
 * are not a leak. Each IPC_INFO says the highest index in use. */
static void remove_ipc_objects(void)
{
	struct shmid_ds shm;
	struct semid_ds sem;
	struct msqid_ds msg;
	struct seminfo seminfo;
	int max = shmctl(0, IPC_INFO, &shm);

	for (int idx = 0; idx <= max; idx++) {
		int id = shmctl(idx, SHM_STAT, &shm);
		if (id >= 0)
			shmctl(id, IPC_RMID, NULL);
	}
	max = semctl(0, 0, IPC_INFO, &seminfo);
	for (int idx = 0; idx <= max; idx++) {
		int id = semctl(idx, 0, SEM_STAT, &sem);
		if (id >= 0)
			semctl(id, 0, IPC_RMID);
	}
	max = msgctl(0, IPC_INFO, &msg);
	for (int idx = 0; idx <= max; idx++) {
		int id = msgctl(idx, MSG_STAT, &msg);
		if (id >= 0)
			msgctl(id, IPC_RMID, NULL);
	}
}

/* Remove the POSIX message queues the calls made (mq_open takes its
 * names from the paths above): they too outlive their processes. Seen
 * through a mount of the mqueue filesystem of our own. */
static void remove_mqueues(void)
{
	const char *dir = "/tmp/sysfuzz-mqueue";
	char *names[256];
	int n = 0;

	mkdir(dir, 0700);
	if (mount("none", dir, "mqueue", 0, NULL) == 0) {
		DIR *d = opendir(dir);
		struct dirent *e;
		while (d && (e = readdir(d)) && n < 256)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				names[n++] = strdup(e->d_name);
		if (d)
			closedir(d);
		for (int i = 0; i < n; i++) {
			syscall(SYS_mq_unlink, names[i]);
			free(names[i]);
		}
		umount(dir);
	}
	rmdir(dir);
}

static void scratch_remove(void)
{
	unmount_all();
	chmod(SCRATCH, 0755);
	remove_tree(SCRATCH);
	remove_ipc_objects();
	remove_mqueues();
}

static void scratch_make(void)
{
	int fd;

	scratch_remove();
	if (mkdir(SCRATCH, 0777) || chmod(SCRATCH, 0777) || mkdir(SCRATCH "/proc", 0555) ||
	    mkdir(SCRATCH "/d", 0777) || mkdir(SCRATCH "/d/e", 0777) ||
	    symlink("f", SCRATCH "/l") || symlink("loop", SCRATCH "/loop") ||
	    mkfifo(SCRATCH "/p", 0666)) {
		perror("sysfuzz: making " SCRATCH);
		exit(1);
	}
	fd = open(SCRATCH "/f", O_CREAT | O_WRONLY, 0666);
	if (fd < 0 || write(fd, "#!/f\nsome text\n", 15) != 15) {
		perror("sysfuzz: " SCRATCH "/f");
		exit(1);
	}
	close(fd);
	fd = open(SCRATCH "/x", O_CREAT | O_WRONLY, 0777);
	write(fd, "\177ELF\2\1\1", 7);
	close(fd);
	if (mount("proc", SCRATCH "/proc", "proc", 0, NULL)) {
		perror("sysfuzz: mount proc");
		exit(1);
	}
}

/* /proc/meminfo's figure for name, in kB (for -v). */
static long meminfo(const char *name)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, strlen(name)) && line[strlen(name)] == ':')
			sscanf(line + strlen(name) + 1, "%ld", &kb);
	if (f)
		fclose(f);
	return kb;
}

static long run(uint64_t seed, long calls, int procs)
{
	long done;

	next_batch = 0;
	scratch_make();
	done = run_phase(seed, calls / 2, procs, 0);
	done += run_phase(seed ^ 0x5555, calls - calls / 2, procs, 1);
	scratch_remove();
	return done;
}

int main(int argc, char *argv[])
{
	uint64_t seed = 1;
	long calls = 100000;
	int procs = 4, opt;

	while ((opt = getopt(argc, argv, "s:n:p:vb:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			calls = atol(optarg);
			break;
		case 'p':
			procs = atoi(optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		case 'b': /* only batches FIRST-LAST of the run (to find a culprit) */
			sscanf(optarg, "%llu-%llu", (unsigned long long *)&first_batch,
			       (unsigned long long *)&last_batch);
			break;
		default:
			fprintf(stderr, "usage: sysfuzz [-s SEED] [-n CALLS] [-p PROCS] [-v]\n");
			return 2;
		}
	}
	if (procs < 1 || procs > MAX_PROCS)
		procs = 4;
	setvbuf(stdout, NULL, _IONBF, 0);
	setsid(); /* no kill(0, ...) of a batch may reach init */
	mkdir("/tmp", 01777);
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL); /* for /proc/self/mounts */

	printf("sysfuzz: seed %llu, %ld calls in %d processes (root, then uid %d, in %s)\n",
	       (unsigned long long)seed, calls, procs, USER_UID, SCRATCH);
	run(seed + 1000, procs * 200, procs);          /* warm-up */
	long slab = meminfo("Slab"), pt = meminfo("PageTables"), ks = meminfo("KernelStack");
	long shmem = meminfo("Shmem");
	warm_stack();
	touch_proc_tree("/proc", 0);
	long before = settled_free_kib();
	long done = run(seed, calls, procs);
	long after = settled_free_kib();
	/* Where the memory went, for -v and whenever it did not come back. */
	if (verbose || after != before) {
		fprintf(stderr, "sysfuzz: %ld calls made; free %ld KiB before, %ld after\n", done, before, after);
		fprintf(stderr, "sysfuzz: Slab %ld -> %ld kB, PageTables %ld -> %ld kB, KernelStack %ld -> %ld kB, "
			"Shmem %ld -> %ld kB\n", slab, meminfo("Slab"), pt, meminfo("PageTables"), ks,
			meminfo("KernelStack"), shmem, meminfo("Shmem"));
	}
	if (done < calls)
		printf("sysfuzz: only %ld calls made\n", done);
	if (after == before)
		printf("sysfuzz: kernel alive, free memory back to baseline\n");
	else
		printf("sysfuzz: kernel alive, free memory differs by %ld KiB (%ld before, %ld after)\n",
		       after - before, before, after);
	return 0;
}
