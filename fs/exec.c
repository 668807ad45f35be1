/*
 * exec.c - execve: replace the program a process runs.
 *
 * The path an exec travels, in the order of this file (and of Linux 6.1's
 * fs/exec.c, whose function names it keeps):
 *
 *   sys_execve / sys_execveat / kernel_execve
 *     getname                  the file name into the kernel
 *     do_execveat_common       builds a struct linux_binprm:
 *      (bprm_from_user         the next four, without the big kernel lock)
 *       alloc_bprm             bprm->filename: the name, or execveat's
 *                              /dev/fd/N[/NAME]
 *         bprm_mm_init         a new, empty address space with a stack area
 *       count                  argc and envc
 *       bprm_stack_limits      how much the strings may take (E2BIG)
 *       copy_strings           filename, then envp, then argv, top down,
 *                              onto the new stack
 *       bprm_execve
 *         prepare_bprm_creds   bprm->cred: a copy of the caller's credentials
 *         check_unsafe_exec    bprm->unsafe: may this exec raise privileges?
 *         do_open_execat       the file: regular, executable, not being written
 *         security_bprm_creds_for_exec
 *         exec_binprm          at most 1 + 5 rewrites (misc, #!), then ELOOP
 *           search_binary_handler
 *             prepare_binprm   the first BINPRM_BUF_SIZE bytes into bprm->buf
 *             security_bprm_check
 *             fmt->load_binary asks each registered format (binfmt_*.c);
 *                                  a binfmt_misc entry (binfmt_misc.c) or
 *                                  a "#!" script (binfmt_script.c) rewrites
 *                                  argv with remove_arg_zero and
 *                                  copy_string_kernel, bprm_change_interp,
 *                                  and hands back bprm->interpreter;
 *                                  nobody: request_module (kernel/kmod.c)
 *               begin_new_exec
 *                 bprm_creds_from_file  set-user-ID, set-group-ID and the
 *                                  capabilities of the file finally loaded
 *                 ---- THE POINT OF NO RETURN ----
 *                 commit_creds     the new credentials are the process's
 *               setup_arg_pages, start_thread
 *       free_bprm
 *
 * The contract of the whole is the handlers' (include/linux/binfmts.h,
 * struct linux_binfmt): the new program is built aside, in bprm->mm, and
 * until a handler calls begin_new_exec the caller is untouched and gets
 * -errno; begin_new_exec switches the process to the new address space
 * and drops the old one, and from there a failure kills it with SIGSEGV.
 *
 * On success the process's user registers (current->tf) hold the new
 * program's entry state; sys_execve returns 0, which the dispatcher stores
 * in rax, so that every general register of the new program starts at 0.
 *
 * Every failure path gives back all it took (pages, areas, file
 * references): an exec that fails, before or after the point of no return,
 * leaks nothing.
 *
 * The exec trace for learners (fs/exec_trace.c, "exectrace" on the command
 * line) is told by the exec_trace_* calls at each point of interest; they
 * do nothing while it is off.
 *
 * Where this differs from Linux 6.1 (each is said again where it happens):
 * there is no ptrace, so nothing about tracers.
 */
#include <cred.h>
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <linux/kmod.h>
#include <linux/module.h>
#include <mm.h>
#include <personality.h>
#include <sched.h>
#include <security.h>
#include <smp_lock.h>
#include <string.h>
#include <syscalls.h>
#include <trap.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

/* ------------------------------------------------------------------------
 * The registry of executable formats.
 *
 * A list asked in order: the first handler that does not answer -ENOEXEC
 * owns the file. register_binfmt appends (the built-in script and ELF
 * handlers), insert_binfmt puts a handler in front of all others (Linux's
 * binfmt_misc, so that it can take over even ELF files).
 * ------------------------------------------------------------------------ */

static struct linux_binfmt *formats;

static void __register_binfmt(struct linux_binfmt *fmt, bool insert)
{
	struct linux_binfmt **pp = &formats;

	if (!insert)
		while (*pp)
			pp = &(*pp)->next;
	fmt->next = *pp;
	*pp = fmt;
}

void register_binfmt(struct linux_binfmt *fmt)
{
	__register_binfmt(fmt, false);
}

void insert_binfmt(struct linux_binfmt *fmt)
{
	__register_binfmt(fmt, true);
}

void unregister_binfmt(struct linux_binfmt *fmt)
{
	for (struct linux_binfmt **pp = &formats; *pp; pp = &(*pp)->next) {
		if (*pp == fmt) {
			*pp = fmt->next;
			fmt->next = NULL;
			return;
		}
	}
}

/* ------------------------------------------------------------------------
 * The way in.
 * ------------------------------------------------------------------------ */

/* The steps, defined below in the order an exec takes them. */
static char *getname(const char __user *filename, bool empty_ok);
static char *getname_kernel(const char *filename);
static int do_execveat_common(int fd, char *filename, const char __user *const __user *argv,
			      const char __user *const __user *envp, int flags);
static struct linux_binprm *alloc_bprm(int fd, const char *filename, uint64_t rlim_stack);
static void free_bprm(struct linux_binprm *bprm);
static int count(const char __user *const __user *argv, int max);
static int count_strings_kernel(char *const argv[]);
static int bprm_stack_limits(struct linux_binprm *bprm);
static int copy_strings(int argc, const char __user *const __user *argv,
			struct linux_binprm *bprm);
static int copy_strings_kernel(int argc, char *const argv[], struct linux_binprm *bprm);
static int bprm_execve(struct linux_binprm *bprm, int fd, const char *filename, int flags);
static int exec_binprm(struct linux_binprm *bprm);
static int search_binary_handler(struct linux_binprm *bprm);

/* execve(2): 0 with current->tf set for the new program, or -errno. */
long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp)
{
	return do_execveat_common(AT_FDCWD, getname(filename, false), argv, envp, 0);
}

/*
 * execveat(2): the name is looked up from the directory
 * descriptor fd (or the working directory for AT_FDCWD; an absolute name
 * ignores fd). AT_EMPTY_PATH with "" runs fd's own file: fexecve(3).
 * AT_SYMLINK_NOFOLLOW refuses a final symlink (ELOOP). Any other flag is
 * EINVAL, found only when the file is opened, after the strings.
 */
long sys_execveat(int fd, const char __user *filename, const char __user *const __user *argv,
		  const char __user *const __user *envp, int flags)
{
	return do_execveat_common(fd, getname(filename, flags & AT_EMPTY_PATH), argv, envp, flags);
}

/*
 * The name, copied in: EFAULT for a bad pointer, ENAMETOOLONG for PATH_MAX
 * bytes or more without a NUL, ENOENT for "" unless empty_ok (AT_EMPTY_PATH;
 * Linux's getname refuses an empty name before anything else is looked
 * at). kfree the result.
 */
static char *getname(const char __user *filename, bool empty_ok)
{
	char *name = kmalloc(PATH_MAX);
	long len;

	if (!name)
		return ERR_PTR(-ENOMEM);
	len = strncpy_from_user(name, filename, PATH_MAX);
	if (len < 0 || (len == 0 && !empty_ok)) {
		kfree(name);
		return ERR_PTR(len < 0 ? len : -ENOENT);
	}
	return name;
}

static char *getname_kernel(const char *filename)
{
	size_t len = strnlen(filename, PATH_MAX);
	char *name;

	if (len == 0)
		return ERR_PTR(-ENOENT);
	if (len == PATH_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	name = strdup_k(filename);
	return name ? name : ERR_PTR(-ENOMEM);
}

/*
 * The counts and the strings: the file name at the very top of the new
 * stack (AT_EXECFN points to it), then the environment and the arguments.
 * An empty argv gets argv[0] = "", so that a program that starts at
 * argv[1] does not walk into envp (bprm_stack_limits has counted that
 * pointer already).
 */
static int bprm_take_strings(struct linux_binprm *bprm, const char __user *const __user *argv,
			     const char __user *const __user *envp)
{
	static bool warned_null_argv;
	int retval = count(argv, MAX_ARG_STRINGS);

	if (retval == 0 && !__atomic_exchange_n(&warned_null_argv, true, __ATOMIC_RELAXED))
		pr_warn("process '%s' launched '%s' with NULL argv: empty string added\n",
			current->comm, bprm->filename); /* Linux: pr_warn_once */
	if (retval < 0)
		return retval;
	bprm->argc = retval;
	retval = count(envp, MAX_ARG_STRINGS);
	if (retval < 0)
		return retval;
	bprm->envc = retval;
	retval = bprm_stack_limits(bprm);
	if (retval >= 0)
		retval = copy_string_kernel(bprm->filename, bprm);
	if (retval >= 0) {
		bprm->exec = bprm->p;
		retval = copy_strings(bprm->envc, envp, bprm);
	}
	if (retval >= 0)
		retval = copy_strings(bprm->argc, argv, bprm);
	if (retval >= 0 && bprm->argc == 0) {
		retval = copy_string_kernel("", bprm);
		bprm->argc = 1;
	}
	return retval;
}

/*
 * What an exec builds from the caller's memory before it looks at the
 * file: bprm with its new address space, the counts and the strings.
 * All of it is bprm's own, or the caller's memory read through the usual
 * user copies (whose faults need no big kernel lock either): the lock is
 * let go meanwhile, so that other CPUs' calls run while this one copies.
 * Returns bprm, or an ERR_PTR with bprm given back.
 */
static struct linux_binprm *bprm_from_user(int fd, const char *filename,
					   const char __user *const __user *argv,
					   const char __user *const __user *envp)
{
	uint64_t rlim_stack = current->rlim[RLIMIT_STACK].cur;
	bool locked = release_kernel_lock();
	struct linux_binprm *bprm = alloc_bprm(fd, filename, rlim_stack);
	int retval = IS_ERR(bprm) ? 0 : bprm_take_strings(bprm, argv, envp);

	reacquire_kernel_lock(locked);
	if (retval < 0) {
		free_bprm(bprm);
		return ERR_PTR(retval);
	}
	return bprm;
}

/*
 * Build the exec from user memory, in Linux 6.1's order. Takes over
 * filename (or its error: getname's failure is the exec's).
 */
static int do_execveat_common(int fd, char *filename, const char __user *const __user *argv,
			      const char __user *const __user *envp, int flags)
{
	struct linux_binprm *bprm;
	int retval;

	if (IS_ERR(filename))
		return PTR_ERR(filename);

	/*
	 * set*uid to a user over RLIMIT_NPROC did not fail (kernel/cred.c):
	 * the exec that should follow does, if the user still is.
	 */
	if (current->nproc_exceeded &&
	    (uint64_t)count_user_tasks(current_uid()) > current->rlim[RLIMIT_NPROC].cur) {
		retval = -EAGAIN;
		goto out_ret;
	}
	current->nproc_exceeded = false;

	bprm = bprm_from_user(fd, filename, argv, envp);
	if (IS_ERR(bprm)) {
		retval = PTR_ERR(bprm);
		goto out_ret;
	}
	exec_trace_start(bprm);
	retval = bprm_execve(bprm, fd, filename, flags);
	free_bprm(bprm);
out_ret:
	kfree(filename);
	return retval;
}

/*
 * The same exec with everything in kernel memory: how the kernel starts
 * init. Linux 6.1 takes the same steps with the kernel-memory versions of
 * count and copy_strings.
 */
int kernel_execve(const char *kernel_filename, char *const argv[], char *const envp[])
{
	struct linux_binprm *bprm;
	char *filename;
	int retval;

	filename = getname_kernel(kernel_filename);
	if (IS_ERR(filename))
		return PTR_ERR(filename);

	bprm = alloc_bprm(AT_FDCWD, filename, current->rlim[RLIMIT_STACK].cur);
	if (IS_ERR(bprm)) {
		retval = PTR_ERR(bprm);
		goto out_ret;
	}

	retval = count_strings_kernel(argv);
	if (retval == 0)
		retval = -EINVAL; /* Linux warns: the kernel must give an argv[0] */
	if (retval < 0)
		goto out_free;
	bprm->argc = retval;

	retval = count_strings_kernel(envp);
	if (retval < 0)
		goto out_free;
	bprm->envc = retval;

	retval = bprm_stack_limits(bprm);
	if (retval < 0)
		goto out_free;

	retval = copy_string_kernel(bprm->filename, bprm);
	if (retval < 0)
		goto out_free;
	bprm->exec = bprm->p;

	retval = copy_strings_kernel(bprm->envc, envp, bprm);
	if (retval < 0)
		goto out_free;

	retval = copy_strings_kernel(bprm->argc, argv, bprm);
	if (retval < 0)
		goto out_free;

	exec_trace_start(bprm);
	retval = bprm_execve(bprm, AT_FDCWD, filename, 0);
out_free:
	free_bprm(bprm);
out_ret:
	kfree(filename);
	return retval;
}

/* ------------------------------------------------------------------------
 * The new address space and its stack, built aside.
 * ------------------------------------------------------------------------ */

/*
 * A new mm with one area, the stack: one page right under STACK_TOP (Linux:
 * STACK_TOP_MAX, the same address with 4-level paging), read-write, which
 * grows as copy_strings goes down. The first 8 bytes stay zero, as in
 * Linux, so bprm->p starts 8 bytes under the top. setup_arg_pages moves it
 * to its final, randomized place.
 */
static int bprm_mm_init(struct linux_binprm *bprm)
{
	struct mm *mm = mm_create();
	int err;

	if (!mm)
		return -ENOMEM;
	err = vma_map(mm, STACK_TOP - PAGE_SIZE, PAGE_SIZE, VM_READ | VM_WRITE | VM_STACK);
	if (err) {
		mm_put(mm);
		return err;
	}
	bprm->mm = mm;
	bprm->p = STACK_TOP - sizeof(void *);
	return 0;
}

/*
 * bprm->filename is the name as given, except for a name relative to an
 * execveat descriptor: then the kernel makes one that means the same from
 * anywhere, "/dev/fd/N/NAME", or "/dev/fd/N" for the descriptor's own file
 * (AT_EMPTY_PATH). A script's interpreter gets this name, and AT_EXECFN
 * points to it.
 */
static struct linux_binprm *alloc_bprm(int fd, const char *filename, uint64_t rlim_stack)
{
	struct linux_binprm *bprm = kzalloc(sizeof(*bprm));
	int retval;

	if (!bprm)
		return ERR_PTR(-ENOMEM);
	if (fd == AT_FDCWD || filename[0] == '/') {
		bprm->filename = filename;
	} else {
		size_t size = strlen(filename) + 32;
		char *fdpath = kmalloc(size);

		if (!fdpath) {
			kfree(bprm);
			return ERR_PTR(-ENOMEM);
		}
		if (filename[0] == '\0') {
			snprintf(fdpath, size, "/dev/fd/%d", fd);
			bprm->comm_from_dentry = true;
		} else {
			snprintf(fdpath, size, "/dev/fd/%d/%s", fd, filename);
		}
		bprm->fdpath = bprm->filename = fdpath;
	}
	bprm->interp = bprm->filename;
	bprm->rlim_stack = rlim_stack; /* as Linux, the caller's */
	retval = bprm_mm_init(bprm);
	if (retval) {
		kfree((char *)bprm->fdpath);
		kfree(bprm);
		return ERR_PTR(retval);
	}
	return bprm;
}

/*
 * Give back what the exec still holds. After a successful exec, or a
 * failure past the point of no return, bprm->mm is NULL: the process owns
 * the new address space; and bprm->cred is NULL once the credentials are
 * installed. The file names belong to the caller, except an interpreter
 * name that a handler set, and the /dev/fd name.
 */
static void free_bprm(struct linux_binprm *bprm)
{
	if (bprm->mm)
		mm_put(bprm->mm);
	if (bprm->cred)
		abort_creds(bprm->cred);
	if (bprm->file) {
		allow_write_access(bprm->file);
		fput(bprm->file);
	}
	if (bprm->interpreter) {
		allow_write_access(bprm->interpreter);
		fput(bprm->interpreter);
	}
	if (bprm->executable)
		fput(bprm->executable);
	if (bprm->interp != bprm->filename)
		kfree((char *)bprm->interp);
	kfree((char *)bprm->fdpath);
	kfree(bprm);
}

/* ------------------------------------------------------------------------
 * Arguments and environment: counting, the limits, copying.
 * ------------------------------------------------------------------------ */

/* argv[nr], read from user memory; ERR_PTR(-EFAULT) if it cannot be read. */
static const char __user *get_user_arg_ptr(const char __user *const __user *argv, int nr)
{
	uint64_t ptr;

	if (get_user_u64(&ptr, argv + nr))
		return ERR_PTR(-EFAULT);
	return (const char __user *)ptr;
}

/*
 * The number of pointers before the NULL that ends a user array. A NULL
 * array is an empty one (Linux; other systems say EFAULT). EFAULT if a
 * pointer cannot be read, E2BIG past max entries.
 */
static int count(const char __user *const __user *argv, int max)
{
	uint64_t ptrs[64];
	int i = 0;

	if (!argv)
		return 0;
	for (;;) {
		/* 64 pointers at a time when the block can be read; else one
		 * by one, so that EFAULT comes exactly where Linux's does. */
		int n = 1;

		if (copy_from_user(ptrs, argv + i, sizeof(ptrs)) == 0) {
			n = 64;
		} else {
			const char __user *p = get_user_arg_ptr(argv, i);

			if (IS_ERR(p))
				return -EFAULT;
			ptrs[0] = (uint64_t)p;
		}
		for (int k = 0; k < n; k++) {
			if (!ptrs[k])
				return i;
			if (i >= max)
				return -E2BIG;
			++i;
		}
	}
}

static int count_strings_kernel(char *const argv[])
{
	int i;

	if (!argv)
		return 0;
	for (i = 0; argv[i]; ++i)
		if (i >= MAX_ARG_STRINGS)
			return -E2BIG;
	return i;
}

/* LAB 03: BEGIN the limits of argv and envp */
/*
 * How low the strings may go: a quarter of RLIMIT_STACK but at most 6 MiB
 * (3/4 of _STK_LIM), and at least ARG_MAX (128 KiB); 2 MiB for the default
 * 8 MiB stack. The argv and envp pointers count too, and at least one argv
 * pointer, for the "" an empty argv gets.
 */
static int bprm_stack_limits(struct linux_binprm *bprm)
{
	uint64_t limit, ptr_size;

	limit = _STK_LIM / 4 * 3;
	limit = MIN(limit, bprm->rlim_stack / 4);
	limit = MAX(limit, (uint64_t)ARG_MAX);
	ptr_size = ((uint64_t)MAX(bprm->argc, 1) + bprm->envc) * sizeof(void *);
	if (limit <= ptr_size)
		return -E2BIG;
	limit -= ptr_size;
	bprm->argmin = bprm->p - limit;
	return 0;
}

/* One string, with its NUL, may take at most MAX_ARG_STRLEN bytes. */
static bool valid_arg_len(uint64_t len)
{
	return len <= MAX_ARG_STRLEN;
}

/*
 * Make room for len bytes under bprm->p: E2BIG if the string is too long
 * or the room is used up. Returns the string's new address through *pos.
 */
static int bprm_reserve(struct linux_binprm *bprm, uint64_t len, uint64_t *pos)
{
	if (!valid_arg_len(len))
		return -E2BIG;
	if (bprm->p - bprm->argmin < len)
		return -E2BIG;
	bprm->p -= len;
	*pos = bprm->p;
	/* The stack area grows to hold it, within RLIMIT_STACK (Linux's
	 * get_arg_page). */
	if (expand_stack(bprm->mm, bprm->p))
		return -E2BIG;
	return 0;
}
/* LAB 03: ELSE: no limit but the stack's own
static int bprm_stack_limits(struct linux_binprm *bprm)
{
	bprm->argmin = 0;
	return 0;
}

static int bprm_reserve(struct linux_binprm *bprm, uint64_t len, uint64_t *pos)
{
	bprm->p -= len;
	*pos = bprm->p;
	return expand_stack(bprm->mm, bprm->p) ? -E2BIG : 0;
}
   LAB 03: END */

/*
 * The page of the new stack that holds pos, as a kernel address (Linux's
 * get_arg_page and kmap): the last one is kept, since consecutive strings
 * mostly share a page.
 */
struct arg_page {
	uint64_t va;  /* page address in the new mm, 0 for none */
	char *kaddr;
};

static char *get_arg_page(struct linux_binprm *bprm, struct arg_page *cache, uint64_t pos)
{
	uint64_t va = ALIGN_DOWN(pos, PAGE_SIZE);

	if (cache->va != va) {
		cache->kaddr = mm_get_page_for_write(bprm->mm, va);
		cache->va = cache->kaddr ? va : 0;
	}
	return cache->kaddr;
}

/*
 * Copy argc strings from the user array argv onto the new stack, the last
 * one first, so that they end up in order from argv[0] upwards. Each
 * string goes from user memory straight into the stack's pages, a piece
 * per page it spans (Linux copies the same way; one byte at a time would
 * cost 100 KB of single stores for 1000 arguments).
 */
static int copy_strings(int argc, const char __user *const __user *argv,
			struct linux_binprm *bprm)
{
	struct arg_page cache = { 0, NULL };
	uint64_t ptrs[64];
	int have = 0; /* ptrs[0..have) are argv[argc - have .. argc) */

	while (argc-- > 0) {
		const char __user *str;
		uint64_t pos, done, n;
		long len;
		int ret;

		/* The pointers, read 64 at a time from the end (one at a time
		 * where a block cannot be read, to fault where Linux does). */
		if (!have) {
			int k = MIN(argc + 1, 64);

			if (copy_from_user(ptrs, argv + argc + 1 - k, k * sizeof(uint64_t)) == 0)
				have = k;
		}
		if (have)
			str = (const char __user *)ptrs[--have];
		else
			str = get_user_arg_ptr(argv, argc);
		if (IS_ERR(str))
			return -EFAULT;
		len = strnlen_user(str, MAX_ARG_STRLEN); /* with the NUL */
		if (!len)
			return -EFAULT;
		ret = bprm_reserve(bprm, len, &pos);
		if (ret)
			return ret;
		for (done = 0; done < (uint64_t)len; done += n) {
			uint64_t at = pos + done;
			char *kaddr = get_arg_page(bprm, &cache, at);

			if (!kaddr)
				return -ENOMEM;
			n = MIN((uint64_t)len - done, PAGE_SIZE - (at & ~PAGE_MASK));
			if (copy_from_user(kaddr + (at & ~PAGE_MASK), str + done, n))
				return -EFAULT;
			/* The string may have changed since strnlen_user
			 * (another thread): whatever it holds now, it ends
			 * where we counted. */
			if (done + n == (uint64_t)len)
				kaddr[(at & ~PAGE_MASK) + n - 1] = '\0';
		}
	}
	return 0;
}

/*
 * One string from kernel memory onto the new stack: the file name, the ""
 * of an empty argv, and what a script handler adds (interpreter, argument).
 */
int copy_string_kernel(const char *arg, struct linux_binprm *bprm)
{
	uint64_t len = strnlen(arg, MAX_ARG_STRLEN) + 1; /* with the NUL */
	uint64_t pos;
	int ret;

	ret = bprm_reserve(bprm, len, &pos);
	if (ret)
		return ret;
	return mm_write(bprm->mm, pos, arg, len);
}

static int copy_strings_kernel(int argc, char *const argv[], struct linux_binprm *bprm)
{
	while (argc-- > 0) {
		int ret = copy_string_kernel(argv[argc], bprm);

		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Drop argv[0]: it is the lowest string, at bprm->p, so bprm->p moves up
 * past it and its NUL. Used by the handlers that run an interpreter in
 * place of the file (a script's "#!" line, binfmt_misc), before they push
 * the interpreter's own argv[0]. Its bytes stay where they were, unused;
 * the limit (argmin) does not move either, as in Linux.
 */
int remove_arg_zero(struct linux_binprm *bprm)
{
	char chunk[64];

	if (!bprm->argc)
		return 0;
	for (;;) {
		/* Read up to the end of the page, at most a chunk at a time. */
		uint64_t n = MIN(sizeof(chunk), PAGE_SIZE - (bprm->p & ~PAGE_MASK));
		char *nul;
		int ret = mm_read(bprm->mm, bprm->p, chunk, n);

		if (ret)
			return ret;
		nul = chunk;
		while (nul < chunk + n && *nul)
			nul++;
		if (nul < chunk + n) {
			bprm->p += nul - chunk + 1;
			break;
		}
		bprm->p += n;
	}
	bprm->argc--;
	return 0;
}

/*
 * The name of the file being loaded changes: a handler found an
 * interpreter. bprm->filename keeps the name execve was given.
 */
int bprm_change_interp(const char *interp, struct linux_binprm *bprm)
{
	exec_trace_interp(bprm, interp);
	if (bprm->interp != bprm->filename)
		kfree((char *)bprm->interp);
	bprm->interp = strdup_k(interp);
	if (!bprm->interp)
		return -ENOMEM;
	return 0;
}

/* ------------------------------------------------------------------------
 * The credentials, the file, and finding its handler.
 * ------------------------------------------------------------------------ */

/*
 * The new program's credentials start as a copy of the caller's; they
 * change only in begin_new_exec (set-user-ID, capabilities) and become the
 * process's there. Linux takes cred_guard_mutex here (against ptrace).
 */
static int prepare_bprm_creds(struct linux_binprm *bprm)
{
	bprm->cred = prepare_exec_creds();
	return bprm->cred ? 0 : -ENOMEM;
}

/*
 * Is it safe for this exec to raise privileges? Not under no_new_privs,
 * and not while another process shares this one's fs_struct (CLONE_FS):
 * it could change the root or working directory under a set-user-ID
 * program. (Linux also refuses for a traced process; there is no ptrace.)
 */
static void check_unsafe_exec(struct linux_binprm *bprm)
{
	int n_fs = 0;

	if (current->no_new_privs)
		bprm->unsafe |= LSM_UNSAFE_NO_NEW_PRIVS;
	if (!current->fs)
		return;
	/* Its own threads (which de_thread will end) do not count. */
	for_each_thread(current, t)
		if (t->fs == current->fs)
			n_fs++;
	if (fs_users(current->fs) > n_fs)
		bprm->unsafe |= LSM_UNSAFE_SHARE;
}

/*
 * Open a file to run it: relative to fd as execveat asks. EINVAL for flags
 * other than AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH; the path walk's errors
 * (ENOENT, ENOTDIR, ELOOP, EACCES for a directory on the way that may not
 * be searched, EBADF for a bad fd); EACCES unless it is a regular file with
 * execute permission on a mount without noexec (the open checks MAY_EXEC
 * instead of MAY_READ: a mode 0111 program runs); ETXTBSY while someone
 * has it open for writing. The file stays closed to writers until
 * allow_write_access.
 */
static struct file *do_open_execat(int fd, const char *name, int flags)
{
	struct file *file;
	int err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return ERR_PTR(-EINVAL);
	/*
	 * With AT_EMPTY_PATH and "" the program is fd's own file. A pipe has
	 * no name for the path walk to start from; like any FIFO, socket or
	 * device it is not a program (Linux's may_open: EACCES).
	 */
	if (!name[0] && (flags & AT_EMPTY_PATH) && fd != AT_FDCWD) {
		struct file *f = fget(fd);
		mode_t mode = f ? inode_mode(file_inode(f)) : 0;

		if (f)
			fput(f);
		if (S_ISFIFO(mode) || S_ISSOCK(mode) || S_ISCHR(mode) || S_ISBLK(mode))
			return ERR_PTR(-EACCES);
	}
	file = do_filp_open_at(fd, name, O_RDONLY | __FMODE_EXEC, 0, flags);
	if (IS_ERR(file))
		return file;
	err = -EACCES; /* may_open refused anything else already */
	if (!S_ISREG(inode_mode(file_inode(file))))
		goto exit;
	err = deny_write_access(file);
	if (err)
		goto exit;
	return file;
exit:
	fput(file);
	return ERR_PTR(err);
}

/*
 * Open a program by name, from the working directory: the handlers' way to
 * open an interpreter.
 *
 * An empty name comes only from inside the kernel (a "#!" with nothing
 * after it and no newline, an ELF PT_INTERP of "\0\0"): Linux's walk of ""
 * stops at once, on the working directory, which exec refuses with
 * EACCES. Our path walk refuses "" with ENOENT, so we name "." instead.
 */
struct file *open_exec(const char *name)
{
	return do_open_execat(AT_FDCWD, *name ? name : ".", 0);
}

/*
 * Open the file and run the handlers. A failure after the point of no
 * return cannot be reported to a program that no longer exists: the
 * process gets SIGSEGV and dies on its way back to user mode.
 */
static int bprm_execve(struct linux_binprm *bprm, int fd, const char *filename, int flags)
{
	struct file *file;
	int retval;

	retval = prepare_bprm_creds(bprm);
	if (retval)
		goto out;
	check_unsafe_exec(bprm);

	file = do_open_execat(fd, filename, flags);
	retval = PTR_ERR(file);
	if (IS_ERR(file))
		goto out;
	bprm->file = file;

	/*
	 * A /dev/fd/N name of a close-on-exec descriptor names nothing once
	 * the new program runs: an interpreter could not open it. The script
	 * and binfmt_misc handlers then refuse (ENOENT) rather than start an
	 * interpreter that fails at once.
	 */
	if (bprm->fdpath && get_close_on_exec(fd))
		bprm->interp_flags |= BINPRM_FLAGS_PATH_INACCESSIBLE;

	retval = security_bprm_creds_for_exec(bprm);
	if (retval)
		goto out;

	retval = exec_binprm(bprm);
out:
	exec_trace_done(bprm, retval);
	if (retval < 0 && bprm->point_of_no_return)
		send_sig(SIGSEGV, current);
	return retval;
}

/*
 * Run the search, and again on the interpreter each time a handler
 * rewrote the exec (a "#!" script names its interpreter): the file and at
 * most five rewrites run; a sixth gives ELOOP. (Linux's comment says "4
 * levels"; it is five.)
 */
static int exec_binprm(struct linux_binprm *bprm)
{
	int ret, depth;

	for (depth = 0;; depth++) {
		struct file *exec;

		exec_trace_depth(bprm, depth);
		if (depth > 5)
			return -ELOOP;

		ret = search_binary_handler(bprm);
		if (ret < 0)
			return ret;
		if (!bprm->interpreter)
			break;

		/* The interpreter becomes the file to load. */
		exec = bprm->file;
		bprm->file = bprm->interpreter;
		bprm->interpreter = NULL;

		allow_write_access(exec);
		if (bprm->have_execfd) {
			/* binfmt_misc 'O' passes the program as a descriptor; only
			 * one such program per exec. */
			if (bprm->executable) {
				fput(exec);
				return -ENOEXEC;
			}
			bprm->executable = exec;
		} else {
			fput(exec);
		}
	}
	return 0;
}

/*
 * Read the first bytes of the file into bprm->buf, the rest zero: what the
 * handlers decide on. Runs again for each interpreter.
 */
static int prepare_binprm(struct linux_binprm *bprm)
{
	memset(bprm->buf, 0, BINPRM_BUF_SIZE);
	return kernel_read(bprm->file, bprm->buf, BINPRM_BUF_SIZE, 0);
}

static bool printable(unsigned char c)
{
	return c == '\t' || c == '\n' || (0x20 <= c && c <= 0x7e);
}

/*
 * Ask each handler in turn, as their contract says (include/linux/binfmts.h):
 * -ENOEXEC asks the next; any other answer ends the search. When nobody
 * wants a file that does not look like text, Linux asks for a module named
 * after bytes 2 and 3 and tries once more.
 */
static int search_binary_handler(struct linux_binprm *bprm)
{
	bool need_retry = true;
	struct linux_binfmt *fmt;
	int retval;

	retval = prepare_binprm(bprm);
	if (retval < 0)
		return retval;
	exec_trace_buf(bprm);

	/* May this file run? Asked of each file: a script, then its interpreter. */
	retval = security_bprm_check(bprm);
	if (retval)
		return retval;

	retval = -ENOENT; /* no handler registered at all */
retry:
	for (fmt = formats; fmt; fmt = fmt->next) {
		/* A handler in a module being unloaded is skipped. */
		if (!try_module_get(fmt->module))
			continue;
		retval = fmt->load_binary(bprm);
		module_put(fmt->module);
		exec_trace_handler(bprm, fmt, retval);
		if (bprm->point_of_no_return || retval != -ENOEXEC)
			return retval;
	}

	if (need_retry) {
		const unsigned char *b = (const unsigned char *)bprm->buf;

		if (printable(b[0]) && printable(b[1]) && printable(b[2]) && printable(b[3]))
			return retval;
		/* modprobe runs (kernel/kmod.c) and we wait for it; unless it
		 * could not be run at all, the handlers are asked once more. */
		if (request_module("binfmt-%04x", b[2] | b[3] << 8) < 0)
			return retval;
		need_retry = false;
		goto retry;
	}
	return retval;
}

/* ------------------------------------------------------------------------
 * The handover, called by the handlers.
 * ------------------------------------------------------------------------ */

/*
 * The file is not readable by the caller: the new process is not dumpable
 * (the user may not look into a program it may not read).
 */
void would_dump(struct linux_binprm *bprm, struct file *file)
{
	if (inode_permission(file_inode(file), MAY_READ) < 0)
		bprm->interp_flags |= BINPRM_FLAGS_ENFORCE_NONDUMP;
}

/*
 * Set-user-ID and set-group-ID (Linux's bprm_fill_uid): the effective ids
 * of the new credentials become the file's owner and group. Never on a
 * nosuid mount, never under no_new_privs; set-group-ID only when the
 * group may execute the file (without it, the bit means mandatory
 * locking). Called for the file finally loaded, so a "#!" script's own
 * bits count for nothing: the interpreter's do.
 */
static void bprm_fill_uid(struct linux_binprm *bprm, struct file *file)
{
	struct inode *inode = file_inode(file);
	mode_t mode = inode_mode(inode);

	if (!mnt_may_suid(file) || current->no_new_privs)
		return;
	if (mode & S_ISUID) {
		bprm->per_clear |= PER_CLEAR_ON_SETID;
		bprm->cred->euid = inode_uid(inode);
	}
	if ((mode & (S_ISGID | 0010)) == (S_ISGID | 0010)) {
		bprm->per_clear |= PER_CLEAR_ON_SETID;
		bprm->cred->egid = inode_gid(inode);
	}
}

/*
 * The new program's credentials, from the file finally loaded: its
 * set-user-ID and set-group-ID bits, then the capability rules and the
 * security modules (security_bprm_creds_from_file, which also decides
 * AT_SECURE). binfmt_misc's 'C' flag asks for the credentials of the
 * program it hands to an interpreter (bprm->executable) instead.
 */
static int bprm_creds_from_file(struct linux_binprm *bprm)
{
	struct file *file = bprm->execfd_creds ? bprm->executable : bprm->file;

	bprm_fill_uid(bprm, file);
	return security_bprm_creds_from_file(bprm, file);
}

/*
 * The point of no return. The handler has checked all it can; the new
 * credentials are computed (a failure there still returns to the caller);
 * now the process becomes the new program:
 *   - its address space is the new one (the old one is dropped, and a
 *     vfork parent sharing it may run again),
 *   - close-on-exec descriptors are closed,
 *   - after a privileged exec (AT_SECURE) the parent-death signal is
 *     forgotten,
 *   - it is dumpable or not (who may look into it, /proc/PID),
 *   - it takes the name of the new file (15 bytes of its base name),
 *   - caught signals go back to their default action (ignored ones stay),
 *   - its credentials are the new ones (commit_creds),
 *   - binfmt_misc 'O': the program is handed to its interpreter as a
 *     descriptor (AT_EXECFD).
 * Before all that, de_thread makes the process single-threaded. Past the
 * point of no return it fails when another thread kills the process, or
 * when the descriptor for AT_EXECFD cannot be had (EMFILE); a handler
 * treats a failure as past the point of no return.
 */
int begin_new_exec(struct linux_binprm *bprm)
{
	struct task *me = current;
	struct mm *old_mm = me->mm;
	int retval;

	retval = bprm_creds_from_file(bprm);
	if (retval)
		return retval;

	/* ======== THE POINT OF NO RETURN ======== */
	bprm->point_of_no_return = true;

	/* The other threads die; a thread that is not the leader takes the
	 * leader's pid (kernel/exit.c). */
	retval = de_thread(me);
	if (retval)
		return retval;
	/* exec_mm_release: the robust futexes and the clear_child_tid word
	 * of the old memory (kernel/futex.c). */
	futex_exec_release(me);
	/* The old program's POSIX timers, and their signals still pending. */
	exit_itimers(me);
	flush_itimer_signals();
	me->self_exec_id++;

	/* The new program's file stays closed to writers while it runs. */
	set_exe_file(me, bprm->file);
	would_dump(bprm, bprm->file);
	if (bprm->have_execfd)
		would_dump(bprm, bprm->executable);

	/* exec_mmap: take up the new address space. */
	me->mm = bprm->mm;
	bprm->mm = NULL;
	mm_activate(me->mm);
	load_mm_ldt(me->mm); /* the old table went with the old mm */
	vfork_release(me);
	if (old_mm)
		mm_put(old_mm);

	if (me->files)
		files_close_on_exec(me->files);

	/*
	 * A parent may not signal a process that became more privileged, nor
	 * hand it a stack limit beyond the default to misplace its memory.
	 */
	me->personality &= ~bprm->per_clear;
	if (bprm->secureexec) {
		me->pdeath_signal = 0;
		if (me->rlim[RLIMIT_STACK].cur > _STK_LIM)
			me->rlim[RLIMIT_STACK].cur = _STK_LIM;
	}

	/*
	 * Dumpable unless a file of the exec was unreadable, or the caller
	 * runs with effective ids other than its real ones. (Linux's comment:
	 * it should look at bprm->secureexec, but user space depends on this.)
	 * commit_creds below makes the process non-dumpable too if its ids
	 * change.
	 */
	if ((bprm->interp_flags & BINPRM_FLAGS_ENFORCE_NONDUMP) ||
	    current_euid() != current_uid() || current_egid() != current_gid())
		me->mm->dumpable = suid_dumpable;
	else
		me->mm->dumpable = SUID_DUMP_USER;

	/* Through AT_EMPTY_PATH, the name of the file loaded, not "N". */
	task_set_comm(me, bprm->comm_from_dentry ? file_name(bprm->file) : bprm->filename);
	rseq_execve(me);
	flush_signal_handlers(me);

	/* Install the new credentials. */
	security_bprm_committing_creds(bprm);
	commit_creds(bprm->cred);
	bprm->cred = NULL;
	security_bprm_committed_creds(bprm);

	/* binfmt_misc 'O': the program, open, for its interpreter (AT_EXECFD).
	 * Not close-on-exec; the lowest free descriptor. */
	if (bprm->have_execfd) {
		int fd = fd_install_lowest(me->files, bprm->executable, false);

		if (fd < 0)
			return fd;
		bprm->executable = NULL;
		bprm->execfd = fd;
	}
	return 0;
}

/*
 * After begin_new_exec, once the handler has set the personality: what
 * depends on it. The mmap area's base is chosen (and randomized) here.
 */
void setup_new_exec(struct linux_binprm *bprm)
{
	arch_pick_mmap_layout(current->mm, bprm->rlim_stack);
}

/*
 * Finish the stack: move it from STACK_TOP, where the strings were copied,
 * down to stack_top (randomized by the handler, and here by up to a page
 * more), give it its rights (PT_GNU_STACK with PF_X asks for an executable
 * stack), and make the area 128 KiB larger than what it holds, or
 * RLIMIT_STACK if that is less, as Linux does. bprm->p and bprm->exec move
 * with the strings; argv[0] starts at bprm->p (mm->arg_start).
 */
int setup_arg_pages(struct linux_binprm *bprm, uint64_t stack_top, int executable_stack)
{
	struct mm *mm = current->mm;
	struct vma *vma = vma_find(mm, STACK_TOP - 1);
	unsigned flags = VM_READ | VM_WRITE;
	uint64_t stack_shift, stack_size, stack_expand, rlim_stack;
	int ret;

	stack_top = ALIGN_UP(arch_align_stack(stack_top), PAGE_SIZE);
	if (stack_top < MMAP_MIN_ADDR || vma->end - vma->start >= stack_top - MMAP_MIN_ADDR)
		return -ENOMEM;
	stack_shift = vma->end - stack_top;
	bprm->p -= stack_shift;
	mm->arg_start = bprm->p;
	bprm->exec -= stack_shift;

	if (current->personality & READ_IMPLIES_EXEC)
		flags |= VM_EXEC;
	if (executable_stack == EXSTACK_ENABLE_X)
		flags |= VM_EXEC;
	else if (executable_stack == EXSTACK_DISABLE_X)
		flags &= ~VM_EXEC;
	ret = vma_protect(mm, vma->start, vma->end - vma->start, flags);
	if (ret)
		return ret;
	if (flags & VM_EXEC)
		pr_warn_once("process '%s' started with executable stack\n", bprm->interp);

	/* Move the pages (their page-table entries) down. */
	vma = vma_find(mm, STACK_TOP - 1);
	stack_size = vma->end - vma->start;
	if (stack_shift) {
		ret = vma_shift_down(mm, vma->start, stack_shift);
		if (ret)
			return ret;
		vma = vma_find(mm, stack_top - 1);
	}

	stack_expand = 131072; /* 32 pages */
	rlim_stack = bprm->rlim_stack & PAGE_MASK;
	stack_expand = MIN(rlim_stack, stack_size + stack_expand);
	mm->start_stack = bprm->p;
	if (expand_stack(mm, vma->end - stack_expand))
		return -EFAULT;
	return 0;
}
