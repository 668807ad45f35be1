/*
 * user_namespace.h - what a user holds across all its processes, counted
 * against its rlimits (kernel/ucount.c; Linux's ucounts): the signals its
 * POSIX timers have ready (RLIMIT_SIGPENDING) and the bytes its POSIX
 * message queues may hold (RLIMIT_MSGQUEUE). Counted by real uid, as Linux
 * counts them (there is one user namespace). System calls only: a count
 * is kmalloc'd the first time a user needs one and freed when all are 0.
 */
#pragma once
#include <kernel.h>

enum ucount_type {
	UCOUNT_RLIMIT_SIGPENDING,
	UCOUNT_RLIMIT_MSGQUEUE,
	UCOUNT_RLIMIT_COUNTS,
};

/* Add v to uid's count of type if the total stays within max (the
 * caller's rlimit): true, or false with nothing added (over the limit, or
 * no memory for a new user's counts). */
bool inc_rlimit_ucounts_max(uid_t uid, enum ucount_type type, uint64_t v, uint64_t max);
/* Give back what inc_rlimit_ucounts_max added. */
void dec_rlimit_ucounts(uid_t uid, enum ucount_type type, uint64_t v);
/* uid's count now (0 for a user with none). */
uint64_t get_rlimit_ucount(uid_t uid, enum ucount_type type);
