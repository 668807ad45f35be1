/*
 * exec_limits - execve at its edges: E2BIG at the exact limits, EFAULT for
 * pointers that run into unmapped memory, ENAMETOOLONG, an empty argv, and
 * a caller that survives its failed execs with its memory intact.
 *
 *   /usr/lib/exec-tests/exec_limits
 *
 * The limits, as Linux 6.1 computes them for a process whose RLIMIT_STACK
 * is the default 8 MiB (init's, and so ours):
 *   - one string, with its NUL, at most MAX_ARG_STRLEN = 131072 bytes;
 *   - all strings (the file name too) plus 8 bytes per argv and envp
 *     pointer (an empty argv counts as one) at most 8 MiB / 4 = 2 MiB.
 * Each case runs TRUE_PATH in a child; the line says "ok" if it ran, else
 * the errno's name. Only the cases named "...1 byte over..." fail.
 *
 * efault.c already covers a bad path, argv, envp, argv[1] and envp[0];
 * here are the cases that start valid and run into an unmapped page.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARG_STRLEN 131072
#define LIMIT (8 * 1024 * 1024 / 4) /* RLIMIT_STACK / 4 */
#define TRUE_PATH "/usr/lib/exec-tests/true"
#define TRUE_SIZE sizeof(TRUE_PATH) /* with its NUL */
#define NFILL 16                    /* big strings per case */
#define PAGE 4096

static const char *errno_name(int e)
{
	switch (e) {
	case 0: return "ok";
	case ENOENT: return "ENOENT";
	case E2BIG: return "E2BIG";
	case ENOEXEC: return "ENOEXEC";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case ETXTBSY: return "ETXTBSY";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ELOOP: return "ELOOP";
	default: return "other errno";
	}
}

/* execve in a child (raw system call: no libc checks); its errno or 0. */
static int try_exec(const char *path, char *const argv[], char *const envp[])
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		syscall(SYS_execve, path, argv, envp);
		_exit(errno);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		return 1000 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static void report(const char *label, int err)
{
	if (err >= 1000)
		printf("%s: killed by signal %d\n", label, err - 1000);
	else
		printf("%s: %s\n", label, errno_name(err));
}

/* A string of len bytes without its NUL, all 'x'. */
static char *string_of(size_t len)
{
	char *s = malloc(len + 1);

	memset(s, 'x', len);
	s[len] = '\0';
	return s;
}

/*
 * Fill list[0..NFILL) with strings whose sizes, NULs included, add up to
 * total bytes: as many full MAX_ARG_STRLEN strings as fit, then the rest.
 */
static void fill(char **list, size_t total)
{
	for (int i = 0; i < NFILL; i++) {
		size_t n = total > MAX_ARG_STRLEN ? MAX_ARG_STRLEN : total;

		list[i] = string_of(n ? n - 1 : 0);
		total -= n;
	}
	list[NFILL] = NULL;
}

static void free_list(char **list)
{
	for (int i = 0; list[i]; i++)
		free(list[i]);
}

static void per_string(void)
{
	char *ok = string_of(MAX_ARG_STRLEN - 1), *over = string_of(MAX_ARG_STRLEN);
	char *argv_ok[] = { TRUE_PATH, ok, NULL }, *argv_over[] = { TRUE_PATH, over, NULL };
	char *envp_ok[] = { ok, NULL }, *envp_over[] = { over, NULL };
	char *argv0[] = { TRUE_PATH, NULL };

	report("argv[1] of 131072 bytes with its NUL", try_exec(TRUE_PATH, argv_ok, NULL));
	report("argv[1] of 131073 bytes with its NUL (1 byte over)",
	       try_exec(TRUE_PATH, argv_over, NULL));
	report("envp[0] of 131072 bytes with its NUL", try_exec(TRUE_PATH, argv0, envp_ok));
	report("envp[0] of 131073 bytes with its NUL (1 byte over)",
	       try_exec(TRUE_PATH, argv0, envp_over));
	free(ok);
	free(over);
}

/*
 * The total. The file name TRUE_PATH (TRUE_SIZE bytes) is on the new stack
 * too, and so is argv[0], the same string, when there is one.
 */
static void total(void)
{
	char *list[NFILL + 2], *argv[NFILL + 3], *argv0[] = { TRUE_PATH, NULL };
	size_t budget;

	/* argv = {TRUE_PATH, 16 strings}: 17 pointers. */
	budget = LIMIT - (1 + NFILL) * 8 - TRUE_SIZE - TRUE_SIZE;
	fill(list, budget);
	argv[0] = TRUE_PATH;
	memcpy(argv + 1, list, sizeof(char *) * (NFILL + 1));
	report("argv strings and pointers exactly at 2 MiB", try_exec(TRUE_PATH, argv, NULL));
	free_list(list);
	fill(list, budget + 1);
	memcpy(argv + 1, list, sizeof(char *) * (NFILL + 1));
	report("argv 1 byte over 2 MiB", try_exec(TRUE_PATH, argv, NULL));
	free_list(list);

	/* One more pointer, to "": 8 + 1 bytes more; take 9 off a string. */
	fill(list, budget - 9);
	memcpy(argv + 1, list, sizeof(char *) * NFILL);
	argv[NFILL + 1] = "";
	argv[NFILL + 2] = NULL;
	report("an extra \"\" paid for with 9 bytes: at 2 MiB", try_exec(TRUE_PATH, argv, NULL));
	free_list(list);
	fill(list, budget - 8);
	memcpy(argv + 1, list, sizeof(char *) * NFILL);
	report("an extra \"\" paid for with 8 bytes: 1 byte over (pointers count)",
	       try_exec(TRUE_PATH, argv, NULL));
	free_list(list);

	/* The same in envp: argv = {TRUE_PATH}, 16 environment strings. */
	fill(list, budget);
	report("envp strings and pointers exactly at 2 MiB", try_exec(TRUE_PATH, argv0, list));
	free_list(list);
	fill(list, budget + 1);
	report("envp 1 byte over 2 MiB", try_exec(TRUE_PATH, argv0, list));
	free_list(list);

	/*
	 * An empty argv counts as one pointer, and its "" (1 byte) is pushed
	 * under the same limit: budget = 2 MiB - 17 pointers - TRUE_PATH - "".
	 */
	fill(list, LIMIT - (1 + NFILL) * 8 - TRUE_SIZE - 1);
	report("argv NULL, envp at 2 MiB", try_exec(TRUE_PATH, NULL, list));
	free_list(list);
	fill(list, LIMIT - (1 + NFILL) * 8 - TRUE_SIZE - 1 + 1);
	report("argv NULL, envp 1 byte over 2 MiB", try_exec(TRUE_PATH, NULL, list));
	free_list(list);
}

/* Two pages, the second unmapped: returns the first's address. */
static char *page_before_hole(void)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	munmap(p + PAGE, PAGE);
	return p;
}

static void faults(void)
{
	char *page = page_before_hole();
	char **ptrs = (char **)(page + PAGE - 2 * sizeof(char *));
	char *argv[] = { TRUE_PATH, NULL };
	char *longname;

	/* Strings whose NUL would be in the unmapped page. */
	memset(page, '/', PAGE);
	report("path running into an unmapped page", try_exec(page + PAGE - 100, argv, NULL));
	memset(page, 'x', PAGE);
	argv[0] = page;
	report("argv[0] running into an unmapped page", try_exec(TRUE_PATH, argv, NULL));
	{
		char *envp[] = { page, NULL };
		argv[0] = TRUE_PATH;
		report("envp[0] running into an unmapped page", try_exec(TRUE_PATH, argv, envp));
	}
	/* Pointer arrays whose NULL would be in the unmapped page. */
	ptrs[0] = TRUE_PATH;
	ptrs[1] = "x";
	report("argv array running into an unmapped page", try_exec(TRUE_PATH, ptrs, NULL));
	report("envp array running into an unmapped page", try_exec(TRUE_PATH, argv, ptrs));
	{
		char *bad0[] = { (char *)1, NULL };
		report("argv[0] = 0x1", try_exec(TRUE_PATH, bad0, NULL));
	}

	/* A name of 4095 bytes resolves ("////...//" and TRUE_PATH); 4096 is
	 * too long. */
	longname = string_of(4095);
	memset(longname, '/', 4095 - strlen(TRUE_PATH));
	memcpy(longname + 4095 - strlen(TRUE_PATH), TRUE_PATH, strlen(TRUE_PATH));
	report("path of 4095 bytes", try_exec(longname, argv, NULL));
	free(longname);
	longname = string_of(4096);
	memset(longname, '/', 4096 - strlen(TRUE_PATH));
	memcpy(longname + 4096 - strlen(TRUE_PATH), TRUE_PATH, strlen(TRUE_PATH));
	report("path of 4096 bytes", try_exec(longname, argv, NULL));
	free(longname);
	munmap(page, PAGE);
}

static void empty_argv(void)
{
	char *envp[] = { "A=1", NULL };
	char *none[] = { NULL };

	printf("argv NULL:\n");
	report("  exit", try_exec("/usr/lib/exec-tests/show_info", NULL, envp));
	printf("argv {NULL}, envp NULL:\n");
	report("  exit", try_exec("/usr/lib/exec-tests/show_info", none, NULL));
}

/* ---- A failed exec leaves the caller as it was. ---- */

static unsigned char global_area[64 * 1024];

static unsigned pattern(size_t i, unsigned salt)
{
	return (unsigned char)(i * 31 + salt);
}

static void survive(void)
{
	unsigned char stack_area[16 * 1024];
	size_t heap_size = 1024 * 1024;
	unsigned char *heap = malloc(heap_size);
	char *big = string_of(MAX_ARG_STRLEN);
	char *big_argv[] = { TRUE_PATH, big, NULL }, *argv[] = { "x", NULL };
	char *bad_argv[] = { TRUE_PATH, (char *)1, NULL };
	static const struct {
		const char *path;
		int kind; /* 0 plain, 1 E2BIG, 2 EFAULT */
	} tries[] = {
		{ "/no/such/file", 0 }, { "/dev/null", 0 }, { "/tmp/exec_limits.empty", 0 },
		{ TRUE_PATH, 1 }, { TRUE_PATH, 2 }, { "./wrapper6", 0 },
		{ "/tmp/exec_limits.noint", 0 },
	};
	int fd, bad = 0;

	for (size_t i = 0; i < sizeof(global_area); i++)
		global_area[i] = pattern(i, 1);
	for (size_t i = 0; i < sizeof(stack_area); i++)
		stack_area[i] = pattern(i, 2);
	for (size_t i = 0; i < heap_size; i++)
		heap[i] = pattern(i, 3);

	fd = open("/tmp/exec_limits.empty", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	close(fd);
	fd = open("/tmp/exec_limits.noint", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	write(fd, "#!/no/such/interpreter\n", 23);
	close(fd);
	fd = open("/tmp/exec_limits.fd", O_WRONLY | O_CREAT | O_TRUNC, 0644);

	printf("in one process, without fork:\n");
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		char *const *a = tries[i].kind == 1 ? big_argv : tries[i].kind == 2 ? bad_argv : argv;
		long r = syscall(SYS_execve, tries[i].path, a, NULL);

		printf("  execve(\"%s\"%s): %ld, %s\n", tries[i].path,
		       tries[i].kind == 1 ? ", 131073-byte argv[1]" :
		       tries[i].kind == 2 ? ", argv[1] = 0x1" : "", r, errno_name(errno));
	}

	for (size_t i = 0; i < sizeof(global_area); i++)
		bad += global_area[i] != pattern(i, 1);
	for (size_t i = 0; i < sizeof(stack_area); i++)
		bad += stack_area[i] != pattern(i, 2);
	for (size_t i = 0; i < heap_size; i++)
		bad += heap[i] != pattern(i, 3);
	printf("memory after the failed execs: %s\n", bad ? "CHANGED" : "intact");
	printf("a descriptor opened before: %s\n",
	       write(fd, "x", 1) == 1 ? "still open" : "CLOSED");
	close(fd);
	unlink("/tmp/exec_limits.fd");
	unlink("/tmp/exec_limits.empty");
	unlink("/tmp/exec_limits.noint");
	free(heap);
	free(big);
}

int main(void)
{
	per_string();
	total();
	faults();
	empty_argv();
	survive();
	printf("exec_limits: done\n");
	return 0;
}
