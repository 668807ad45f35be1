/*
 * kernel.h - what every kernel file needs: basic types, helpers, printk.
 *
 * The kernel is freestanding: <stddef.h>, <stdint.h>, <stdbool.h> and
 * <stdarg.h> come from the compiler, everything else is ours.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int64_t ssize_t;
typedef int64_t off_t;
typedef int64_t loff_t;
typedef uint32_t mode_t;
typedef uint32_t uid_t;
typedef uint32_t gid_t;
typedef uint64_t dev_t;
typedef uint64_t ino_t;
typedef int pid_t;

/* Marks a pointer that came from user space: never dereference it directly. */
#define __user

#define PAGE_SIZE 4096UL
#define PAGE_SHIFT 12
#define PAGE_MASK (~(PAGE_SIZE - 1))

/* The kernel image runs in the top 2 GiB; all physical memory is also
 * mapped linearly at PHYS_MAP_BASE (the "direct map"). */
#define KERNEL_VMA 0xffffffff80000000UL
#define PHYS_MAP_BASE 0xffff800000000000UL

#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define ALIGN_UP(x, a) ALIGN_DOWN((x) + (a) - 1, (a))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __noreturn __attribute__((noreturn))
#define __packed __attribute__((packed))
#define __unused __attribute__((unused))

/* The value of one hex digit, or -1 if c is not one (as Linux's). */
static inline int hex_to_bin(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Strict text-to-integer conversions, Linux's rules (lib/kstrtox.c says
 * them): 0 or -EINVAL or -ERANGE, and *res written only on success. */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtoint(const char *s, unsigned int base, int *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);

/*
 * printk levels, as Linux: a message starts with KERN_xxx. With "quiet" on
 * the command line only messages more urgent than KERN_WARNING reach the
 * console (Linux's loglevel 4), otherwise everything up to KERN_INFO.
 * Every console line gets Linux's "[    1.234567] " time stamp, so tools can
 * tell kernel lines from user output.
 */
#define KERN_EMERG "\0010"
#define KERN_ALERT "\0011"
#define KERN_CRIT "\0012"
#define KERN_ERR "\0013"
#define KERN_WARNING "\0014"
#define KERN_NOTICE "\0015"
#define KERN_INFO "\0016"
#define KERN_DEBUG "\0017"

void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vprintk(const char *fmt, va_list ap);
/* Log one message of this facility and level (kernel/printk.c); each of its
 * lines becomes a record of the kernel log. */
void printk_emit(int facility, int level, const char *text);
#define pr_err(...) printk(KERN_ERR __VA_ARGS__)
#define pr_warn(...) printk(KERN_WARNING __VA_ARGS__)
#define pr_info(...) printk(KERN_INFO __VA_ARGS__)
#define pr_debug(...) printk(KERN_DEBUG __VA_ARGS__)
/* Once per boot, even when two CPUs come at the same moment (one atomic
 * exchange). */
#define pr_warn_once(...)                                                      \
	do {                                                                   \
		static bool printed_once;                                      \
		if (!__atomic_exchange_n(&printed_once, true, __ATOMIC_RELAXED)) \
			pr_warn(__VA_ARGS__);                                  \
	} while (0)

int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* Print a message, the registers and a backtrace, then stop the machine
 * (QEMU exits with a non-zero status). */
void panic(const char *fmt, ...) __noreturn __attribute__((format(printf, 1, 2)));

#define BUG_ON(cond)                                                       \
	do {                                                               \
		if (unlikely(cond))                                        \
			panic("BUG at %s:%d: %s", __FILE__, __LINE__, #cond); \
	} while (0)

/* Kernel command line switches (kernel/cmdline.c). */
extern bool cmdline_quiet;
extern bool cmdline_strace;
extern int watchdog_thresh; /* seconds; kernel/sched/core.c */
