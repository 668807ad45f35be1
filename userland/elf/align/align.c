/*
 * align.c - a program linked with -z max-page-size=0x200000: its PT_LOADs
 * say p_align 2 MiB, and Linux places it on a 2 MiB boundary: a PIE at
 * ELF_ET_DYN_BASE plus its random offset rounded down to 2 MiB, a
 * static-pie where mmap would put it, rounded down the same way. Built as
 * /usr/lib/exec-tests/align-gdyn (glibc PIE) and /usr/lib/exec-tests/align-spie (musl static-pie). Runs itself 8
 * times, then once with ADDR_NO_RANDOMIZE, and prints what it saw.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

extern const Elf64_Ehdr __ehdr_start;

static unsigned long child(const char *self, int norandom)
{
	int fds[2], status;
	char buf[64] = "";
	pid_t pid;

	if (pipe(fds))
		exit(1);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		if (norandom)
			personality(ADDR_NO_RANDOMIZE);
		execl(self, self, "-child", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (read(fds[0], buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return strtoul(buf, NULL, 16);
}

int main(int argc, char **argv)
{
	const Elf64_Phdr *ph = (const void *)((const char *)&__ehdr_start + __ehdr_start.e_phoff);
	unsigned long align = 0, bias, all = 1, distinct = 0, prev = 0;

	if (argc > 1) {
		printf("%lx\n", (unsigned long)&__ehdr_start);
		return 0;
	}
	for (int i = 0; i < __ehdr_start.e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_align > align)
			align = ph[i].p_align;
	for (int i = 0; i < 8; i++) {
		bias = child(argv[0], 0);
		if (!bias || (bias & (align - 1)))
			all = 0;
		distinct += bias != prev;
		prev = bias;
	}
	printf("%s: p_align %#lx; 8 runs: load bias on that boundary in all: %s, changing: %s\n",
	       argv[0], align, all ? "yes" : "no", distinct >= 7 ? "yes" : "no");
	bias = child(argv[0], 1);
	printf("%s: with ADDR_NO_RANDOMIZE: %s\n", argv[0],
	       bias == 0x555555400000UL ? "0x555555400000 (ELF_ET_DYN_BASE rounded down to 2 MiB)" :
	       (bias & (align - 1)) ? "not aligned" : "aligned, in the mmap area");
	return 0;
}
