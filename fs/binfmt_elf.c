/*
 * binfmt_elf.c - the ELF handler: loads an x86-64 ELF executable.
 *
 * One entry in the registry of fs/exec.c. load_elf_binary is called with
 * bprm->buf holding the first bytes of the file, and answers:
 *   -ENOEXEC   not an ELF file we can load (the next handler is asked);
 *   -errno     before begin_new_exec: nothing has changed, the caller of
 *              execve gets the error;
 *   0          the process now runs the program: its segments are mapped,
 *              its stack holds argc, argv, envp and the auxiliary vector,
 *              and current->tf is at its entry point;
 *   -errno     after begin_new_exec: the process is lost and exec.c kills
 *              it with SIGSEGV.
 *
 * What is loaded now: statically linked ET_EXEC files, as `musl-gcc
 * -static` makes them. A file with a PT_INTERP (dynamically linked) or of
 * type ET_DYN (PIE, static-pie, ld.so) gives ENOEXEC for now; the places
 * where they go are marked "ET_DYN/PT_INTERP".
 *
 * The checks follow Linux 6.1's load_elf_binary; we also check EI_CLASS
 * and EI_DATA, which Linux's x86-64 loader leaves to the program header
 * checks (a 32-bit file fails there anyway: its headers are not 56 bytes).
 * The layout of the new stack is Linux's exactly (create_elf_tables); only
 * the random shift of its top and of its first bytes is left out, so that
 * the same program sees the same addresses on every run.
 */
#include <cred.h>
#include <elf.h>
#include <errno.h>
#include <fs.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <mm.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>
#include <vm.h>

#include <random.h>

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
/* Linux's ELF_MIN_ALIGN: the program headers must fit in one page. */
#define ELF_MIN_ALIGN PAGE_SIZE
/*
 * Write count pointers at *sp, to the NUL-terminated strings that follow
 * one another from *p, and a NULL after them; advance both. -EFAULT if the
 * stack cannot be written, -EINVAL if a string is not where exec put it.
 */
static int put_string_pointers(uint64_t *sp, uint64_t *p, int count)
{
	while (count-- > 0) {
		if (put_user_u64(*p, (void __user *)*sp))
			return -EFAULT;
		*sp += sizeof(uint64_t);
		long len = strnlen_user((const char __user *)*p, MAX_ARG_STRLEN);
		if (!len || len > (long)MAX_ARG_STRLEN)
			return -EINVAL;
		*p += len;
	}
	if (put_user_u64(0, (void __user *)*sp))
		return -EFAULT;
	*sp += sizeof(uint64_t);
	return 0;
}

/* times() ticks per second, as USER_HZ. */
#define CLOCKS_PER_SEC 100

static int create_elf_tables(struct linux_binprm *bprm, const Elf64_Ehdr *exec,
			     uint64_t interp_load_addr, uint64_t e_entry, uint64_t phdr_addr);

/*
 * Read the program headers: ENOEXEC-worthy (NULL) unless they are the
 * 56-byte kind, between 1 and 64 KiB and one page in all, and all there in
 * the file. kfree the result.
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
	if (elf_ex->e_phoff > (uint64_t)INT64_MAX ||
	    kernel_read(file, elf_phdata, size, elf_ex->e_phoff) != (ssize_t)size) {
		kfree(elf_phdata);
		return NULL;
	}
	return elf_phdata;
}

/* Area rights from segment flags (PF_X is 1, VM_EXEC is 4). */
static unsigned elf_prot(uint32_t p_flags)
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

/*
 * Map one PT_LOAD segment into mm, as Linux's mmap of the file plus its bss
 * does. Nothing is read here: the pages come from the file when the program
 * first touches them (demand paging, mm/fault.c), so a 2 MB program that
 * runs for a moment reads only the pages it uses. Two areas, replacing
 * whatever was there (MAP_FIXED):
 *
 *   [PAGESTART(p_vaddr), PAGEALIGN(p_vaddr + p_filesz))   file-backed
 *       shows the file from PAGESTART(p_offset). If the segment has a bss
 *       (p_memsz > p_filesz), the area reads zeros from file offset
 *       p_offset + p_filesz on, so the bss's start in the last file page is
 *       zero (Linux's padzero); without one, that page shows the file to
 *       its end, as Linux's does. A page past the end of the file is SIGBUS
 *       to touch, as in Linux.
 *   [that end, PAGEALIGN(p_vaddr + p_memsz))               anonymous
 *       the rest of the bss, demand-zero.
 *
 * The file areas hold references to the file (include/vm.h), so they keep
 * reading it after exec's own reference is gone.
 */
static int elf_map(struct file *file, struct mm *mm, const Elf64_Phdr *ph)
{
	uint64_t pageoff = ph->p_vaddr & ~PAGE_MASK;
	uint64_t start = ph->p_vaddr - pageoff;
	uint64_t end, file_map_end, file_end;
	unsigned prot = elf_prot(ph->p_flags);
	int err;

	/* Linux's checks after its mmap; every one is EINVAL. */
	if (ph->p_vaddr >= TASK_SIZE || ph->p_filesz > ph->p_memsz ||
	    ph->p_memsz > TASK_SIZE || TASK_SIZE - ph->p_memsz < ph->p_vaddr)
		return -EINVAL;
	/* mmap needs the file offset and the address equal modulo a page,
	 * and an offset that fits in a loff_t. */
	if ((ph->p_offset & ~PAGE_MASK) != pageoff || ph->p_offset > (uint64_t)INT64_MAX)
		return -EINVAL;
	if (ph->p_memsz == 0)
		return 0;

	end = ALIGN_UP(ph->p_vaddr + ph->p_memsz, PAGE_SIZE);
	file_map_end = start;
	if (ph->p_filesz > 0) {
		file_map_end = ALIGN_UP(ph->p_vaddr + ph->p_filesz, PAGE_SIZE);
		file_end = ph->p_memsz > ph->p_filesz ? ph->p_offset + ph->p_filesz
						      : VM_FILE_END_NONE;
		err = vma_map_file(mm, start, file_map_end - start, prot, file,
				   (ph->p_offset - pageoff) / PAGE_SIZE, file_end);
		if (err)
			return err;
	}
	if (end > file_map_end)
		return vma_map(mm, file_map_end, end - file_map_end, prot);
	return 0;
}

static int load_elf_binary(struct linux_binprm *bprm)
{
	Elf64_Ehdr elf_ex; /* a copy: bprm->buf has no alignment */
	Elf64_Phdr *elf_phdata, *elf_ppnt;
	int executable_stack = EXSTACK_DEFAULT;
	uint64_t elf_brk, start_code, end_code, start_data, end_data;
	uint64_t e_entry, phdr_addr = 0, load_bias = 0;
	struct mm *mm;
	int retval, i;

	memcpy(&elf_ex, bprm->buf, sizeof(elf_ex));

	/* ---- Is it ours? ---- */
	retval = -ENOEXEC;
	if (memcmp(elf_ex.e_ident, ELFMAG, SELFMAG) != 0)
		goto out;
	if (elf_ex.e_ident[EI_CLASS] != ELFCLASS64 || elf_ex.e_ident[EI_DATA] != ELFDATA2LSB)
		goto out;
	if (elf_ex.e_type != ET_EXEC) /* ET_DYN/PT_INTERP: also ET_DYN */
		goto out;
	if (elf_ex.e_machine != EM_X86_64) /* Linux's elf_check_arch */
		goto out;

	elf_phdata = load_elf_phdrs(&elf_ex, bprm->file);
	if (!elf_phdata)
		goto out;

	/* ---- What the program headers ask for, besides loading. ---- */
	for (i = 0, elf_ppnt = elf_phdata; i < elf_ex.e_phnum; i++, elf_ppnt++) {
		switch (elf_ppnt->p_type) {
		case PT_INTERP:
			/* ET_DYN/PT_INTERP: open the interpreter here, with
			 * open_exec, and check its header before going on. */
			retval = -ENOEXEC;
			goto out_free_ph;
		case PT_GNU_STACK:
			executable_stack = (elf_ppnt->p_flags & PF_X) ? EXSTACK_ENABLE_X
								      : EXSTACK_DISABLE_X;
			break;
		}
	}

	/* ---- THE POINT OF NO RETURN: from here, a failure kills. ---- */
	retval = begin_new_exec(bprm);
	if (retval)
		goto out_free_ph;

	retval = setup_arg_pages(bprm, executable_stack);
	if (retval < 0)
		goto out_free_ph;

	/* ---- Map the segments. ---- */
	mm = current->mm;
	elf_brk = 0;
	start_code = ~0UL;
	end_code = start_data = end_data = 0;
	for (i = 0, elf_ppnt = elf_phdata; i < elf_ex.e_phnum; i++, elf_ppnt++) {
		uint64_t k;

		if (elf_ppnt->p_type != PT_LOAD)
			continue;
		retval = elf_map(bprm->file, mm, elf_ppnt);
		if (retval)
			goto out_free_ph;

		/* The segment that holds the program headers gives AT_PHDR. */
		if (elf_ppnt->p_offset <= elf_ex.e_phoff &&
		    elf_ex.e_phoff < elf_ppnt->p_offset + elf_ppnt->p_filesz)
			phdr_addr = elf_ex.e_phoff - elf_ppnt->p_offset + elf_ppnt->p_vaddr;

		/* For /proc/PID/stat and brk, as Linux counts them. */
		k = elf_ppnt->p_vaddr;
		if ((elf_ppnt->p_flags & PF_X) && k < start_code)
			start_code = k;
		if (start_data < k)
			start_data = k;
		k = elf_ppnt->p_vaddr + elf_ppnt->p_filesz;
		if ((elf_ppnt->p_flags & PF_X) && end_code < k)
			end_code = k;
		if (end_data < k)
			end_data = k;
		k = elf_ppnt->p_vaddr + elf_ppnt->p_memsz;
		if (k > elf_brk)
			elf_brk = k;
	}

	/* ET_DYN/PT_INTERP: load_bias for a PIE, the interpreter's map. */
	phdr_addr += load_bias;
	e_entry = elf_ex.e_entry + load_bias;
	retval = -EINVAL;
	if (e_entry >= TASK_SIZE)
		goto out_free_ph;

	/* The heap starts on the page after the highest segment (no random
	 * offset: Linux adds one when randomizing). */
	mm->start_brk = mm->brk = ALIGN_UP(elf_brk + load_bias, PAGE_SIZE);

	retval = create_elf_tables(bprm, &elf_ex, 0, e_entry, phdr_addr);
	if (retval < 0)
		goto out_free_ph;

	mm->start_code = start_code + load_bias;
	mm->end_code = end_code + load_bias;
	mm->start_data = start_data + load_bias;
	mm->end_data = end_data + load_bias;
	mm->start_stack = bprm->p;

	start_thread(current->tf, e_entry, bprm->p);
	retval = 0;
out_free_ph:
	kfree(elf_phdata);
out:
	return retval;
}

/* CPUID leaf 1, EDX: the feature bits Linux passes as AT_HWCAP. */
static uint32_t elf_hwcap(void)
{
	uint32_t eax = 1, ebx, ecx = 0, edx;

	__asm__ volatile("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx));
	return edx;
}

/*
 * Finish the new stack and lay out what the program finds at rsp. From
 * STACK_TOP down (the strings are there already, copied by exec.c):
 *
 *   8 zero bytes
 *   the file name (AT_EXECFN)                        <- bprm->exec
 *   envp strings, argv strings, in reverse           <- bprm->p, arg_start
 *   0-15 bytes to align to 16
 *   "x86_64\0" (AT_PLATFORM)
 *   16 random bytes (AT_RANDOM)
 *   0-15 bytes of padding, so that rsp ends 16-byte aligned
 *   auxv: (type, value) pairs, ending with AT_NULL
 *   NULL, envp[envc-1] ... envp[0]
 *   NULL, argv[argc-1] ... argv[0]
 *   argc                                              <- rsp
 *
 * Linux also subtracts a random amount below 8 KiB before the alignment.
 * The new address space is current's now, so the uaccess functions write
 * to it, as Linux's put_user does.
 */
static int create_elf_tables(struct linux_binprm *bprm, const Elf64_Ehdr *exec,
			     uint64_t interp_load_addr, uint64_t e_entry, uint64_t phdr_addr)
{
	struct mm *mm = current->mm;
	uint64_t p = bprm->p;
	uint64_t u_platform, u_rand_bytes, sp, items;
	uint64_t k_rand_bytes[2];
	uint64_t elf_info[2 * 24]; /* room to spare for the entries below */
	int ei_index = 0, argc = bprm->argc, envc = bprm->envc, err;

	p &= ~0xfUL; /* Linux's arch_align_stack, without the random part */

	u_platform = p -= sizeof(ELF_PLATFORM);
	if (copy_to_user((void __user *)u_platform, ELF_PLATFORM, sizeof(ELF_PLATFORM)))
		return -EFAULT;

	/* 16 random bytes, the seed of the C library's own randomness. */
	k_rand_bytes[0] = get_random_u64();
	k_rand_bytes[1] = get_random_u64();
	u_rand_bytes = p -= sizeof(k_rand_bytes);
	if (copy_to_user((void __user *)u_rand_bytes, k_rand_bytes, sizeof(k_rand_bytes)))
		return -EFAULT;

	/*
	 * The auxiliary vector, in Linux's order. Not here: AT_SYSINFO_EHDR
	 * (there is no vDSO) and AT_MINSIGSTKSZ, both of which Linux puts
	 * first.
	 */
#define NEW_AUX_ENT(id, val)                         \
	do {                                         \
		elf_info[ei_index++] = (id);         \
		elf_info[ei_index++] = (uint64_t)(val); \
	} while (0)
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
	NEW_AUX_ENT(AT_HWCAP2, 0); /* no ring-3 MWAIT, no FSGSBASE */
	NEW_AUX_ENT(AT_EXECFN, bprm->exec);
	NEW_AUX_ENT(AT_PLATFORM, u_platform);
	if (bprm->have_execfd)
		NEW_AUX_ENT(AT_EXECFD, bprm->execfd);
	NEW_AUX_ENT(AT_NULL, 0);
#undef NEW_AUX_ENT

	/* Room for the vector, then for argc and the two arrays with their
	 * NULLs, rounded down so that rsp (at argc) is 16-byte aligned. */
	sp = p - ei_index * sizeof(uint64_t);
	items = (uint64_t)(argc + 1) + (envc + 1) + 1;
	bprm->p = (sp - items * sizeof(uint64_t)) & ~0xfUL;
	sp = bprm->p;

	if (put_user_u64(argc, (void __user *)sp))
		return -EFAULT;
	sp += sizeof(uint64_t);

	/* The pointers, to the strings laid out in order from arg_start. */
	p = mm->arg_start;
	err = put_string_pointers(&sp, &p, argc);
	if (err)
		return err;
	mm->arg_end = mm->env_start = p;
	err = put_string_pointers(&sp, &p, envc);
	if (err)
		return err;
	mm->env_end = p;

	if (copy_to_user((void __user *)sp, elf_info, ei_index * sizeof(uint64_t)))
		return -EFAULT;
	return 0;
}
