/*
 * fuzz_elf.c - the ELF loader's checks (fs/binfmt_elf.c): the ELF header,
 * the program headers, each segment's mapping, the entry point, the stack
 * it lays out.
 *
 * The input is the whole file: bprm->buf gets its first BINPRM_BUF_SIZE
 * bytes (zero-padded), and kernel_read reads the rest from it. The loader
 * is included whole; the address space under it is a stand-in that checks
 * every request: areas page-aligned, non-empty, inside user space and not
 * wrapping; stack writes inside user space; the entry point below
 * TASK_SIZE. A run that ends before the point of no return must leave
 * nothing behind; every run frees all it took.
 */
#include "../../fs/binfmt_elf.c"
#include "host.h"
#include <cred.h>

static struct linux_binfmt *fmt;
void register_binfmt(struct linux_binfmt *f) { fmt = f; }

static const uint8_t *file_data;
static size_t file_size;
static struct file *const the_file = (struct file *)0x2000;
static struct task task;
static struct cred cred = { .uid = 1000, .euid = 1000, .gid = 1000, .egid = 1000 };
static struct mm mm;
static struct trapframe tf;
struct task *current = &task;
static int nr_areas;
static bool started;

ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t pos)
{
	CHECK(file == the_file && pos >= 0);
	if ((uint64_t)pos >= file_size)
		return 0;
	size_t n = file_size - pos < count ? file_size - pos : count;
	memcpy(buf, file_data + pos, n);
	return n;
}

int begin_new_exec(struct linux_binprm *bprm)
{
	CHECK(!bprm->point_of_no_return);
	bprm->point_of_no_return = true;
	return 0;
}

int setup_arg_pages(struct linux_binprm *bprm, int executable_stack)
{
	CHECK(executable_stack >= EXSTACK_DEFAULT && executable_stack <= EXSTACK_ENABLE_X);
	mm.arg_start = bprm->p;
	return 0;
}

static int check_area(uint64_t start, uint64_t len, unsigned prot)
{
	CHECK(start % PAGE_SIZE == 0 && len % PAGE_SIZE == 0 && len > 0);
	CHECK(start < TASK_SIZE && len <= TASK_SIZE - start);
	CHECK(!(prot & ~(VM_READ | VM_WRITE | VM_EXEC)));
	if (start < 0x10000)
		return -EPERM; /* as mm/vm.c: the first pages are never mapped */
	nr_areas++;
	return 0;
}

int vma_map_file(struct mm *m, uint64_t start, uint64_t len, unsigned flags, struct file *file,
		 uint64_t pgoff, uint64_t file_end)
{
	CHECK(m == &mm && file == the_file);
	CHECK(pgoff <= (uint64_t)INT64_MAX / PAGE_SIZE);
	(void)file_end;
	return check_area(start, len, flags);
}

int vma_map(struct mm *m, uint64_t start, uint64_t len, unsigned flags)
{
	CHECK(m == &mm);
	return check_area(start, len, flags);
}

int copy_to_user(void __user *dst, const void *src, size_t n)
{
	uint64_t a = (uint64_t)dst;
	CHECK(a < TASK_SIZE && n <= TASK_SIZE - a);
	for (size_t i = 0; i < n; i++)
		(void)((volatile const char *)src)[i];
	return 0;
}

/* The strings exec put on the stack: each "ab" with its NUL. */
long strnlen_user(const char __user *s, long n)
{
	CHECK((uint64_t)s < TASK_SIZE && n > 0);
	return 3;
}

void start_thread(struct trapframe *regs, uint64_t new_ip, uint64_t new_sp)
{
	CHECK(regs == &tf && new_ip < TASK_SIZE && new_sp < TASK_SIZE);
	started = true;
}

uint64_t get_random_u64(void) { return 0x0123456789abcdefUL; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct linux_binprm *b;
	long allocs = host_allocs;
	int ret;

	if (!fmt)
		init_elf_binfmt();
	file_data = data;
	file_size = size;
	memset(&mm, 0, sizeof(mm));
	task.mm = &mm;
	task.cred = task.real_cred = &cred;
	task.tf = &tf;
	nr_areas = 0;
	started = false;

	b = calloc(1, sizeof(*b));
	b->file = the_file;
	b->filename = b->interp = "/prog";
	b->argc = b->envc = 1;
	b->p = STACK_TOP - 64;
	b->exec = STACK_TOP - 16;
	memcpy(b->buf, data, size < BINPRM_BUF_SIZE ? size : BINPRM_BUF_SIZE);

	ret = fmt->load_binary(b);
	CHECK(ret <= 0 && ret >= -4095);
	if (!b->point_of_no_return)
		CHECK(ret != 0 && nr_areas == 0); /* refused early: nothing done */
	if (ret == 0)
		CHECK(started && mm.start_brk % PAGE_SIZE == 0 && mm.start_brk <= TASK_SIZE);
	free(b);
	CHECK(host_allocs == allocs);
	return 0;
}
