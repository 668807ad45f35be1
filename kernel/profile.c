/*
 * profile.c - where the kernel spends its time: Linux's boot-time
 * profiler, asked for with profile=N on the command line and read from
 * /proc/profile, as util-linux's readprofile reads it (docs/measuring.md).
 *
 * The kernel's text, from _stext to _etext, is cut into slices of 2^N
 * bytes, each with a 32-bit counter. Every timer tick that interrupts the
 * kernel adds one to the counter of the slice holding the interrupted
 * instruction (a tick that interrupts a user program counts nowhere); an
 * address past the last whole slice counts in the last one. So a counter
 * is how many ticks found the kernel in those bytes, and with HZ ticks a
 * second, counter / HZ estimates the seconds spent there. Under QEMU's
 * -icount the clock counts instructions, and the samples fall on the same
 * instructions at every run.
 *
 * /proc/profile (0644, root may reset it): a first 32-bit word holding the
 * slice size in bytes, then the counters in address order; its size is
 * known (lseek to the end finds it), as readprofile expects. A write of
 * any size but 4 bytes zeroes the counters; 4 bytes would set the
 * profiling timer's multiplier, which x86 does not have: EINVAL, as on
 * Linux.
 */
#include <kernel.h>
#include <errno.h>
#include <profile.h>
#include <proc_fs.h>
#include <string.h>
#include <trap.h>
#include <vmalloc.h>
#include <linux/init.h>

extern char _stext[], _etext[];

static bool prof_on;
static unsigned int prof_shift;
static uint32_t *prof_buffer;   /* prof_len counters, NULL until profile_init */
static size_t prof_len;

/* profile=N (kernel/cmdline.c): a decimal shift, clamped to 0..63 as on
 * Linux. Linux's other forms, profile=schedule,N and profile=kvm,N, count
 * other events; they are not here and turn nothing on. */
void profile_setup(const char *value)
{
	unsigned long par = 0;
	const char *p = value;

	if (*p < '0' || *p > '9')
		return;
	for (; *p >= '0' && *p <= '9' && par < 64; p++)
		par = par * 10 + (*p - '0');
	prof_shift = par > 63 ? 63 : par;
	prof_on = true;
	pr_info("kernel profiling enabled (shift: %u)\n", prof_shift);
}

/* The timer tick (kernel/time/timer.c). */
void profile_tick(const struct trapframe *tf)
{
	if (!prof_buffer || trap_from_user(tf))
		return;
	uint64_t slice = (tf->rip - (uint64_t)_stext) >> prof_shift;
	/* atomic: an idle CPU's tick comes here without the big kernel lock */
	__atomic_fetch_add(&prof_buffer[MIN(slice, prof_len - 1)], 1, __ATOMIC_RELAXED);
}

static int show_profile(struct seq_file *m)
{
	uint32_t step = 1u << prof_shift; /* < 2^32: prof_len is not 0 */

	seq_write(m, &step, sizeof(step));
	seq_write(m, prof_buffer, prof_len * sizeof(*prof_buffer));
	return 0;
}

static int write_profile(const char *buf, size_t count)
{
	(void)buf;
	if (count == sizeof(int))
		return -EINVAL;
	memset(prof_buffer, 0, prof_len * sizeof(*prof_buffer));
	return 0;
}

static int profile_init(void)
{
	if (!prof_on)
		return 0;
	prof_len = (size_t)(_etext - _stext) >> prof_shift;
	if (!prof_len) {
		pr_warn("profiling shift: %u too large\n", prof_shift);
		return -EINVAL;
	}
	uint32_t *buffer = vmalloc(prof_len * sizeof(*buffer));
	if (!buffer)
		return -ENOMEM;
	memset(buffer, 0, prof_len * sizeof(*buffer));
	int err = proc_create_size("profile", 0644, (1 + prof_len) * sizeof(*buffer),
				   show_profile, write_profile);
	if (err) {
		vfree(buffer);
		return err;
	}
	prof_buffer = buffer;
	return 0;
}
core_initcall(profile_init);
