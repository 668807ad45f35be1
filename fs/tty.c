/*
 * tty.c - the console: a terminal on the serial line, with a small line
 * discipline (Linux's N_TTY in miniature) and job control.
 *
 * Output: bytes go to the UART; with OPOST|ONLCR each "\n" becomes "\r\n".
 *
 * Input: the UART's interrupt handler calls tty_receive for every byte. In
 * canonical mode (ICANON, the default) the line being typed can be edited -
 * erase (DEL or ^H), kill (^U), word erase (^W) - and becomes readable only
 * when it is complete: Enter (CR, turned into "\n" by ICRNL), or ^D, which
 * ends the line without adding a byte, so ^D at the start of a line makes
 * read() return 0 (end of file). Typed bytes are echoed (ECHO), control
 * characters as ^X (ECHOCTL). In non-canonical ("raw") mode every byte is
 * readable at once, as busybox's line editor wants; VMIN and VTIME say how
 * many bytes a read waits for, and how long (see tty_read_raw).
 *
 * Job control: with ISIG, ^C, ^\ and ^Z send SIGINT, SIGQUIT and SIGTSTP to
 * the foreground process group (tty->pgrp) and throw away the input not
 * yet read. The tty is the controlling terminal of at most one session
 * (tty->session): a session leader takes it with TIOCSCTTY (or by opening
 * /dev/ttyS0 without O_NOCTTY; never /dev/console, as in Linux), and its
 * shell moves the foreground between its jobs with TIOCSPGRP (tcsetpgrp).
 * /dev/tty is "my controlling terminal": ENXIO for a process without one.
 * A session is remembered by its id only; once no process of it is left
 * (its leader's exit calls disassociate_ctty) the tty is free again.
 * Not done: SIGTTIN/SIGTTOU for background jobs that read or change the
 * terminal, and flow control (IXON is reported but not acted on).
 *
 * The input buffer is a ring of TTY_BUF_SIZE slots with three free-running
 * counters: tail (next byte for read) <= canon (end of the complete lines)
 * <= head (end of the line being typed). The interrupt handler only moves
 * head and canon forward (or head back to canon when it erases, or all
 * three together when a signal character flushes the input), and the
 * reader only moves tail. The reader sleeps until tail != canon, checking
 * with interrupts off so that a wakeup cannot slip in between; poll and
 * select are woken with it (poll_wakeup).
 *
 * Termios starts as Linux's tty_std_termios (38400 baud, 8 bits, canonical,
 * echo). The window size starts at 24x80, where Linux's serial console says
 * 0x0, so that programs that ask get a usable width.
 */
#include "vfs.h"
#include <cred.h>
#include <linux/pid_namespace.h>
#include <poll.h>
#include <sched.h>
#include <serial.h>
#include <uaccess.h>
#include <x86.h>

/* ---- Linux's termios (asm-generic/termbits.h) --------------------------- */

#define NCCS 19
struct termios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[NCCS];
};
_Static_assert(sizeof(struct termios) == 36, "TCGETS copies Linux's 36-byte termios");

struct winsize {
	uint16_t ws_row, ws_col, ws_xpixel, ws_ypixel;
};

enum { VINTR, VQUIT, VERASE, VKILL, VEOF, VTIME, VMIN, VSWTC, VSTART, VSTOP,
       VSUSP, VEOL, VREPRINT, VDISCARD, VWERASE, VLNEXT, VEOL2 };

/* c_iflag */
#define ISTRIP 0000040
#define INLCR 0000100
#define IGNCR 0000200
#define ICRNL 0000400
#define IXON 0002000
/* c_oflag */
#define OPOST 0000001
#define ONLCR 0000004
#define OCRNL 0000010
/* c_cflag */
#define B38400 0000017
#define CS8 0000060
#define CREAD 0000200
#define HUPCL 0002000
/* c_lflag */
#define ISIG 0000001
#define ICANON 0000002
#define ECHO 0000010
#define ECHOE 0000020
#define ECHOK 0000040
#define ECHONL 0000100
#define NOFLSH 0000200
#define ECHOCTL 0001000
#define ECHOKE 0004000
#define IEXTEN 0100000

/* ioctl numbers (asm-generic/ioctls.h) */
#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TCSBRK 0x5409
#define TCXONC 0x540A
#define TCFLSH 0x540B
#define TIOCSCTTY 0x540E
#define TIOCGPGRP 0x540F
#define TIOCSPGRP 0x5410
#define TIOCOUTQ 0x5411
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define TIOCINQ 0x541B
#define TIOCNOTTY 0x5422
#define TCSBRKP 0x5425
#define TIOCGSID 0x5429

/* ---- the console tty ----------------------------------------------------- */

#define TTY_BUF_SIZE 4096       /* N_TTY_BUF_SIZE */
#define TTY_EOF_MARK 0x100      /* a ^D that ended a line: read stops there */

struct tty {
	struct termios termios;
	struct winsize winsize;
	pid_t pgrp;                     /* foreground process group, 0: none */
	pid_t session;                  /* the session it controls, 0: none */
	uint16_t buf[TTY_BUF_SIZE];
	unsigned int tail, canon, head; /* free-running; index with % TTY_BUF_SIZE */
};

static struct tty console_tty = {
	/* Linux's tty_std_termios. */
	.termios = {
		.c_iflag = ICRNL | IXON,
		.c_oflag = OPOST | ONLCR,
		.c_cflag = B38400 | CS8 | CREAD | HUPCL,
		.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
		.c_cc = { [VINTR] = 003, [VQUIT] = 034, [VERASE] = 0177, [VKILL] = 025,
			  [VEOF] = 004, [VTIME] = 0, [VMIN] = 1, [VSTART] = 021,
			  [VSTOP] = 023, [VSUSP] = 032, [VREPRINT] = 022,
			  [VDISCARD] = 017, [VWERASE] = 027, [VLNEXT] = 026 },
	},
	.winsize = { .ws_row = 24, .ws_col = 80 },
};

#define L_FLAG(tty, f) ((tty)->termios.c_lflag & (f))
#define I_FLAG(tty, f) ((tty)->termios.c_iflag & (f))
#define O_FLAG(tty, f) ((tty)->termios.c_oflag & (f))

/* Whether c is control character idx (a 0 entry disables it, as Linux's _POSIX_VDISABLE). */
static bool is_cc(struct tty *tty, int idx, uint8_t c)
{
	return tty->termios.c_cc[idx] && tty->termios.c_cc[idx] == c;
}

/* ---- output ---------------------------------------------------------------- */

/* Write n bytes to the line with the output processing termios asks for. */
static void tty_output(struct tty *tty, const char *s, size_t n)
{
	char out[256];
	size_t m = 0;

	for (size_t k = 0; k < n; k++) {
		char c = s[k];
		if (m + 2 > sizeof(out)) {
			serial_write(out, m);
			m = 0;
		}
		if (O_FLAG(tty, OPOST)) {
			if (c == '\n' && O_FLAG(tty, ONLCR))
				out[m++] = '\r';
			else if (c == '\r' && O_FLAG(tty, OCRNL))
				c = '\n';
		}
		out[m++] = c;
	}
	if (m)
		serial_write(out, m);
}

static bool is_ctl(uint8_t c) { return (c < 32 && c != '\t' && c != '\n') || c == 0177; }

/* Echo one input byte: control characters as ^X when ECHOCTL is set. */
static void echo_char(struct tty *tty, uint8_t c)
{
	if (!L_FLAG(tty, ECHO))
		return;
	if (is_ctl(c) && L_FLAG(tty, ECHOCTL)) {
		char s[2] = { '^', (char)(c ^ 0100) };
		tty_output(tty, s, 2);
	} else {
		tty_output(tty, (char *)&c, 1);
	}
}

/* ---- input (interrupt context) -------------------------------------------------- */

static unsigned int tty_used(struct tty *tty) { return tty->head - tty->tail; }

static void put_char(struct tty *tty, uint16_t c)
{
	tty->buf[tty->head % TTY_BUF_SIZE] = c;
	tty->head++;
}

/* Make everything typed so far readable and wake the reader. */
static void line_done(struct tty *tty)
{
	tty->canon = tty->head;
	poll_wakeup(tty);
}

/* Remove the last byte of the line being typed, on the screen too. */
static bool erase_one(struct tty *tty)
{
	if (tty->head == tty->canon)
		return false;
	tty->head--;
	uint8_t c = tty->buf[tty->head % TTY_BUF_SIZE];
	if (L_FLAG(tty, ECHO) && L_FLAG(tty, ECHOE)) {
		int width = (is_ctl(c) && L_FLAG(tty, ECHOCTL)) ? 2 : 1;
		for (int k = 0; k < width; k++)
			tty_output(tty, "\b \b", 3);
	}
	return true;
}

enum erase_kind { ERASE, WERASE, KILL };

static void erase(struct tty *tty, enum erase_kind kind, uint8_t c)
{
	if (kind == KILL) {
		if (L_FLAG(tty, ECHO) && !L_FLAG(tty, ECHOKE)) {
			/* Without ECHOKE the line stays on screen: show ^U and start afresh. */
			echo_char(tty, c);
			if (L_FLAG(tty, ECHOK))
				tty_output(tty, "\n", 1);
			tty->head = tty->canon;
			return;
		}
		while (erase_one(tty))
			;
		return;
	}
	if (kind == WERASE) {
		while (tty->head != tty->canon && tty->buf[(tty->head - 1) % TTY_BUF_SIZE] == ' ')
			erase_one(tty);
		while (tty->head != tty->canon && tty->buf[(tty->head - 1) % TTY_BUF_SIZE] != ' ')
			erase_one(tty);
		return;
	}
	erase_one(tty);
}

/* ^C, ^\, ^Z: the signal goes to the foreground process group, the input
 * not yet read is thrown away (unless NOFLSH), and the character echoed. */
static void isig(struct tty *tty, int sig, uint8_t c)
{
	if (!L_FLAG(tty, NOFLSH))
		tty->tail = tty->canon = tty->head;
	if (tty->pgrp)
		kill_pgrp(tty->pgrp, sig);
	echo_char(tty, c);
}

/* Called by the UART's interrupt handler for each byte received. */
static void tty_receive(uint8_t c)
{
	struct tty *tty = &console_tty;

	if (I_FLAG(tty, ISTRIP))
		c &= 0x7f;
	if (c == '\r') {
		if (I_FLAG(tty, IGNCR))
			return;
		if (I_FLAG(tty, ICRNL))
			c = '\n';
	} else if (c == '\n' && I_FLAG(tty, INLCR)) {
		c = '\r';
	}
	if (L_FLAG(tty, ISIG)) {
		int sig = is_cc(tty, VINTR, c) ? SIGINT : is_cc(tty, VQUIT, c) ? SIGQUIT
			: is_cc(tty, VSUSP, c) ? SIGTSTP : 0;
		if (sig) {
			isig(tty, sig, c);
			return;
		}
	}
	if (!L_FLAG(tty, ICANON)) {
		if (tty_used(tty) >= TTY_BUF_SIZE)
			return;
		echo_char(tty, c);
		put_char(tty, c);
		line_done(tty);
		return;
	}
	if (is_cc(tty, VERASE, c) || c == '\b' || c == 0177) {
		erase(tty, ERASE, c);
		return;
	}
	if (is_cc(tty, VKILL, c)) {
		erase(tty, KILL, c);
		return;
	}
	if (L_FLAG(tty, IEXTEN) && is_cc(tty, VWERASE, c)) {
		erase(tty, WERASE, c);
		return;
	}
	if (is_cc(tty, VEOF, c)) {
		if (tty_used(tty) < TTY_BUF_SIZE) {
			put_char(tty, TTY_EOF_MARK);
			line_done(tty);
		}
		return;
	}
	if (c == '\n' || is_cc(tty, VEOL, c) || (L_FLAG(tty, IEXTEN) && is_cc(tty, VEOL2, c))) {
		if (tty_used(tty) >= TTY_BUF_SIZE)
			return;
		if (L_FLAG(tty, ECHO) || (c == '\n' && L_FLAG(tty, ECHONL)))
			tty_output(tty, (char *)&c, 1);
		put_char(tty, c);
		line_done(tty);
		return;
	}
	/* An ordinary byte: keep the last slot for the line's end. */
	if (tty_used(tty) >= TTY_BUF_SIZE - 1)
		return;
	echo_char(tty, c);
	put_char(tty, c);
}

/* ---- file operations ------------------------------------------------------------- */

/*
 * Wait until there is something to read: 0, -EAGAIN for O_NONBLOCK,
 * -ERESTARTSYS when a signal is pending, -ETIMEDOUT once jiffies reaches
 * deadline (0: no deadline; the timer tick wakes us through wake_at).
 */
static int tty_wait_input(struct tty *tty, struct file *file, uint64_t deadline)
{
	uint64_t flags = irq_save();
	int ret;

	for (;;) {
		if (tty->tail != tty->canon) {
			ret = 0;
			break;
		}
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (deadline && jiffies >= deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		current->wake_at = deadline;
		sleep_on(tty);
		current->wake_at = 0;
	}
	irq_restore(flags);
	return ret;
}

/*
 * Copy readable input to the reader; in canonical mode stop after one line
 * (a ^D that ended a line is consumed, not copied). Bytes copied, or
 * -EFAULT if none could be.
 */
static ssize_t copy_input(struct tty *tty, struct iov_iter *to, bool canonical)
{
	size_t done = 0;

	while (to->count > 0 && tty->tail != tty->canon) {
		char chunk[128];
		size_t n = 0, copied;
		bool stop = false;

		while (n < sizeof(chunk) && n < to->count && tty->tail != tty->canon) {
			uint16_t c = tty->buf[tty->tail % TTY_BUF_SIZE];
			tty->tail++;
			if (c == TTY_EOF_MARK) { /* ends the line; not data */
				stop = true;
				break;
			}
			chunk[n++] = (char)c;
			if (canonical && (c == '\n' || is_cc(tty, VEOL, c) || is_cc(tty, VEOL2, c))) {
				stop = true;
				break;
			}
		}
		copied = copy_to_iter(chunk, n, to);
		done += copied;
		if (copied < n)
			return done ? (ssize_t)done : -EFAULT;
		if (stop)
			break;
	}
	return done;
}

/* Ticks for a VTIME of t tenths of a second, plus the tick under way. */
static uint64_t vtime_deadline(unsigned int t)
{
	return jiffies + (uint64_t)t * HZ / 10 + 1;
}

/*
 * Non-canonical read, as POSIX's four cases of VMIN and VTIME:
 *   MIN 0, TIME 0: whatever is there, perhaps nothing (0), at once;
 *   MIN 0, TIME t: wait up to t tenths of a second for the first byte;
 *   MIN m, TIME 0: wait until m bytes (or the count) have come;
 *   MIN m, TIME t: as above, but give up t tenths after the last byte.
 */
static ssize_t tty_read_raw(struct tty *tty, struct file *file, struct iov_iter *to)
{
	unsigned int min = tty->termios.c_cc[VMIN], time = tty->termios.c_cc[VTIME];
	uint64_t deadline = (min == 0 && time) ? vtime_deadline(time) : 0;
	size_t done = 0;

	for (;;) {
		ssize_t n = copy_input(tty, to, false);
		int err;

		if (n < 0)
			return done ? (ssize_t)done : n;
		done += n;
		if (to->count == 0 || (min && done >= min) || (!min && done))
			break;
		if (!min && !time)
			break;
		if (min && time && done)
			deadline = vtime_deadline(time); /* the inter-byte timer */
		err = tty_wait_input(tty, file, deadline);
		if (err == -ETIMEDOUT)
			break;
		if (err)
			return done ? (ssize_t)done : err;
	}
	return done;
}

static ssize_t tty_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct tty *tty = file->private_data;
	int err;

	(void)pos;
	if (!L_FLAG(tty, ICANON))
		return tty_read_raw(tty, file, to);
	err = tty_wait_input(tty, file, 0);
	if (err)
		return err;
	return copy_input(tty, to, true);
}

static unsigned int tty_poll(struct file *file)
{
	struct tty *tty = file->private_data;
	unsigned int mask = POLLOUT | POLLWRNORM;

	if (tty->tail != tty->canon)
		mask |= POLLIN | POLLRDNORM;
	return mask;
}

static ssize_t tty_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	struct tty *tty = file->private_data;
	size_t done = 0;

	(void)pos;
	while (from->count > 0) {
		char chunk[128];
		size_t want = MIN(sizeof(chunk), from->count);
		size_t n = copy_from_iter(chunk, want, from);

		tty_output(tty, chunk, n);
		done += n;
		if (n < want)
			break;
	}
	return done ? (ssize_t)done : -EFAULT;
}

/* New termios: switching canonical mode on or off makes what was typed readable. */
static void tty_set_termios(struct tty *tty, const struct termios *t, bool flush)
{
	uint64_t flags = irq_save();
	bool was_canon = L_FLAG(tty, ICANON);

	tty->termios = *t;
	if (flush)
		tty->tail = tty->canon = tty->head;
	if (was_canon != !!L_FLAG(tty, ICANON) && tty->canon != tty->head) {
		tty->canon = tty->head;
		poll_wakeup(tty);
	}
	irq_restore(flags);
}

/* ---- job control ---------------------------------------------------------- */

/* Whether any live process belongs to session sid. */
static bool session_alive(pid_t sid)
{
	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->sid == sid && t->state != TASK_ZOMBIE)
			return true;
	return false;
}

/* The session the tty controls, forgetting one that has no process left. */
static pid_t tty_session(struct tty *tty)
{
	if (tty->session && !session_alive(tty->session)) {
		tty->session = 0;
		tty->pgrp = 0;
	}
	return tty->session;
}

/* Is the tty current's controlling terminal? */
static bool is_current_tty(struct tty *tty)
{
	return current && tty_session(tty) && tty->session == current->sid;
}

static bool is_session_leader(void)
{
	return current->sid == current->tgid; /* the process leads its session */
}

/* Make the tty the controlling terminal of current's session. */
static void set_ctty(struct tty *tty)
{
	tty->session = current->sid;
	tty->pgrp = current->pgid;
}

/* TIOCSCTTY: a session leader without a terminal takes this one. arg 1
 * lets root take it from another session. */
static long tiocsctty(struct tty *tty, struct file *file, unsigned long arg)
{
	if (is_session_leader() && is_current_tty(tty))
		return 0;
	if (!is_session_leader())
		return -EPERM;
	if (tty_session(tty) && !(arg == 1 && capable(CAP_SYS_ADMIN)))
		return -EPERM;
	if (!(file->f_mode & FMODE_READ) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	set_ctty(tty);
	return 0;
}

/* The session leader gives up its terminal (TIOCNOTTY, or its exit): the
 * foreground group gets SIGHUP and SIGCONT, and the tty is free. */
static void disassociate(struct tty *tty)
{
	pid_t pgrp = tty->pgrp;

	tty->session = 0;
	tty->pgrp = 0;
	if (pgrp) {
		kill_pgrp(pgrp, SIGHUP);
		kill_pgrp(pgrp, SIGCONT);
	}
}

bool console_ctty(pid_t sid, pid_t *pgrp)
{
	struct tty *tty = &console_tty;

	if (!sid || tty_session(tty) != sid)
		return false;
	*pgrp = tty->pgrp;
	return true;
}

void disassociate_ctty(void)
{
	if (current && is_session_leader() && is_current_tty(&console_tty))
		disassociate(&console_tty);
}

/* TIOCSPGRP (tcsetpgrp): a process group of the caller's session becomes
 * the foreground. */
static long tiocspgrp(struct tty *tty, const int __user *argp)
{
	pid_t pgrp;
	struct task *t;

	if (!is_current_tty(tty))
		return -ENOTTY;
	if (copy_from_user(&pgrp, argp, sizeof(pgrp)))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	/* Numbered in the caller's pid namespace. */
	if (!(pgrp = pid_vnr_to_global(pgrp)))
		return -ESRCH;
	for (t = first_task(); t; t = t->next_task)
		if (t->pgid == pgrp && t->state != TASK_ZOMBIE)
			break;
	if (!t)
		return -ESRCH;
	if (t->sid != current->sid)
		return -EPERM;
	tty->pgrp = pgrp;
	return 0;
}

/* ---- ioctl -------------------------------------------------------------------- */

static long tty_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct tty *tty = file->private_data;
	void __user *argp = (void __user *)arg;
	struct termios t;
	int v;

	switch (cmd) {
	case TCGETS:
		return copy_to_user(argp, &tty->termios, sizeof(tty->termios)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		/* Output is written at once, so there is never any to drain. */
		if (copy_from_user(&t, argp, sizeof(t)))
			return -EFAULT;
		tty_set_termios(tty, &t, cmd == TCSETSF);
		return 0;
	case TIOCGWINSZ:
		return copy_to_user(argp, &tty->winsize, sizeof(tty->winsize)) ? -EFAULT : 0;
	case TIOCSWINSZ: {
		struct winsize ws;
		if (copy_from_user(&ws, argp, sizeof(ws)))
			return -EFAULT;
		if (memcmp(&ws, &tty->winsize, sizeof(ws)) != 0) {
			tty->winsize = ws;
			if (tty->pgrp)
				kill_pgrp(tty->pgrp, SIGWINCH);
		}
		return 0;
	}
	case TIOCGPGRP:
		if (!is_current_tty(tty))
			return -ENOTTY;
		v = pid_global_to_vnr(tty->pgrp);
		return copy_to_user(argp, &v, sizeof(v)) ? -EFAULT : 0;
	case TIOCSPGRP:
		return tiocspgrp(tty, argp);
	case TIOCGSID:
		if (!is_current_tty(tty))
			return -ENOTTY;
		v = pid_global_to_vnr(tty->session);
		return copy_to_user(argp, &v, sizeof(v)) ? -EFAULT : 0;
	case TIOCSCTTY:
		return tiocsctty(tty, file, arg);
	case TIOCNOTTY:
		if (!is_current_tty(tty))
			return -ENOTTY;
		if (is_session_leader())
			disassociate(tty);
		return 0;
	case TIOCINQ:
		v = tty->canon - tty->tail;
		return copy_to_user(argp, &v, sizeof(v)) ? -EFAULT : 0;
	case TIOCOUTQ:
		v = 0; /* output is written synchronously */
		return copy_to_user(argp, &v, sizeof(v)) ? -EFAULT : 0;
	case TCFLSH:
		if (arg > 2)
			return -EINVAL;
		if (arg != 1) { /* TCIFLUSH or TCIOFLUSH */
			uint64_t flags = irq_save();
			tty->tail = tty->canon = tty->head;
			irq_restore(flags);
		}
		return 0;
	case TCSBRK:
	case TCSBRKP:
	case TCXONC:
		return 0;
	default:
		return -ENOTTY;
	}
}

#define DEV_TTY MKDEV(5, 0)     /* /dev/tty: the controlling terminal */
#define DEV_CONSOLE MKDEV(5, 1) /* /dev/console: never becomes one on open */

static int tty_open(struct inode *inode, struct file *file)
{
	struct tty *tty = &console_tty;

	if (inode->i_rdev == DEV_TTY) {
		if (!is_current_tty(tty))
			return -ENXIO;
	} else if (inode->i_rdev != DEV_CONSOLE && !(file->f_flags & O_NOCTTY) && current &&
		   current->pid && is_session_leader() && !tty_session(tty)) {
		set_ctty(tty);
	}
	file->private_data = tty;
	nonseekable_open(file);
	return 0;
}

const struct file_operations tty_fops = {
	.open = tty_open,
	.read = tty_read,
	.write = tty_write,
	.ioctl = tty_ioctl,
	.poll = tty_poll,
};

void tty_init(void)
{
	serial_set_rx_handler(tty_receive);
}

/*
 * init's fds 0, 1, 2, as Linux's console_on_rootfs: /dev/console must be
 * in the initramfs. Without it init runs with no descriptors.
 */
struct file *open_console(void)
{
	return filp_open("/dev/console", O_RDWR, 0);
}
