/*
 * exec_domain.c - personality(2), and the switch that turns address space
 * randomization on and off: /proc/sys/kernel/randomize_va_space and the
 * kernel word "norandmaps" (the layout itself is mm/mmap_layout.c).
 *
 *   randomize_va_space   0: nothing random; 1: the stack, mmap area, PIE
 *                        programs and the vDSO; 2 (default): brk too
 *   ADDR_NO_RANDOMIZE    a personality flag (setarch -R): 0 for this
 *                        process and what it execs, whatever the sysctl
 */
#include <errno.h>
#include <kernel.h>
#include <personality.h>
#include <proc_fs.h>
#include <sched.h>
#include <vm.h>

/*
 * personality(2): set the execution domain and flags, return the old
 * value; 0xffffffff only asks. Linux takes any value (an unknown domain
 * only matters to exec, which keeps it).
 */
long sys_personality(unsigned int personality)
{
	unsigned int old = current->personality;

	if (personality != 0xffffffff)
		current->personality = personality;
	return old;
}

static int randomize_show(struct seq_file *m)
{
	seq_printf(m, "%d\n", randomize_va_space);
	return 0;
}

/* An integer, as Linux's proc_dointvec reads it: blanks around it, an
 * optional sign; anything else is EINVAL. */
static int randomize_write(const char *buf, size_t count)
{
	size_t i = 0;
	bool neg = false, digits = false;
	long v = 0;

	while (i < count && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n'))
		i++;
	if (i < count && (buf[i] == '-' || buf[i] == '+'))
		neg = buf[i++] == '-';
	for (; i < count && buf[i] >= '0' && buf[i] <= '9'; i++) {
		v = v * 10 + (buf[i] - '0');
		if (v > 0x7fffffffL)
			return -EINVAL;
		digits = true;
	}
	while (i < count && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\0'))
		i++;
	if (!digits || i < count)
		return -EINVAL;
	randomize_va_space = neg ? -(int)v : (int)v;
	return 0;
}

void exec_domain_init(void)
{
	proc_create("sys/kernel/randomize_va_space", 0644, randomize_show, randomize_write);
}
