/*
 * fuzz.h - what the in-guest fuzzers (userland/hardening/sysfuzz.c,
 * execfuzz.c) share: a seeded random number generator, so that a seed
 * replays a run; a monotonic clock in milliseconds; and removing a scratch
 * directory tree.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <ftw.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* xorshift64*: set rng to a non-zero seed, then call rnd(). */
static uint64_t rng;

static inline uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

/* A random number below n (0 for n == 0). */
static inline uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static inline long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (flag == FTW_DP || flag == FTW_D)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove dir and everything below it, without following symlinks. */
static inline void remove_tree(const char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	rmdir(dir);
}

#endif
