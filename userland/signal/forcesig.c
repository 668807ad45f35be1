/*
 * forcesig - a fault whose signal the program blocks or ignores, or that
 * happens inside the handler of that signal, kills the process (Linux's
 * force_sig_fault): it must not run the faulting instruction forever.
 * Each case runs in a child; the parent prints how the child ended. Also
 * the siginfo of a handled fault (si_code, si_addr).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int *volatile null_ptr;
static volatile int zero;

static void segv(void) { *null_ptr = 1; }
static void ill(void) { __asm__ volatile("ud2"); }
static void fpe(void)
{
	int d = zero;
	__asm__ volatile("cltd; idivl %1" : "+a"(d) : "r"(d) : "edx"); /* 0 / 0 */
}

static void bus(void)
{
	int fd = open("/tmp/forcesig.bus", O_RDWR | O_CREAT | O_TRUNC, 0600);
	write(fd, "x", 1);
	volatile char *p = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
	(void)p[4096]; /* past the end of the file */
}

static void block(int sig)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_BLOCK, &s, NULL);
}

static void faulting_handler(int sig)
{
	(void)sig;
	*null_ptr = 2; /* SIGSEGV is blocked while its handler runs */
}

static void *thread_fault(void *arg)
{
	(void)arg;
	segv();
	return NULL;
}

static void run(const char *what, void (*prepare)(int), int sig, void (*fault)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		alarm(10); /* a loop forever would end as SIGALRM */
		prepare(sig);
		fault();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("%s: killed by signal %d\n", what, WTERMSIG(status));
	else
		printf("%s: exit status %d\n", what, WEXITSTATUS(status));
	fflush(stdout);
}

static void do_block(int sig) { block(sig); }
static void do_ignore(int sig) { signal(sig, SIG_IGN); }
static void do_faulting_handler(int sig) { signal(sig, faulting_handler); }
static void do_thread_blocked(int sig)
{
	pthread_t th;
	block(sig);
	pthread_create(&th, NULL, thread_fault, NULL);
	pthread_join(th, NULL);
}
static void nothing(void) {}

static sigjmp_buf jb;
static volatile int got_code;
static void *volatile got_addr;

static void catcher(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	got_code = si->si_code;
	got_addr = si->si_addr;
	siglongjmp(jb, 1);
}

int main(void)
{
	run("SIGSEGV blocked, NULL store", do_block, SIGSEGV, segv);
	run("SIGSEGV ignored, NULL store", do_ignore, SIGSEGV, segv);
	run("SIGSEGV handler that faults itself", do_faulting_handler, SIGSEGV, segv);
	run("SIGILL blocked, ud2", do_block, SIGILL, ill);
	run("SIGILL ignored, ud2", do_ignore, SIGILL, ill);
	run("SIGFPE blocked, divide by zero", do_block, SIGFPE, fpe);
	run("SIGFPE ignored, divide by zero", do_ignore, SIGFPE, fpe);
	run("SIGBUS blocked, a page past the end of a file", do_block, SIGBUS, bus);
	run("SIGBUS ignored, a page past the end of a file", do_ignore, SIGBUS, bus);
	run("SIGSEGV blocked in a thread that faults", do_thread_blocked, SIGSEGV, nothing);

	struct sigaction sa = { .sa_sigaction = catcher, .sa_flags = SA_SIGINFO };
	sigaction(SIGSEGV, &sa, NULL);
	volatile int *volatile at8 = (int *)8;
	if (sigsetjmp(jb, 1) == 0)
		*at8 = 1;
	printf("handled SIGSEGV at address 8: si_code %s, si_addr %s\n",
	       got_code == SEGV_MAPERR ? "SEGV_MAPERR" : "other",
	       got_addr == (void *)8 ? "8" : "other");
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sigsetjmp(jb, 1) == 0)
		*(volatile char *)(ro + 16) = 1;
	printf("handled SIGSEGV writing a read-only page: si_code %s, si_addr %s\n",
	       got_code == SEGV_ACCERR ? "SEGV_ACCERR" : "other",
	       got_addr == ro + 16 ? "the address written" : "other");
	return 0;
}
