/*
 * fuzz_binfmt_misc.c - binfmt_misc's registration language and matching
 * (fs/binfmt_misc.c): ":name:type:offset:magic:mask:interpreter:flags",
 * its \xHH escapes, the offset, the flags; an entry's description (the
 * text of /proc/sys/fs/binfmt_misc/NAME); which file an entry matches.
 *
 * The input is cut in two: its first two bytes (little-endian) say how
 * long the registration is (the rest of the input if it is longer), what
 * follows it is the file to match (its first 256 bytes, as bprm->buf) and, after its first NUL, the
 * file's name (for E entries). The handler is included whole; create_entry
 * gets the registration as one write. Checked: a refused registration is
 * EINVAL; an accepted entry keeps Linux's rules (name not empty, ".",
 * ".." or with a '/'; magic and mask of one length that fits in the 256
 * bytes from the offset; an interpreter); its description fits in a page;
 * matching reads only bprm->buf. Nothing leaks.
 */
#include "../../../fs/binfmt_misc.c"
#include "../../../lib/kstrtox.c"
#include "host.h"

size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i)
{
	size_t left = i->iov[0].iov_len - i->iov_offset;
	if (n > left)
		n = left;
	memcpy(dst, (char *)i->iov[0].iov_base + i->iov_offset, n);
	i->iov_offset += n;
	i->count -= n;
	return n;
}

static void check_entry(const Node *e)
{
	CHECK(e->name[0] && strcmp(e->name, ".") && strcmp(e->name, "..") && !strchr(e->name, '/'));
	CHECK(e->interpreter[0]);
	CHECK(e->flags & MISC_FMT_ENABLED);
	if (e->flags & MISC_FMT_MAGIC) {
		CHECK(e->size >= 0 && e->offset >= 0 && e->offset + e->size <= BINPRM_BUF_SIZE);
	} else {
		CHECK(e->magic[0] && !strchr(e->magic, '/'));
	}
	if (e->flags & MISC_FMT_CREDENTIALS)
		CHECK(e->flags & MISC_FMT_OPEN_BINARY);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long allocs = host_allocs;
	static char page[PAGE_SIZE + 64];

	if (size < 2)
		return 0;
	size_t len = data[0] | (size_t)data[1] << 8;
	if (len > size - 2)
		len = size - 2;
	/* The writer's buffer, exactly its size (ASan guards its end). */
	char *text = malloc(len ? len : 1);
	memcpy(text, data + 2, len);
	struct iovec iov = { text, len };
	struct iov_iter it = { .user = false, .iov = &iov, .nr_segs = 1, .count = len };

	Node *e = create_entry(&it, len);
	free(text);
	if (IS_ERR(e)) {
		CHECK(PTR_ERR(e) == -EINVAL);
		CHECK(host_allocs == allocs);
		return 0;
	}
	check_entry(e);
	memset(page, 0x7e, sizeof(page));
	size_t n = entry_status(e, page);
	CHECK(n < PAGE_SIZE && page[n] == '\0' && (unsigned char)page[PAGE_SIZE] == 0x7e);

	/* Match the rest of the input against it, as an exec would. */
	struct linux_binprm *b = calloc(1, sizeof(*b));
	const uint8_t *file = data + 2 + len;
	size_t fsize = size - 2 - len;
	memcpy(b->buf, file, fsize < BINPRM_BUF_SIZE ? fsize : BINPRM_BUF_SIZE);
	char name[64] = "/prog.x";
	const uint8_t *nul = memchr(file, 0, fsize);
	if (nul && (size_t)(file + fsize - nul - 1) < sizeof(name)) {
		memcpy(name, nul + 1, file + fsize - nul - 1);
		name[file + fsize - nul - 1] = '\0';
	}
	b->interp = b->filename = name;
	e->refs = 1;
	e->listed = true;
	entries = e;
	Node *m = check_file(b);
	CHECK(m == NULL || m == e);
	entries = NULL;
	free(b);
	put_node(e);
	CHECK(host_allocs == allocs);
	return 0;
}
