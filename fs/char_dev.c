/*
 * char_dev.c - character devices: the table that maps a device number
 * (major, minor) to the file operations behind a device node, and the
 * memory devices of Linux's major 1.
 *
 * A device node in the filesystem is only a name with a number (i_rdev).
 * Opening it runs chrdev_open, which finds the driver in the table and
 * gives the new file the driver's operations. No driver: ENXIO.
 *
 *   1:3 /dev/null     reads give end-of-file, writes vanish
 *   1:5 /dev/zero     reads give zeros, writes vanish
 *   1:7 /dev/full     reads give zeros, writes fail with ENOSPC
 *   1:8 /dev/random, 1:9 /dev/urandom   a simple pseudo-random stream
 *   1:11 /dev/kmsg    the kernel log (fs/kmsg.c)
 *   5:0 /dev/tty, 5:1 /dev/console, 4:64 /dev/ttyS0   the serial tty (tty.c)
 */
#include "vfs.h"
#include <x86.h>

struct chrdev {
	unsigned int major, minor;
	const struct file_operations *fops;
};

/* ---- null, zero, full ------------------------------------------------------ */

static ssize_t read_null(struct file *file, struct iov_iter *to, loff_t *pos)
{
	(void)file, (void)to, (void)pos;
	return 0;
}

static ssize_t write_null(struct file *file, struct iov_iter *from, loff_t *pos)
{
	(void)file, (void)pos;
	size_t n = from->count;
	from->count = 0;
	return n;
}

static ssize_t read_zero(struct file *file, struct iov_iter *to, loff_t *pos)
{
	(void)file, (void)pos;
	size_t n = to->count, done = iov_iter_zero(n, to);
	return done ? (ssize_t)done : -EFAULT;
}

static ssize_t write_full(struct file *file, struct iov_iter *from, loff_t *pos)
{
	(void)file, (void)from, (void)pos;
	return -ENOSPC;
}

/*
 * Not cryptographic: xorshift64*, seeded from the time stamp counter. Good
 * enough for mktemp names and hash seeds in a teaching kernel.
 */
static ssize_t read_random(struct file *file, struct iov_iter *to, loff_t *pos)
{
	static uint64_t state;
	size_t done = 0, n = to->count;

	(void)file, (void)pos;
	if (!state)
		state = rdtsc() | 1;
	while (done < n) {
		state ^= state >> 12;
		state ^= state << 25;
		state ^= state >> 27;
		uint64_t v = state * 0x2545F4914F6CDD1DULL;
		size_t chunk = MIN(sizeof(v), n - done);
		size_t copied = copy_to_iter(&v, chunk, to);
		done += copied;
		if (copied < chunk)
			break;
	}
	return done ? (ssize_t)done : -EFAULT;
}

static const struct file_operations null_fops = {
	.read = read_null, .write = write_null, .llseek = noop_llseek,
};
static const struct file_operations zero_fops = {
	.read = read_zero, .write = write_null, .llseek = noop_llseek, .mmap_anonymous = true,
};
static const struct file_operations full_fops = {
	.read = read_zero, .write = write_full, .llseek = noop_llseek,
};
static const struct file_operations random_fops = {
	.read = read_random, .write = write_null, .llseek = noop_llseek,
};

static const struct chrdev chrdevs[] = {
	{ 1, 3, &null_fops },
	{ 1, 5, &zero_fops },
	{ 1, 7, &full_fops },
	{ 1, 8, &random_fops },
	{ 1, 9, &random_fops },
	{ 1, 11, &kmsg_fops },
	{ 4, 64, &tty_fops },
	{ 5, 0, &tty_fops },
	{ 5, 1, &tty_fops },
};

/* Find the driver of the node and let it open the file. */
static int chrdev_open(struct inode *inode, struct file *file)
{
	unsigned int major = MAJOR(inode->i_rdev), minor = MINOR(inode->i_rdev);

	for (size_t i = 0; i < ARRAY_SIZE(chrdevs); i++) {
		if (chrdevs[i].major != major || chrdevs[i].minor != minor)
			continue;
		file->f_op = chrdevs[i].fops;
		return file->f_op->open ? file->f_op->open(inode, file) : 0;
	}
	return -ENXIO;
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};

void chrdev_init(void)
{
	tty_init();
}
