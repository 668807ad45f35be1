/*
 * printk.c - formatted output for the kernel: vsnprintf, printk, panic.
 *
 * Every console line starts with Linux's time stamp "[    1.234567] ", so a
 * reader (and the test harness) can tell kernel lines from user output.
 * Message levels follow Linux: a message starts with KERN_xxx ("\001" and a
 * digit); without one it is KERN_WARNING. A message reaches the console
 * if its level is below console_loglevel: 7 (all but KERN_DEBUG), 4 with
 * "quiet" (only KERN_ERR and more urgent), or what syslog(2) or
 * "loglevel=" set. Every message, shown or not, is kept in the kernel log
 * (kernel/log_buf.c), which dmesg reads.
 */
#include <kernel.h>
#include <log_buf.h>
#include <serial.h>
#include <string.h>
#include <timekeeping.h>
#include <trap.h>
#include <power.h>
#include <x86.h>

bool cmdline_quiet;

struct outbuf {
	char *buf;
	size_t size, len;
};

static void put(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_number(struct outbuf *o, uint64_t v, int base, bool neg,
		       int width, bool zero, bool left, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (neg)
		width--;
	if (!left && !zero)
		for (int i = n; i < width; i++)
			put(o, ' ');
	if (neg)
		put(o, '-');
	if (!left && zero)
		for (int i = n; i < width; i++)
			put(o, '0');
	int ndigits = n;
	while (n)
		put(o, tmp[--n]);
	if (left) /* width already counts the sign */
		for (int i = ndigits; i < width; i++)
			put(o, ' ');
}

/* Supports %d %i %u %x %X %o %p %s %c %%, with widths, '0', '-', precision
 * for strings, and the l, ll, z length modifiers. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		bool zero = false, left = false;
		int width = 0, prec = -1, lng = 0;
		fmt++;
		for (;; fmt++) {
			if (*fmt == '0')
				zero = true;
			else if (*fmt == '-')
				left = true;
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				prec = prec * 10 + (*fmt++ - '0');
		}
		while (*fmt == 'l' || *fmt == 'z') {
			lng++;
			fmt++;
		}
		switch (*fmt) {
		case 'd':
		case 'i': {
			int64_t v = lng ? va_arg(ap, int64_t) : va_arg(ap, int);
			put_number(&o, v < 0 ? -(uint64_t)v : (uint64_t)v, 10, v < 0, width, zero, left, false);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			uint64_t v = lng ? va_arg(ap, uint64_t) : va_arg(ap, unsigned);
			int base = *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16;
			put_number(&o, v, base, false, width, zero, left, *fmt == 'X');
			break;
		}
		case 'p':
			put(&o, '0');
			put(&o, 'x');
			put_number(&o, (uint64_t)va_arg(ap, void *), 16, false, width, zero, left, false);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			int len = (int)strnlen(s, prec < 0 ? (size_t)-1 : (size_t)prec);
			if (!left)
				for (int i = len; i < width; i++)
					put(&o, ' ');
			for (int i = 0; i < len; i++)
				put(&o, s[i]);
			if (left)
				for (int i = len; i < width; i++)
					put(&o, ' ');
			break;
		}
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case '%':
			put(&o, '%');
			break;
		default:
			put(&o, '%');
			put(&o, *fmt);
			if (!*fmt)
				fmt--;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static bool at_line_start = true;

/* Write to the serial console, stamping each new line with the time. */
static void console_emit(const char *s, size_t len)
{
	for (; len--; s++) {
		if (at_line_start) {
			char stamp[32];
			uint64_t ns = ktime_get_ns();
			int n = snprintf(stamp, sizeof(stamp), "[%5lu.%06lu] ",
					 (unsigned long)(ns / 1000000000),
					 (unsigned long)(ns % 1000000000 / 1000));
			serial_write(stamp, n);
			at_line_start = false;
		}
		if (*s == '\n') {
			serial_putc('\r');
			at_line_start = true;
		}
		serial_putc(*s);
	}
}

/*
 * One message: every line goes into the kernel log (kernel/log_buf.c), and
 * to the console if its level is below console_loglevel. This is also how
 * a line written to /dev/kmsg is logged.
 */
void printk_emit(int facility, int level, const char *text)
{
	struct log_lock_state st;

	log_lock(&st);
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		log_store(facility, level, text, len);
		if (level < console_loglevel) {
			/* Each record is a line of its own on the console. */
			console_emit(text, len);
			console_emit("\n", 1);
		}
		text += nl ? len + 1 : len;
	}
	log_unlock(&st);
	log_wake_readers();
}

void vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	int level = 4; /* KERN_WARNING by default, as Linux */

	if (fmt[0] == '\001' && fmt[1] >= '0' && fmt[1] <= '7') {
		level = fmt[1] - '0';
		fmt += 2;
	}
	vsnprintf(buf, sizeof(buf), fmt, ap);
	printk_emit(0, level, buf);
}

void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
}

void panic(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	uint64_t rbp;

	cli();
	log_lock_bust();
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!at_line_start)
		console_emit("\n", 1);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", buf);
	__asm__ volatile("mov %%rbp, %0" : "=r"(rbp));
	show_backtrace(rbp);
	machine_halt_with_error();
}
