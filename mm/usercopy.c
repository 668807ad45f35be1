/*
 * usercopy.c - copy_from_user and friends: range checks around the copy
 * loops of mm/uaccess.S.
 *
 * Design notes:
 *  - A user pointer is trusted for nothing. First the whole range must lie
 *    below TASK_SIZE (so user space cannot make the kernel read or write
 *    kernel memory); that is checked here, without overflow.
 *  - Then the assembly touches the memory directly. Whether the pages are
 *    really mapped is found out the hard way, by faulting: see uaccess.S.
 *  - Strings have no known length, so their range is clipped at TASK_SIZE
 *    instead: a string that runs off the end of user space is a fault.
 */
#include <errno.h>
#include <kasan.h>
#include <uaccess.h>
#include <vm.h>

long __uaccess_copy(void *dst, const void *src, size_t n);
long __uaccess_clear(void *dst, size_t n);
long __uaccess_strncpy(char *dst, const char *src, long n);
long __uaccess_strnlen(const char *s, long n);
extern const char uaccess_begin[], uaccess_end[], uaccess_fault[];

/* Is [p, p+n) entirely in user space? */
static bool user_range_ok(const void __user *p, size_t n)
{
	uint64_t a = (uint64_t)p;
	return a <= TASK_SIZE && n <= TASK_SIZE - a;
}

int copy_from_user(void *dst, const void __user *src, size_t n)
{
	if (!user_range_ok(src, n))
		return -EFAULT;
	kasan_check_write(dst, n);
	return __uaccess_copy(dst, src, n);
}

int copy_to_user(void __user *dst, const void *src, size_t n)
{
	if (!user_range_ok(dst, n))
		return -EFAULT;
	kasan_check_read(src, n);
	return __uaccess_copy(dst, src, n);
}

int clear_user(void __user *dst, size_t n)
{
	if (!user_range_ok(dst, n))
		return -EFAULT;
	return __uaccess_clear(dst, n);
}

/* How many bytes from s may be read without leaving user space (at most n);
 * 0 if s is not a user address. */
static long user_limit(const char __user *s, long n)
{
	uint64_t a = (uint64_t)s;
	if (a >= TASK_SIZE || n <= 0)
		return 0;
	return MIN((uint64_t)n, TASK_SIZE - a);
}

long strncpy_from_user(char *dst, const char __user *src, long n)
{
	if ((uint64_t)src >= TASK_SIZE)
		return -EFAULT;
	long max = user_limit(src, n);
	long len = __uaccess_strncpy(dst, src, max);
	if (len < 0 || len < max)
		return len; /* -EFAULT, or the length of a complete string */
	/* No NUL in the first max bytes. */
	return max < n ? -EFAULT : -ENAMETOOLONG;
}

long strnlen_user(const char __user *s, long n)
{
	long max = user_limit(s, n);
	if (max == 0)
		return 0;
	long len = __uaccess_strnlen(s, max);
	if (len < 0)
		return 0;
	if (len < max)
		return len + 1; /* counting the NUL */
	return max < n ? 0 : n + 1;
}

uint64_t uaccess_fixup(uint64_t rip)
{
	if (rip >= (uint64_t)uaccess_begin && rip < (uint64_t)uaccess_end)
		return (uint64_t)uaccess_fault;
	return 0;
}
