/*
 * log_buf.c - the kernel log: a ring buffer of printk records, and
 * syslog(2), through which busybox's dmesg reads it.
 *
 * Design notes:
 *  - The buffer is LOG_BUF_LEN bytes of .bss. Records follow each other:
 *    a 16-byte header, then the text, the whole rounded up to 16 bytes. A
 *    record never wraps around the end of the buffer: when one would, the
 *    rest of the buffer becomes a "pad" record that readers skip, and the
 *    record starts again at offset 0.
 *  - Two byte counters that only grow, head (where the next record goes)
 *    and tail (the oldest record), place everything: a record at counter
 *    pos lives at pos % LOG_BUF_LEN, and head - tail is the space in use.
 *    To make room, the oldest records are dropped (tail moves on).
 *  - Each real record has a sequence number: seq_first is the oldest kept,
 *    seq_next the next to be written. A reader's cursor holds a sequence
 *    number and a counter; if its sequence number fell below seq_first, its
 *    record is gone and the reader is told (-EPIPE).
 *  - Writers are printk (any context, even an interrupt, a fault handler
 *    or an NMI, on any CPU, with or without the big kernel lock) and
 *    /dev/kmsg; readers are syslog(2) and /dev/kmsg. All go through
 *    log_lock (log_buf.h), with interrupts off.
 *  - Waking the readers that wait for a record walks the task list, which
 *    the big kernel lock guards: a writer without it leaves the wake-up
 *    to the next CPU that holds it (log_wake_readers; Linux defers it too,
 *    to an irq_work).
 *  - syslog(2) keeps two cursors of its own, as Linux does: one for the
 *    consuming read (action 2) and the "clear" point (action 5) from
 *    which actions 3 and 4 read everything.
 */
#include <cred.h>
#include <errno.h>
#include <log_buf.h>
#include <mm.h>
#include <nmi.h>
#include <poll.h>
#include <sched.h>
#include <smp_lock.h>
#include <string.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

struct log_hdr {
	uint32_t size;          /* of the record, header included; multiple of 16 */
	uint16_t text_len;      /* PAD_RECORD: skip to the end of the buffer */
	uint8_t prefix;         /* facility << 3 | level, as syslog's "<N>" */
	uint8_t unused;
	uint64_t ts_nsec;
};
#define PAD_RECORD 0xffff
#define REC_ALIGN 16

static char log_buf[LOG_BUF_LEN] __attribute__((aligned(REC_ALIGN)));
static uint64_t head, tail;
static uint64_t seq_first, seq_next;

char log_wait;
int console_loglevel = 7;

static struct log_hdr *hdr_at(uint64_t pos)
{
	return (struct log_hdr *)(log_buf + pos % LOG_BUF_LEN);
}

/* The CPU that holds log_lock, -1 for none. */
static int log_owner = -1;
static bool readers_to_wake;

void log_lock(struct log_lock_state *st)
{
	int me = smp_processor_id(), none = -1;

	st->irq = irq_save();
	st->taken = __atomic_load_n(&log_owner, __ATOMIC_RELAXED) != me;
	if (!st->taken)
		return; /* this CPU holds it already: an NMI, a fault in printk */
	while (!__atomic_compare_exchange_n(&log_owner, &none, me, false, __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED)) {
		none = -1;
		__asm__ volatile("pause");
	}
}

void log_unlock(const struct log_lock_state *st)
{
	if (st->taken)
		__atomic_store_n(&log_owner, -1, __ATOMIC_RELEASE);
	irq_restore(st->irq);
}

void log_lock_bust(void)
{
	__atomic_store_n(&log_owner, -1, __ATOMIC_RELEASE);
}

void log_wake_readers(void)
{
	if (!kernel_locked() || in_nmi()) {
		__atomic_store_n(&readers_to_wake, true, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&readers_to_wake, false, __ATOMIC_RELAXED);
	poll_wakeup(&log_wait);
}

bool log_readers_to_wake(void)
{
	return __atomic_load_n(&readers_to_wake, __ATOMIC_RELAXED);
}

static void drop_oldest(void)
{
	struct log_hdr *h = hdr_at(tail);

	tail += h->size;
	if (h->text_len != PAD_RECORD)
		seq_first++;
}

void log_store(int facility, int level, const char *text, size_t len)
{
	if (len > LOG_LINE_MAX)
		len = LOG_LINE_MAX;
	uint32_t size = ALIGN_UP(sizeof(struct log_hdr) + len, REC_ALIGN);
	struct log_lock_state st;
	log_lock(&st);
	uint64_t off = head % LOG_BUF_LEN;
	uint64_t pad = off + size > LOG_BUF_LEN ? LOG_BUF_LEN - off : 0;

	while (head + pad + size - tail > LOG_BUF_LEN)
		drop_oldest();
	if (pad) {
		*hdr_at(head) = (struct log_hdr){ .size = pad, .text_len = PAD_RECORD };
		head += pad;
	}
	struct log_hdr *h = hdr_at(head);
	*h = (struct log_hdr){
		.size = size,
		.text_len = len,
		.prefix = (facility & 0x1f) << 3 | (level & 7),
		.ts_nsec = ktime_get_ns(),
	};
	memcpy(h + 1, text, len);
	head += size;
	seq_next++;
	log_unlock(&st);
}

void log_cursor_first(struct log_cursor *c)
{
	struct log_lock_state st;

	log_lock(&st);
	c->seq = seq_first;
	c->pos = tail;
	log_unlock(&st);
}

void log_cursor_end(struct log_cursor *c)
{
	struct log_lock_state st;

	log_lock(&st);
	c->seq = seq_next;
	c->pos = head;
	log_unlock(&st);
}

bool log_cursor_more(const struct log_cursor *c)
{
	return c->seq < seq_next;
}

int log_read(struct log_cursor *c, struct log_record *rec, char *text, size_t size)
{
	struct log_lock_state st;
	int ret = 1;

	log_lock(&st);

	if (c->seq < seq_first) {
		c->seq = seq_first;
		c->pos = tail;
		ret = -EPIPE;
	} else if (c->seq >= seq_next) {
		ret = 0;
	} else {
		struct log_hdr *h = hdr_at(c->pos);
		if (h->text_len == PAD_RECORD) {
			c->pos += h->size;
			h = hdr_at(c->pos);
		}
		size_t n = MIN((size_t)h->text_len, size - 1);
		*rec = (struct log_record){
			.seq = c->seq,
			.ts_nsec = h->ts_nsec,
			.level = h->prefix & 7,
			.facility = h->prefix >> 3,
			.text_len = h->text_len,
		};
		memcpy(text, h + 1, n);
		text[n] = '\0';
		c->pos += h->size;
		c->seq++;
	}
	log_unlock(&st);
	return ret;
}

/* ---- syslog(2) ---------------------------------------------------------------- */

#define SYSLOG_ACTION_CLOSE 0
#define SYSLOG_ACTION_OPEN 1
#define SYSLOG_ACTION_READ 2
#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_READ_CLEAR 4
#define SYSLOG_ACTION_CLEAR 5
#define SYSLOG_ACTION_CONSOLE_OFF 6
#define SYSLOG_ACTION_CONSOLE_ON 7
#define SYSLOG_ACTION_CONSOLE_LEVEL 8
#define SYSLOG_ACTION_SIZE_UNREAD 9
#define SYSLOG_ACTION_SIZE_BUFFER 10

#define MINIMUM_CONSOLE_LOGLEVEL 1
/* Room for a record as syslog shows it: "<N>[ssss.uuuuuu] " before each of
 * its lines, a newline after. */
#define SYSLOG_TEXT_MAX (LOG_LINE_MAX + 256)

static struct log_cursor syslog_cursor; /* action 2 reads from here */
static size_t syslog_partial;           /* bytes of its record action 2 gave already */
static struct log_cursor clear_cursor;  /* actions 3 and 4 read from here */
static int saved_console_loglevel = -1;

/* The record as syslog(2) shows it: "<6>[    1.234567] text\n". */
static size_t syslog_format(const struct log_record *r, const char *text, char *out, size_t size)
{
	char prefix[40];
	int plen = snprintf(prefix, sizeof(prefix), "<%u>[%5lu.%06lu] ",
			    (unsigned)(r->facility << 3 | r->level),
			    (unsigned long)(r->ts_nsec / 1000000000),
			    (unsigned long)(r->ts_nsec % 1000000000 / 1000));
	size_t n = 0;
	bool line_start = true;

	for (const char *p = text;; p++) {
		if (line_start) {
			if (n + plen >= size)
				break;
			memcpy(out + n, prefix, plen);
			n += plen;
			line_start = false;
		}
		if (!*p || n + 1 >= size)
			break;
		out[n++] = *p;
		line_start = *p == '\n';
	}
	if (n < size)
		out[n++] = '\n';
	return n;
}

/* Read the record at c, formatted: its length, 0 at the end. A dropped
 * record moves c to the oldest one left. */
static size_t syslog_next(struct log_cursor *c, char *out, char *text)
{
	struct log_record r;
	int ret;

	while ((ret = log_read(c, &r, text, LOG_LINE_MAX + 1)) < 0)
		;
	return ret ? syslog_format(&r, text, out, SYSLOG_TEXT_MAX) : 0;
}

/* Action 2: wait for records, then give as many as fit, consumed. */
static long syslog_print(char __user *buf, size_t size, char *out, char *text)
{
	uint64_t flags = irq_save();
	size_t done = 0;

	while (!log_cursor_more(&syslog_cursor)) {
		if (signal_pending(current)) {
			irq_restore(flags);
			return -ERESTARTSYS;
		}
		sleep_on(&log_wait);
	}
	irq_restore(flags);
	while (done < size) {
		struct log_cursor next = syslog_cursor;
		size_t n = syslog_next(&next, out, text);
		if (n == 0)
			break;
		size_t from = syslog_partial, take = n - from;
		if (take > size - done) {
			if (done)
				break; /* whole records only, except the first */
			take = size - done;
		}
		if (copy_to_user(buf + done, out + from, take))
			return done ? (long)done : -EFAULT;
		done += take;
		if (from + take < n) {
			syslog_partial = from + take;
			break;
		}
		syslog_partial = 0;
		syslog_cursor = next;
	}
	return done;
}

/* Actions 3 and 4: the newest records that fit in size bytes, in order. */
static long syslog_print_all(char __user *buf, size_t size, bool clear, char *out, char *text)
{
	struct log_cursor c = clear_cursor, first;
	size_t total = 0, n, done = 0;

	/* The length of everything from the clear point, then drop records
	 * from the front until the rest fits. */
	for (first = c; (n = syslog_next(&c, out, text)); )
		total += n;
	c = first;
	while (total > size) {
		n = syslog_next(&c, out, text);
		if (!n)
			break;
		total -= n;
	}
	while ((n = syslog_next(&c, out, text)) && done + n <= size) {
		if (copy_to_user(buf + done, out, n))
			return -EFAULT;
		done += n;
	}
	if (clear)
		log_cursor_end(&clear_cursor);
	return done;
}

/* Action 9: the bytes action 2 would give now. */
static long syslog_unread(char *out, char *text)
{
	struct log_cursor c = syslog_cursor;
	size_t total = 0, n;

	while ((n = syslog_next(&c, out, text)))
		total += n;
	return total > syslog_partial ? total - syslog_partial : 0;
}

bool syslog_allowed(void)
{
	return capable(CAP_SYSLOG) || capable(CAP_SYS_ADMIN);
}

long sys_syslog(int type, char __user *buf, int len)
{
	char *out, *text;
	long ret;

	/* Debian sets kernel.dmesg_restrict=1: every action needs
	 * CAP_SYSLOG (or, as Linux still accepts, CAP_SYS_ADMIN). */
	if (!syslog_allowed())
		return -EPERM;
	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!buf || len < 0)
			return -EINVAL;
		if (len == 0)
			return 0;
		if ((uint64_t)buf > TASK_SIZE || (uint64_t)len > TASK_SIZE - (uint64_t)buf)
			return -EFAULT;
		break;
	case SYSLOG_ACTION_CLEAR:
		log_cursor_end(&clear_cursor);
		return 0;
	case SYSLOG_ACTION_CONSOLE_OFF:
		if (saved_console_loglevel == -1) {
			saved_console_loglevel = console_loglevel;
			console_loglevel = MINIMUM_CONSOLE_LOGLEVEL;
		}
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		if (saved_console_loglevel != -1) {
			console_loglevel = saved_console_loglevel;
			saved_console_loglevel = -1;
		}
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		if (len < 1 || len > 8)
			return -EINVAL;
		console_loglevel = MAX(len, MINIMUM_CONSOLE_LOGLEVEL);
		saved_console_loglevel = -1;
		return 0;
	case SYSLOG_ACTION_SIZE_UNREAD:
	case SYSLOG_ACTION_SIZE_BUFFER:
		break;
	default:
		return -EINVAL;
	}
	if (type == SYSLOG_ACTION_SIZE_BUFFER)
		return LOG_BUF_LEN;

	out = kmalloc(SYSLOG_TEXT_MAX);
	text = kmalloc(LOG_LINE_MAX + 1);
	if (!out || !text) {
		ret = -ENOMEM;
	} else if (type == SYSLOG_ACTION_READ) {
		ret = syslog_print(buf, len, out, text);
	} else if (type == SYSLOG_ACTION_SIZE_UNREAD) {
		ret = syslog_unread(out, text);
	} else {
		ret = syslog_print_all(buf, len, type == SYSLOG_ACTION_READ_CLEAR, out, text);
	}
	kfree(out);
	kfree(text);
	return ret;
}
