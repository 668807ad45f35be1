/*
 * signalfd.c - signalfd(2) and signalfd4(2): taking signals by reading a
 * file descriptor, instead of by a handler.
 *
 * The file is an anon_inode file, "[signalfd]", holding a set of signals
 * (the mask; SIGKILL and SIGSTOP are silently left out). A read takes
 * signals of the set that are pending for the reader, its own (thread's)
 * first, then its process's, as a handler would get them (kernel/signal.c:
 * dequeue_signal), and gives one struct signalfd_siginfo of 128 bytes for
 * each: as many as fit, waiting only for the first. The file belongs to no
 * process: whoever reads or polls it sees its own signals, as in Linux. A
 * program blocks the set first, or the signals' handlers would take them.
 *
 * Poll is POLLIN while such a signal is pending for the poller. A reader
 * or poller waits for one on signalfd_wait; kernel/signal.c calls
 * signalfd_notify whenever it queues a signal (Linux wakes a wait queue
 * of the receiver's sighand; here every signalfd waiter looks again).
 * signalfd(fd, mask) on an existing signalfd changes its set.
 *
 * Concurrency: the set changes with interrupts off, as signals are sent
 * (the console's interrupt sends some) and dequeued.
 */
#include "vfs.h"
#include <linux/anon_inodes.h>
#include <mm.h>
#include <poll.h>
#include <proc_fs.h>
#include <sched.h>
#include <signum.h>
#include <uaccess.h>
#include <x86.h>

#define SFD_CLOEXEC O_CLOEXEC
#define SFD_NONBLOCK O_NONBLOCK
#define UNBLOCKABLE (sigmask(SIGKILL) | sigmask(SIGSTOP))

/* Every signalfd reader and poller sleeps here (signalfd_notify). */
static char signalfd_wait;

/* Linux's struct signalfd_siginfo (uapi/linux/signalfd.h): 128 bytes. */
struct signalfd_siginfo {
	uint32_t ssi_signo;
	int32_t ssi_errno;
	int32_t ssi_code;
	uint32_t ssi_pid;
	uint32_t ssi_uid;
	int32_t ssi_fd;
	uint32_t ssi_tid;
	uint32_t ssi_band;
	uint32_t ssi_overrun;
	uint32_t ssi_trapno;
	int32_t ssi_status;
	int32_t ssi_int;
	uint64_t ssi_ptr;
	uint64_t ssi_utime;
	uint64_t ssi_stime;
	uint64_t ssi_addr;
	uint16_t ssi_addr_lsb;
	uint16_t pad2;
	int32_t ssi_syscall;
	uint64_t ssi_call_addr;
	uint32_t ssi_arch;
	uint8_t pad[28];
};
_Static_assert(sizeof(struct signalfd_siginfo) == 128, "signalfd_siginfo is 128 bytes");

/* The file's private data: the signals it takes. */
struct signalfd_ctx {
	uint64_t sigmask;
};

void signalfd_notify(void)
{
	poll_wakeup(&signalfd_wait);
}

static void signalfd_release(struct inode *inode, struct file *file)
{
	(void)inode;
	kfree(file->private_data);
}

static unsigned int signalfd_poll(struct file *file)
{
	struct signalfd_ctx *ctx = file->private_data;
	uint64_t pending = current->pending.signal | current->signal->shared_pending.signal;

	return (pending & ctx->sigmask) ? POLLIN | POLLRDNORM : 0;
}

/* Take one signal of the set: its number, -EAGAIN if none and nonblock,
 * -ERESTARTSYS if another signal interrupts the wait. */
static int signalfd_dequeue(struct signalfd_ctx *ctx, struct ksiginfo *info, bool nonblock)
{
	uint64_t irq = irq_save();
	int sig;

	while (!(sig = dequeue_signal(ctx->sigmask, info))) {
		if (nonblock) {
			sig = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			sig = -ERESTARTSYS;
			break;
		}
		sleep_on(&signalfd_wait);
	}
	irq_restore(irq);
	return sig;
}

/* si_code limits of the signals whose codes say what the siginfo holds
 * (Linux's NSIGILL, NSIGFPE, ...; SIGIO is SIGPOLL). */
#define NSIG_FAULT_CODES(sig) ((sig) == SIGILL ? 11 : (sig) == SIGFPE ? 15 : (sig) == SIGSEGV ? 10 : \
			       (sig) == SIGBUS ? 5 : (sig) == SIGTRAP ? 6 : 0)
#define NSIGCHLD 6
#define NSIGPOLL 6
#define NSIGSYS 2
#define SI_TIMER (-2)
#define SI_SIGIO (-5)

/*
 * The siginfo as a signalfd_siginfo: the fields that its kind of signal
 * has (Linux's siginfo_layout), the others 0. The union of a ksiginfo,
 * 16 bytes in, holds by kind: kill/rt/child: pid, uid (then the value or
 * the status); timer: tid, overrun, value; fault: addr; poll: band (8
 * bytes), fd; seccomp: call_addr, syscall, arch.
 */
static void signalfd_fill(struct signalfd_siginfo *out, const struct ksiginfo *info)
{
	int sig = info->si_signo, code = info->si_code;
	const uint8_t *raw = (const uint8_t *)info + 16;
	int32_t word24, word28;

	memcpy(&word24, raw + 8, 4);
	memcpy(&word28, raw + 12, 4);
	memset(out, 0, sizeof(*out));
	out->ssi_signo = sig;
	out->ssi_errno = info->si_errno;
	out->ssi_code = code;
	if (code > SI_USER && code < SI_KERNEL) {
		if (code <= NSIG_FAULT_CODES(sig)) {
			out->ssi_addr = info->si_addr;
		} else if (sig == SIGCHLD && code <= NSIGCHLD) {
			out->ssi_pid = info->si_pid;
			out->ssi_uid = info->si_uid;
			out->ssi_status = info->si_status;
			out->ssi_utime = info->si_utime;
			out->ssi_stime = info->si_stime;
		} else if (sig == SIGSYS && code <= NSIGSYS) {
			out->ssi_call_addr = info->si_addr;
			out->ssi_syscall = word24;
			out->ssi_arch = word28;
		} else if (code <= NSIGPOLL) {
			out->ssi_band = info->si_addr;
			out->ssi_fd = word24;
		} else {
			out->ssi_pid = info->si_pid; /* SIL_KILL */
			out->ssi_uid = info->si_uid;
		}
	} else if (code == SI_TIMER) {
		out->ssi_tid = info->si_pid;
		out->ssi_overrun = info->si_uid;
		out->ssi_ptr = info->si_value;
		out->ssi_int = (int32_t)info->si_value;
	} else if (code == SI_SIGIO) {
		out->ssi_band = info->si_addr;
		out->ssi_fd = word24;
	} else {
		out->ssi_pid = info->si_pid; /* SIL_KILL, and SIL_RT below */
		out->ssi_uid = info->si_uid;
		if (code < 0) {
			out->ssi_ptr = info->si_value;
			out->ssi_int = (int32_t)info->si_value;
		}
	}
}

static ssize_t signalfd_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct signalfd_ctx *ctx = file->private_data;
	size_t count = to->count / sizeof(struct signalfd_siginfo);
	bool nonblock = file->f_flags & O_NONBLOCK;
	ssize_t total = 0, ret = 0;
	struct signalfd_siginfo out;
	struct ksiginfo info;

	(void)pos;
	if (!count)
		return -EINVAL;
	do {
		ret = signalfd_dequeue(ctx, &info, nonblock);
		if (ret <= 0)
			break;
		signalfd_fill(&out, &info);
		/* Linux loses the signal too when the copy faults. */
		if (copy_to_iter(&out, sizeof(out), to) != sizeof(out)) {
			ret = -EFAULT;
			break;
		}
		total += sizeof(out);
		nonblock = true; /* wait for the first only */
	} while (--count);
	return total ? total : ret;
}

/* "sigmask:" with the set, as Linux prints it (render_sigset_t). */
static void signalfd_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct signalfd_ctx *ctx = file->private_data;

	seq_printf(m, "sigmask:\t%016lx\n", (unsigned long)ctx->sigmask);
}

static const struct file_operations signalfd_fops = {
	.release = signalfd_release,
	.poll = signalfd_poll,
	.read = signalfd_read,
	.llseek = noop_llseek,
	.show_fdinfo = signalfd_show_fdinfo,
};

/* A new signalfd for mask (ufd -1), or a new mask for signalfd ufd. */
static long do_signalfd4(int ufd, uint64_t mask, int flags)
{
	struct signalfd_ctx *ctx;
	struct file *file;
	int fd;

	if (flags & ~(SFD_CLOEXEC | SFD_NONBLOCK))
		return -EINVAL;
	mask &= ~UNBLOCKABLE;
	if (ufd == -1) {
		ctx = kzalloc(sizeof(*ctx));
		if (!ctx)
			return -ENOMEM;
		ctx->sigmask = mask;
		fd = anon_inode_getfd("[signalfd]", &signalfd_fops, ctx,
				      O_RDWR | (flags & (SFD_CLOEXEC | SFD_NONBLOCK)));
		if (fd < 0)
			kfree(ctx);
		return fd;
	}
	file = fcheck(ufd);
	if (!file)
		return -EBADF;
	if (file->f_op != &signalfd_fops)
		return -EINVAL;
	ctx = file->private_data;
	uint64_t irq = irq_save();
	ctx->sigmask = mask;
	irq_restore(irq);
	signalfd_notify(); /* a waiting reader may take a signal now */
	return ufd;
}

/* The user's mask: -EINVAL for a size other than 8, -EFAULT. */
static long get_mask(const uint64_t __user *umask, size_t sizemask, uint64_t *mask)
{
	if (sizemask != sizeof(*mask))
		return -EINVAL;
	return copy_from_user(mask, umask, sizeof(*mask)) ? -EFAULT : 0;
}

long sys_signalfd4(int ufd, const uint64_t __user *umask, size_t sizemask, int flags)
{
	uint64_t mask;
	long err = get_mask(umask, sizemask, &mask);

	return err ? err : do_signalfd4(ufd, mask, flags);
}

long sys_signalfd(int ufd, const uint64_t __user *umask, size_t sizemask)
{
	return sys_signalfd4(ufd, umask, sizemask, 0);
}
