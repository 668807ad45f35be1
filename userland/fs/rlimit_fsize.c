/*
 * rlimit_fsize - RLIMIT_FSIZE, compared with Linux: a write is cut to end
 * at the limit, one that starts there fails with EFBIG and SIGXFSZ, as do
 * a truncate or fallocate that would grow the file past it; shrinking,
 * writes of nothing, pipes and devices are not limited; the signal's
 * default action ends the process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIMIT 10000

static volatile int signals;
static char buf[16384];

static void on_xfsz(int sig)
{
	(void)sig;
	signals++;
}

static void show(const char *what, long ret)
{
	printf("%-36s %s%ld, SIGXFSZ so far %d\n", what, ret < 0 ? "error " : "", ret < 0 ? (long)errno : ret,
	       signals);
}

int main(void)
{
	struct rlimit rl = { LIMIT, LIMIT };
	int fd, p[2], st;

	signal(SIGXFSZ, on_xfsz);
	setrlimit(RLIMIT_FSIZE, &rl);
	printf("EFBIG is %d\n", EFBIG);
	fd = open("/tmp/fsize", O_CREAT | O_TRUNC | O_RDWR, 0644);
	show("write 8000", write(fd, buf, 8000));
	show("write 8000 more (cut)", write(fd, buf, 8000));
	show("write 1 at the limit", write(fd, buf, 1));
	show("write 0 at the limit", write(fd, buf, 0));
	show("pwrite 10 at 20000", pwrite(fd, buf, 10, 20000));
	show("pwrite 10 at 9995 (cut)", pwrite(fd, buf, 10, 9995));
	show("ftruncate to 20000", ftruncate(fd, 20000));
	show("ftruncate to 5000", ftruncate(fd, 5000));
	show("ftruncate to 10000", ftruncate(fd, 10000));
	show("truncate to 10001", truncate("/tmp/fsize", 10001));
	close(fd);
	fd = open("/tmp/fsize", O_WRONLY | O_APPEND);
	show("O_APPEND write at the limit", write(fd, buf, 5));
	close(fd);
	unlink("/tmp/fsize");

	fd = memfd_create("fsize", 0);
	show("memfd fallocate 0..20000", fallocate(fd, 0, 0, 20000));
	show("memfd fallocate KEEP_SIZE 0..20000", fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 20000));
	show("memfd fallocate 0..9000", fallocate(fd, 0, 0, 9000));
	close(fd);

	pipe(p);
	fcntl(p[1], F_SETPIPE_SZ, 65536);
	show("pipe write 16384", write(p[1], buf, sizeof(buf)));
	fd = open("/dev/null", O_WRONLY);
	show("/dev/null write 16384", write(fd, buf, sizeof(buf)));

	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGXFSZ, SIG_DFL);
		fd = open("/tmp/fsize2", O_CREAT | O_WRONLY, 0644);
		pwrite(fd, buf, 1, LIMIT);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	unlink("/tmp/fsize2");
	printf("default action: %s %d\n", WIFSIGNALED(st) ? "killed by signal" : "exit",
	       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	return 0;
}
