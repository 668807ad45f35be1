/*
 * personality.h - execution domains and the flags that change how a
 * process's address space is laid out (Linux's uapi/linux/personality.h).
 * personality(2) sets them; they survive fork and exec.
 */
#pragma once

/* Flags in the upper bits; the low byte is the domain (PER_LINUX = 0). */
#define UNAME26 0x0020000
#define ADDR_NO_RANDOMIZE 0x0040000   /* setarch -R: no ASLR for this process */
#define FDPIC_FUNCPTRS 0x0080000
#define MMAP_PAGE_ZERO 0x0100000      /* exec maps page 0 read-only (SVr4) */
#define ADDR_COMPAT_LAYOUT 0x0200000  /* mmap bottom-up, from TASK_UNMAPPED_BASE */
#define READ_IMPLIES_EXEC 0x0400000   /* PROT_READ implies PROT_EXEC */
#define ADDR_LIMIT_32BIT 0x0800000
#define SHORT_INODE 0x1000000
#define WHOLE_SECONDS 0x2000000
#define STICKY_TIMEOUTS 0x4000000
#define ADDR_LIMIT_3GB 0x8000000
/* What a set-user-ID or set-group-ID exec takes away: the bits that would
 * weaken the new program's protections (Linux's PER_CLEAR_ON_SETID). */
#define PER_CLEAR_ON_SETID (READ_IMPLIES_EXEC | ADDR_NO_RANDOMIZE | ADDR_COMPAT_LAYOUT | MMAP_PAGE_ZERO)

#define PER_LINUX 0x0000
#define PER_MASK 0x00ff

/* Registers /proc/sys/kernel/randomize_va_space (kernel/exec_domain.c). */
void exec_domain_init(void);
