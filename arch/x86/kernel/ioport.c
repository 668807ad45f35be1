/*
 * ioport.c - iopl(2) and ioperm(2): a program's access to I/O ports, as
 * Linux 6.1 gives it (arch/x86/kernel/ioport.c there).
 *
 * The CPU checks an in or out at user privilege against the I/O
 * permission bitmap of the TSS (one bit a port, 1 = denied) when IOPL is
 * below 3. Each thread may have its own bitmap (ioperm) and its own
 * "I/O privilege level" (iopl): as on Linux, iopl(3) is not the real
 * RFLAGS.IOPL (which would let the program disable interrupts) but a
 * bitmap that allows every port; cli and sti still fault, and the
 * general protection handler steps over them (fixup_iopl_exception), as
 * Linux does for old programs. Both need CAP_SYS_RAWIO to gain access,
 * are inherited by fork and kept across exec. The scheduler loads the
 * incoming thread's permissions into the TSS (io_bitmap_switch).
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <string.h>
#include <trap.h>
#include <uaccess.h>

#define IO_BITMAP_BITS 65536

/* arch/x86/kernel/gdt.c: the TSS's bitmap. NULL: every port denied. */
void tss_set_io_bitmap(const uint8_t *bitmap, bool allow_all);

/* Every switch to a user thread: most allow no port, and then the TSS
 * is left alone unless the thread before had some. */
void io_bitmap_switch(struct task *next)
{
	bool wants = next->io_bitmap || next->iopl_emul == 3;

	/* Each CPU has its TSS: what this one's allows is its own to know. */
	if (!wants && !this_cpu_read(io_bitmap_loaded))
		return;
	tss_set_io_bitmap(next->io_bitmap, next->iopl_emul == 3);
	this_cpu_write(io_bitmap_loaded, wants);
}

/* fork: the child gets a copy of the parent's permissions. */
int io_bitmap_fork(struct task *child, struct task *parent)
{
	child->iopl_emul = parent->iopl_emul;
	child->io_bitmap = NULL;
	if (!parent->io_bitmap)
		return 0;
	child->io_bitmap = kmalloc(IO_BITMAP_BYTES);
	if (!child->io_bitmap)
		return -ENOMEM;
	memcpy(child->io_bitmap, parent->io_bitmap, IO_BITMAP_BYTES);
	return 0;
}

void io_bitmap_exit(struct task *t)
{
	kfree(t->io_bitmap);
	t->io_bitmap = NULL;
}

/* Set (deny) or clear (allow) num bits from the first. */
static void set_bits(uint8_t *bits, unsigned from, unsigned num, bool deny)
{
	for (unsigned p = from; p < from + num; p++) {
		if (deny)
			bits[p / 8] |= 1 << (p % 8);
		else
			bits[p / 8] &= ~(1 << (p % 8));
	}
}

static bool all_denied(const uint8_t *bits)
{
	for (unsigned i = 0; i < IO_BITMAP_BYTES; i++)
		if (bits[i] != 0xff)
			return false;
	return true;
}

long sys_ioperm(unsigned long from, unsigned long num, int turn_on)
{
	struct task *t = current;

	if (from + num <= from || from + num > IO_BITMAP_BITS)
		return -EINVAL;
	if (turn_on && !capable(CAP_SYS_RAWIO))
		return -EPERM;
	if (!t->io_bitmap) {
		if (!turn_on)
			return 0;
		t->io_bitmap = kmalloc(IO_BITMAP_BYTES);
		if (!t->io_bitmap)
			return -ENOMEM;
		memset(t->io_bitmap, 0xff, IO_BITMAP_BYTES);
	}
	set_bits(t->io_bitmap, from, num, !turn_on);
	if (all_denied(t->io_bitmap))
		io_bitmap_exit(t); /* nothing allowed: no bitmap */
	io_bitmap_switch(t);
	return 0;
}

long sys_iopl(unsigned int level)
{
	struct task *t = current;

	if (level > 3)
		return -EINVAL;
	if (level > (unsigned int)t->iopl_emul && !capable(CAP_SYS_RAWIO))
		return -EPERM; /* only gaining access needs the capability */
	t->iopl_emul = level;
	io_bitmap_switch(t);
	return 0;
}

/*
 * A general protection fault in user mode at cli or sti, from a program
 * that called iopl(3): step over it, as if the instruction were a nop
 * (old programs pair them around port accesses). True if so.
 */
bool fixup_iopl_exception(struct trapframe *tf)
{
	uint8_t byte;

	if (current->iopl_emul != 3 ||
	    copy_from_user(&byte, (const void __user *)tf->rip, 1) ||
	    (byte != 0xfa && byte != 0xfb))
		return false;
	if (!current->iopl_warned) {
		printk(KERN_ERR "%s[%d] attempts to use CLI/STI, pretending it's a NOP, ip:%lx\n",
		       current->comm, current->pid, tf->rip);
		current->iopl_warned = true;
	}
	tf->rip += 1;
	return true;
}
