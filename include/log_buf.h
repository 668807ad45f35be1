/*
 * log_buf.h - the kernel log (kernel/log_buf.c): every printk message is
 * kept as a record in a ring buffer, whether or not the console showed it,
 * so that it can be read later from user space: syslog(2) (busybox dmesg)
 * and /dev/kmsg (fs/kmsg.c).
 *
 * A record is one line: its sequence number (0 for the first message since
 * boot, one more for each), its time stamp, its level (KERN_EMERG 0 ...
 * KERN_DEBUG 7) and facility (0 for the kernel, 1 LOG_USER for lines
 * written to /dev/kmsg), and its text without the newline. When the
 * buffer is full the oldest records are dropped; a reader that falls
 * behind learns it (-EPIPE) and goes on from the oldest one left.
 */
#pragma once
#include <kernel.h>

#define LOG_BUF_LEN (1 << 17)   /* 128 KiB, Linux's CONFIG_LOG_BUF_SHIFT=17 */
#define LOG_LINE_MAX (1024 - 32) /* longest text of one record, as Linux */

struct log_record {
	uint64_t seq;
	uint64_t ts_nsec;
	int level;
	int facility;
	size_t text_len;        /* the record's whole length; text may hold less */
};

/* Where a reader is: the next record it will read. */
struct log_cursor {
	uint64_t seq;
	uint64_t pos;           /* the record's place in the buffer */
};

/*
 * The log's lock: one writer or reader at a time, on any CPU, with or
 * without the big kernel lock; interrupts are off while it is held.
 * printk holds it for a whole message, console output included, so that
 * the lines of two CPUs never mix. A CPU that comes in again while it
 * holds it (an NMI, a fault inside printk) goes on without waiting, as
 * Linux's printk does. Not a validated spinlock: the validator reports
 * through printk. It nests inside every other lock and takes none.
 */
struct log_lock_state {
	uint64_t irq;
	bool taken;
};
void log_lock(struct log_lock_state *st);
void log_unlock(const struct log_lock_state *st);
void log_lock_bust(void); /* panic: whoever held it will not let go */

/* Append a record (text need not be NUL-terminated; longer than
 * LOG_LINE_MAX is cut). */
void log_store(int facility, int level, const char *text, size_t len);

/* Wake the readers waiting for a record: now under the big kernel lock
 * (but in an NMI), else at the next tick (log_readers_to_wake says one
 * is due). */
void log_wake_readers(void);
bool log_readers_to_wake(void);

/* A cursor at the oldest record kept, or just after the newest. */
void log_cursor_first(struct log_cursor *c);
void log_cursor_end(struct log_cursor *c);
/* Is there a record at c? */
bool log_cursor_more(const struct log_cursor *c);
/*
 * Read the record at c and move c to the next one: 1, with its header in
 * *rec and up to size - 1 bytes of its text in text (NUL-terminated);
 * 0 if there is none yet; -EPIPE if the record was dropped since (c then
 * moves to the oldest record left).
 */
int log_read(struct log_cursor *c, struct log_record *rec, char *text, size_t size);

/* May current read the log? Debian's dmesg_restrict=1: only with CAP_SYSLOG
 * (or CAP_SYS_ADMIN), for syslog(2) and /dev/kmsg alike. */
bool syslog_allowed(void);

/* A channel to sleep_on for new records (woken by log_store). */
extern char log_wait;

/* The console's level: messages with a level below it reach the console.
 * 7 by default, 4 with "quiet" (kernel/printk.c, syslog(2) action 8). */
extern int console_loglevel;
