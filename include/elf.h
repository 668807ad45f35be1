/*
 * elf.h - the ELF-64 file format (System V gABI with its x86-64 supplement)
 * and the auxiliary vector that exec hands to a new program.
 *
 * Linux keeps the same definitions in include/uapi/linux/elf.h and
 * include/uapi/linux/auxvec.h. The values are the ABI's, so they are the
 * same in every kernel and libc; only what fs/binfmt_elf.c uses is here.
 */
#pragma once
#include <kernel.h>

typedef uint64_t Elf64_Addr;
typedef uint64_t Elf64_Off;
typedef uint16_t Elf64_Half;
typedef uint32_t Elf64_Word;
typedef uint64_t Elf64_Xword;

/* e_ident[]: the first 16 bytes of every ELF file. */
#define EI_NIDENT 16
#define EI_CLASS 4   /* ELFCLASS32 or ELFCLASS64 */
#define EI_DATA 5    /* byte order */
#define EI_VERSION 6
#define ELFMAG "\177ELF"
#define SELFMAG 4
#define ELFCLASS64 2
#define ELFDATA2LSB 1 /* little-endian */

/* e_type */
#define ET_EXEC 2 /* linked at fixed addresses */
#define ET_DYN 3  /* position-independent: shared object, PIE, ld.so */

/* e_machine */
#define EM_X86_64 62

/* The file header: where everything else is found. */
typedef struct {
	unsigned char e_ident[EI_NIDENT];
	Elf64_Half e_type;
	Elf64_Half e_machine;
	Elf64_Word e_version;
	Elf64_Addr e_entry;     /* first instruction of the program */
	Elf64_Off e_phoff;      /* file offset of the program headers */
	Elf64_Off e_shoff;
	Elf64_Word e_flags;
	Elf64_Half e_ehsize;
	Elf64_Half e_phentsize; /* size of one program header: 56 */
	Elf64_Half e_phnum;     /* number of program headers */
	Elf64_Half e_shentsize;
	Elf64_Half e_shnum;
	Elf64_Half e_shstrndx;
} Elf64_Ehdr;

/* A program header describes one segment: what the loader must do. */
typedef struct {
	Elf64_Word p_type;
	Elf64_Word p_flags;   /* PF_* */
	Elf64_Off p_offset;   /* where the segment's bytes start in the file */
	Elf64_Addr p_vaddr;   /* where they go in memory */
	Elf64_Addr p_paddr;
	Elf64_Xword p_filesz; /* bytes taken from the file */
	Elf64_Xword p_memsz;  /* bytes in memory; the rest (bss) is zero */
	Elf64_Xword p_align;
} Elf64_Phdr;

/* p_type */
#define PT_NULL 0
#define PT_LOAD 1    /* map it */
#define PT_DYNAMIC 2
#define PT_INTERP 3  /* the path of the program interpreter (ld.so) */
#define PT_NOTE 4
#define PT_PHDR 6
#define PT_TLS 7
#define PT_GNU_STACK 0x6474e551 /* p_flags say whether the stack is executable */

/* p_flags */
#define PF_X 0x1
#define PF_W 0x2
#define PF_R 0x4

/*
 * The auxiliary vector: (type, value) pairs that exec leaves on the new
 * stack after the environment pointers, so that the C library learns what
 * only the kernel knows (page size, where the program headers are, a seed
 * for its random numbers...). The list ends with AT_NULL.
 */
#define AT_NULL 0
#define AT_IGNORE 1
#define AT_EXECFD 2   /* binfmt_misc 'O': fd of the program */
#define AT_PHDR 3     /* address of the program headers in memory */
#define AT_PHENT 4    /* size of one program header */
#define AT_PHNUM 5    /* number of program headers */
#define AT_PAGESZ 6
#define AT_BASE 7     /* load address of the interpreter, 0 if none */
#define AT_FLAGS 8
#define AT_ENTRY 9    /* the program's entry point */
#define AT_NOTELF 10
#define AT_UID 11
#define AT_EUID 12
#define AT_GID 13
#define AT_EGID 14
#define AT_PLATFORM 15 /* pointer to "x86_64" */
#define AT_HWCAP 16    /* CPUID leaf 1, EDX */
#define AT_CLKTCK 17   /* times() ticks per second */
#define AT_SECURE 23   /* 1 for a set-user-ID or set-group-ID exec */
#define AT_BASE_PLATFORM 24
#define AT_RANDOM 25   /* pointer to 16 random bytes */
#define AT_HWCAP2 26
#define AT_EXECFN 31   /* pointer to the file name given to execve */
#define AT_SYSINFO_EHDR 33 /* the vDSO; we have none */
#define AT_MINSIGSTKSZ 51

/* AT_FLAGS bits */
#define AT_FLAGS_PRESERVE_ARGV0 0x1 /* binfmt_misc 'P' kept argv[0] */
