/*
 * binfmt_elf.c - the ELF handler: loads an x86-64 ELF program, and its
 * program interpreter (the dynamic loader, ld.so) when it names one.
 *
 * One entry in the registry of fs/exec.c. load_elf_binary is called with
 * bprm->buf holding the first bytes of the file, and answers:
 *   -ENOEXEC   not an ELF file we can load (the next handler is asked);
 *   -errno     before begin_new_exec: nothing has changed, the caller of
 *              execve gets the error;
 *   0          the process now runs the program: its segments are mapped,
 *              its stack holds argc, argv, envp and the auxiliary vector,
 *              and current->tf is at its entry point (the interpreter's,
 *              if there is one);
 *   -errno     after begin_new_exec: the process is lost and exec.c kills
 *              it with SIGSEGV.
 *
 * The steps, the checks and their order are Linux 6.1's load_elf_binary,
 * load_elf_interp and create_elf_tables, function by function:
 *
 *   load_elf_binary
 *     the header: magic, e_type EXEC or DYN, e_machine, a file that can be
 *       mapped; load_elf_phdrs (e_phentsize 56, 1 to 73 headers)  ENOEXEC
 *     PT_INTERP: its path (2..PATH_MAX bytes, NUL-terminated)     ENOEXEC
 *       open_exec(path)                         ENOENT, EACCES, ... as exec
 *       the interpreter's header                ELIBBAD if not ELF for us
 *     PT_GNU_STACK: is the stack executable?
 *     ---- begin_new_exec: THE POINT OF NO RETURN ----
 *     personality, PF_RANDOMIZE, setup_new_exec (mmap_base)
 *     setup_arg_pages(randomize_stack_top(STACK_TOP))    the stack moves
 *     each PT_LOAD: elf_map; the first one of an ET_DYN file fixes the
 *       load_bias: ELF_ET_DYN_BASE (+ random) for a program with an
 *       interpreter (a PIE), wherever mmap puts it for one without (ld.so
 *       run as a program, a static-pie), reserving the whole image
 *       (total_mapping_size) so that the later segments fit
 *       elf_load: each segment's file bytes (elf_map), then its bss
 *       (padzero, then anonymous pages)
 *     load_elf_interp: the interpreter, where mmap puts it (AT_BASE)
 *     arch_setup_additional_pages: the vDSO (kernel/vdso.c)
 *     create_elf_tables: the auxiliary vector and argc, argv, envp
 *     brk: randomized, and for a loader run directly moved to ELF_ET_DYN_BASE
 *     start_thread: rip at the interpreter's entry, or the program's
 *
 * Nothing is read when a segment is mapped: the pages come from the file
 * when the program first touches them (demand paging, mm/fault.c).
 */
#include <elf.h>
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <cpu.h>
#include <cred.h>
#include <mm.h>
#include <mman.h>
#include <personality.h>
#include <random.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>
#include <vdso.h>
#include <vm.h>

static int load_elf_binary(struct linux_binprm *bprm);

static struct linux_binfmt elf_format = {
	.name = "elf",
	.load_binary = load_elf_binary,
};

void init_elf_binfmt(void)
{
	register_binfmt(&elf_format);
}

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

static int create_elf_tables(struct linux_binprm *bprm, const Elf64_Ehdr *exec,
			     uint64_t interp_load_addr, uint64_t e_entry, uint64_t phdr_addr);

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
 * The program.
 * ------------------------------------------------------------------------ */

static int load_elf_binary(struct linux_binprm *bprm)
{
	struct file *interpreter = NULL;
	char *elf_interpreter = NULL; /* its path, for the exec trace */
	uint64_t load_bias = 0, phdr_addr = 0;
	bool first_pt_load = true;
	uint64_t error;
	Elf64_Phdr *elf_ppnt, *elf_phdata, *interp_elf_phdata = NULL;
	uint64_t elf_brk, bss_end;
	bool brk_moved = false;
	int retval, i;
	uint64_t elf_entry, e_entry, interp_load_addr = 0;
	uint64_t start_code, end_code, start_data, end_data;
	int executable_stack = EXSTACK_DEFAULT;
	Elf64_Ehdr elf_ex_buf, *elf_ex = &elf_ex_buf; /* a copy: bprm->buf is not aligned */
	Elf64_Ehdr *interp_elf_ex = NULL;
	struct mm *mm;

	memcpy(elf_ex, bprm->buf, sizeof(*elf_ex));

	/* ---- Is it ours? ---- */
	retval = -ENOEXEC;
	if (memcmp(elf_ex->e_ident, ELFMAG, SELFMAG) != 0)
		goto out;
	if (elf_ex->e_type != ET_EXEC && elf_ex->e_type != ET_DYN)
		goto out;
	if (!elf_check_arch(elf_ex))
		goto out;
	if (file_mmap_check(bprm->file, false)) /* Linux: no f_op->mmap */
		goto out;

	elf_phdata = load_elf_phdrs(elf_ex, bprm->file);
	if (!elf_phdata)
		goto out;

	/* ---- The interpreter: the first PT_INTERP names it. ---- */
	elf_ppnt = elf_phdata;
	for (i = 0; i < elf_ex->e_phnum; i++, elf_ppnt++) {
		if (elf_ppnt->p_type != PT_INTERP)
			continue;
		retval = -ENOEXEC;
		if (elf_ppnt->p_filesz > PATH_MAX || elf_ppnt->p_filesz < 2)
			goto out_free_ph;
		retval = -ENOMEM;
		elf_interpreter = kmalloc(elf_ppnt->p_filesz);
		if (!elf_interpreter)
			goto out_free_ph;
		retval = elf_read(bprm->file, elf_interpreter, elf_ppnt->p_filesz,
				  elf_ppnt->p_offset);
		/* The path ends at its first NUL; the last byte must be one. */
		if (retval == 0 && elf_interpreter[elf_ppnt->p_filesz - 1] != '\0')
			retval = -ENOEXEC;
		if (retval < 0)
			goto out_free_ph;
		interpreter = open_exec(elf_interpreter);
		if (IS_ERR(interpreter)) {
			retval = PTR_ERR(interpreter);
			interpreter = NULL;
			goto out_free_ph;
		}
		retval = -ENOMEM;
		interp_elf_ex = kmalloc(sizeof(*interp_elf_ex));
		if (!interp_elf_ex)
			goto out_free_dentry;
		retval = elf_read(interpreter, interp_elf_ex, sizeof(*interp_elf_ex), 0);
		if (retval < 0)
			goto out_free_dentry;
		break; /* a second PT_INTERP is not looked at */
	}

	elf_ppnt = elf_phdata;
	for (i = 0; i < elf_ex->e_phnum; i++, elf_ppnt++)
		if (elf_ppnt->p_type == PT_GNU_STACK)
			executable_stack = (elf_ppnt->p_flags & PF_X) ? EXSTACK_ENABLE_X
								      : EXSTACK_DISABLE_X;

	/* The interpreter must be an ELF file for this machine: ELIBBAD. */
	if (interpreter) {
		retval = -ELIBBAD;
		if (memcmp(interp_elf_ex->e_ident, ELFMAG, SELFMAG) != 0)
			goto out_free_dentry;
		if (!elf_check_arch(interp_elf_ex))
			goto out_free_dentry;
		interp_elf_phdata = load_elf_phdrs(interp_elf_ex, interpreter);
		if (!interp_elf_phdata)
			goto out_free_dentry;
	}

	/* ---- THE POINT OF NO RETURN: from here, a failure kills. ---- */
	retval = begin_new_exec(bprm);
	if (retval)
		goto out_free_dentry;

	/* A 64-bit program: READ_IMPLIES_EXEC is dropped (set_personality_64bit).
	 * Randomize unless the personality or the sysctl says not to. */
	current->personality &= ~READ_IMPLIES_EXEC;
	current->flags &= ~PF_RANDOMIZE;
	if (!(current->personality & ADDR_NO_RANDOMIZE) && randomize_va_space)
		current->flags |= PF_RANDOMIZE;

	setup_new_exec(bprm);

	retval = setup_arg_pages(bprm, randomize_stack_top(STACK_TOP), executable_stack);
	if (retval < 0)
		goto out_free_dentry;

	elf_brk = 0;
	start_code = ~0UL;
	end_code = 0;
	start_data = 0;
	end_data = 0;

	/* ---- Map the segments. ---- */
	for (i = 0, elf_ppnt = elf_phdata; i < elf_ex->e_phnum; i++, elf_ppnt++) {
		int elf_flags = MAP_PRIVATE;
		unsigned elf_prot;
		uint64_t k, vaddr, total_size = 0, alignment;

		if (elf_ppnt->p_type != PT_LOAD)
			continue;

		elf_prot = make_prot(elf_ppnt->p_flags);
		vaddr = elf_ppnt->p_vaddr;
		/*
		 * The first PT_LOAD decides where the image goes; the later
		 * ones follow it, MAP_FIXED. ET_EXEC: where it was linked, or
		 * fail (MAP_FIXED_NOREPLACE). ET_DYN with an interpreter (a
		 * PIE program): at ELF_ET_DYN_BASE plus a random offset, on
		 * its largest alignment. ET_DYN without one (a loader run as
		 * a program, a static-pie): load_bias 0 and no fixed address,
		 * so mmap places it, away from where a PIE it loads will go.
		 */
		if (!first_pt_load) {
			elf_flags |= MAP_FIXED;
		} else if (elf_ex->e_type == ET_EXEC) {
			elf_flags |= MAP_FIXED_NOREPLACE;
		} else if (elf_ex->e_type == ET_DYN) {
			total_size = total_mapping_size(elf_phdata, elf_ex->e_phnum);
			if (!total_size) {
				retval = -EINVAL;
				goto out_free_dentry;
			}
			alignment = maximum_alignment(elf_phdata, elf_ex->e_phnum);
			if (interpreter) {
				/* LAB 06: BEGIN the load bias of a PIE */
				load_bias = ELF_ET_DYN_BASE;
				if (current->flags & PF_RANDOMIZE)
					load_bias += arch_mmap_rnd();
				if (alignment)
					load_bias &= ~(alignment - 1);
				elf_flags |= MAP_FIXED_NOREPLACE;
				/* LAB 06: ELSE
				load_bias = 0;
				   LAB 06: END */
			} else if (alignment > ELF_MIN_ALIGN) {
				/* A loader that asks for a large alignment:
				 * see where mmap would put the image, then
				 * place it on that boundary below. */
				load_bias = elf_load(bprm->file, 0, elf_ppnt, elf_prot, elf_flags,
						     total_size);
				if (BAD_ADDR(load_bias)) {
					retval = load_bias >= (uint64_t)-4095 ?
							 (int)(int64_t)load_bias : -EINVAL;
					goto out_free_dentry;
				}
				vm_munmap(load_bias, ELF_PAGEALIGN(total_size));
				load_bias &= ~(alignment - 1);
				elf_flags |= MAP_FIXED_NOREPLACE;
			} else {
				load_bias = 0;
			}
			/* Lowered by the first vaddr: every later address is
			 * p_vaddr + load_bias. */
			load_bias = ELF_PAGESTART(load_bias - vaddr);
		}

		error = elf_load(bprm->file, load_bias + vaddr, elf_ppnt, elf_prot, elf_flags,
				 total_size);
		if (BAD_ADDR(error)) {
			retval = error >= (uint64_t)-4095 ? (int)(int64_t)error : -EINVAL;
			goto out_free_dentry;
		}

		if (first_pt_load) {
			first_pt_load = false;
			if (elf_ex->e_type == ET_DYN)
				load_bias += error - ELF_PAGESTART(load_bias + vaddr);
		}

		/* The segment that holds the program headers gives AT_PHDR. */
		if (elf_ppnt->p_offset <= elf_ex->e_phoff &&
		    elf_ex->e_phoff < elf_ppnt->p_offset + elf_ppnt->p_filesz)
			phdr_addr = elf_ex->e_phoff - elf_ppnt->p_offset + elf_ppnt->p_vaddr;

		/* For /proc/PID/stat and brk, as Linux counts them. */
		k = elf_ppnt->p_vaddr;
		if ((elf_ppnt->p_flags & PF_X) && k < start_code)
			start_code = k;
		if (start_data < k)
			start_data = k;

		/* Must fit below TASK_SIZE, and p_filesz <= p_memsz. */
		if (BAD_ADDR(k) || elf_ppnt->p_filesz > elf_ppnt->p_memsz ||
		    elf_ppnt->p_memsz > TASK_SIZE || TASK_SIZE - elf_ppnt->p_memsz < k) {
			retval = -EINVAL;
			goto out_free_dentry;
		}

		k = elf_ppnt->p_vaddr + elf_ppnt->p_filesz;
		if ((elf_ppnt->p_flags & PF_X) && end_code < k)
			end_code = k;
		if (end_data < k)
			end_data = k;
		k = elf_ppnt->p_vaddr + elf_ppnt->p_memsz;
		if (k > elf_brk)
			elf_brk = k;
	}

	e_entry = elf_ex->e_entry + load_bias;
	phdr_addr += load_bias;
	elf_brk += load_bias;
	start_code += load_bias;
	end_code += load_bias;
	start_data += load_bias;
	end_data += load_bias;

	if (interpreter) {
		elf_entry = load_elf_interp(interp_elf_ex, interpreter, load_bias, interp_elf_phdata);
		if (!BAD_ADDR(elf_entry)) {
			/* LAB 06: BEGIN AT_BASE and the interpreter's entry */
			interp_load_addr = elf_entry;
			elf_entry += interp_elf_ex->e_entry;
			/* LAB 06: END */
		}
		if (BAD_ADDR(elf_entry)) {
			retval = elf_entry >= (uint64_t)-4095 ? (int)(int64_t)elf_entry : -EINVAL;
			goto out_free_dentry;
		}
	} else {
		elf_entry = e_entry;
		if (BAD_ADDR(elf_entry)) {
			retval = -EINVAL;
			goto out_free_dentry;
		}
	}

	/* The vDSO and its data page (ARCH_SETUP_ADDITIONAL_PAGES). */
	retval = arch_setup_additional_pages(current->mm);
	if (retval < 0)
		goto out_free_dentry;

	retval = create_elf_tables(bprm, elf_ex, interp_load_addr, e_entry, phdr_addr);
	if (retval < 0)
		goto out_free_dentry;

	mm = current->mm;
	mm->end_code = end_code;
	mm->start_code = start_code;
	mm->start_data = start_data;
	mm->end_data = end_data;
	mm->start_stack = bprm->p;

	/*
	 * brk: after the highest segment; for a loader run as a program (or a
	 * static-pie) where a PIE would be, away from the mmap area that holds
	 * the loader. Randomized, with a page left free after the bss. (Linux
	 * 6.10's rules, which Debian's 6.1 has.)
	 */
	bss_end = ELF_PAGEALIGN(elf_brk);
	if (elf_ex->e_type == ET_DYN && !interpreter) {
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

	exec_trace_elf(bprm, elf_ex->e_type == ET_DYN, elf_interpreter, load_bias,
		       interp_load_addr, elf_entry, bss_end);
	start_thread(current->tf, elf_entry, bprm->p);
	retval = 0;

out_free_dentry:
	kfree(interp_elf_ex);
	kfree(interp_elf_phdata);
	if (interpreter) {
		allow_write_access(interpreter);
		fput(interpreter);
	}
out_free_ph:
	kfree(elf_interpreter);
	kfree(elf_phdata);
out:
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

static uint64_t stack_strlen(struct mm *mm, struct stack_scan *c, uint64_t p)
{
	uint64_t start = p;

	while (p - start < MAX_ARG_STRLEN) {
		uint64_t va = ALIGN_DOWN(p, PAGE_SIZE), off = p - va;

		if (c->va != va) {
			c->kaddr = mm_get_page_for_write(mm, va);
			c->va = c->kaddr ? va : 0;
			if (!c->kaddr)
				return 0;
		}
		for (; off < PAGE_SIZE && (off & 7); off++)
			if (!c->kaddr[off])
				return va + off + 1 - start;
		for (; off + 8 <= PAGE_SIZE; off += 8) {
			uint64_t w = *(const uint64_t *)(c->kaddr + off);

			if ((w - 0x0101010101010101UL) & ~w & 0x8080808080808080UL)
				break;
		}
		for (; off < PAGE_SIZE; off++)
			if (!c->kaddr[off])
				return va + off + 1 - start;
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
static int create_elf_tables(struct linux_binprm *bprm, const Elf64_Ehdr *exec,
			     uint64_t interp_load_addr, uint64_t e_entry, uint64_t phdr_addr)
{
	struct mm *mm = current->mm;
	uint64_t p = bprm->p;
	uint64_t sp, items;
	uint64_t *elf_info = mm->saved_auxv;
	int ei_index = 0, argc = bprm->argc, envc = bprm->envc, err;

	p = arch_align_stack(p);

	/* LAB 03: BEGIN the platform string, the random bytes, the auxiliary vector */
	uint64_t u_platform, u_rand_bytes, k_rand_bytes[2];

	u_platform = p -= sizeof(ELF_PLATFORM);
	if (copy_to_user((void __user *)u_platform, ELF_PLATFORM, sizeof(ELF_PLATFORM)))
		return -EFAULT;

	/* 16 random bytes, the seed of the C library's own randomness. */
	k_rand_bytes[0] = get_random_u64();
	k_rand_bytes[1] = get_random_u64();
	u_rand_bytes = p -= sizeof(k_rand_bytes);
	if (copy_to_user((void __user *)u_rand_bytes, k_rand_bytes, sizeof(k_rand_bytes)))
		return -EFAULT;

	/* The auxiliary vector, in Linux 6.1's order. */
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
	NEW_AUX_ENT(AT_PHDR, phdr_addr);
	NEW_AUX_ENT(AT_PHENT, sizeof(Elf64_Phdr));
	NEW_AUX_ENT(AT_PHNUM, exec->e_phnum);
	NEW_AUX_ENT(AT_BASE, interp_load_addr);
	NEW_AUX_ENT(AT_FLAGS, (bprm->interp_flags & BINPRM_FLAGS_PRESERVE_ARGV0) ?
				      AT_FLAGS_PRESERVE_ARGV0 : 0);
	NEW_AUX_ENT(AT_ENTRY, e_entry);
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
	ei_index += 2;
/* LAB 03: ELSE: only what a C library needs to start, and no random bytes
	uint64_t zeros[2] = { 0, 0 }, u_rand_bytes = p -= sizeof(zeros);

	if (copy_to_user((void __user *)u_rand_bytes, zeros, sizeof(zeros)))
		return -EFAULT;
	uint64_t aux[] = { AT_PHDR, phdr_addr, AT_PHENT, sizeof(Elf64_Phdr), AT_PHNUM,
			   exec->e_phnum, AT_PAGESZ, PAGE_SIZE, AT_BASE, interp_load_addr,
			   AT_ENTRY, e_entry, AT_RANDOM, u_rand_bytes, AT_NULL, 0 };
	memset(elf_info, 0, sizeof(mm->saved_auxv));
	memcpy(elf_info, aux, sizeof(aux));
	ei_index = sizeof(aux) / sizeof(aux[0]);
   LAB 03: END */

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
