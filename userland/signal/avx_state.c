/*
 * avx_state - the AVX registers belong to each program: the kernel
 * enables them (XCR0), keeps them across task switches, and a signal
 * frame holds them in Linux's XSAVE layout, which a handler may read and
 * change before rt_sigreturn loads it back.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define FP_XSTATE_MAGIC1 0x46505853U
#define FP_XSTATE_MAGIC2 0x46505845U
#define UC_FP_XSTATE 0x1
#define YMM_HI_OFFSET 576 /* XSAVE's AVX component: ymm0-15's upper halves */

struct sw_bytes {
	uint32_t magic1, extended_size;
	uint64_t xfeatures;
	uint32_t xstate_size, padding[7];
};

static void set_ymm0(uint64_t v)
{
	uint64_t q[4] = { v, v + 1, v + 2, v + 3 };
	__asm__ volatile("vmovdqu %0, %%ymm0" ::"m"(q) : "xmm0");
}

static uint64_t ymm0_word(int i)
{
	uint64_t q[4];
	__asm__ volatile("vmovdqu %%ymm0, %0" : "=m"(q));
	return q[i];
}

static void handler(int sig, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;
	uint8_t *fp = (uint8_t *)uc->uc_mcontext.fpregs;
	struct sw_bytes sw;
	uint64_t hi[2];
	uint32_t magic2;

	(void)sig, (void)info;
	memcpy(&sw, fp + 464, sizeof(sw));
	memcpy(hi, fp + YMM_HI_OFFSET, sizeof(hi));
	memcpy(&magic2, fp + sw.xstate_size, sizeof(magic2));
	printf("uc_flags has UC_FP_XSTATE: %s\n", uc->uc_flags & UC_FP_XSTATE ? "yes" : "no");
	printf("fpstate 64-byte aligned: %s\n", (uintptr_t)fp % 64 ? "no" : "yes");
	printf("magic1 %s, extended_size = xstate_size + 4: %s, magic2 %s\n",
	       sw.magic1 == FP_XSTATE_MAGIC1 ? "ok" : "wrong",
	       sw.extended_size == sw.xstate_size + 4 ? "yes" : "no",
	       magic2 == FP_XSTATE_MAGIC2 ? "ok" : "wrong");
	printf("xfeatures has x87, SSE, AVX: %s\n", (sw.xfeatures & 7) == 7 ? "yes" : "no");
	printf("XSTATE_BV has AVX: %s\n", *(uint64_t *)(fp + 512) & 4 ? "yes" : "no");
	printf("ymm0's upper half in the frame: %#lx %#lx\n", (unsigned long)hi[0], (unsigned long)hi[1]);
	set_ymm0(0x9999); /* the handler's own use of the register */
	hi[0] = 0x1234;   /* and a change the sigreturn must load */
	memcpy(fp + YMM_HI_OFFSET, hi, sizeof(hi));
}

/* Each of two processes keeps its own ymm0 while they take turns. */
static void switches(void)
{
	int ping[2], pong[2];
	char c;
	pipe(ping);
	pipe(pong);
	pid_t pid = fork();
	uint64_t mine = pid ? 0x1000 : 0x2000;
	set_ymm0(mine);
	for (int i = 0; i < 20; i++) {
		if (pid) {
			write(ping[1], "x", 1);
			read(pong[0], &c, 1);
		} else {
			read(ping[0], &c, 1);
			write(pong[1], "x", 1);
		}
		if (ymm0_word(3) != mine + 3) {
			printf("%s: ymm0 lost after %d switches\n", pid ? "parent" : "child", i);
			break;
		}
	}
	if (!pid) {
		printf("child: ymm0 kept across switches: %s\n", ymm0_word(3) == mine + 3 ? "yes" : "no");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("parent: ymm0 kept across switches: %s\n", ymm0_word(3) == mine + 3 ? "yes" : "no");
}

int main(void)
{
	unsigned a, b, c, d, lo, hi;
	struct sigaction sa = { 0 };

	__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 28)) || !(c & (1u << 27))) {
		printf("AVX or OSXSAVE missing\n");
		return 1;
	}
	__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	printf("XCR0 enables x87, SSE, AVX: %s\n", (lo & 7) == 7 ? "yes" : "no");
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	set_ymm0(0x5000);
	raise(SIGUSR1);
	printf("after the handler: ymm0 = %#lx %#lx %#lx %#lx\n", (unsigned long)ymm0_word(0),
	       (unsigned long)ymm0_word(1), (unsigned long)ymm0_word(2), (unsigned long)ymm0_word(3));
	fflush(stdout);
	switches();
	return 0;
}
