/*
 * mman.h - the values of mmap's prot and flags arguments, as Linux's
 * uapi headers give them (asm-generic/mman-common.h, mman.h). The kernel
 * uses them too: the ELF loader maps its segments with the same flags a
 * program passes to mmap (mm/mmap.c: vm_mmap).
 */
#pragma once

#define PROT_NONE 0x0
#define PROT_READ 0x1  /* the same bits as VM_READ, VM_WRITE, VM_EXEC */
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define PROT_GROWSDOWN 0x01000000 /* mprotect: accepted, no effect */
#define PROT_GROWSUP 0x02000000

#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE 0x0f
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_32BIT 0x40       /* x86-64: in the first 2 GiB (mm/vm.c) */
#define MAP_GROWSDOWN 0x0100 /* accepted, no effect */
#define MAP_LOCKED 0x2000    /* locked as mlock locks (mm/mlock.c) */
#define MAP_NORESERVE 0x4000 /* not counted against the memory there is */
#define MAP_POPULATE 0x8000  /* fault the pages in now */
#define MAP_NONBLOCK 0x10000 /* with MAP_POPULATE: do not populate */
#define MAP_STACK 0x20000    /* accepted, no effect */
#define MAP_FIXED_NOREPLACE 0x100000
