/*
 * execfuzz - execve of broken programs, to show that no file can crash
 * the kernel's exec or leak its memory.
 *
 *   execfuzz [-s SEED] [-n EXECS] [-v]
 *
 * Makes EXECS (default 10000) execs of files it mutates, in a scratch
 * directory (/tmp/execfuzz) that each exec'ing process is shut in
 * (chroot), as uid 1000:
 *   - ELF files: copies of the tests' true and hello (/true and /hello in the
 *     scratch directory) with bytes of their ELF header and
 *     program headers changed (at random, or to boundary values: 0, ~0,
 *     huge offsets and sizes, unaligned addresses, addresses in the kernel,
 *     every segment type and flag), cut short at any length, or with random
 *     bytes anywhere;
 *   - "#!" scripts: every kind of interpreter name (the mutated ELF file,
 *     another script, a directory, nothing, 300 characters), blanks, NULs,
 *     CRs, arguments, no newline, and chains of scripts up to and past the
 *     depth limit (ELOOP);
 *   - binfmt_misc registrations (if the kernel has binfmt_misc: mounted on
 *     /proc/sys/fs/binfmt_misc), mutated from templates that match the
 *     ELF file by magic or a name by extension, with every kind of
 *     interpreter and flag, each removed after its exec.
 * A program that does run gets 200 ms before its process group is killed;
 * it runs as uid 1000 with RLIMIT_NPROC 16, so it cannot harm the test.
 * The same SEED gives the same files. At the end the scratch directory is
 * removed and the free memory compared with what it was after a warm-up:
 *   execfuzz: kernel alive, free memory back to baseline
 * -v prints how the execs ended (errno, signal or exit status).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "leakcheck.h"

#define SCRATCH "/tmp/execfuzz"
#define USER_UID 1000
#define RUN_MS 200
#define MAX_FILE (1 << 20)

static int verbose;


static const uint64_t boundary[] = {
	0, 1, 2, 3, 4, 7, 8, 0x38, 0x40, 0xff, 0x100, 0xfff, 0x1000, 0x1001, 0xffff, 0x10000,
	0x200000, 0x400000, 0x401000, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
	0x7ffffffff000ULL, 0x7fffffffffffULL, 0x800000000000ULL, 0xffff800000000000ULL,
	0xffffffff80100000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
	0xfffffffffffff000ULL, 0xffffffffffffffffULL,
	/* segment types and flags */
	1, 3, 6, 0x6474e551, 0x6474e550, 0x6474e552, 5, 7,
};

/* ---- the seeds ---------------------------------------------------------- */

struct blob {
	unsigned char *data;
	size_t size;
};

static struct blob seeds[2];

static void load_seed(struct blob *b, const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || !(b->data = malloc(st.st_size)) ||
	    read(fd, b->data, st.st_size) != st.st_size) {
		fprintf(stderr, "execfuzz: cannot read %s\n", path);
		exit(1);
	}
	b->size = st.st_size;
	close(fd);
}

/* ---- mutations ------------------------------------------------------------- */

static unsigned char file[MAX_FILE];

static void put(size_t off, unsigned width, uint64_t v, size_t size)
{
	for (unsigned i = 0; i < width && off + i < size; i++)
		file[off + i] = v >> (8 * i);
}

static uint64_t get(size_t off, unsigned width, size_t size)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < width && off + i < size; i++)
		v |= (uint64_t)file[off + i] << (8 * i);
	return v;
}

/* One ELF file: a seed with a few of its header fields or bytes changed. */
static size_t mutate_elf(void)
{
	const struct blob *s = &seeds[below(2)];
	size_t size = s->size;
	/* The fields of the ELF header (offset, width) and of a program
	 * header, relative to its start. */
	static const unsigned char ehdr[][2] = {
		{ 4, 1 }, { 5, 1 }, { 6, 1 }, { 16, 2 }, { 18, 2 }, { 20, 4 }, { 24, 8 },
		{ 32, 8 }, { 40, 8 }, { 48, 4 }, { 52, 2 }, { 54, 2 }, { 56, 2 }, { 58, 2 },
	};
	static const unsigned char phdr[][2] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 40, 8 }, { 48, 8 },
	};

	memcpy(file, s->data, size);
	int n = 1 + below(3);
	for (int i = 0; i < n; i++) {
		uint64_t phoff = get(32, 8, size), phnum = get(56, 2, size);
		uint64_t v = below(3) ? boundary[below(sizeof(boundary) / 8)] : rnd();
		switch (below(8)) {
		case 0:
		case 1: {
			unsigned f = below(sizeof(ehdr) / 2);
			put(ehdr[f][0], ehdr[f][1], v, size);
			break;
		}
		case 2:
		case 3:
		case 4:
			if (phnum && phoff < size) {
				unsigned f = below(sizeof(phdr) / 2);
				put(phoff + below(phnum) * 56 + phdr[f][0], phdr[f][1], v, size);
			}
			break;
		case 5:
			file[below(phoff + phnum * 56 < size ? phoff + phnum * 56 : 64)] = rnd();
			break;
		case 6:
			size = below(size + 1); /* cut short */
			break;
		default:
			file[below(size ? size : 1)] = rnd();
		}
	}
	return size;
}

/* One "#!" script naming an interpreter of every kind. */
static size_t mutate_script(int depth)
{
	static const char *const interps[] = {
		"/e", "/e", "/e", "/s1", "/s2", "/true", "/hello", "/", "/d", "", "/nonexistent",
		"e", "../e", "/e/x", "//e", "/true\r", " /true",
	};
	size_t n = 0;

	n += sprintf((char *)file, "#!");
	for (int b = below(3); b > 0; b--)
		file[n++] = below(2) ? ' ' : '\t';
	if (below(12) == 0) {
		for (int i = 0; i < 300; i++)
			file[n++] = 'a';
	} else if (depth > 0 && below(2)) {
		n += sprintf((char *)file + n, "/s%d", depth);
	} else {
		n += sprintf((char *)file + n, "%s", interps[below(sizeof(interps) / sizeof(interps[0]))]);
	}
	if (below(2)) {
		file[n++] = below(2) ? ' ' : '\t';
		int len = below(4) ? below(20) : below(300);
		for (int i = 0; i < len; i++)
			file[n++] = below(10) ? (unsigned char)('a' + below(26)) : (unsigned char)" \t\r\0#!"[below(6)];
	}
	if (below(4))
		file[n++] = '\n';
	if (below(8) == 0) /* a stray byte anywhere in the line */
		file[below(n)] = rnd();
	n += sprintf((char *)file + n, "echo unreachable\n");
	return n;
}

/*
 * A binfmt_misc registration (":name:type:offset:magic:mask:interpreter:
 * flags"), mutated: magic that matches the mutated ELF file or not, an
 * extension, offsets past the 256 bytes, bad escapes, every interpreter
 * of the scripts' kind, the flags P, O, C, F and others. Written to
 * /proc/sys/fs/binfmt_misc/register (root: the parent does it); whether it
 * is taken (EINVAL, EEXIST, ENOENT for an F interpreter...) does not
 * matter. Returns the name the exec should run.
 */
#define BM_DIR "/proc/sys/fs/binfmt_misc"
static int have_binfmt_misc;
static unsigned bm_written, bm_taken;

static const char *mutate_binfmt_misc(void)
{
	static const char *const magics[] = {
		"\\x7fELF", "\\x7fELF\\x02\\x01", "#!", "\\x7f", "ELF", "\\x", "\\xzz",
		"\\x7fELF\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\x3e\\x00",
	};
	static const char *const interps[] = {
		"/true", "/e", "/s1", "/hello", "/nonexistent", "/d", "", SCRATCH "/true", SCRATCH "/e",
	};
	static const char *const flags[] = { "", "P", "O", "C", "F", "POCF", "Q", "\n", "PP\n\n" };
	static const char *const offsets[] = { "", "0", "1", "255", "256", "-1", "+3", "99999999999" };
	char reg[512];
	const char *run = "/e";
	int n;

	if (below(2)) {
		n = snprintf(reg, sizeof(reg), ":fz%d:M:%s:%s:%s:%s:%s", (int)below(4),
			     offsets[below(8)], magics[below(8)], below(3) ? "" : "\\xff\\x00",
			     interps[below(9)], flags[below(9)]);
	} else {
		static const char *const exts[] = { "x", "sh", "", "a/b", "e" };
		const char *ext = exts[below(5)];
		n = snprintf(reg, sizeof(reg), ":fz%d:E::%s::%s:%s", (int)below(4), ext,
			     interps[below(9)], flags[below(9)]);
		static char name[32];
		snprintf(name, sizeof(name), "/x.%s", ext);
		run = name;
		char path[64];
		snprintf(path, sizeof(path), SCRATCH "%s", name);
		if (!strchr(ext, '/'))
			link(SCRATCH "/e", path);
	}
	if (below(8) == 0)
		reg[below(n)] = rnd(); /* a stray byte */
	int fd = open(BM_DIR "/register", O_WRONLY);
	if (fd >= 0) {
		bm_written++;
		bm_taken += write(fd, reg, n) == n;
		close(fd);
	}
	return run;
}

/* Remove every binfmt_misc entry (and turn it back on, if a write of 0
 * to status turned it off). */
static void clear_binfmt_misc(void)
{
	int fd = open(BM_DIR "/status", O_WRONLY);
	if (fd >= 0) {
		write(fd, "-1", 2);
		write(fd, "1", 1);
		close(fd);
	}
}

static void write_file(const char *path, size_t size, mode_t mode)
{
	unlink(path);
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
	if (fd < 0 || (size && write(fd, file, size) != (ssize_t)size)) {
		perror(path);
		exit(1);
	}
	close(fd);
}

/* ---- one exec ----------------------------------------------------------------- */

#define OUTCOMES 300 /* errno 0..255, then signals (256 + sig), ran (299) */
static unsigned outcomes[OUTCOMES];

static void exec_one(const char *path)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC)) {
		perror("execfuzz: pipe");
		exit(1);
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("execfuzz: fork");
		exit(1);
	}
	if (pid == 0) {
		char *argv[] = { (char *)path, "arg", NULL }, *envp[] = { "A=b", NULL };
		struct rlimit nproc = { 16, 16 };
		int null = open("/dev/null", O_RDWR);

		close(p[0]);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		setpgid(0, 0);
		if (chroot(SCRATCH) || chdir("/") || setrlimit(RLIMIT_NPROC, &nproc) ||
		    setgroups(0, NULL) || setgid(USER_UID) || setuid(USER_UID))
			_exit(127);
		execve(path, argv, envp);
		int err = errno;
		write(p[1], &err, sizeof(err));
		_exit(127);
	}
	close(p[1]);
	int err = 0;
	struct pollfd pfd = { p[0], POLLIN, 0 };
	long start = now_ms();
	/* The exec's answer, or the pipe closed by a successful exec. */
	while (poll(&pfd, 1, RUN_MS) == 0 && now_ms() - start < 2 * RUN_MS)
		;
	ssize_t got = read(p[0], &err, sizeof(err));
	close(p[0]);
	if (got == sizeof(err)) {
		outcomes[err & 255]++;
	} else {
		/* It runs: give it a moment, then end it and its children. */
		int status;
		pid_t w;
		while ((w = waitpid(pid, &status, WNOHANG)) == 0 && now_ms() - start < RUN_MS)
			usleep(5000);
		kill(-pid, SIGKILL);
		if (w == 0) {
			kill(pid, SIGKILL);
			w = waitpid(pid, &status, 0);
		}
		if (w == pid)
			outcomes[WIFSIGNALED(status) ? 256 + (WTERMSIG(status) & 31) : 299]++;
		return;
	}
	waitpid(pid, NULL, 0);
}

/* ---- the run ------------------------------------------------------------------- */

static void scratch_remove(void)
{
	remove_tree(SCRATCH);
}

static void scratch_make(void)
{
	scratch_remove();
	if (mkdir(SCRATCH, 0755) || mkdir(SCRATCH "/d", 0755)) {
		perror("execfuzz: " SCRATCH);
		exit(1);
	}
	memcpy(file, seeds[0].data, seeds[0].size);
	write_file(SCRATCH "/true", seeds[0].size, 0755);
	memcpy(file, seeds[1].data, seeds[1].size);
	write_file(SCRATCH "/hello", seeds[1].size, 0755);
}

static void run(uint64_t seed, long execs)
{
	rng = seed;
	scratch_make();
	for (long i = 0; i < execs; i++) {
		/* A mutated ELF file at /e, and scripts /s1 .. /s7 above it
		 * (which use the last /e made). */
		if (i == 0 || below(2)) {
			write_file(SCRATCH "/e", mutate_elf(), below(8) ? 0755 : below(0777));
			exec_one("/e");
			continue;
		}
		int depth = 1 + below(7);
		for (int d = depth; d >= 1; d--) {
			char name[32];
			snprintf(name, sizeof(name), SCRATCH "/s%d", d);
			write_file(name, mutate_script(d < depth ? d + 1 : 0), 0755);
		}
		if (have_binfmt_misc && below(3) == 0) {
			const char *run = mutate_binfmt_misc();
			exec_one(below(2) ? run : "/s1");
			clear_binfmt_misc();
			continue;
		}
		exec_one("/s1");
	}
	kill(-1, SIGKILL); /* whatever a program left running (all uid 1000) */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	scratch_remove();
}

int main(int argc, char *argv[])
{
	uint64_t seed = 1;
	long execs = 10000;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			execs = atol(optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: execfuzz [-s SEED] [-n EXECS] [-v]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	setsid();
	signal(SIGPIPE, SIG_IGN);
	mkdir("/tmp", 01777);
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL);
	if (mount("binfmt_misc", BM_DIR, "binfmt_misc", 0, NULL) == 0 || errno == EBUSY)
		have_binfmt_misc = access(BM_DIR "/register", F_OK) == 0;
	load_seed(&seeds[0], "/usr/lib/exec-tests/true");
	load_seed(&seeds[1], "/usr/lib/exec-tests/hello");

	printf("execfuzz: seed %llu, %ld execs of mutated ELF files, #! scripts%s "
	       "(as uid %d, in %s)\n", (unsigned long long)seed, execs,
	       have_binfmt_misc ? " and binfmt_misc entries" : "", USER_UID, SCRATCH);
	run(seed + 1000, 100); /* warm-up */
	memset(outcomes, 0, sizeof(outcomes));
	bm_written = bm_taken = 0;
	warm_stack();
	long before = settled_free_kib();
	run(seed, execs);
	long after = settled_free_kib();
	if (verbose) {
		for (int i = 0; i < OUTCOMES; i++) {
			if (!outcomes[i])
				continue;
			if (i < 256)
				fprintf(stderr, "  exec failed: %-30s %u\n", strerror(i), outcomes[i]);
			else if (i < 299)
				fprintf(stderr, "  ran, killed by signal %-3d %u\n", i - 256, outcomes[i]);
			else
				fprintf(stderr, "  ran and exited          %u\n", outcomes[i]);
		}
		fprintf(stderr, "execfuzz: %u binfmt_misc registrations, %u taken\n", bm_written, bm_taken);
		fprintf(stderr, "execfuzz: free %ld KiB before, %ld after\n", before, after);
	}
	if (after == before)
		printf("execfuzz: kernel alive, free memory back to baseline\n");
	else
		printf("execfuzz: kernel alive, free memory differs by %ld KiB (%ld before, %ld after)\n",
		       after - before, before, after);
	return 0;
}
