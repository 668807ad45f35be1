/*
 * fuzz_elf.c - the ELF loader's checks (fs/binfmt_elf.c): the ELF header,
 * the program headers, PT_INTERP and the interpreter's own headers, each
 * segment's mapping, the brk, the entry point, the stack it lays out.
 *
 * The input is the whole file: bprm->buf gets its first BINPRM_BUF_SIZE
 * bytes (zero-padded), and kernel_read reads the rest from it. A PT_INTERP
 * names an interpreter whose file is the same input (a second look at the
 * same bytes, as an ELF interpreter). The loader is included whole; the
 * address space under it is a stand-in that refuses what mm/mmap.c's
 * vm_mmap and vm_brk_flags refuse: areas not page-aligned, empty, outside
 * user space or wrapping.
 * and a user copy that leaves user space is EFAULT, as mm/usercopy.c's.
 * Checked: the entry point and stack below TASK_SIZE, nothing mapped
 * before the point of no return. A run that ends
 * before the point of no return must leave nothing mapped; every run
 * frees all it took and closes every file it opened.
 */
#include "../../../fs/binfmt_elf.c"
#include "host.h"

static struct linux_binfmt *fmt;
void register_binfmt(struct linux_binfmt *f) { fmt = f; }

static const uint8_t *file_data;
static size_t file_size;
static struct file *const the_file = (struct file *)0x2000, *const interp_file = (struct file *)0x3000;
static int interp_refs;
static struct task task;
static struct cred cred = { .uid = 1000, .euid = 1000, .gid = 1000, .egid = 1000 };
static struct mm mm;
static struct trapframe tf;
struct task *current = &task;
int randomize_va_space = 0;
static int nr_areas;
static bool started;
/* The stack's strings, as exec left them: "ab" and its NUL, again and again. */
static char stack_page[PAGE_SIZE];

ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t pos)
{
	CHECK((file == the_file || file == interp_file) && pos >= 0);
	if ((uint64_t)pos >= file_size)
		return 0;
	size_t n = file_size - pos < count ? file_size - pos : count;
	memcpy(buf, file_data + pos, n);
	return n;
}

struct file *open_exec(const char *name)
{
	CHECK(strlen(name) < PAGE_SIZE);
	if (name[0] == 'x')
		return ERR_PTR(-ENOENT);
	interp_refs++;
	return interp_file;
}

void fput(struct file *file)
{
	CHECK(file == interp_file && interp_refs > 0);
	interp_refs--;
}

void allow_write_access(struct file *file) { CHECK(file == interp_file || file == the_file); }
bool file_mmap_anonymous(const struct file *file) { (void)file; return false; }
int file_mmap_check(struct file *file, bool shared_write) { (void)file, (void)shared_write; return 0; }

int begin_new_exec(struct linux_binprm *bprm)
{
	CHECK(!bprm->point_of_no_return);
	bprm->point_of_no_return = true;
	return 0;
}

void setup_new_exec(struct linux_binprm *bprm) { (void)bprm; mm.mmap_base = 0x7f0000000000UL; }

int setup_arg_pages(struct linux_binprm *bprm, uint64_t stack_top, int executable_stack)
{
	CHECK(stack_top <= TASK_SIZE && stack_top % PAGE_SIZE == 0);
	CHECK(executable_stack >= EXSTACK_DEFAULT && executable_stack <= EXSTACK_ENABLE_X);
	mm.arg_start = bprm->p;
	return 0;
}

/* mm/vm.c's user_range: a range it takes, or -EINVAL. */
static int user_range_ok(uint64_t start, uint64_t len)
{
	if (start % PAGE_SIZE || len == 0 || len > TASK_SIZE)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	return start > TASK_SIZE - len ? -EINVAL : 0;
}

/* Where mm/vm.c's get_unmapped_area puts a mapping with no fixed place. */
static uint64_t unmapped_area(uint64_t addr, uint64_t len)
{
	if (len == 0 || len > TASK_SIZE - 0x10000)
		return 0;
	if (addr && addr % PAGE_SIZE == 0 && addr >= 0x10000 && addr <= TASK_SIZE - len)
		return addr;
	return ALIGN_DOWN(0x7f0000000000UL - len, PAGE_SIZE);
}

/* mm/mmap.c's vm_mmap and do_mmap, as far as their errors go: the
 * loader's mappings are private, of its file, with mmap's prot bits. */
long vm_mmap(struct file *file, uint64_t addr, uint64_t len, unsigned long prot,
	     unsigned long flags, uint64_t offset)
{
	CHECK(file == the_file || file == interp_file || (!file && addr == 0));
	CHECK(!(prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC)));
	CHECK((flags & MAP_TYPE) == MAP_PRIVATE);
	if (offset + ALIGN_UP(len, PAGE_SIZE) < offset || offset % PAGE_SIZE || len == 0)
		return -EINVAL;
	if (len > TASK_SIZE)
		return -ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (file && offset > (uint64_t)INT64_MAX - len)
		return -EOVERFLOW;
	if (!(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))) {
		addr = unmapped_area(addr, len);
		if (!addr)
			return -ENOMEM;
	} else if (addr > TASK_SIZE - len) {
		return -ENOMEM;
	} else if (addr % PAGE_SIZE) {
		return -EINVAL;
	}
	nr_areas++;
	return addr;
}

int vm_brk_flags(uint64_t addr, uint64_t len, unsigned long flags)
{
	CHECK(!(flags & ~VM_EXEC));
	if (!len)
		return 0;
	if (user_range_ok(addr, len))
		return -ENOMEM;
	nr_areas++;
	return 0;
}

int vm_munmap(uint64_t start, uint64_t len)
{
	return user_range_ok(start, len);
}

int expand_stack(struct mm *m, uint64_t addr) { CHECK(m == &mm && addr < TASK_SIZE); return 0; }
int arch_setup_additional_pages(struct mm *m) { CHECK(m == &mm); return 0; }

void *mm_get_page_for_write(struct mm *m, uint64_t va)
{
	CHECK(m == &mm && va % PAGE_SIZE == 0 && va < TASK_SIZE);
	return stack_page;
}

/* As mm/usercopy.c: a range that leaves user space is -EFAULT. */
int copy_to_user(void __user *dst, const void *src, size_t n)
{
	uint64_t a = (uint64_t)dst;
	if (a > TASK_SIZE || n > TASK_SIZE - a)
		return -EFAULT;
	for (size_t i = 0; i < n; i++)
		(void)((volatile const char *)src)[i];
	return 0;
}

int clear_user(void __user *dst, size_t n)
{
	uint64_t a = (uint64_t)dst;
	return a > TASK_SIZE || n > TASK_SIZE - a ? -EFAULT : 0;
}

void start_thread(struct trapframe *regs, uint64_t new_ip, uint64_t new_sp)
{
	CHECK(regs == &tf && new_ip < TASK_SIZE && new_sp < TASK_SIZE);
	started = true;
}

/* One thread: the big kernel lock is never let go (elf_build_mm). */
bool release_kernel_lock(void) { return false; }
void reacquire_kernel_lock(bool was_held) { (void)was_held; }

/* No randomness: the same input takes the same path. */
uint64_t get_random_u64(void) { return 0; }
uint64_t arch_mmap_rnd(void) { return 0; }
uint64_t randomize_stack_top(uint64_t top) { return top; }
uint64_t arch_align_stack(uint64_t sp) { return sp & ~15UL; }
uint64_t arch_randomize_brk(struct mm *m) { return m->brk; }
uint64_t elf_hwcap2(void) { return 0; }
uint64_t sigframe_size(void) { return 2048; }
void exec_trace_elf(struct linux_binprm *bprm, bool dyn, const char *interp, uint64_t load_bias,
		    uint64_t interp_base, uint64_t entry, uint64_t bss_end)
{
	(void)bprm, (void)dyn, (void)interp, (void)load_bias, (void)interp_base, (void)entry, (void)bss_end;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct linux_binprm *b;
	long allocs = host_allocs;
	int ret;

	if (!fmt) {
		init_elf_binfmt();
		for (size_t i = 0; i < sizeof(stack_page); i += 3)
			memcpy(stack_page + i, "ab", i + 3 <= sizeof(stack_page) ? 3 : sizeof(stack_page) - i);
	}
	file_data = data;
	file_size = size;
	memset(&mm, 0, sizeof(mm));
	task.mm = &mm;
	task.tf = &tf;
	task.cred = task.real_cred = &cred;
	task.personality = 0;
	task.flags = 0;
	nr_areas = 0;
	interp_refs = 0;
	started = false;

	b = calloc(1, sizeof(*b));
	b->file = the_file;
	b->filename = b->interp = "/prog";
	b->argc = b->envc = 1;
	b->p = STACK_TOP - 64;
	b->exec = STACK_TOP - 16;
	b->rlim_stack = 8UL << 20;
	memcpy(b->buf, data, size < BINPRM_BUF_SIZE ? size : BINPRM_BUF_SIZE);

	ret = fmt->load_binary(b);
	CHECK(ret <= 0 && ret >= -4095);
	if (!b->point_of_no_return)
		CHECK(ret != 0 && nr_areas == 0); /* refused early: nothing done */
	if (ret == 0)
		CHECK(started && mm.start_brk <= TASK_SIZE);
	CHECK(interp_refs == 0); /* the interpreter's file is closed, whatever happened */
	free(b);
	CHECK(host_allocs == allocs);
	return 0;
}
