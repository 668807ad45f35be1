/*
 * fdkinds_leak - memfds, eventfds, signalfds and timerfds give back all
 * they took: 500 rounds of a memfd written, mapped shared, sealed and
 * closed, an eventfd written, read and watched by epoll, a signalfd that
 * takes a signal, and timerfds that fire, are read, are left armed on the
 * cancel list, and are closed, leave free memory where it was.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include "leakcheck.h"

static void round_trip(void)
{
	int mfd = syscall(SYS_memfd_create, "leak", MFD_ALLOW_SEALING);
	char page[4096];
	memset(page, 'x', sizeof(page));
	write(mfd, page, sizeof(page));
	write(mfd, page, sizeof(page));
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (p != MAP_FAILED) {
		p[5000] = 1;
		munmap(p, 8192);
	}
	fcntl(mfd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SEAL);
	close(mfd);

	int efd = eventfd(1, EFD_NONBLOCK), ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN };
	uint64_t v = 2;
	epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
	write(efd, &v, 8);
	epoll_wait(ep, &ev, 1, 0);
	read(efd, &v, 8);
	close(efd);
	close(ep);

	sigset_t mask;
	struct signalfd_siginfo si;
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	int sfd = signalfd(-1, &mask, SFD_NONBLOCK);
	kill(getpid(), SIGUSR1);
	read(sfd, &si, sizeof(si));
	close(sfd);

	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	int fired = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	int armed = timerfd_create(CLOCK_REALTIME, 0);
	timerfd_settime(fired, 0, &(struct itimerspec){ { 0, 1000 }, { 0, 1 } }, NULL);
	timerfd_settime(armed, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET,
			&(struct itimerspec){ { 1, 0 }, { now.tv_sec + 100, 0 } }, NULL);
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, fired, &ev);
	epoll_wait(ep, &ev, 1, 100);
	read(fired, &v, 8);
	close(ep);
	close(fired);
	close(armed);
}

int main(void)
{
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	warm_stack();
	for (int i = 0; i < 20; i++)
		round_trip();
	long long before = settled_free_kib();
	for (int i = 0; i < 500; i++)
		round_trip();
	long long after = settled_free_kib();
	printf("fdkinds_leak: ");
	return report_free(before, after, 500, "memfd, eventfd, signalfd and timerfd rounds");
}
