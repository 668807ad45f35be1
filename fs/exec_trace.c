/*
 * exec_trace.c - the exec trace: every execve told as it happens, for
 * learners. Linux has no such thing (its nearest are the sched_process_exec
 * tracepoint and strace, which see only the outside).
 *
 * Switched on by the word "exectrace" on the kernel command line, or at
 * run time through /proc/sys/fs/exectrace (echo 1 > ... / echo 0 > ...).
 * While it is off every hook returns at once.
 *
 * fs/exec.c and the handlers call one hook at each point of interest; the
 * hooks only read (the new stack through mm_read, the process through
 * current), so the trace cannot change what an exec does. Each line is a
 * kernel message at KERN_ERR, so it shows even with "quiet", behind
 * Linux's time stamp, and starts with "exectrace: ". What one exec prints,
 * in order (docs/exec.md shows a whole run):
 *
 *   exectrace: pid P (comm) execve "NAME": argc A, envc E    exec_trace_start
 *   exectrace:   argv[i] ADDR "..." / envp[i] ... / filename  the new stack's strings
 *   exectrace: depth D: interp "...", filename "..."         exec_trace_depth
 *   exectrace:   buf: 16 bytes in hex |text|                  exec_trace_buf
 *   exectrace:   try HANDLER: ANSWER                          exec_trace_handler
 *   exectrace:   interp "OLD" -> "NEW", filename stays ...     exec_trace_interp
 *   exectrace:   HANDLER rewrote argv: argc A / argv[i] ...    exec_trace_rewrite
 *   ... the next depth, until a handler loads a program or fails ...
 *   exectrace: execve "NAME" done: rip, rsp; the stack ...    exec_trace_done
 *   or: exectrace: execve "NAME" failed: -ERRNO ...
 *
 * Addresses are random (ASLR) unless randomization is off: boot with
 * "norandmaps" (or echo 0 > /proc/sys/kernel/randomize_va_space) and the
 * same exec prints the same lines on every boot.
 */
#include <cred.h>
#include <elf.h>
#include <errno.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <linux/init.h>
#include <proc_fs.h>
#include <sched.h>
#include <string.h>
#include <trap.h>
#include <vm.h>

static bool exec_trace_on;

void exec_trace_set(bool on)
{
	exec_trace_on = on;
}

bool exec_trace_enabled(void)
{
	return exec_trace_on;
}

/* /proc/sys/fs/exectrace: reads "0" or "1"; takes "0" or "1". */
static int exectrace_show(struct seq_file *m)
{
	seq_printf(m, "%d\n", exec_trace_on);
	return 0;
}

static int exectrace_write(const char *buf, size_t count)
{
	if (count == 0 || (buf[0] != '0' && buf[0] != '1'))
		return -EINVAL;
	exec_trace_set(buf[0] == '1');
	return 0;
}

/* The switch /proc/sys/fs/exectrace, at boot. */
static int exec_trace_init(void)
{
	proc_create("sys/fs/exectrace", 0644, exectrace_show, exectrace_write);
	return 0;
}
fs_initcall(exec_trace_init);

#define T(fmt, ...) printk(KERN_ERR "exectrace: " fmt "\n", ##__VA_ARGS__)

/* Longest string shown whole; a longer one shows its start, "...", length. */
#define SHOW_MAX 64

/*
 * out = s[0..len) in double quotes, with \n \r \t \" \\ and \xHH for what
 * is not printable, cut after SHOW_MAX bytes. total is the string's full
 * length, for the note on a cut.
 */
static const char *quote(char *out, size_t size, const char *s, size_t len, size_t total)
{
	size_t o = 0;

	out[o++] = '"';
	for (size_t i = 0; i < len && i < SHOW_MAX && o + 8 < size; i++) {
		unsigned char c = s[i];

		if (c == '\n' || c == '\r' || c == '\t' || c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\t' ? 't' : c;
		} else if (c < 0x20 || c > 0x7e) {
			o += snprintf(out + o, size - o, "\\x%02x", c);
		} else {
			out[o++] = c;
		}
	}
	out[o++] = '"';
	out[o] = '\0';
	if (total > SHOW_MAX)
		snprintf(out + o, size - o, "... (%zu bytes)", total);
	return out;
}

/*
 * The NUL-terminated string at addr in mm: its first bytes into buf, its
 * length (without the NUL) as the result; -1 if it cannot be read.
 */
static long mm_string(struct mm *mm, uint64_t addr, char *buf, size_t size)
{
	long len = 0;

	for (;;) {
		char chunk[64];
		uint64_t n = MIN(sizeof(chunk), PAGE_SIZE - (addr & ~PAGE_MASK));

		if (mm_read(mm, addr, chunk, n))
			return -1;
		for (uint64_t i = 0; i < n; i++, len++) {
			if ((size_t)len < size)
				buf[len] = chunk[i];
			if (!chunk[i])
				return len;
			if (len > (long)MAX_ARG_STRLEN)
				return -1;
		}
		addr += n;
	}
}

/*
 * One line for the string at addr: [SLOT] NAME ADDR "text", SLOT being
 * where the pointer to it sits (0: not shown). Returns the string's size
 * with its NUL.
 */
static long show_string(struct mm *mm, uint64_t slot, const char *name, uint64_t addr)
{
	char raw[SHOW_MAX + 1], shown[SHOW_MAX * 4 + 48], where[24] = "";
	long len = mm_string(mm, addr, raw, sizeof(raw));

	if (slot)
		snprintf(where, sizeof(where), "0x%lx ", slot);
	if (len < 0) {
		T("  %s%-11s 0x%lx (unreadable)", where, name, addr);
		return 1;
	}
	T("  %s%-11s 0x%lx %s", where, name, addr, quote(shown, sizeof(shown), raw, len, len));
	return len + 1;
}

/*
 * The strings of the new stack, lowest first: argc of argv, envc of envp,
 * from p up. Before the point of no return they are in bprm->mm.
 */
static void show_strings(struct mm *mm, uint64_t p, int argc, int envc)
{
	char name[16];

	for (int i = 0; i < argc; i++) {
		snprintf(name, sizeof(name), "argv[%d]", i);
		p += show_string(mm, 0, name, p);
	}
	for (int i = 0; i < envc; i++) {
		snprintf(name, sizeof(name), "envp[%d]", i);
		p += show_string(mm, 0, name, p);
	}
}

static const char *errname(int err)
{
	static const struct { int nr; const char *name; } names[] = {
		{ ENOENT, "ENOENT" }, { E2BIG, "E2BIG" }, { ENOEXEC, "ENOEXEC" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" },
		{ ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" }, { EINVAL, "EINVAL" },
		{ ETXTBSY, "ETXTBSY" }, { ENAMETOOLONG, "ENAMETOOLONG" },
		{ ELOOP, "ELOOP" }, { ELIBBAD, "ELIBBAD" }, { EIO, "EIO" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].nr == err)
			return names[i].name;
	return "errno";
}

void exec_trace_start(struct linux_binprm *bprm)
{
	char shown[SHOW_MAX * 4 + 48];

	if (!exec_trace_on)
		return;
	T("pid %d (%s) execve %s: argc %d, envc %d", current->pid, current->comm,
	  quote(shown, sizeof(shown), bprm->filename, strlen(bprm->filename),
		strlen(bprm->filename)),
	  bprm->argc, bprm->envc);
	T("  the strings on the new stack, from p = 0x%lx up (limit 0x%lx):", bprm->p,
	  bprm->argmin);
	show_strings(bprm->mm, bprm->p, bprm->argc, bprm->envc);
	show_string(bprm->mm, 0, "filename", bprm->exec);
}

void exec_trace_depth(struct linux_binprm *bprm, int depth)
{
	char a[SHOW_MAX * 4 + 48], b[SHOW_MAX * 4 + 48];

	if (!exec_trace_on)
		return;
	if (depth > 5) {
		T("depth %d: the file and 5 rewrites ran already: ELOOP", depth);
		return;
	}
	T("depth %d: interp %s, filename %s", depth,
	  quote(a, sizeof(a), bprm->interp, strlen(bprm->interp), strlen(bprm->interp)),
	  quote(b, sizeof(b), bprm->filename, strlen(bprm->filename), strlen(bprm->filename)));
}

void exec_trace_buf(struct linux_binprm *bprm)
{
	char hex[16 * 3 + 1], text[SHOW_MAX * 4 + 48];
	const unsigned char *b = (const unsigned char *)bprm->buf;
	size_t o = 0, line = 0;

	if (!exec_trace_on)
		return;
	for (int i = 0; i < 16; i++)
		o += snprintf(hex + o, sizeof(hex) - o, "%s%02x", i ? " " : "", b[i]);
	/* The text up to the first newline (included) or NUL. */
	while (line < BINPRM_BUF_SIZE && b[line] && b[line] != '\n')
		line++;
	if (line < BINPRM_BUF_SIZE && b[line] == '\n')
		line++;
	T("  buf: %s  %s", hex, quote(text, sizeof(text), bprm->buf, line, line));
}

void exec_trace_handler(struct linux_binprm *bprm, struct linux_binfmt *fmt, int retval)
{
	if (!exec_trace_on)
		return;
	if (retval == -ENOEXEC && !bprm->point_of_no_return)
		T("  try %s: -ENOEXEC, not mine", fmt->name);
	else if (retval < 0 && bprm->point_of_no_return)
		T("  try %s: -%s (%d) past the point of no return", fmt->name,
		  errname(-retval), -retval);
	else if (retval < 0)
		T("  try %s: -%s (%d), the exec fails", fmt->name, errname(-retval), -retval);
	else if (bprm->interpreter)
		T("  try %s: 0, rewritten: load the interpreter next", fmt->name);
	else
		T("  try %s: 0, loaded: the process runs the new program", fmt->name);
}

void exec_trace_interp(struct linux_binprm *bprm, const char *new_interp)
{
	char a[SHOW_MAX * 4 + 48], b[SHOW_MAX * 4 + 48], c[SHOW_MAX * 4 + 48];

	if (!exec_trace_on)
		return;
	T("  interp %s -> %s, filename stays %s",
	  quote(a, sizeof(a), bprm->interp, strlen(bprm->interp), strlen(bprm->interp)),
	  quote(b, sizeof(b), new_interp, strlen(new_interp), strlen(new_interp)),
	  quote(c, sizeof(c), bprm->filename, strlen(bprm->filename), strlen(bprm->filename)));
}

void exec_trace_rewrite(struct linux_binprm *bprm, const char *who)
{
	if (!exec_trace_on)
		return;
	T("  %s rewrote argv: argc %d, p = 0x%lx", who, bprm->argc, bprm->p);
	show_strings(bprm->mm, bprm->p, bprm->argc, 0);
}

static const char *at_name(uint64_t type)
{
	static const char *const names[] = {
		[AT_NULL] = "AT_NULL", [AT_IGNORE] = "AT_IGNORE",
		[AT_EXECFD] = "AT_EXECFD", [AT_PHDR] = "AT_PHDR",
		[AT_PHENT] = "AT_PHENT", [AT_PHNUM] = "AT_PHNUM",
		[AT_PAGESZ] = "AT_PAGESZ", [AT_BASE] = "AT_BASE",
		[AT_FLAGS] = "AT_FLAGS", [AT_ENTRY] = "AT_ENTRY",
		[AT_NOTELF] = "AT_NOTELF", [AT_UID] = "AT_UID",
		[AT_EUID] = "AT_EUID", [AT_GID] = "AT_GID", [AT_EGID] = "AT_EGID",
		[AT_PLATFORM] = "AT_PLATFORM", [AT_HWCAP] = "AT_HWCAP",
		[AT_CLKTCK] = "AT_CLKTCK", [AT_SECURE] = "AT_SECURE",
		[AT_BASE_PLATFORM] = "AT_BASE_PLATFORM", [AT_RANDOM] = "AT_RANDOM",
		[AT_HWCAP2] = "AT_HWCAP2", [AT_EXECFN] = "AT_EXECFN",
		[AT_SYSINFO_EHDR] = "AT_SYSINFO_EHDR",
		[AT_MINSIGSTKSZ] = "AT_MINSIGSTKSZ",
	};

	return type < ARRAY_SIZE(names) && names[type] ? names[type] : "AT_?";
}

/*
 * The stack the new program starts with, read back from its own address
 * space, from rsp up: argc, the argv and envp pointers (with the strings
 * they point to), the auxiliary vector.
 */
static void show_new_stack(struct linux_binprm *bprm)
{
	struct mm *mm = current->mm;
	uint64_t sp = bprm->p, v, type;
	char name[16];

	if (mm_read(mm, sp, &v, 8))
		return;
	T("  0x%lx %-11s %lu", sp, "argc", v);
	sp += 8;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0;; i++, sp += 8) {
			if (mm_read(mm, sp, &v, 8))
				return;
			snprintf(name, sizeof(name), "%s[%d]", pass ? "envp" : "argv", i);
			if (!v) {
				T("  0x%lx %-11s NULL", sp, name);
				sp += 8;
				break;
			}
			show_string(mm, sp, name, v);
		}
	}
	do {
		if (mm_read(mm, sp, &type, 8) || mm_read(mm, sp + 8, &v, 8))
			return;
		if (type == AT_EXECFN || type == AT_PLATFORM)
			show_string(mm, sp, at_name(type), v);
		else if (type == AT_RANDOM)
			T("  0x%lx %-11s 0x%lx (16 random bytes)", sp, at_name(type), v);
		else
			T("  0x%lx %-11s 0x%lx", sp, at_name(type), v);
		sp += 16;
	} while (type != AT_NULL);
	struct vma *stack = vma_find(mm, bprm->p);
	T("  0x%lx..0x%lx: padding, random bytes, platform, random gap, the strings, 8 zero bytes",
	  sp, stack ? stack->end : 0);
}

void exec_trace_elf(struct linux_binprm *bprm, bool dyn, const char *interp, uint64_t load_bias,
		    uint64_t interp_base, uint64_t entry, uint64_t bss_end)
{
	struct mm *mm = current->mm;
	struct vma *stack = vma_find(mm, bprm->p);
	const uint64_t pie_base = 0x555555554000UL; /* ELF_ET_DYN_BASE, page-aligned */

	if (!exec_trace_on)
		return;
	if (!dyn)
		T("  elf: ET_EXEC, load_bias 0 (where it was linked)");
	else if (interp)
		T("  elf: ET_DYN with an interpreter (PIE): load_bias 0x%lx = 0x%lx + 0x%lx (random)",
		  load_bias, pie_base, load_bias - pie_base);
	else
		T("  elf: ET_DYN without an interpreter: load_bias 0x%lx (placed by mmap)", load_bias);
	if (interp)
		T("  elf: interpreter \"%s\" at 0x%lx (AT_BASE), entry 0x%lx (the interpreter's)",
		  interp, interp_base, entry);
	else
		T("  elf: no interpreter, entry 0x%lx", entry);
	T("  elf: randomize %s; stack top 0x%lx = STACK_TOP - 0x%lx, [stack] 0x%lx-0x%lx",
	  (current->flags & PF_RANDOMIZE) ? "on" : "off", stack ? stack->end : 0,
	  stack ? STACK_TOP - stack->end : 0, stack ? stack->start : 0, stack ? stack->end : 0);
	if (mm->brk >= bss_end)
		T("  elf: mmap_base 0x%lx, brk 0x%lx = end of bss + 0x%lx, vDSO 0x%lx", mm->mmap_base,
		  mm->brk, mm->brk - bss_end, mm->vdso);
	else
		T("  elf: mmap_base 0x%lx, brk 0x%lx (moved from the mmap area), vDSO 0x%lx",
		  mm->mmap_base, mm->brk, mm->vdso);
}

void exec_trace_done(struct linux_binprm *bprm, int retval)
{
	char shown[SHOW_MAX * 4 + 48];

	if (!exec_trace_on)
		return;
	quote(shown, sizeof(shown), bprm->filename, strlen(bprm->filename),
	      strlen(bprm->filename));
	if (retval < 0 && bprm->point_of_no_return) {
		T("execve %s failed: -%s (%d) after the point of no return: SIGSEGV", shown,
		  errname(-retval), -retval);
	} else if (retval < 0) {
		T("execve %s failed: -%s (%d), the caller goes on unchanged", shown,
		  errname(-retval), -retval);
	} else {
		const struct cred *c = current_cred();

		T("execve %s done: rip 0x%lx, rsp 0x%lx; the new stack:", shown,
		  current->tf->rip, bprm->p);
		show_new_stack(bprm);
		T("  runs as uid %u/%u/%u gid %u/%u/%u (real/effective/saved), CapEff %016lx%s",
		  c->uid, c->euid, c->suid, c->gid, c->egid, c->sgid,
		  (unsigned long)c->cap_effective, bprm->secureexec ? ", AT_SECURE" : "");
	}
}
