/*
 * kmsg.c - /dev/kmsg (1:11): the kernel log as a character device, as
 * Linux's.
 *
 *   read    one record per read(2), in Linux's "extended" format
 *               6,1234,5678901,-;the text\n
 *           (syslog prefix, sequence number, time stamp in microseconds,
 *           flags; bytes below 0x20 or above 0x7e and '\' escaped as \xNN).
 *           Each open file has its own cursor, starting at the oldest
 *           record kept. No record yet: wait (EAGAIN with O_NONBLOCK). A
 *           buffer too small for the record: EINVAL (the record is then
 *           skipped, as in Linux). Records dropped before they could be
 *           read: one EPIPE, then reading goes on from the oldest.
 *   write   one message into the log, "<N>" in front giving its
 *           priority (facility * 8 + level); the default is LOG_USER and
 *           level 4. At most LOG_LINE_MAX bytes (EINVAL); ten messages per
 *           five seconds per open file, the rest dropped silently, as
 *           Linux's default kernel.printk_devkmsg=ratelimit.
 *   lseek   offset 0 only: SEEK_SET to the oldest record, SEEK_END past
 *           the newest, SEEK_DATA to where syslog's "clear" left off
 *           (here: the oldest).
 * Reading needs CAP_SYSLOG (Debian's dmesg_restrict=1); writing needs only
 * the node's mode.
 */
#include "vfs.h"
#include <log_buf.h>
#include <mm.h>
#include <poll.h>
#include <sched.h>
#include <x86.h>

#define RATELIMIT_BURST 10
#define RATELIMIT_TICKS (5 * HZ)
/* The longest record as read() gives it: header, escaped text, newline. */
#define KMSG_RECORD_MAX (64 + 4 * LOG_LINE_MAX + 1)

struct kmsg_user {
	struct log_cursor cursor;
	uint64_t rs_begin;      /* ratelimit: when the current interval began */
	int rs_printed, rs_missed;
	char text[LOG_LINE_MAX + 1];
	char buf[KMSG_RECORD_MAX];
};

static int kmsg_open(struct inode *inode, struct file *file)
{
	struct kmsg_user *user;

	(void)inode;
	if ((file->f_flags & O_ACCMODE) != O_WRONLY && !syslog_allowed())
		return -EPERM;
	user = kzalloc(sizeof(*user));
	if (!user)
		return -ENOMEM;
	log_cursor_first(&user->cursor);
	file->private_data = user;
	return 0;
}

static void kmsg_release(struct inode *inode, struct file *file)
{
	(void)inode;
	kfree(file->private_data);
}

/* Linux's extended format: "prefix,seq,usec,flags;text\n", text escaped. */
static size_t kmsg_format(const struct log_record *r, const char *text, char *out)
{
	size_t n = snprintf(out, 64, "%u,%lu,%lu,-;", (unsigned)(r->facility << 3 | r->level),
			    (unsigned long)r->seq, (unsigned long)(r->ts_nsec / 1000));

	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p < ' ' || *p >= 127 || *p == '\\')
			n += snprintf(out + n, 5, "\\x%02x", *p);
		else
			out[n++] = *p;
	}
	out[n++] = '\n';
	return n;
}

static ssize_t kmsg_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct kmsg_user *user = file->private_data;
	struct log_record r;
	uint64_t flags = irq_save();
	int ret;

	(void)pos;
	while (!log_cursor_more(&user->cursor)) {
		if (file->f_flags & O_NONBLOCK) {
			irq_restore(flags);
			return -EAGAIN;
		}
		if (signal_pending(current)) {
			irq_restore(flags);
			return -ERESTARTSYS;
		}
		sleep_on(&log_wait);
	}
	irq_restore(flags);
	ret = log_read(&user->cursor, &r, user->text, sizeof(user->text));
	if (ret < 0)
		return ret; /* -EPIPE: the cursor now is at the oldest record */
	size_t n = kmsg_format(&r, user->text, user->buf);
	if (n > to->count)
		return -EINVAL;
	if (copy_to_iter(user->buf, n, to) != n)
		return -EFAULT;
	return n;
}

/* Linux's ___ratelimit: may this open file log one more message now? */
static bool kmsg_ratelimit(struct kmsg_user *user)
{
	if (!user->rs_begin || jiffies >= user->rs_begin + RATELIMIT_TICKS) {
		if (user->rs_missed) {
			printk(KERN_WARNING "printk: %s: %d output lines suppressed due to ratelimiting\n",
			       current->comm, user->rs_missed);
			user->rs_missed = 0;
		}
		user->rs_begin = jiffies ? jiffies : 1;
		user->rs_printed = 0;
	}
	if (user->rs_printed < RATELIMIT_BURST) {
		user->rs_printed++;
		return true;
	}
	user->rs_missed++;
	return false;
}

static ssize_t kmsg_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	struct kmsg_user *user = file->private_data;
	size_t len = from->count;
	int level = 4, facility = 1; /* default_message_loglevel, LOG_USER */
	char *buf, *line;

	(void)pos;
	if (len > LOG_LINE_MAX)
		return -EINVAL;
	if (!kmsg_ratelimit(user))
		return len;
	buf = kmalloc(len + 1);
	if (!buf)
		return -ENOMEM;
	if (copy_from_iter(buf, len, from) != len) {
		kfree(buf);
		return -EFAULT;
	}
	buf[len] = '\0';
	line = buf;
	if (line[0] == '<') {
		/* "<N>": N's low three bits the level, the rest the facility
		 * (kept as LOG_USER when 0: user space cannot pose as the
		 * kernel). Digits that overflow wrap, as simple_strtoul's. */
		char *p = line + 1;
		unsigned int u = 0;
		while (*p >= '0' && *p <= '9')
			u = u * 10 + (unsigned int)(*p++ - '0');
		if (*p == '>') {
			level = u & 7;
			if ((u >> 3) & 0xff)
				facility = (u >> 3) & 0xff;
			line = p + 1;
		}
	}
	printk_emit(facility, level, line);
	kfree(buf);
	return len;
}

static loff_t kmsg_llseek(struct file *file, loff_t offset, int whence)
{
	struct kmsg_user *user = file->private_data;

	if (offset)
		return -ESPIPE;
	switch (whence) {
	case SEEK_SET:
	case 3: /* SEEK_DATA: syslog's clear point; the oldest record here */
		log_cursor_first(&user->cursor);
		return 0;
	case SEEK_END:
		log_cursor_end(&user->cursor);
		return 0;
	}
	return -EINVAL;
}

static unsigned int kmsg_poll(struct file *file)
{
	struct kmsg_user *user = file->private_data;
	struct log_cursor first;

	log_cursor_first(&first);
	if (user->cursor.seq < first.seq)
		return POLLIN | POLLRDNORM | POLLERR | POLLPRI;
	if (log_cursor_more(&user->cursor))
		return POLLIN | POLLRDNORM;
	return 0;
}

const struct file_operations kmsg_fops = {
	.open = kmsg_open,
	.release = kmsg_release,
	.read = kmsg_read,
	.write = kmsg_write,
	.llseek = kmsg_llseek,
	.poll = kmsg_poll,
};
