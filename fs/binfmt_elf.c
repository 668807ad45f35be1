/*
 * binfmt_elf.c - the ELF handler: loads an x86-64 ELF program, and its
 * program interpreter (the dynamic loader, ld.so) when it names one.
 *
 * One entry in the registry of fs/exec.c; load_elf_binary answers as every
 * handler does (include/linux/binfmts.h, struct linux_binfmt). The steps,
 * the checks and their order are Linux 6.1's load_elf_binary,
 * load_elf_interp and create_elf_tables; Linux's one long function is cut
 * here along its own banners:
 *
 *   load_elf_binary
 *     elf_read_headers     magic, e_type EXEC or DYN, e_machine, a file
 *                          that can be mapped; load_elf_phdrs (e_phentsize
 *                          56, 1 to 73 headers)                    ENOEXEC
 *     elf_read_interp      PT_INTERP: its path (2..PATH_MAX bytes,
 *                          NUL-terminated)                         ENOEXEC
 *                          open_exec(path)       ENOENT, EACCES, ... as exec
 *                          the interpreter's header  ELIBBAD if not ELF for us
 *                          PT_GNU_STACK: is the stack executable?
 *     ---- elf_begin_new_exec: THE POINT OF NO RETURN ----
 *                          personality, PF_RANDOMIZE, setup_new_exec
 *                          (mmap_base), setup_arg_pages at
 *                          randomize_stack_top(STACK_TOP): the stack moves
 *     elf_map_segments     each PT_LOAD: elf_load (the file bytes with
 *                          elf_map, then the bss: padzero and anonymous
 *                          pages); the first one fixes the load bias
 *                          (elf_first_load): ELF_ET_DYN_BASE + random for
 *                          a PIE (pie_load_bias), wherever mmap puts it for
 *                          an ET_DYN without interpreter (ld.so run as a
 *                          program, a static-pie), the whole image reserved
 *                          at once (total_mapping_size)
 *     elf_entry_point      load_elf_interp: the interpreter, where mmap
 *                          puts it (AT_BASE); the entry point
 *     arch_setup_additional_pages   the vDSO (kernel/vdso.c)
 *     create_elf_tables    the auxiliary vector, argc, argv, envp
 *     elf_set_brk          brk: randomized; for a loader run directly,
 *                          moved to ELF_ET_DYN_BASE
 *     start_thread         rip at the interpreter's entry, or the program's
 *
 * Nothing is read when a segment is mapped: the pages come from the file
 * when the program first touches them (demand paging, mm/fault.c). The
 * mappings are made through mm/mmap.c's vm_mmap and vm_brk_flags, so a
 * segment is checked as the same mmap(2) from the program would be.
 */
#include <elf.h>
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <linux/init.h>
#include <cpu.h>
#include <cred.h>
#include <mm.h>
#include <mman.h>
#include <personality.h>
#include <random.h>
#include <sched.h>
#include <smp_lock.h>
#include <string.h>
#include <uaccess.h>
#include <vdso.h>
#include <vm.h>

static int load_elf_binary(struct linux_binprm *bprm);

static struct linux_binfmt elf_format = {
	.name = "elf",
	.load_binary = load_elf_binary,
};

/* A core initcall, as in Linux: the Makefile links it after binfmt_script,
 * so ELF comes after "#!" scripts in the registry. */
static int init_elf_binfmt(void)
{
	register_binfmt(&elf_format);
	return 0;
}
core_initcall(init_elf_binfmt);

/* The AT_PLATFORM string (Linux's ELF_PLATFORM on x86-64). */
#define ELF_PLATFORM "x86_64"
/* Where a PIE goes before its random offset: 2/3 of the address space. */
#define ELF_ET_DYN_BASE 0x555555554aaaUL
/* Linux's ELF_MIN_ALIGN and the page arithmetic of binfmt_elf.c. */
#define ELF_MIN_ALIGN PAGE_SIZE
#define ELF_PAGESTART(v) ((v) & ~(uint64_t)(ELF_MIN_ALIGN - 1))
#define ELF_PAGEOFFSET(v) ((v) & (ELF_MIN_ALIGN - 1))
#define ELF_PAGEALIGN(v) (((v) + ELF_MIN_ALIGN - 1) & ~(uint64_t)(ELF_MIN_ALIGN - 1))
/* An address no user mapping can have; -errno values are all BAD_ADDR. */
#define BAD_ADDR(x) ((uint64_t)(x) >= TASK_SIZE)
/* times() ticks per second, as USER_HZ. */
#define CLOCKS_PER_SEC 100

struct elf_image;
static int create_elf_tables(struct linux_binprm *bprm, const struct elf_image *img);

/* ------------------------------------------------------------------------
 * Reading the headers.
 * ------------------------------------------------------------------------ */

/* Read exactly len bytes at pos: 0, or the read's error, or -EIO if short
 * (Linux's elf_read). */
static int elf_read(struct file *file, void *buf, size_t len, uint64_t pos)
{
	ssize_t got;

	if (pos > (uint64_t)INT64_MAX)
		return -EINVAL;
	got = kernel_read(file, buf, len, (loff_t)pos);
	if (got < 0)
		return (int)got;
	return (size_t)got == len ? 0 : -EIO;
}

/* e_machine is all x86-64 looks at (Linux's elf_check_arch): EI_CLASS,
 * EI_DATA and EI_VERSION are not checked. */
static bool elf_check_arch(const Elf64_Ehdr *ex)
{
	return ex->e_machine == EM_X86_64;
}

/*
 * The program headers: NULL (the caller says ENOEXEC, or ELIBBAD for an
 * interpreter) unless they are the 56-byte kind, 1 to 73 of them (one page
 * at most), and all there in the file. kfree the result.
 */
static Elf64_Phdr *load_elf_phdrs(const Elf64_Ehdr *elf_ex, struct file *file)
{
	size_t size;
	Elf64_Phdr *elf_phdata;

	if (elf_ex->e_phentsize != sizeof(Elf64_Phdr))
		return NULL;
	size = sizeof(Elf64_Phdr) * elf_ex->e_phnum;
	if (size == 0 || size > 65536 || size > ELF_MIN_ALIGN)
		return NULL;
	elf_phdata = kmalloc(size);
	if (!elf_phdata)
		return NULL;
	if (elf_read(file, elf_phdata, size, elf_ex->e_phoff) < 0) {
		kfree(elf_phdata);
		return NULL;
	}
	return elf_phdata;
}

/* From the lowest PT_LOAD page to the highest byte: how much address space
 * the image needs (0: no PT_LOAD at all). */
static uint64_t total_mapping_size(const Elf64_Phdr *phdr, int nr)
{
	uint64_t min_addr = UINT64_MAX, max_addr = 0;
	bool pt_load = false;

	for (int i = 0; i < nr; i++) {
		if (phdr[i].p_type != PT_LOAD)
			continue;
		min_addr = MIN(min_addr, ELF_PAGESTART(phdr[i].p_vaddr));
		max_addr = MAX(max_addr, phdr[i].p_vaddr + phdr[i].p_memsz);
		pt_load = true;
	}
	return pt_load ? max_addr - min_addr : 0;
}

/* The largest power-of-two p_align of the PT_LOADs, at least a page: a PIE
 * is placed on such a boundary (linked with -z max-page-size=2M, it lands
 * on a 2 MiB one). Other values of p_align are ignored. */
static uint64_t maximum_alignment(const Elf64_Phdr *phdr, int nr)
{
	uint64_t alignment = 0;

	for (int i = 0; i < nr; i++) {
		uint64_t a = phdr[i].p_align;

		if (phdr[i].p_type == PT_LOAD && a && !(a & (a - 1)))
			alignment = MAX(alignment, a);
	}
	return ELF_PAGEALIGN(alignment);
}

/* Area rights from segment flags (PF_X is 1, VM_EXEC is 4). */
static unsigned make_prot(uint32_t p_flags)
{
	unsigned prot = 0;

	if (p_flags & PF_R)
		prot |= VM_READ;
	if (p_flags & PF_W)
		prot |= VM_WRITE;
	if (p_flags & PF_X)
		prot |= VM_EXEC;
	return prot;
}

/* ------------------------------------------------------------------------
 * Mapping: elf_map, padzero, elf_load. The mappings themselves are made by
 * mm/mmap.c (vm_mmap, vm_brk_flags), with the checks of mmap(2).
 * ------------------------------------------------------------------------ */

/*
 * Map the file bytes of one segment: from PAGESTART(p_vaddr) the pages that
 * hold [p_vaddr, p_vaddr + p_filesz), from file offset p_offset, which must
 * agree with p_vaddr modulo the page size (else mmap says EINVAL). A
 * segment with no file bytes maps nothing. With total_size, the first
 * mapping of an image reserves all of it, so that nothing the kernel places
 * meanwhile lands where the later segments go; the part past this segment
 * is unmapped again at once. type is MAP_PRIVATE and maybe MAP_FIXED or
 * MAP_FIXED_NOREPLACE. Returns the address or -errno.
 */
static uint64_t elf_map(struct file *filep, uint64_t addr, const Elf64_Phdr *eppnt,
			unsigned prot, int type, uint64_t total_size)
{
	uint64_t map_addr;
	uint64_t size = eppnt->p_filesz + ELF_PAGEOFFSET(eppnt->p_vaddr);
	uint64_t off = eppnt->p_offset - ELF_PAGEOFFSET(eppnt->p_vaddr);

	addr = ELF_PAGESTART(addr);
	size = ELF_PAGEALIGN(size);
	if (!size)
		return addr;

	if (total_size) {
		total_size = ELF_PAGEALIGN(total_size);
		map_addr = vm_mmap(filep, addr, total_size, prot, type, off);
		if (!BAD_ADDR(map_addr) && total_size > size)
			vm_munmap(map_addr + size, total_size - size);
	} else {
		map_addr = vm_mmap(filep, addr, size, prot, type, off);
	}
	if ((type & MAP_FIXED_NOREPLACE) && map_addr == (uint64_t)-EEXIST)
		pr_info("%d (%s): Uhuuh, elf segment at %lx requested but the memory is mapped already\n",
			current->pid, current->comm, (unsigned long)addr);
	return map_addr;
}

/*
 * The file's last page of a segment holds, past p_filesz, whatever the file
 * has there; the bss must read as zero: write zeros to the end of the page,
 * through the program's own mapping. -EFAULT if that page may not be
 * written.
 */
static int padzero(uint64_t elf_bss)
{
	uint64_t nbyte = ELF_PAGEOFFSET(elf_bss);

	if (nbyte) {
		nbyte = ELF_MIN_ALIGN - nbyte;
		if (clear_user((void __user *)elf_bss, nbyte))
			return -EFAULT;
	}
	return 0;
}

/*
 * Load one segment (Linux's elf_load): its file bytes (elf_map), then its
 * bss: the rest of the last file page is zeroed through the mapping (if it
 * can be: a read-only segment keeps whatever the file holds there, as in
 * Linux), and whole pages beyond are anonymous memory. A segment with no file bytes is all anonymous. Returns
 * where the segment's first page went, or -errno.
 */
static uint64_t elf_load(struct file *filep, uint64_t addr, const Elf64_Phdr *eppnt,
			 unsigned prot, int type, uint64_t total_size)
{
	uint64_t zero_start, zero_end, map_addr;

	if (eppnt->p_filesz) {
		map_addr = elf_map(filep, addr, eppnt, prot, type, total_size);
		if (BAD_ADDR(map_addr))
			return map_addr;
		zero_start = map_addr + ELF_PAGEOFFSET(eppnt->p_vaddr) + eppnt->p_filesz;
		zero_end = map_addr + ELF_PAGEOFFSET(eppnt->p_vaddr) + eppnt->p_memsz;
		/* The result is not looked at: Debian's 6.1 (as Linux 6.7 to
		 * 6.10) runs the program even when the page could not be
		 * zeroed (read-only, or past the end of the file). */
		if (eppnt->p_memsz > eppnt->p_filesz)
			(void)padzero(zero_start);
	} else {
		map_addr = zero_start = ELF_PAGESTART(addr);
		zero_end = zero_start + ELF_PAGEOFFSET(eppnt->p_vaddr) + eppnt->p_memsz;
	}
	if (eppnt->p_memsz > eppnt->p_filesz) {
		int error;

		zero_start = ELF_PAGEALIGN(zero_start);
		zero_end = ELF_PAGEALIGN(zero_end);
		error = vm_brk_flags(zero_start, zero_end - zero_start, prot & PROT_EXEC ? VM_EXEC : 0);
		if (error)
			map_addr = (uint64_t)(int64_t)error;
	}
	return map_addr;
}

/* ------------------------------------------------------------------------
 * The interpreter.
 * ------------------------------------------------------------------------ */

/* LAB 06: BEGIN load_elf_interp */
/*
 * Map the interpreter (ld.so) where mmap puts it: the whole image at once,
 * then each segment in place, with its bss. Returns its load address (what
 * its p_vaddr 0 became: AT_BASE) or -errno.
 */
static uint64_t load_elf_interp(const Elf64_Ehdr *interp_elf_ex, struct file *interpreter,
				uint64_t no_base, const Elf64_Phdr *interp_elf_phdata)
{
	const Elf64_Phdr *eppnt;
	uint64_t load_addr = 0, total_size, error = -ENOEXEC;
	bool load_addr_set = false;
	int i;

	if (interp_elf_ex->e_type != ET_EXEC && interp_elf_ex->e_type != ET_DYN)
		goto out;
	if (!elf_check_arch(interp_elf_ex) || file_mmap_check(interpreter, false))
		goto out;

	total_size = total_mapping_size(interp_elf_phdata, interp_elf_ex->e_phnum);
	if (!total_size) {
		error = -EINVAL;
		goto out;
	}

	eppnt = interp_elf_phdata;
	for (i = 0; i < interp_elf_ex->e_phnum; i++, eppnt++) {
		int elf_type = MAP_PRIVATE;
		unsigned elf_prot = make_prot(eppnt->p_flags);
		uint64_t vaddr, k, map_addr;

		if (eppnt->p_type != PT_LOAD)
			continue;
		vaddr = eppnt->p_vaddr;
		if (interp_elf_ex->e_type == ET_EXEC || load_addr_set)
			elf_type |= MAP_FIXED;
		else if (no_base && interp_elf_ex->e_type == ET_DYN)
			load_addr = -vaddr;

		map_addr = elf_load(interpreter, load_addr + vaddr, eppnt, elf_prot, elf_type,
				    total_size);
		total_size = 0;
		error = map_addr;
		if (BAD_ADDR(map_addr))
			goto out;

		if (!load_addr_set && interp_elf_ex->e_type == ET_DYN) {
			load_addr = map_addr - ELF_PAGESTART(vaddr);
			load_addr_set = true;
		}

		/* The segment must fit below TASK_SIZE; p_filesz <= p_memsz. */
		k = load_addr + eppnt->p_vaddr;
		if (BAD_ADDR(k) || eppnt->p_filesz > eppnt->p_memsz ||
		    eppnt->p_memsz > TASK_SIZE || TASK_SIZE - eppnt->p_memsz < k) {
			error = -ENOMEM;
			goto out;
		}
	}
	error = load_addr;
out:
	return error;
}
/* LAB 06: ELSE
static uint64_t load_elf_interp(const Elf64_Ehdr *interp_elf_ex, struct file *interpreter,
				uint64_t no_base, const Elf64_Phdr *interp_elf_phdata)
{
	(void)interp_elf_ex;
	(void)interpreter;
	(void)no_base;
	(void)interp_elf_phdata;
	return -ENOEXEC;
}
   LAB 06: END */

/* ------------------------------------------------------------------------
 * The program: load_elf_binary, step by step, in Linux 6.1's order. Each
 * step below is one banner of Linux's single long function.
 * ------------------------------------------------------------------------ */

/* What load_elf_binary learns of the program and its interpreter, and
 * where it puts them (Linux keeps these as the locals of one function). */
struct elf_image {
	Elf64_Ehdr ex;            /* the header: a copy, bprm->buf is not aligned */
	Elf64_Phdr *phdata;       /* the program headers */
	char *interp_path;        /* PT_INTERP's path, or NULL */
	struct file *interpreter; /* that file, open, or NULL */
	Elf64_Ehdr interp_ex;     /* its header */
	Elf64_Phdr *interp_phdata;
	int executable_stack;     /* EXSTACK_*, from PT_GNU_STACK */
	/* Filled by elf_map_segments: */
	uint64_t load_bias;       /* added to every p_vaddr (0 for ET_EXEC) */
	uint64_t phdr_addr;       /* AT_PHDR */
	uint64_t start_code, end_code, start_data, end_data;
	uint64_t elf_brk;         /* the end of the highest segment's memory */
	/* Filled by elf_entry_point: */
	uint64_t interp_load_addr; /* AT_BASE, 0 without an interpreter */
	uint64_t elf_entry;       /* where the process starts */
};

/* ---- Reading the headers. ---- */

/* Is it ours? -ENOEXEC unless the file is an x86-64 ELF executable or
 * shared object that can be mapped, with sane program headers. */
static int elf_read_headers(struct linux_binprm *bprm, struct elf_image *img)
{
	Elf64_Ehdr *ex = &img->ex;

	memcpy(ex, bprm->buf, sizeof(*ex));
	if (memcmp(ex->e_ident, ELFMAG, SELFMAG) != 0)
		return -ENOEXEC;
	if (ex->e_type != ET_EXEC && ex->e_type != ET_DYN)
		return -ENOEXEC;
	if (!elf_check_arch(ex))
		return -ENOEXEC;
	if (file_mmap_check(bprm->file, false)) /* Linux: no f_op->mmap */
		return -ENOEXEC;
	img->phdata = load_elf_phdrs(ex, bprm->file);
	return img->phdata ? 0 : -ENOEXEC;
}

/*
 * The interpreter the first PT_INTERP names (a second is not looked at):
 * its path (2..PATH_MAX bytes, ending in a NUL), the file open_exec
 * opens, and its header. 0 if there is none; -errno as exec would fail.
 */
static int elf_open_interp(struct linux_binprm *bprm, struct elf_image *img,
			   const Elf64_Phdr *phdr)
{
	struct file *interpreter;

	if (phdr->p_filesz > PATH_MAX || phdr->p_filesz < 2)
		return -ENOEXEC;
	img->interp_path = kmalloc(phdr->p_filesz);
	if (!img->interp_path)
		return -ENOMEM;
	int retval = elf_read(bprm->file, img->interp_path, phdr->p_filesz, phdr->p_offset);
	if (retval == 0 && img->interp_path[phdr->p_filesz - 1] != '\0')
		retval = -ENOEXEC;
	if (retval < 0)
		return retval;
	interpreter = open_exec(img->interp_path);
	if (IS_ERR(interpreter))
		return PTR_ERR(interpreter);
	img->interpreter = interpreter;
	return elf_read(interpreter, &img->interp_ex, sizeof(img->interp_ex), 0);
}

/*
 * PT_INTERP and PT_GNU_STACK. The interpreter must be an ELF file for
 * this machine, with program headers we can read: -ELIBBAD otherwise.
 */
static int elf_read_interp(struct linux_binprm *bprm, struct elf_image *img)
{
	const Elf64_Phdr *phdr;
	int i, retval;

	img->executable_stack = EXSTACK_DEFAULT;
	for (i = 0, phdr = img->phdata; i < img->ex.e_phnum; i++, phdr++) {
		if (phdr->p_type == PT_INTERP) {
			retval = elf_open_interp(bprm, img, phdr);
			if (retval)
				return retval;
			break;
		}
	}
	for (i = 0, phdr = img->phdata; i < img->ex.e_phnum; i++, phdr++)
		if (phdr->p_type == PT_GNU_STACK)
			img->executable_stack = (phdr->p_flags & PF_X) ? EXSTACK_ENABLE_X
								       : EXSTACK_DISABLE_X;
	if (!img->interpreter)
		return 0;
	if (memcmp(img->interp_ex.e_ident, ELFMAG, SELFMAG) != 0 || !elf_check_arch(&img->interp_ex))
		return -ELIBBAD;
	img->interp_phdata = load_elf_phdrs(&img->interp_ex, img->interpreter);
	return img->interp_phdata ? 0 : -ELIBBAD;
}

/* ---- The point of no return. ---- */

/*
 * begin_new_exec, then what a 64-bit program's process starts with: its
 * personality (READ_IMPLIES_EXEC dropped: Linux's set_personality_64bit),
 * address-space randomization unless the personality or the sysctl says
 * not to, and the mmap layout. (The stack goes to its random top first
 * thing in elf_build_mm.)
 */
static int elf_begin_new_exec(struct linux_binprm *bprm)
{
	int retval = begin_new_exec(bprm);

	if (retval)
		return retval;
	current->personality &= ~READ_IMPLIES_EXEC;
	current->flags &= ~PF_RANDOMIZE;
	if (!(current->personality & ADDR_NO_RANDOMIZE) && randomize_va_space)
		current->flags |= PF_RANDOMIZE;
	setup_new_exec(bprm);
	return 0;
}

/* ---- The load bias. ---- */

/* LAB 06: BEGIN pie_load_bias */
/*
 * Where a PIE (ET_DYN with an interpreter) goes: ELF_ET_DYN_BASE, plus a
 * random offset when the process randomizes, on the image's largest
 * alignment; and it must go exactly there (MAP_FIXED_NOREPLACE: never
 * over anything already mapped).
 */
static uint64_t pie_load_bias(uint64_t alignment, int *elf_flags)
{
	uint64_t load_bias = ELF_ET_DYN_BASE;

	if (current->flags & PF_RANDOMIZE)
		load_bias += arch_mmap_rnd();
	if (alignment)
		load_bias &= ~(alignment - 1);
	*elf_flags |= MAP_FIXED_NOREPLACE;
	return load_bias;
}
/* LAB 06: ELSE
static uint64_t pie_load_bias(uint64_t alignment, int *elf_flags)
{
	(void)alignment;
	(void)elf_flags;
	return 0;
}
   LAB 06: END */

/*
 * The first PT_LOAD decides where the image goes; the later ones follow
 * it, MAP_FIXED. ET_EXEC: where it was linked, or fail
 * (MAP_FIXED_NOREPLACE). ET_DYN with an interpreter (a PIE): at
 * pie_load_bias. ET_DYN without one (a loader run as a program, a
 * static-pie): load_bias 0 and no fixed address, so mmap places it, away
 * from where a PIE it loads will go; one that asks for a large alignment
 * is placed on that boundary below where mmap would put it. Sets
 * img->load_bias, already lowered by the first p_vaddr, and *elf_flags;
 * *total_size is the whole image for an ET_DYN, to reserve it at once.
 */
static int elf_first_load(struct linux_binprm *bprm, struct elf_image *img,
			  const Elf64_Phdr *phdr, int *elf_flags, uint64_t *total_size)
{
	uint64_t alignment, load_bias = 0;

	if (img->ex.e_type == ET_EXEC) {
		*elf_flags |= MAP_FIXED_NOREPLACE;
		return 0;
	}
	*total_size = total_mapping_size(img->phdata, img->ex.e_phnum);
	if (!*total_size)
		return -EINVAL;
	alignment = maximum_alignment(img->phdata, img->ex.e_phnum);
	if (img->interpreter) {
		load_bias = pie_load_bias(alignment, elf_flags);
	} else if (alignment > ELF_MIN_ALIGN) {
		load_bias = elf_load(bprm->file, 0, phdr, make_prot(phdr->p_flags), *elf_flags,
				     *total_size);
		if (BAD_ADDR(load_bias))
			return load_bias >= (uint64_t)-4095 ? (int)(int64_t)load_bias : -EINVAL;
		vm_munmap(load_bias, ELF_PAGEALIGN(*total_size));
		load_bias &= ~(alignment - 1);
		*elf_flags |= MAP_FIXED_NOREPLACE;
	}
	/* Every later address is p_vaddr + load_bias. */
	img->load_bias = ELF_PAGESTART(load_bias - phdr->p_vaddr);
	return 0;
}

/* ---- Mapping the segments. ---- */

/*
 * A segment is in place: count it in the code and data bounds that
 * /proc/PID/stat and brk use, as Linux counts them, note AT_PHDR if it
 * holds the program headers, and check that it fits below TASK_SIZE with
 * p_filesz <= p_memsz (-EINVAL). Addresses are before the load bias.
 */
static int elf_note_segment(struct elf_image *img, const Elf64_Phdr *phdr)
{
	uint64_t k = phdr->p_vaddr;

	if (phdr->p_offset <= img->ex.e_phoff && img->ex.e_phoff < phdr->p_offset + phdr->p_filesz)
		img->phdr_addr = img->ex.e_phoff - phdr->p_offset + phdr->p_vaddr;
	if ((phdr->p_flags & PF_X) && k < img->start_code)
		img->start_code = k;
	if (img->start_data < k)
		img->start_data = k;
	if (BAD_ADDR(k) || phdr->p_filesz > phdr->p_memsz || phdr->p_memsz > TASK_SIZE ||
	    TASK_SIZE - phdr->p_memsz < k)
		return -EINVAL;
	k = phdr->p_vaddr + phdr->p_filesz;
	if ((phdr->p_flags & PF_X) && img->end_code < k)
		img->end_code = k;
	if (img->end_data < k)
		img->end_data = k;
	img->elf_brk = MAX(img->elf_brk, phdr->p_vaddr + phdr->p_memsz);
	return 0;
}

/* Map every PT_LOAD with its bss, then move the bounds by the load bias. */
static int elf_map_segments(struct linux_binprm *bprm, struct elf_image *img)
{
	const Elf64_Phdr *phdr = img->phdata;
	bool first_pt_load = true;
	int i, retval;

	img->start_code = ~0UL;
	for (i = 0; i < img->ex.e_phnum; i++, phdr++) {
		int elf_flags = MAP_PRIVATE;
		uint64_t total_size = 0, addr;

		if (phdr->p_type != PT_LOAD)
			continue;
		if (!first_pt_load) {
			elf_flags |= MAP_FIXED;
		} else {
			retval = elf_first_load(bprm, img, phdr, &elf_flags, &total_size);
			if (retval)
				return retval;
		}
		addr = elf_load(bprm->file, img->load_bias + phdr->p_vaddr, phdr,
				make_prot(phdr->p_flags), elf_flags, total_size);
		if (BAD_ADDR(addr))
			return addr >= (uint64_t)-4095 ? (int)(int64_t)addr : -EINVAL;
		if (first_pt_load && img->ex.e_type == ET_DYN)
			img->load_bias += addr - ELF_PAGESTART(img->load_bias + phdr->p_vaddr);
		first_pt_load = false;
		retval = elf_note_segment(img, phdr);
		if (retval)
			return retval;
	}
	img->phdr_addr += img->load_bias;
	img->elf_brk += img->load_bias;
	img->start_code += img->load_bias;
	img->end_code += img->load_bias;
	img->start_data += img->load_bias;
	img->end_data += img->load_bias;
	return 0;
}

/* ---- The interpreter, and the entry point. ---- */

/* LAB 06: BEGIN interp_entry */
/* The interpreter was loaded at interp_base: that is AT_BASE, and the
 * process starts at the interpreter's entry point, moved as it was. */
static uint64_t interp_entry(const Elf64_Ehdr *interp_ex, uint64_t interp_base,
			     uint64_t *interp_load_addr)
{
	*interp_load_addr = interp_base;
	return interp_base + interp_ex->e_entry;
}
/* LAB 06: ELSE
static uint64_t interp_entry(const Elf64_Ehdr *interp_ex, uint64_t interp_base,
			     uint64_t *interp_load_addr)
{
	(void)interp_ex;
	(void)interp_load_addr;
	return interp_base;
}
   LAB 06: END */

/* Where the process starts: the interpreter's entry once load_elf_interp
 * has mapped it, else the program's own. */
static int elf_entry_point(struct elf_image *img)
{
	uint64_t entry;

	if (!img->interpreter) {
		img->elf_entry = img->ex.e_entry + img->load_bias;
		return BAD_ADDR(img->elf_entry) ? -EINVAL : 0;
	}
	entry = load_elf_interp(&img->interp_ex, img->interpreter, img->load_bias,
				img->interp_phdata);
	if (!BAD_ADDR(entry))
		entry = interp_entry(&img->interp_ex, entry, &img->interp_load_addr);
	if (BAD_ADDR(entry))
		return entry >= (uint64_t)-4095 ? (int)(int64_t)entry : -EINVAL;
	img->elf_entry = entry;
	return 0;
}

/* ---- brk, and the rest of the new mm. ---- */

/*
 * The bounds into the mm, and brk: after the highest segment; for a loader
 * run as a program (or a static-pie) where a PIE would be, away from the
 * mmap area that holds the loader. Randomized, with a page left free
 * after the bss. (Linux 6.10's rules, which Debian's 6.1 has.) Returns
 * the end of the bss, for the exec trace.
 */
static uint64_t elf_set_brk(struct linux_binprm *bprm, struct elf_image *img)
{
	struct mm *mm = current->mm;
	uint64_t bss_end = ELF_PAGEALIGN(img->elf_brk), elf_brk = img->elf_brk;
	bool brk_moved = false;

	mm->end_code = img->end_code;
	mm->start_code = img->start_code;
	mm->start_data = img->start_data;
	mm->end_data = img->end_data;
	mm->start_stack = bprm->p;
	if (img->ex.e_type == ET_DYN && !img->interpreter) {
		elf_brk = ELF_ET_DYN_BASE;
		brk_moved = true;
	}
	mm->start_brk = mm->brk = ELF_PAGEALIGN(elf_brk);
	if ((current->flags & PF_RANDOMIZE) && randomize_va_space > 1) {
		if (!brk_moved)
			mm->brk = mm->start_brk = mm->brk + PAGE_SIZE;
		mm->brk = mm->start_brk = arch_randomize_brk(mm);
	}
	/* SVr4 mapped page 0 read-only; some programs relied on it. The
	 * error is not looked at, as in Linux (EPERM without CAP_SYS_RAWIO). */
	if (current->personality & MMAP_PAGE_ZERO)
		(void)vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ | PROT_EXEC, MAP_FIXED | MAP_PRIVATE, 0);
	return bss_end;
}

/*
 * The new program's address space, built: the stack moved to its place,
 * the segments, the interpreter, the vDSO, the stack's tables, brk.
 * Returns the end of the bss in *bss_end, or -errno.
 *
 * From begin_new_exec on, the address space is current's alone (de_thread
 * left no other thread, a vfork parent has its own back), and other CPUs
 * look into it only under its mmap_lock (include/vm.h), which each step
 * below takes to change it; what else the steps use has a lock of its
 * own (frames, kmalloc, random numbers, the log) or is the exec's (bprm,
 * the files it holds open). So the big kernel lock is let go meanwhile,
 * and other CPUs' system calls run while this one builds (half of an
 * execve's work). A fault on the new memory is taken without it too, or
 * takes it by itself (arch/x86/kernel/traps.c).
 */
static int elf_build_mm(struct linux_binprm *bprm, struct elf_image *img, uint64_t *bss_end)
{
	bool locked = release_kernel_lock();
	int retval = setup_arg_pages(bprm, randomize_stack_top(STACK_TOP), img->executable_stack);

	if (retval == 0)
		retval = elf_map_segments(bprm, img);
	if (retval == 0)
		retval = elf_entry_point(img);
	/* The vDSO and its data page (ARCH_SETUP_ADDITIONAL_PAGES). */
	if (retval == 0)
		retval = arch_setup_additional_pages(current->mm);
	if (retval >= 0)
		retval = create_elf_tables(bprm, img);
	if (retval >= 0) {
		*bss_end = elf_set_brk(bprm, img);
		retval = 0;
	}
	reacquire_kernel_lock(locked);
	return retval;
}

/* Everything the image holds, given back (the interpreter's file too). */
static void elf_free_image(struct elf_image *img)
{
	kfree(img->interp_phdata);
	if (img->interpreter) {
		allow_write_access(img->interpreter);
		fput(img->interpreter);
	}
	kfree(img->interp_path);
	kfree(img->phdata);
}

/*
 * The handler (contract: include/linux/binfmts.h). Until
 * elf_begin_new_exec, every failure leaves the caller as it was; after
 * it, the steps build the new program in current's new address space.
 */
static int load_elf_binary(struct linux_binprm *bprm)
{
	struct elf_image img = { 0 };
	uint64_t bss_end;
	int retval;

	retval = elf_read_headers(bprm, &img);
	if (retval)
		goto out;
	retval = elf_read_interp(bprm, &img);
	if (retval)
		goto out;
	/* ---- THE POINT OF NO RETURN: from here, a failure kills. ---- */
	retval = elf_begin_new_exec(bprm);
	if (retval)
		goto out;
	retval = elf_build_mm(bprm, &img, &bss_end);
	if (retval)
		goto out;
	exec_trace_elf(bprm, img.ex.e_type == ET_DYN, img.interp_path, img.load_bias,
		       img.interp_load_addr, img.elf_entry, bss_end);
	start_thread(current->tf, img.elf_entry, bprm->p);
	retval = 0;
out:
	elf_free_image(&img);
	return retval;
}

/* ------------------------------------------------------------------------
 * The new stack.
 * ------------------------------------------------------------------------ */

/*
 * The length, with its NUL, of the string at p on the new stack, found in
 * the stack's own pages (present: exec wrote them) through the kernel's
 * map of memory, a word at a time: exec measures every argument string
 * here, and a user-memory call per string would cost more than the scan.
 * 0 if there is no NUL within MAX_ARG_STRLEN bytes or no page.
 */
struct stack_scan {
	uint64_t va;        /* the page last looked up, 0 for none */
	const char *kaddr;
};

/* Bytes 0x01 and 0x80: a word w holds a zero byte iff
 * (w - ONES) & ~w & HIGHS is not 0, and its lowest set bit is the first
 * zero byte's (x86 is little-endian: memory order from the low end). */
#define ONES 0x0101010101010101UL
#define HIGHS 0x8080808080808080UL

/* The offset of the first NUL at or after off in the page, or PAGE_SIZE:
 * aligned words, the bytes of the first one before off made non-zero,
 * and no byte loop. */
static uint64_t page_nul(const char *page, uint64_t off)
{
	uint64_t at = ALIGN_DOWN(off, 8);
	uint64_t w = *(const uint64_t *)(page + at) | ~(~0UL << 8 * (off - at));

	for (;;) {
		uint64_t zeros = (w - ONES) & ~w & HIGHS;

		if (zeros)
			return at + __builtin_ctzl(zeros) / 8;
		at += 8;
		if (at == PAGE_SIZE)
			return PAGE_SIZE;
		w = *(const uint64_t *)(page + at);
	}
}

static uint64_t stack_strlen(struct mm *mm, struct stack_scan *c, uint64_t p)
{
	uint64_t start = p;

	while (p - start < MAX_ARG_STRLEN) {
		uint64_t va = ALIGN_DOWN(p, PAGE_SIZE), nul;

		if (c->va != va) {
			c->kaddr = mm_get_page_for_write(mm, va);
			c->va = c->kaddr ? va : 0;
			if (!c->kaddr)
				return 0;
		}
		nul = page_nul(c->kaddr, p - va);
		if (nul < PAGE_SIZE)
			return va + nul + 1 - start;
		p = va + PAGE_SIZE;
	}
	return 0;
}

/*
 * Write count pointers at *sp, to the NUL-terminated strings that follow
 * one another from *p, then a NULL; advance both. The pointers are
 * gathered in a kernel buffer and written a buffer at a time (one user
 * copy per 64 pointers, not one per pointer: 1000 arguments are common).
 * -EFAULT if the stack cannot be written, -EINVAL if a string is not
 * where exec put it.
 */
static int put_string_pointers(struct mm *mm, uint64_t *sp, uint64_t *p, int count)
{
	struct stack_scan scan = { 0, NULL };
	uint64_t buf[64];
	int n = 0;

	for (int i = 0; i <= count; i++) {
		if (i < count) {
			uint64_t len = stack_strlen(mm, &scan, *p);

			if (!len)
				return -EINVAL;
			buf[n++] = *p;
			*p += len;
		} else {
			buf[n++] = 0; /* the NULL that ends the array */
		}
		if (n == 64 || i == count) {
			if (copy_to_user((void __user *)*sp, buf, n * sizeof(uint64_t)))
				return -EFAULT;
			*sp += n * sizeof(uint64_t);
			n = 0;
		}
	}
	return 0;
}

/* LAB 03: BEGIN elf_hwcap */
/* CPUID leaf 1, EDX: the feature bits Linux passes as AT_HWCAP. */
static uint32_t elf_hwcap(void)
{
	uint32_t eax = 1, ebx, ecx = 0, edx;

	__asm__ volatile("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx));
	return edx;
}
/* LAB 03: END */

/* LAB 03: BEGIN create_elf_auxv */
/*
 * Below *p: the platform string and 16 random bytes; then the auxiliary
 * vector, in Linux 6.1's order, into mm->saved_auxv (/proc/PID/auxv),
 * ended by AT_NULL and zeros. Returns the words of the vector (AT_NULL's
 * pair included) or -EFAULT; *p moves down past the bytes written.
 */
static int create_elf_auxv(struct linux_binprm *bprm, const struct elf_image *img, uint64_t *p)
{
	struct mm *mm = current->mm;
	uint64_t *elf_info = mm->saved_auxv;
	uint64_t u_platform, u_rand_bytes, k_rand_bytes[2];
	int ei_index = 0;

	u_platform = *p -= sizeof(ELF_PLATFORM);
	if (copy_to_user((void __user *)u_platform, ELF_PLATFORM, sizeof(ELF_PLATFORM)))
		return -EFAULT;

	/* 16 random bytes, the seed of the C library's own randomness. */
	k_rand_bytes[0] = get_random_u64();
	k_rand_bytes[1] = get_random_u64();
	u_rand_bytes = *p -= sizeof(k_rand_bytes);
	if (copy_to_user((void __user *)u_rand_bytes, k_rand_bytes, sizeof(k_rand_bytes)))
		return -EFAULT;

#define NEW_AUX_ENT(id, val)                            \
	do {                                            \
		elf_info[ei_index++] = (id);            \
		elf_info[ei_index++] = (uint64_t)(val); \
	} while (0)
	/* x86's ARCH_DLINFO comes first. */
	if (mm->vdso)
		NEW_AUX_ENT(AT_SYSINFO_EHDR, mm->vdso);
	NEW_AUX_ENT(AT_MINSIGSTKSZ, sigframe_size());
	NEW_AUX_ENT(AT_HWCAP, elf_hwcap());
	NEW_AUX_ENT(AT_PAGESZ, PAGE_SIZE);
	NEW_AUX_ENT(AT_CLKTCK, CLOCKS_PER_SEC);
	NEW_AUX_ENT(AT_PHDR, img->phdr_addr);
	NEW_AUX_ENT(AT_PHENT, sizeof(Elf64_Phdr));
	NEW_AUX_ENT(AT_PHNUM, img->ex.e_phnum);
	NEW_AUX_ENT(AT_BASE, img->interp_load_addr);
	NEW_AUX_ENT(AT_FLAGS, (bprm->interp_flags & BINPRM_FLAGS_PRESERVE_ARGV0) ?
				      AT_FLAGS_PRESERVE_ARGV0 : 0);
	NEW_AUX_ENT(AT_ENTRY, img->ex.e_entry + img->load_bias);
	NEW_AUX_ENT(AT_UID, current_uid());
	NEW_AUX_ENT(AT_EUID, current_euid());
	NEW_AUX_ENT(AT_GID, current_gid());
	NEW_AUX_ENT(AT_EGID, current_egid());
	NEW_AUX_ENT(AT_SECURE, bprm->secureexec);
	NEW_AUX_ENT(AT_RANDOM, u_rand_bytes);
	NEW_AUX_ENT(AT_HWCAP2, elf_hwcap2());
	NEW_AUX_ENT(AT_EXECFN, bprm->exec);
	NEW_AUX_ENT(AT_PLATFORM, u_platform);
	if (bprm->have_execfd)
		NEW_AUX_ENT(AT_EXECFD, bprm->execfd);
#undef NEW_AUX_ENT
	/* AT_NULL, and zeros to the end of saved_auxv. */
	memset(&elf_info[ei_index], 0, sizeof(mm->saved_auxv) - ei_index * sizeof(uint64_t));
	return ei_index + 2;
}
/* LAB 03: ELSE: only what a C library needs to start, and no random bytes
static int create_elf_auxv(struct linux_binprm *bprm, const struct elf_image *img, uint64_t *p)
{
	uint64_t *elf_info = current->mm->saved_auxv;
	uint64_t zeros[2] = { 0, 0 }, u_rand_bytes = *p -= sizeof(zeros);

	(void)bprm;
	if (copy_to_user((void __user *)u_rand_bytes, zeros, sizeof(zeros)))
		return -EFAULT;
	uint64_t aux[] = { AT_PHDR, img->phdr_addr, AT_PHENT, sizeof(Elf64_Phdr), AT_PHNUM,
			   img->ex.e_phnum, AT_PAGESZ, PAGE_SIZE, AT_BASE, img->interp_load_addr,
			   AT_ENTRY, img->ex.e_entry + img->load_bias, AT_RANDOM, u_rand_bytes,
			   AT_NULL, 0 };
	memset(elf_info, 0, sizeof(current->mm->saved_auxv));
	memcpy(elf_info, aux, sizeof(aux));
	return sizeof(aux) / sizeof(aux[0]);
}
   LAB 03: END */

/*
 * Finish the new stack and lay out what the program finds at rsp. From the
 * stack's top down (the strings are there already, copied by exec.c and
 * moved with the stack by setup_arg_pages):
 *
 *   8 zero bytes
 *   the file name (AT_EXECFN)                        <- bprm->exec
 *   envp strings, argv strings, in reverse           <- arg_start
 *   0 to 8191 random bytes, then down to 16 bytes    (arch_align_stack)
 *   "x86_64\0" (AT_PLATFORM)
 *   16 random bytes (AT_RANDOM)
 *   0-15 bytes of padding, so that rsp ends 16-byte aligned
 *   auxv: (type, value) pairs, ending with AT_NULL
 *   NULL, envp[envc-1] ... envp[0]
 *   NULL, argv[argc-1] ... argv[0]
 *   argc                                              <- rsp
 *
 * The new address space is current's now, so the uaccess functions write
 * to it, as Linux's put_user does. The vector is also kept in
 * mm->saved_auxv, for /proc/PID/auxv.
 */
static int create_elf_tables(struct linux_binprm *bprm, const struct elf_image *img)
{
	struct mm *mm = current->mm;
	uint64_t p = arch_align_stack(bprm->p);
	uint64_t sp, items;
	int ei_index, argc = bprm->argc, envc = bprm->envc, err;

	ei_index = create_elf_auxv(bprm, img, &p);
	if (ei_index < 0)
		return ei_index;

	/* Room for the vector, then for argc and the two arrays with their
	 * NULLs, rounded down so that rsp (at argc) is 16-byte aligned. */
	sp = p - ei_index * sizeof(uint64_t);
	items = (uint64_t)(argc + 1) + (envc + 1) + 1;
	bprm->p = (sp - items * sizeof(uint64_t)) & ~0xfUL;
	sp = bprm->p;

	/* A huge argv or envp may need more than the 128 KiB that
	 * setup_arg_pages added: the stack grows here by hand. */
	if (expand_stack(mm, bprm->p))
		return -EFAULT;

	if (put_user_u64(argc, (void __user *)sp))
		return -EFAULT;
	sp += sizeof(uint64_t);

	/* The pointers, to the strings laid out in order from arg_start. */
	p = mm->arg_end = mm->arg_start;
	err = put_string_pointers(mm, &sp, &p, argc);
	if (err)
		return err;
	mm->arg_end = p;
	mm->env_end = mm->env_start = p;
	err = put_string_pointers(mm, &sp, &p, envc);
	if (err)
		return err;
	mm->env_end = p;

	if (copy_to_user((void __user *)sp, mm->saved_auxv, ei_index * sizeof(uint64_t)))
		return -EFAULT;
	return 0;
}
