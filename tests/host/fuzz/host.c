/*
 * host.c - the kernel services a parser may call, on top of libc: kmalloc
 * is malloc (so AddressSanitizer sees every object, its bounds and its
 * lifetime), printk prints nothing (a fuzzer makes millions of calls),
 * panic aborts (libFuzzer then reports the input as a crash).
 */
#include "host.h"
#include <string.h>

long host_allocs;

void *kmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p)
		host_allocs++;
	return p;
}

void *kzalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (p)
		host_allocs++;
	return p;
}

void kfree(void *p)
{
	if (p) {
		host_allocs--;
		free(p);
	}
}

char *strdup_k(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kmalloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);
	if (size) {
		size_t n = len < size - 1 ? len : size - 1;
		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

void printk(const char *fmt, ...)
{
	(void)fmt;
}

void panic(const char *fmt, ...)
{
	fprintf(stderr, "kernel panic: %s\n", fmt);
	abort();
}
