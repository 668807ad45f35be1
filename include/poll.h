/*
 * poll.h - readiness of files, for poll, ppoll, select and pselect6
 * (fs/select.c).
 *
 * A file's ->poll method answers with a mask of the events below that hold
 * now. A task in poll or select that finds nothing ready sleeps until some
 * file may have changed: every driver whose state a poller could wait for
 * (pipes, the tty) wakes its own sleepers with poll_wakeup(chan) instead of
 * wakeup(chan), which also wakes every task sleeping in poll or select.
 * They look again at all their files. This is simpler than Linux's wait
 * queues, where a poller is queued on each file's queue, at the price of
 * waking pollers that were not interested: a fair trade on one CPU with a
 * handful of processes.
 */
#pragma once
#include <kernel.h>

/* Linux's POLL* bits (asm-generic/poll.h). */
#define POLLIN 0x0001
#define POLLPRI 0x0002
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020
#define POLLRDNORM 0x0040
#define POLLRDBAND 0x0080
#define POLLWRNORM 0x0100
#define POLLWRBAND 0x0200
#define POLLMSG 0x0400
#define POLLRDHUP 0x2000

/* What a file without a ->poll method answers: regular files, /dev/null. */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

/* wakeup(chan), and wake every task sleeping in poll or select. */
void poll_wakeup(void *chan);
