/*
 * binfmt_misc.c - run any kind of file through an interpreter that user
 * space names: a Java .jar through java, a Windows .exe through wine, an
 * ARM program through qemu-arm. As Linux 6.1's fs/binfmt_misc.c, in two
 * parts:
 *
 *   the handler   load_misc_binary, one entry in exec's registry of formats,
 *                 put in front of all others (insert_binfmt) so that it
 *                 can even take ELF files. It compares the file with the
 *                 registered entries and, for the first that matches,
 *                 rewrites the exec to run the entry's interpreter, as a
 *                 "#!" script does (fs/binfmt_script.c). It knows nothing
 *                 of the other handlers.
 *   the filesystem "binfmt_misc", mounted on /proc/sys/fs/binfmt_misc:
 *                 register   (write only) add an entry
 *                 status     "enabled" or "disabled"; write 1, 0 or -1 to
 *                            enable, disable, or remove every entry
 *                 NAME       one file per entry: its description; write 1,
 *                            0 or -1 to enable, disable or remove it
 *
 * REGISTRATION. One write of  :name:type:offset:magic:mask:interpreter:flags
 * to "register". The first byte is the delimiter (any byte; ':' here).
 *   name         the entry's file name: not empty, not "." or "..", no '/'
 *   type         M: the file's bytes at offset equal magic, in every bit
 *                   the mask has set
 *                E: the file name's extension (after its last '.') is magic
 *   offset       (M) decimal, empty for 0; offset + size of magic <= 256
 *   magic        (M) bytes, "\xHH" for any byte (two hex digits); not empty
 *                (E) the extension, without the dot: not empty, no '/'
 *   mask         (M) optional, same length as magic once decoded: byte j
 *                matches when ((file[j] ^ magic[j]) & mask[j]) == 0, so a
 *                bit the mask clears is not compared, in the file or in
 *                magic (magic is kept as written, not masked)
 *   interpreter  the program to run: not empty
 *   flags        any of P, O, C, F, in any order; then one optional newline
 *       P  preserve argv[0]: the interpreter gets the original argv[0] too
 *          (and AT_FLAGS has AT_FLAGS_PRESERVE_ARGV0)
 *       O  open binary: the interpreter gets the program as an open
 *          descriptor, whose number is AT_EXECFD in its auxiliary vector;
 *          the program needs no read permission for that
 *       C  credentials: the new credentials (set-user-ID...) are computed
 *          from the program, not from the interpreter; implies O
 *       F  fix binary: the interpreter is opened now, at registration, and
 *          that file is used for every exec (it works after a chroot, or
 *          after the file was renamed or removed)
 * The whole write is refused with EINVAL if it is shorter than 11 or longer
 * than 1920 bytes, or breaks any rule above, or has anything after the
 * flags but one newline; EEXIST if the name is taken ("status" and
 * "register" are); ENAMETOOLONG for a name over 255 bytes; with F, the
 * errors of opening the interpreter (ENOENT, EACCES...). A refused write
 * leaves the entries as they were.
 *
 * MATCHING. Entries are tried newest first; the first enabled entry that
 * matches wins. An M entry reads bprm->buf, the first 256 bytes of the file
 * (zeros past its end); an E entry reads the name being loaded
 * (bprm->interp). Nothing matches while status is "disabled".
 *
 * THE ARGV THE INTERPRETER RECEIVES. For execve("./prog", {A0, A1}, envp)
 * and an entry whose interpreter is /usr/bin/interp:
 *
 *	without P:  { "/usr/bin/interp", "./prog", A1 }
 *	with P:     { "/usr/bin/interp", "./prog", A0, A1 }
 *
 * "./prog" is the name being loaded (bprm->interp): execve's name, or the
 * previous interpreter's in a chain. The interpreter is looked up like an
 * execve name (relative to the working directory), unless F fixed it. Then
 * the search starts again on the interpreter (exec_binprm), which may be a
 * script, ELF, or another binfmt_misc entry; the rewrites count toward the
 * same limit as "#!" (five, then ELOOP).
 */
#include "vfs.h"
#include <linux/binfmts.h>
#include <linux/module.h>
#include <mm.h>
#include <sched.h>

/* An entry's flags (Linux's bit values). */
#define MISC_FMT_ENABLED (1UL << 0)
#define MISC_FMT_MAGIC (1UL << 1) /* type M; else E */
#define MISC_FMT_PRESERVE_ARGV0 (1UL << 31)
#define MISC_FMT_OPEN_BINARY (1UL << 30)
#define MISC_FMT_CREDENTIALS (1UL << 29)
#define MISC_FMT_OPEN_FILE (1UL << 28)

/*
 * The longest registration: 7 delimiters, a name of about 50 bytes, type,
 * an offset of 3 digits, magic and mask of 128 bytes each (512 escaped),
 * an interpreter of about 50 bytes, flags; rounded (Linux's figure).
 */
#define MAX_REGISTER_LENGTH 1920

/* Inode numbers: the root, then the two fixed files, then the entries. */
#define BM_ROOT_INO 1
#define BM_STATUS_INO 2
#define BM_REGISTER_INO 3

/*
 * One entry (Linux calls it Node). Its strings point into the copy of the
 * registration that follows the structure in the same allocation.
 */
typedef struct Node {
	struct Node *next;      /* the list of entries, newest first */
	int refs;               /* the list's, its inode's, each exec's */
	bool listed;            /* still on the list (not removed) */
	unsigned long flags;    /* MISC_FMT_* */
	int offset;             /* M: where the magic is */
	int size;               /* M: bytes of magic (and of mask) */
	char *magic;            /* M: the bytes; E: the extension */
	char *mask;             /* M: NULL for an exact match */
	const char *interpreter;
	char *name;
	struct inode *inode;    /* its file's, held while it is listed */
	struct file *interp_file; /* F: opened at registration */
} Node;

/*
 * The entries of the one super block, and whether they are used at all
 * (status). As in Debian's Linux 6.1, status is the module's and outlives
 * the super block; the entries go with it.
 */
static Node *entries;
static bool enabled = true;
static ino_t next_ino = BM_REGISTER_INO + 1;

/* The one super block while mounted, and the inodes of its fixed files. */
static struct super_block *bm_sb;
static struct inode *bm_status_inode, *bm_register_inode;

static void put_node(Node *e)
{
	if (--e->refs > 0)
		return;
	if (e->interp_file) {
		allow_write_access(e->interp_file);
		fput(e->interp_file);
	}
	kfree(e);
}

/* ------------------------------------------------------------------------
 * The handler.
 * ------------------------------------------------------------------------ */

/* LAB 04: BEGIN check_file */
/* The first enabled entry, newest first, that matches the file. */
static Node *check_file(struct linux_binprm *bprm)
{
	const char *dot = strrchr(bprm->interp, '.');

	for (Node *e = entries; e; e = e->next) {
		const char *s;
		int j;

		if (!(e->flags & MISC_FMT_ENABLED))
			continue;
		if (!(e->flags & MISC_FMT_MAGIC)) {
			/* After the last '.' of the whole name: "/a.b/c" has no
			 * extension an entry can match (its magic has no '/'). */
			if (dot && strcmp(e->magic, dot + 1) == 0)
				return e;
			continue;
		}
		s = bprm->buf + e->offset;
		for (j = 0; j < e->size; j++) {
			char diff = s[j] ^ e->magic[j];

			if (e->mask)
				diff &= e->mask[j];
			if (diff)
				break;
		}
		if (j == e->size)
			return e;
	}
	return NULL;
}
/* LAB 04: ELSE
static Node *check_file(struct linux_binprm *bprm)
{
	(void)bprm;
	return NULL;
}
   LAB 04: END */

/* Another open file on the F interpreter, closed to writers while it runs. */
static struct file *open_fixed_interpreter(struct file *f)
{
	struct file *file = vfs_open(f->f_dentry, f->f_flags, f->f_mode & (FMODE_READ | FMODE_EXEC));

	if (!IS_ERR(file))
		deny_write_access(file); /* cannot fail: the entry's file denies writers */
	return file;
}

static int load_misc_binary(struct linux_binprm *bprm)
{
	struct file *interp_file;
	Node *fmt;
	int retval;

	if (!enabled)
		return -ENOEXEC;
	fmt = check_file(bprm);
	if (!fmt)
		return -ENOEXEC;
	fmt->refs++; /* the entry may be removed while we use it */

	/* The interpreter would be given a /dev/fd/N name that is closed by
	 * then (execveat of a close-on-exec descriptor). */
	retval = -ENOENT;
	if (bprm->interp_flags & BINPRM_FLAGS_PATH_INACCESSIBLE)
		goto ret;

	/*
	 * Rewrite argv on the new stack, as binfmt_script does: drop argv[0]
	 * (unless P), then push the program's name and the interpreter, each
	 * under the strings already there, so that the interpreter becomes
	 * argv[0] and the program argv[1].
	 */
	if (fmt->flags & MISC_FMT_PRESERVE_ARGV0) {
		bprm->interp_flags |= BINPRM_FLAGS_PRESERVE_ARGV0;
	} else {
		retval = remove_arg_zero(bprm);
		if (retval)
			goto ret;
	}
	if (fmt->flags & MISC_FMT_OPEN_BINARY)
		bprm->have_execfd = true; /* exec_binprm keeps the program open */

	retval = copy_string_kernel(bprm->interp, bprm);
	if (retval < 0)
		goto ret;
	bprm->argc++;
	retval = copy_string_kernel(fmt->interpreter, bprm);
	if (retval < 0)
		goto ret;
	bprm->argc++;
	exec_trace_rewrite(bprm, "misc");

	/* The interpreter is the file to load next (a script may need its name). */
	retval = bprm_change_interp(fmt->interpreter, bprm);
	if (retval < 0)
		goto ret;
	if (fmt->flags & MISC_FMT_OPEN_FILE)
		interp_file = open_fixed_interpreter(fmt->interp_file);
	else
		interp_file = open_exec(fmt->interpreter);
	retval = PTR_ERR(interp_file);
	if (IS_ERR(interp_file))
		goto ret;
	bprm->interpreter = interp_file;

	/* C: bprm_creds_from_file takes the set-user-ID bits and owner from
	 * bprm->executable (the program) rather than bprm->file. */
	if (fmt->flags & MISC_FMT_CREDENTIALS)
		bprm->execfd_creds = true;
	retval = 0;
ret:
	put_node(fmt);
	return retval;
}

static struct linux_binfmt misc_format = {
	.module = THIS_MODULE,
	.name = "misc",
	.load_binary = load_misc_binary,
};

/* ------------------------------------------------------------------------
 * Parsing a registration (create_entry and its helpers).
 * ------------------------------------------------------------------------ */

/* LAB 04: BEGIN create_entry and its helpers */
/*
 * A magic or mask field: from s up to the delimiter, which becomes a NUL.
 * Every "\x" must be followed by two hex digits. Returns where the next
 * field starts, or NULL. NUL bytes do not end the field (but do end the
 * decoding, below).
 */
static char *scanarg(char *s, char del)
{
	char c;

	while ((c = *s++) != del) {
		if (c == '\\' && *s == 'x') {
			s++;
			if (hex_to_bin(*s++) < 0)
				return NULL;
			if (hex_to_bin(*s++) < 0)
				return NULL;
		}
	}
	s[-1] = '\0';
	return s;
}

/*
 * Decode "\xHH" escapes in place, up to the first NUL byte; another byte
 * after a backslash stays as it is, backslash included (Linux's
 * string_unescape_inplace with UNESCAPE_HEX). Returns the decoded length.
 */
static int unescape_hex_inplace(char *buf)
{
	char *src = buf, *out = buf;

	while (*src) {
		if (src[0] == '\\' && src[1] != '\0') {
			src++;
			if (src[0] == 'x' && hex_to_bin(src[1]) >= 0) {
				int num = hex_to_bin(src[1]);

				src += 2;
				if (hex_to_bin(*src) >= 0)
					num = num << 4 | hex_to_bin(*src++);
				*out++ = (char)num;
				continue;
			}
			*out++ = '\\';
		}
		*out++ = *src++;
	}
	*out = '\0';
	return out - buf;
}

/* The flags field: any of P, O, C, F. Returns where they stop. */
static char *check_special_flags(char *p, Node *e)
{
	for (;; p++) {
		switch (*p) {
		case 'P':
			e->flags |= MISC_FMT_PRESERVE_ARGV0;
			break;
		case 'O':
			e->flags |= MISC_FMT_OPEN_BINARY;
			break;
		case 'C':
			e->flags |= MISC_FMT_CREDENTIALS | MISC_FMT_OPEN_BINARY;
			break;
		case 'F':
			e->flags |= MISC_FMT_OPEN_FILE;
			break;
		default:
			return p;
		}
	}
}

/*
 * Parse one registration of count bytes from the writer. The entry and a
 * copy of the text are one allocation; the fields are cut out of the copy
 * in place. The copy is followed by 8 delimiters, so that the search for a
 * field's end always stops inside it. ERR_PTR(-EINVAL) for any breach of
 * the rules (see the top of this file), -EFAULT, -ENOMEM.
 */
static Node *create_entry(struct iov_iter *from, size_t count)
{
	Node *e;
	char *buf, *p, *s;
	char del;

	if (count < 11 || count > MAX_REGISTER_LENGTH)
		return ERR_PTR(-EINVAL);
	e = kzalloc(sizeof(Node) + count + 8 + 1);
	if (!e)
		return ERR_PTR(-ENOMEM);
	p = buf = (char *)(e + 1);
	if (copy_from_iter(buf, count, from) < count) {
		kfree(e);
		return ERR_PTR(-EFAULT);
	}
	del = *p++;
	memset(buf + count, del, 8);

	/* name */
	e->name = p;
	p = strchr(p, del);
	if (!p)
		goto einval;
	*p++ = '\0';
	if (!e->name[0] || strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0 ||
	    strchr(e->name, '/'))
		goto einval;

	/* type */
	switch (*p++) {
	case 'E':
		e->flags = MISC_FMT_ENABLED;
		break;
	case 'M':
		e->flags = MISC_FMT_ENABLED | MISC_FMT_MAGIC;
		break;
	default:
		goto einval;
	}
	if (*p++ != del)
		goto einval;

	if (e->flags & MISC_FMT_MAGIC) {
		/* offset: empty means 0 */
		s = strchr(p, del);
		if (!s)
			goto einval;
		*s = '\0';
		if (p != s && (kstrtoint(p, 10, &e->offset) || e->offset < 0))
			goto einval;
		p = s + 1;

		/* magic, then the optional mask */
		e->magic = p;
		p = scanarg(p, del);
		if (!p || !e->magic[0])
			goto einval;
		e->mask = p;
		p = scanarg(p, del);
		if (!p)
			goto einval;
		if (!e->mask[0])
			e->mask = NULL;

		/* Decoded, they must have one length, and fit in bprm->buf
		 * from the offset on. */
		e->size = unescape_hex_inplace(e->magic);
		if (e->mask && unescape_hex_inplace(e->mask) != e->size)
			goto einval;
		if (e->size > BINPRM_BUF_SIZE || BINPRM_BUF_SIZE - e->size < e->offset)
			goto einval;
	} else {
		/* offset: ignored */
		p = strchr(p, del);
		if (!p)
			goto einval;
		*p++ = '\0';
		/* the extension */
		e->magic = p;
		p = strchr(p, del);
		if (!p)
			goto einval;
		*p++ = '\0';
		if (!e->magic[0] || strchr(e->magic, '/'))
			goto einval;
		/* mask: ignored */
		p = strchr(p, del);
		if (!p)
			goto einval;
		*p++ = '\0';
	}

	/* interpreter */
	e->interpreter = p;
	p = strchr(p, del);
	if (!p)
		goto einval;
	*p++ = '\0';
	if (!e->interpreter[0])
		goto einval;

	/* flags, one optional newline, and nothing else */
	p = check_special_flags(p, e);
	if (*p == '\n')
		p++;
	if (p != buf + count)
		goto einval;
	return e;

einval:
	kfree(e);
	return ERR_PTR(-EINVAL);
}
/* LAB 04: ELSE
static Node *create_entry(struct iov_iter *from, size_t count)
{
	(void)from;
	(void)count;
	return ERR_PTR(-EINVAL);
}
   LAB 04: END */

/* ------------------------------------------------------------------------
 * The files.
 * ------------------------------------------------------------------------ */

/*
 * Linux's binfmt_misc files have the old ->read and ->write methods, not
 * ->read_iter and ->write_iter, and the kernel's own reads and writes
 * (kernel_read, kernel_write: exec reading a file made executable with
 * chmod, sendfile) refuse such files with EINVAL. Ours do the same: each
 * read and write method refuses a transfer to or from a kernel buffer.
 */
static bool kernel_io(const struct iov_iter *i)
{
	return !i->user;
}

/* What a write of 0, 1 or -1 asks (Linux's parse_command). */
enum { CMD_NONE, CMD_DISABLE, CMD_ENABLE, CMD_REMOVE };

/* "0", "1" or "-1", each with one optional newline. -EINVAL otherwise. */
static int parse_command(struct iov_iter *from, size_t count)
{
	char s[4];

	if (count > 3)
		return -EINVAL;
	if (copy_from_iter(s, count, from) < count)
		return -EFAULT;
	if (!count)
		return CMD_NONE;
	if (s[count - 1] == '\n')
		count--;
	if (count == 1 && s[0] == '0')
		return CMD_DISABLE;
	if (count == 1 && s[0] == '1')
		return CMD_ENABLE;
	if (count == 2 && s[0] == '-' && s[1] == '1')
		return CMD_REMOVE;
	return -EINVAL;
}

/* Take an entry off the list: its name disappears, and its inode's link
 * count drops to 0. Open files keep the inode, and the inode the entry. */
static void kill_node(Node *e)
{
	for (Node **pp = &entries; *pp; pp = &(*pp)->next) {
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	}
	e->next = NULL;
	e->listed = false;
	e->inode->i_nlink = 0;
	iput(e->inode);
	put_node(e);
}

/* Copy the part of text at *pos onwards to the reader. */
static ssize_t simple_read_from_buffer(struct iov_iter *to, loff_t *pos, const char *text,
				       size_t len)
{
	size_t n, copied;

	if (*pos < 0)
		return -EINVAL;
	if ((size_t)*pos >= len)
		return 0;
	n = MIN(to->count, len - (size_t)*pos);
	copied = copy_to_iter(text + *pos, n, to);
	if (!copied)
		return -EFAULT;
	*pos += copied;
	return copied;
}

static void put_hex(char **dp, const char *bytes, int n)
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < n; i++) {
		*(*dp)++ = digits[(unsigned char)bytes[i] >> 4];
		*(*dp)++ = digits[bytes[i] & 15];
	}
}

/*
 * An entry's text, as Linux prints it:
 *	enabled
 *	interpreter /usr/bin/qemu-aarch64-static
 *	flags: OCF
 *	offset 0
 *	magic 7f454c460201010000000000000000000200b700
 *	mask ffffffffffffff00fffffffffffffffffeffffff
 * or "extension .jar" in place of the last three lines.
 */
static size_t entry_status(Node *e, char *page)
{
	char *dp = page;

	dp += snprintf(dp, PAGE_SIZE, "%s\ninterpreter %s\nflags: ",
		       (e->flags & MISC_FMT_ENABLED) ? "enabled" : "disabled", e->interpreter);
	if (e->flags & MISC_FMT_PRESERVE_ARGV0)
		*dp++ = 'P';
	if (e->flags & MISC_FMT_OPEN_BINARY)
		*dp++ = 'O';
	if (e->flags & MISC_FMT_CREDENTIALS)
		*dp++ = 'C';
	if (e->flags & MISC_FMT_OPEN_FILE)
		*dp++ = 'F';
	*dp++ = '\n';
	if (!(e->flags & MISC_FMT_MAGIC)) {
		dp += snprintf(dp, PAGE_SIZE - (dp - page), "extension .%s\n", e->magic);
	} else {
		dp += snprintf(dp, PAGE_SIZE - (dp - page), "offset %i\nmagic ", e->offset);
		put_hex(&dp, e->magic, e->size);
		if (e->mask) {
			dp += snprintf(dp, PAGE_SIZE - (dp - page), "\nmask ");
			put_hex(&dp, e->mask, e->size);
		}
		*dp++ = '\n';
	}
	*dp = '\0';
	return dp - page;
}

/* /NAME */

static ssize_t bm_entry_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	char *page;
	ssize_t res;

	if (kernel_io(to))
		return -EINVAL;
	page = alloc_page();
	if (!page)
		return -ENOMEM;
	res = simple_read_from_buffer(to, pos, page, entry_status(file->f_inode->i_private, page));
	free_page(page);
	return res;
}

static ssize_t bm_entry_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	Node *e = file->f_inode->i_private;
	size_t count = from->count;
	int res;

	(void)pos;
	if (kernel_io(from))
		return -EINVAL;
	res = parse_command(from, count);
	switch (res) {
	case CMD_DISABLE:
		e->flags &= ~MISC_FMT_ENABLED;
		break;
	case CMD_ENABLE:
		e->flags |= MISC_FMT_ENABLED;
		break;
	case CMD_REMOVE:
		if (e->listed) /* a removed entry's open file: nothing to do */
			kill_node(e);
		break;
	default:
		return res;
	}
	return count;
}

static const struct file_operations bm_entry_operations = {
	.read = bm_entry_read,
	.write = bm_entry_write,
	.llseek = generic_file_llseek,
};

/* The inodes of the files: an entry's lets go of the entry when it is
 * freed; truncate (open with O_TRUNC, ftruncate) only sets the size that
 * stat shows, as Linux's simple_setattr. */

static void bm_evict_inode(struct inode *inode)
{
	if (inode->i_private)
		put_node(inode->i_private);
}

static int bm_truncate(struct inode *inode, loff_t size)
{
	inode->i_size = size;
	inode_touch_mtime(inode);
	return 0;
}

static const struct inode_operations bm_file_iops = {
	.truncate = bm_truncate,
	.evict = bm_evict_inode,
};

static struct inode *bm_get_inode(struct super_block *sb, mode_t mode, ino_t ino)
{
	struct inode *inode = new_inode(sb, mode);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_uid = inode->i_gid = 0;
	inode->i_nlink = S_ISDIR(mode) ? 2 : 1;
	return inode;
}

/* /register */

static ssize_t bm_register_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	size_t count = from->count;
	struct file *f = NULL;
	Node *e;
	int err;

	(void)pos;
	if (kernel_io(from))
		return -EINVAL;
	/* The super block is gone (umount -l): Linux would keep it while the
	 * file is open; here its entries went with its last mount. */
	if (file->f_inode->i_sb != bm_sb)
		return -ENODEV;
	e = create_entry(from, count);
	if (IS_ERR(e))
		return PTR_ERR(e);

	/* F: the interpreter, opened now by whoever registers it. */
	if (e->flags & MISC_FMT_OPEN_FILE) {
		f = open_exec(e->interpreter);
		if (IS_ERR(f)) {
			printk(KERN_NOTICE "binfmt_misc: register: failed to install interpreter file %s\n",
			       e->interpreter);
			kfree(e);
			return PTR_ERR(f);
		}
		e->interp_file = f;
	}

	/* The name must be free in the directory (Linux looks it up there). */
	err = -ENAMETOOLONG;
	if (strlen(e->name) > NAME_MAX)
		goto fail;
	err = -EEXIST;
	if (strcmp(e->name, "status") == 0 || strcmp(e->name, "register") == 0)
		goto fail;
	for (Node *o = entries; o; o = o->next)
		if (strcmp(o->name, e->name) == 0)
			goto fail;

	/* Its file, with an inode that lives until the entry is removed:
	 * chmod, times and the inode number stay, as in Linux. */
	err = -ENOMEM;
	e->inode = bm_get_inode(bm_sb, S_IFREG | 0644, next_ino);
	if (!e->inode)
		goto fail;
	next_ino++;
	e->inode->i_fop = &bm_entry_operations;
	e->inode->i_op = &bm_file_iops;
	e->inode->i_private = e;
	e->refs = 2; /* the list's and the inode's */
	e->listed = true;
	e->next = entries;
	entries = e;
	return count;
fail:
	e->refs = 1;
	put_node(e);
	return err;
}

static const struct file_operations bm_register_operations = {
	.write = bm_register_write,
	.llseek = noop_llseek,
};

/* /status */

static ssize_t bm_status_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	const char *s = enabled ? "enabled\n" : "disabled\n";

	(void)file;
	if (kernel_io(to))
		return -EINVAL;
	return simple_read_from_buffer(to, pos, s, strlen(s));
}

static ssize_t bm_status_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	size_t count = from->count;
	int res;

	(void)file;
	(void)pos;
	if (kernel_io(from))
		return -EINVAL;
	res = parse_command(from, count);
	switch (res) {
	case CMD_DISABLE:
		enabled = false;
		break;
	case CMD_ENABLE:
		enabled = true;
		break;
	case CMD_REMOVE:
		while (entries)
			kill_node(entries);
		break;
	default:
		return res;
	}
	return count;
}

static const struct file_operations bm_status_operations = {
	.read = bm_status_read,
	.write = bm_status_write,
	.llseek = generic_file_llseek,
};

/* ------------------------------------------------------------------------
 * The filesystem. Linux has one super block for all of binfmt_misc's mounts
 * (get_tree_single): bm_mount gives the one there is, and fs/namespace.c
 * shows it through a root dentry of each mount's own, so that every mount
 * has the same device and inodes while its options stay its own. The
 * inodes live as long as what they show: status's and register's as long
 * as the super block, an entry's from its registration to its removal (and
 * then while a file has it open), so chmod, times and inode numbers stay.
 * As in procfs, a name is looked up afresh each time: the dentry made for
 * it (DCACHE_DETACHED) is not kept in the directory, so a removed entry's
 * name is gone at once from every mount. When the last mount goes, the
 * super block is taken apart, and every entry with it (bm_kill_sb: Debian's
 * 6.1, as Linux since "binfmt_misc: cleanup on filesystem umount"); status
 * keeps its value.
 * ------------------------------------------------------------------------ */

static struct dentry *bm_lookup(struct inode *dir, struct dentry *parent, const char *name, size_t len)
{
	struct inode *inode = NULL;
	struct dentry *d;
	Node *e;

	(void)dir;
	if (len == 6 && memcmp(name, "status", 6) == 0) {
		inode = bm_status_inode;
	} else if (len == 8 && memcmp(name, "register", 8) == 0) {
		inode = bm_register_inode;
	} else {
		for (e = entries; e; e = e->next)
			if (strlen(e->name) == len && memcmp(e->name, name, len) == 0)
				break;
		if (!e)
			return NULL;
		inode = e->inode;
	}
	d = d_alloc(parent, name, len);
	if (!d)
		return ERR_PTR(-ENOMEM);
	d->d_inode = igrab(inode);
	d->d_flags |= DCACHE_DETACHED;
	return d;
}

/* Newest entry first, then register and status: Linux's order, which
 * lists a directory's names newest first. */
static int bm_readdir(struct file *file, struct dir_context *ctx)
{
	loff_t pos = DIR_POS_FIRST;

	if (!dir_emit_dots(ctx, BM_ROOT_INO, BM_ROOT_INO))
		return 0;
	(void)file;
	for (Node *e = entries; e; e = e->next, pos++) {
		if (pos < ctx->pos)
			continue;
		if (!dir_emit(ctx, e->name, strlen(e->name), e->inode->i_ino, DT_REG))
			return 0;
		ctx->pos = pos + 1;
	}
	if (ctx->pos <= pos) {
		if (!dir_emit(ctx, "register", 8, BM_REGISTER_INO, DT_REG))
			return 0;
		ctx->pos = pos + 1;
	}
	pos++;
	if (ctx->pos <= pos) {
		if (!dir_emit(ctx, "status", 6, BM_STATUS_INO, DT_REG))
			return 0;
		ctx->pos = pos + 1;
	}
	return 0;
}

static const struct inode_operations bm_dir_iops = {
	.lookup = bm_lookup,
};

static const struct file_operations bm_dir_operations = {
	.llseek = generic_file_llseek,
	.iterate = bm_readdir,
};

/* An inode of the one super block, with one reference for the caller. */
static struct inode *bm_fixed_inode(struct super_block *sb, mode_t mode, ino_t ino,
				    const struct file_operations *fops)
{
	struct inode *inode = bm_get_inode(sb, mode, ino);

	if (inode) {
		inode->i_fop = fops;
		inode->i_op = &bm_file_iops;
	}
	return inode;
}

/* The super block: the one there is, or a new one (Linux's bm_fill_super). */
static struct super_block *bm_mount(void)
{
	struct super_block *sb;
	struct inode *root;

	if (bm_sb)
		return bm_sb;
	sb = kzalloc(sizeof(*sb));
	if (!sb)
		return NULL;
	sb->s_type = "binfmt_misc";
	sb->s_magic = BINFMTFS_MAGIC;
	sb->s_drop_unused = true;
	root = bm_get_inode(sb, S_IFDIR | 0755, BM_ROOT_INO);
	if (root) {
		root->i_op = &bm_dir_iops;
		root->i_fop = &bm_dir_operations;
		sb->s_root = d_make_root(root);
	}
	bm_status_inode = bm_fixed_inode(sb, S_IFREG | 0644, BM_STATUS_INO, &bm_status_operations);
	bm_register_inode = bm_fixed_inode(sb, S_IFREG | 0200, BM_REGISTER_INO, &bm_register_operations);
	if (!sb->s_root || !bm_status_inode || !bm_register_inode) {
		bool none = !root && !bm_status_inode && !bm_register_inode;

		sb->s_unmounted = true; /* freed with its last inode */
		iput(bm_status_inode);
		iput(bm_register_inode);
		bm_status_inode = bm_register_inode = NULL;
		if (sb->s_root)
			dput(sb->s_root);
		else
			iput(root);
		if (none)
			kfree(sb);
		return NULL;
	}
	sb->s_dev = get_anon_dev();
	bm_sb = sb;
	return sb;
}

/* Its last mount is gone (fs/namespace.c then removes the names): every
 * entry goes, and the fixed files once no one has them open. */
static void bm_kill_sb(struct super_block *sb)
{
	(void)sb;
	while (entries)
		kill_node(entries);
	iput(bm_status_inode);
	iput(bm_register_inode);
	bm_status_inode = bm_register_inode = NULL;
	bm_sb = NULL;
}

static struct file_system_type bm_fs_type = {
	.name = "binfmt_misc",
	.mount = bm_mount,
	.kill_sb = bm_kill_sb,
	.owner = THIS_MODULE,
};

/*
 * The filesystem type, and the handler in front of the others. Built in
 * (the default), it runs at boot as an fs initcall, after the core ones
 * that registered the script and ELF handlers, as in Linux; as a module (make
 * MODULES=y, as Debian builds it), it runs when binfmt_misc.ko is loaded,
 * which mount -t binfmt_misc does by itself: the type is unknown, so the
 * kernel asks modprobe for "fs-binfmt_misc" (fs/super.c, get_fs_type),
 * the alias below.
 */
static int __init init_misc_binfmt(void)
{
	int err = register_filesystem(&bm_fs_type);

	if (!err)
		insert_binfmt(&misc_format);
	return err;
}

/*
 * Unloading: the module cannot go while the filesystem is mounted (the
 * super block holds a reference on it) or an exec is in load_misc_binary
 * (exec holds one). There are no entries then: they went with the super
 * block.
 */
static void __exit exit_misc_binfmt(void)
{
	unregister_binfmt(&misc_format);
	unregister_filesystem(&bm_fs_type);
}

fs_initcall(init_misc_binfmt);
module_exit(exit_misc_binfmt);
MODULE_LICENSE("GPL");
MODULE_ALIAS_FS("binfmt_misc");
