/*
 * lkdtm.c - crash the kernel on purpose, to see that each protection
 * works (Linux's Linux Kernel Dump Test Module, with its names).
 *
 * Writing a name to /proc/provoke-crash (root only; Linux has the same
 * file in debugfs, /sys/kernel/debug/provoke-crash/DIRECT) makes the
 * kernel do the forbidden thing at once, in the writer's system call. The
 * protection must catch it: an oops or a panic that names the culprit,
 * and QEMU stops with status 3 (tests/cases/hardening/lkdtm_*).
 *
 *   PANIC             panic()
 *   BUG               BUG_ON(true)
 *   EXCEPTION         write through a NULL pointer (page 0 is never mapped)
 *   EXEC_DATA         run code in .data            (NX)
 *   EXEC_STACK        run code on the kernel stack (NX)
 *   EXEC_KMALLOC      run code in kmalloc memory   (NX)
 *   EXEC_RODATA       run code in .rodata          (NX)
 *   EXEC_USERSPACE    run code in a user page      (SMEP)
 *   ACCESS_USERSPACE  read a user page outside uaccess (SMAP)
 *   WRITE_RO          write to .rodata             (read-only)
 *   WRITE_KERN        write over the kernel's code (read-only)
 *   EXHAUST_STACK     recurse until the kernel stack overflows (guard page)
 *   CORRUPT_STACK     overrun an array on the stack (stack protector)
 *   SOFTLOCKUP        loop in the kernel forever   (soft lockup watchdog)
 * and, for the sanitized kernel (make SANITIZE=ubsan), undefined behaviour
 * that UBSAN reports, after which the kernel goes on:
 *   OVERFLOW_SIGNED   INT_MAX + 1
 *   ARRAY_BOUNDS      an index past the end of an array
 *   SHIFT_OUT_OF_BOUNDS  1 << 64
 * and for KASAN-lite (make SANITIZE=kasan), which reports and goes on:
 *   SLAB_LINEAR_OVERFLOW   write just past a kmalloc'd object
 *   READ_AFTER_FREE        read a kfree'd object
 *   WRITE_AFTER_FREE       write a kfree'd object
 *   READ_BUDDY_AFTER_FREE  read a freed page
 * and for the lock validator (make SANITIZE=lockdep), which reports and
 * goes on: the LOCKDEP_* triggers of lkdtm_lockdep.c.
 */
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <proc_fs.h>
#include <sched.h>
#include <string.h>
#include <vm.h>

#define RET_INSN 0xc3

typedef void (*func_t)(void);

#ifdef CONFIG_LOCKDEP
bool lkdtm_lockdep(const char *name); /* lkdtm_lockdep.c */
#else
static bool lkdtm_lockdep(const char *name) { (void)name; return false; }
#endif

/* Code to run from the wrong places: a bare "ret". */
static uint8_t data_area[16] = { RET_INSN };
static const uint8_t rodata_area[16] = { RET_INSN };
static const int rodata_value = 1;

static void __attribute__((no_sanitize_undefined)) null_write(void)
{
	*(volatile int *)NULL = 0;
}

/* Undefined behaviour, for UBSAN; the values come from volatiles so that
 * the compiler cannot see it coming. */
static void __attribute__((noinline)) ubsan_case(const char *name)
{
	volatile int v = 0x7fffffff, idx = 4, shift = 64;
	volatile uint64_t one = 1;
	int arr[4] = { 1, 2, 3, 4 };

	if (!strcmp(name, "OVERFLOW_SIGNED")) {
		v = v + 1;
	} else if (!strcmp(name, "ARRAY_BOUNDS")) {
		v = arr[idx];
	} else {
		one = one << shift;
	}
	printk(KERN_INFO "lkdtm: %s done: %d %lu\n", name, v, (unsigned long)one);
}

/* Memory errors for KASAN; volatile, so that the compiler keeps them. */
static void __attribute__((noinline)) kasan_case(const char *name)
{
	if (!strcmp(name, "SLAB_LINEAR_OVERFLOW")) {
		volatile uint32_t *data = kmalloc(1020);
		if (!data)
			return;
		printk(KERN_INFO "lkdtm: attempting bad write 4 bytes past the end\n");
		data[1024 / sizeof(uint32_t)] = 0x12345678;
		kfree((void *)data);
	} else if (!strcmp(name, "READ_AFTER_FREE") || !strcmp(name, "WRITE_AFTER_FREE")) {
		volatile uint64_t *p = kmalloc(64);
		if (!p)
			return;
		p[2] = 42;
		kfree((void *)p);
		if (name[0] == 'R')
			printk(KERN_INFO "lkdtm: read after free: %lu\n", (unsigned long)p[2]);
		else
			p[2] = 43;
	} else {
		volatile uint64_t *page = alloc_page();
		if (!page)
			return;
		free_page((void *)page);
		printk(KERN_INFO "lkdtm: read a freed page: %lu\n", (unsigned long)page[8]);
	}
}

static void __attribute__((noinline)) execute_location(void *where)
{
	printk(KERN_INFO "lkdtm: attempting bad execution at %p\n", where);
	((func_t)where)();
	printk(KERN_ERR "FAIL: func returned\n");
}

/* A page of current's address space, filled with "ret"; 0 if none. */
static uint64_t user_page(void)
{
	uint64_t addr = get_unmapped_area(current->mm, 0, PAGE_SIZE);
	uint8_t code = RET_INSN;

	if (!addr || vma_map(current->mm, addr, PAGE_SIZE, VM_READ | VM_WRITE | VM_EXEC) ||
	    mm_write(current->mm, addr, &code, 1))
		return 0;
	return addr;
}

/* Deep enough to go through any stack: each frame holds 1 KiB. */
static int __attribute__((noinline)) recurse(int depth)
{
	volatile char buf[1024];

	buf[0] = (char)depth;
	if (depth == 0)
		return buf[0];
	return recurse(depth - 1) + buf[0];
}

/* Not reported by UBSAN: the stack protector must catch this. */
static void __attribute__((noinline, no_sanitize_undefined)) corrupt_stack(void)
{
	volatile char buf[16];
	volatile size_t n = 64; /* the compiler must not see the overrun */

	for (size_t i = 0; i < n; i++)
		buf[i] = 'x';
	(void)buf[0];
}

static int write_provoke_crash(const char *buf, size_t count)
{
	char name[32];
	size_t n = 0;

	while (n < count && n < sizeof(name) - 1 && buf[n] != '\n')
		name[n] = buf[n], n++;
	name[n] = '\0';
	printk(KERN_INFO "lkdtm: Performing direct entry %s\n", name);

	if (!strcmp(name, "PANIC")) {
		panic("dumptest");
	} else if (!strcmp(name, "BUG")) {
		BUG_ON(n > 0);
	} else if (!strcmp(name, "EXCEPTION")) {
		null_write();
	} else if (!strcmp(name, "EXEC_DATA")) {
		execute_location(data_area);
	} else if (!strcmp(name, "EXEC_STACK")) {
		uint8_t stack_area[16] = { RET_INSN };
		execute_location(stack_area);
	} else if (!strcmp(name, "EXEC_KMALLOC")) {
		uint8_t *p = kmalloc(16);
		if (!p)
			return -ENOMEM;
		p[0] = RET_INSN;
		execute_location(p);
		kfree(p);
	} else if (!strcmp(name, "EXEC_RODATA")) {
		execute_location((void *)rodata_area);
	} else if (!strcmp(name, "EXEC_USERSPACE")) {
		uint64_t addr = user_page();
		if (!addr)
			return -ENOMEM;
		execute_location((void *)addr);
	} else if (!strcmp(name, "ACCESS_USERSPACE")) {
		uint64_t addr = user_page();
		if (!addr)
			return -ENOMEM;
		printk(KERN_INFO "lkdtm: attempting bad read at %lx\n", (unsigned long)addr);
		if (*(volatile uint8_t *)addr != RET_INSN)
			printk(KERN_ERR "FAIL: wrong byte read\n");
	} else if (!strcmp(name, "WRITE_RO")) {
		printk(KERN_INFO "lkdtm: attempting bad rodata write at %p\n", (void *)&rodata_value);
		*(volatile int *)&rodata_value = 2;
	} else if (!strcmp(name, "WRITE_KERN")) {
		printk(KERN_INFO "lkdtm: attempting bad write over the code of %p\n", (void *)recurse);
		*(volatile uint8_t *)recurse = RET_INSN;
	} else if (!strcmp(name, "EXHAUST_STACK")) {
		printk(KERN_INFO "lkdtm: Calling function with 1024 frame size to depth 64 ...\n");
		recurse(64);
	} else if (!strcmp(name, "CORRUPT_STACK")) {
		printk(KERN_INFO "lkdtm: Corrupting stack containing char array ...\n");
		corrupt_stack();
	} else if (!strcmp(name, "OVERFLOW_SIGNED") || !strcmp(name, "ARRAY_BOUNDS") ||
		   !strcmp(name, "SHIFT_OUT_OF_BOUNDS")) {
		ubsan_case(name);
		return 0; /* UBSAN reports it, if the kernel was built with it */
	} else if (!strcmp(name, "SLAB_LINEAR_OVERFLOW") || !strcmp(name, "READ_AFTER_FREE") ||
		   !strcmp(name, "WRITE_AFTER_FREE") || !strcmp(name, "READ_BUDDY_AFTER_FREE")) {
		kasan_case(name);
		return 0; /* KASAN reports it, if the kernel was built with it */
	} else if (lkdtm_lockdep(name)) {
		return 0; /* the lock validator reported it */
	} else if (!strcmp(name, "SOFTLOCKUP")) {
		for (;;)
			__asm__ volatile("pause" ::: "memory");
	} else {
		printk(KERN_ERR "lkdtm: unknown crash type %s\n", name);
		return -EINVAL;
	}
	printk(KERN_ERR "lkdtm: FAIL: %s did not crash the kernel\n", name);
	return 0;
}

void lkdtm_init(void)
{
	proc_create("provoke-crash", 0200, NULL, write_provoke_crash);
}
