/* string.c - the C library string functions the kernel needs. */
#include <kasan.h>
#include <kernel.h>
#include <mm.h>
#include <string.h>

/*
 * The string instructions are not instrumented: KASAN (make SANITIZE=
 * kasan) checks the ranges here instead. They move eight bytes a step,
 * then the last n % 8: under QEMU's TCG each step of a rep string
 * instruction costs about the same whatever its size, and -icount counts
 * each step as an instruction (a page copied byte by byte was 4096).
 */
void *memcpy(void *dst, const void *src, size_t n)
{
	kasan_check_read(src, n);
	kasan_check_write(dst, n);
	void *d = dst; /* the rep instructions advance their copies, not ours */
	size_t quads = n / 8, rest = n % 8;

	__asm__ volatile("rep movsq\n\t"
			 "mov %3, %2\n\t"
			 "rep movsb"
			 : "+D"(d), "+S"(src), "+c"(quads)
			 : "r"(rest)
			 : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *s, int c, size_t n)
{
	void *ret = s;
	uint64_t pattern = 0x0101010101010101UL * (unsigned char)c;
	size_t quads = n / 8, rest = n % 8;

	kasan_check_write(s, n);
	__asm__ volatile("rep stosq\n\t"
			 "mov %2, %1\n\t"
			 "rep stosb"
			 : "+D"(s), "+c"(quads)
			 : "r"(rest), "a"(pattern)
			 : "memory");
	return ret;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

/* The length of the start of s that holds none of the characters of reject. */
size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
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

char *strdup_k(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kmalloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}
