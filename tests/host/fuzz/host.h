/*
 * host.h - what the fuzz harnesses share: the libc functions they use
 * (declared by hand: the kernel's own headers come first, with
 * -nostdinc), and the kernel services of host.c.
 */
#pragma once
#include <kernel.h>

void *malloc(size_t n);
void *calloc(size_t n, size_t m);
void *realloc(void *p, size_t n);
void *memchr(const void *s, int c, size_t n);
void free(void *p);
void abort(void) __attribute__((noreturn));
int printf(const char *fmt, ...);
int fprintf(void *stream, const char *fmt, ...);
extern void *stderr;

/* A failed check: print it and abort, which libFuzzer reports as a crash
 * with the input that caused it. */
#define CHECK(cond)                                                              \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,   \
				__LINE__, #cond);                                \
			abort();                                                 \
		}                                                                \
	} while (0)

/* Bytes kmalloc'd and not yet freed (host.c): a parser must give back all
 * it took, on every path. */
extern long host_allocs;
