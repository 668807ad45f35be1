/*
 * eventfd.c - eventfd(2) and eventfd2(2): a 64-bit counter behind a file
 * descriptor, for one program to wake another (or itself) through read,
 * write, poll, select and epoll.
 *
 * The file is an anon_inode file, "[eventfd]". The counter's rules are
 * Linux's:
 *   - write adds an 8-byte value; the counter never reaches 2^64 - 1, so a
 *     write that would take it past 0xfffffffffffffffe waits for a read
 *     (EAGAIN if non-blocking), and writing 2^64 - 1 itself is EINVAL;
 *   - read returns the counter and resets it to 0, or with EFD_SEMAPHORE
 *     returns 1 and takes 1 from it; it waits while the counter is 0;
 *   - a buffer of fewer than 8 bytes is EINVAL, either way;
 *   - poll: POLLIN while the counter is not 0, POLLOUT while one more can
 *     be added, POLLERR at 2^64 - 1 (only the kernel's own eventfd_signal
 *     could get there).
 * A reader or writer that waits sleeps on the context; every change wakes
 * it and the pollers (poll_wakeup). A signal ends the wait with
 * -ERESTARTSYS: EINTR, or the call restarts under SA_RESTART.
 *
 * Concurrency: the counter changes with interrupts off (one CPU, the
 * kernel is not preempted); the list of contexts (for ids) likewise.
 */
#include "vfs.h"
#include <linux/anon_inodes.h>
#include <mm.h>
#include <poll.h>
#include <proc_fs.h>
#include <sched.h>
#include <x86.h>

#define EFD_SEMAPHORE 1
#define EFD_CLOEXEC O_CLOEXEC
#define EFD_NONBLOCK O_NONBLOCK
#define EFD_FLAGS_SET (EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK)
#define EVENTFD_MAX UINT64_MAX /* the counter stays below it */

struct eventfd_ctx {
	uint64_t count;
	unsigned int flags;     /* EFD_* as given */
	int id;                 /* fdinfo's "eventfd-id": the lowest free, as Linux's IDA */
	struct eventfd_ctx *next; /* every context, by id */
};

/* Every live context, in order of id. */
static struct eventfd_ctx *eventfd_list;

/* Give ctx the lowest id no other context has, and list it. */
static void eventfd_link(struct eventfd_ctx *ctx)
{
	struct eventfd_ctx **pp = &eventfd_list;
	int id = 0;

	while (*pp && (*pp)->id == id) {
		id++;
		pp = &(*pp)->next;
	}
	ctx->id = id;
	ctx->next = *pp;
	*pp = ctx;
}

/* Take ctx off the list and free it. */
static void eventfd_free(struct eventfd_ctx *ctx)
{
	uint64_t irq = irq_save();
	struct eventfd_ctx **pp = &eventfd_list;

	while (*pp != ctx)
		pp = &(*pp)->next;
	*pp = ctx->next;
	irq_restore(irq);
	kfree(ctx);
}

static void eventfd_release(struct inode *inode, struct file *file)
{
	(void)inode;
	eventfd_free(file->private_data);
}

static unsigned int eventfd_poll(struct file *file)
{
	struct eventfd_ctx *ctx = file->private_data;
	unsigned int events = 0;

	if (ctx->count > 0)
		events |= POLLIN | POLLRDNORM;
	if (ctx->count == EVENTFD_MAX)
		events |= POLLERR;
	if (EVENTFD_MAX - 1 > ctx->count)
		events |= POLLOUT | POLLWRNORM;
	return events;
}

/* Sleep (interrupts off) until ready(ctx, arg): 0, or -ERESTARTSYS when a
 * signal comes first. */
static int eventfd_wait(struct eventfd_ctx *ctx, bool (*ready)(struct eventfd_ctx *, uint64_t),
			uint64_t arg)
{
	while (!ready(ctx, arg)) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on(ctx);
	}
	return 0;
}

static bool can_read(struct eventfd_ctx *ctx, uint64_t unused) { (void)unused; return ctx->count != 0; }
static bool can_add(struct eventfd_ctx *ctx, uint64_t n) { return EVENTFD_MAX - ctx->count > n; }

static ssize_t eventfd_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct eventfd_ctx *ctx = file->private_data;
	uint64_t value;
	int err = 0;

	(void)pos;
	if (to->count < sizeof(value))
		return -EINVAL;
	uint64_t irq = irq_save();
	if (!ctx->count && (file->f_flags & O_NONBLOCK))
		err = -EAGAIN;
	else
		err = eventfd_wait(ctx, can_read, 0);
	if (!err) {
		value = (ctx->flags & EFD_SEMAPHORE) ? 1 : ctx->count;
		ctx->count -= value;
		poll_wakeup(ctx); /* room for writers */
	}
	irq_restore(irq);
	if (err)
		return err;
	return copy_to_iter(&value, sizeof(value), to) == sizeof(value) ? (ssize_t)sizeof(value) : -EFAULT;
}

static ssize_t eventfd_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	struct eventfd_ctx *ctx = file->private_data;
	uint64_t value;
	int err;

	(void)pos;
	if (from->count < sizeof(value))
		return -EINVAL;
	if (copy_from_iter(&value, sizeof(value), from) != sizeof(value))
		return -EFAULT;
	if (value == EVENTFD_MAX)
		return -EINVAL;
	uint64_t irq = irq_save();
	if (!can_add(ctx, value) && (file->f_flags & O_NONBLOCK))
		err = -EAGAIN;
	else
		err = eventfd_wait(ctx, can_add, value);
	if (!err) {
		ctx->count += value;
		poll_wakeup(ctx); /* readers */
	}
	irq_restore(irq);
	return err ? err : (ssize_t)sizeof(value);
}

/* Linux's two lines: the counter in 16 columns of hex, and the id. */
static void eventfd_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct eventfd_ctx *ctx = file->private_data;

	seq_printf(m, "eventfd-count: %16lx\neventfd-id: %d\n", (unsigned long)ctx->count, ctx->id);
}

static const struct file_operations eventfd_fops = {
	.release = eventfd_release,
	.poll = eventfd_poll,
	.read = eventfd_read,
	.write = eventfd_write,
	.llseek = noop_llseek,
	.show_fdinfo = eventfd_show_fdinfo,
};

long sys_eventfd2(unsigned int count, int flags)
{
	struct eventfd_ctx *ctx;
	int fd;

	if (flags & ~EFD_FLAGS_SET)
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->count = count;
	ctx->flags = flags;
	uint64_t irq = irq_save();
	eventfd_link(ctx);
	irq_restore(irq);
	fd = anon_inode_getfd("[eventfd]", &eventfd_fops, ctx,
			      O_RDWR | (flags & (EFD_CLOEXEC | EFD_NONBLOCK)));
	if (fd < 0)
		eventfd_free(ctx);
	return fd;
}

long sys_eventfd(unsigned int count)
{
	return sys_eventfd2(count, 0);
}
