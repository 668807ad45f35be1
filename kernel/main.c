/*
 * main.c - kernel_main, where boot/boot.S hands over: bring the machine up
 * piece by piece, then start init as process 1.
 */
#include <boot.h>
#include <cpu.h>
#include <cmdline.h>
#include <fs.h>
#include <kasan.h>
#include <fpu.h>
#include <kernel.h>
#include <linux/pid_namespace.h>
#include <personality.h>
#include <vdso.h>
#include <linux/binfmts.h>
#include <linux/init.h>
#include <smp.h>
#include <smp_lock.h>
#include <linux/kmod.h>
#include <linux/module.h>
#include <mm.h>
#include <sched.h>
#include <security.h>
#include <serial.h>
#include <timekeeping.h>
#include <trap.h>
#include <vm.h>

void timer_init(void);
void pic_init(void);
void utsname_init(void);
void smap_init(void);
void cpu_protections_init(void);
void lkdtm_init(void);

static uint64_t initrd_freed;

static void release_initrd(const void *data, const void *upto)
{
	initrd_freed += free_reserved_range(&boot_info, virt_to_phys(data), virt_to_phys(upto));
}

static void load_initramfs(void)
{
	if (boot_info.nr_modules == 0) {
		pr_warn("no initramfs: nothing to run\n");
		return;
	}
	const struct boot_module *m = &boot_info.modules[0];
	/* unpack_initramfs reports its own errors, as Linux does. The
	 * archive's pages are freed as soon as their files are made (the
	 * files are copies), so that the archive and its files need not both
	 * fit in memory: how a 16 MiB machine unpacks an 8 MiB initramfs. */
	unpack_initramfs_release(phys_to_virt(m->start), m->end - m->start, release_initrd);
	initrd_freed += free_reserved_range(&boot_info, m->start, m->end);
	printk(KERN_INFO "Freeing initrd memory: %luK\n", (unsigned long)(initrd_freed / 1024));
}

/* The initcalls, as the linker gathered them (linker.ld). */
extern initcall_t __initcall_start[], __initcall_end[];

void do_initcalls(void)
{
	for (initcall_t *call = __initcall_start; call < __initcall_end; call++)
		(void)(*call)();
}

void kernel_main(uint32_t magic, uint64_t info_phys)
{
	setup_percpu(0);        /* before anything reads current */
	lock_kernel();          /* held until the boot CPU first idles */
	serial_init();
	multiboot_parse(magic, info_phys);
	cmdline_parse(boot_info.cmdline);
	time_init();
	printk(KERN_INFO "Booting the execve teaching kernel (x86-64)\n");
	printk(KERN_INFO "Command line: %s\n", boot_info.cmdline);

	trap_init();
	fpu_init();
	cpu_init();
	page_alloc_init(&boot_info);
	kmalloc_init();
	paging_init();
	smap_init();            /* before the kernel's text becomes read-only */
	kernel_map_init();
	cpu_protections_init();
	espfix_init();          /* returns to 16-bit stack segments */
	kasan_init();           /* make SANITIZE=kasan; nothing otherwise */
	pic_init();
	timer_init();
	syscall_init();
	sched_init();
	smp_init();             /* the other CPUs: they wait for the lock */
	fork_init();
	vfs_init();
	security_init();
	proc_modules_init();
	utsname_init();
	pid_namespace_init();
	kmod_init();
	do_initcalls();         /* the formats, binfmt_misc, the exec trace */
	exec_domain_init();
	vdso_init();
	lkdtm_init();
	load_initramfs();

	printk(KERN_INFO "Run %s as init process\n", init_path);
	start_init(init_path, init_argv, init_envp);
}
