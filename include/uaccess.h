/*
 * uaccess.h - moving data across the user/kernel boundary.
 *
 * Every pointer a system call receives from user space goes through these
 * functions. They check that the range lies below TASK_SIZE and survive a
 * fault: a bad pointer gives -EFAULT, never a kernel crash.
 */
#pragma once
#include <kernel.h>

/* 0 on success, -EFAULT if any byte could not be accessed. */
int copy_from_user(void *dst, const void __user *src, size_t n);
int copy_to_user(void __user *dst, const void *src, size_t n);
int clear_user(void __user *dst, size_t n);

/*
 * Copy a NUL-terminated string of at most n bytes (n includes the NUL).
 * Returns its length without the NUL, -EFAULT, or -ENAMETOOLONG if no NUL
 * was found within n bytes.
 */
long strncpy_from_user(char *dst, const char __user *src, long n);
/*
 * Linux's strnlen_user: the string's length including its NUL; 0 on a
 * fault; a value greater than n if there is no NUL within n bytes.
 */
long strnlen_user(const char __user *s, long n);

/*
 * The user address of a field of a user struct. A user may pass a struct at
 * any address, and in C `&p->member` on a misaligned p is undefined, so the
 * field is reached by its byte offset.
 */
#define user_member(ptr, type, member) \
	((void __user *)((char __user *)(ptr) + offsetof(type, member)))

static inline int get_user_u64(uint64_t *dst, const void __user *src)
{
	return copy_from_user(dst, src, sizeof(*dst));
}
static inline int put_user_u64(uint64_t v, void __user *dst)
{
	return copy_to_user(dst, &v, sizeof(v));
}
static inline int put_user_u32(uint32_t v, void __user *dst)
{
	return copy_to_user(dst, &v, sizeof(v));
}

/* Used by the page-fault handler: if rip is inside a user-copy routine,
 * returns where to resume (the routine's -EFAULT exit), else 0. */
uint64_t uaccess_fixup(uint64_t rip);
