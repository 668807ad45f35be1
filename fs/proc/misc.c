/*
 * misc.c - the fixed files of /proc, registered at boot through the
 * same proc_create() that other parts of the kernel use:
 *
 *   meminfo        memory in Linux's layout ("MemTotal:       16384 kB");
 *                  the figures this kernel does not have (swap, huge
 *                  pages, a page cache of disk files) are 0
 *   stat, interrupts, cmdline: fs/proc/stat.c, interrupts.c, cmdline.c
 *   uptime         seconds since boot, and seconds the CPU was idle
 *   loadavg        the load average, tasks, last pid
 *   cpuinfo        each processor, described by the cpuid instruction
 *   filesystems    the filesystem types mount(2) knows
 *   mounts         a symlink to self/mounts, as in Linux
 *   sysrq-trigger  write 'c' to crash the kernel (a NULL pointer write, to
 *                  see an oops), 'o' to power off, 'b' to reboot, 'l' for
 *                  every CPU's backtrace (include/nmi.h)
 *   sys/kernel/    ostype, pid_max, threads-max, ngroups_max (kernel/utsname.c
 *                  adds osrelease, version, hostname, domainname and /proc/version)
 *   sys/fs/        pipe-max-size, protected_{hardlinks,symlinks} (1,
 *                  fs/namei.c), protected_{fifos,regular} (0), and the
 *                  empty binfmt_misc, where the
 *                  binfmt_misc filesystem is mounted (fs/binfmt_misc.c)
 *   sys/vm/        mmap_min_addr (read-only here: MMAP_MIN_ADDR)
 */
#include "internal.h"
#include <kasan.h>
#include <kernel_stat.h>
#include <mm.h>
#include <nmi.h>
#include <power.h>
#include <sched.h>
#include <time_namespace.h>
#include <timekeeping.h>
#include <vm.h>
#include <vmalloc.h>

/* ---- meminfo ---------------------------------------------------------------- */

/* "Name:" padded to 16 columns, then the value in kB in 8 columns. */
static void show_val_kb(struct seq_file *m, const char *name, uint64_t pages)
{
	seq_printf(m, "%-16s%8lu kB\n", name, (unsigned long)(pages * (PAGE_SIZE / 1024)));
}

static int show_meminfo(struct seq_file *m)
{
	kmalloc_quarantine_flush(); /* KASAN's quarantine is not memory in use */
	uint64_t total = nr_total_pages(), free = nr_free_pages();
	uint64_t shmem = ramfs_nr_pages;
	struct user_page_stats u;

	/* Every file lives in memory, as tmpfs's do in Linux: its pages are
	 * Shmem, on the anonymous LRU lists, with the processes' own pages.
	 * Those processes use are the active ones (mm/vmstat.c). */
	count_user_pages(&u);
	uint64_t lru_anon = shmem + u.anon, active_anon = MIN(u.active, lru_anon);

	show_val_kb(m, "MemTotal:", total);
	show_val_kb(m, "MemFree:", free);
	show_val_kb(m, "MemAvailable:", free);
	show_val_kb(m, "Buffers:", 0);
	show_val_kb(m, "Cached:", shmem);
	show_val_kb(m, "SwapCached:", 0);
	show_val_kb(m, "Active:", active_anon);
	show_val_kb(m, "Inactive:", lru_anon - active_anon);
	show_val_kb(m, "Active(anon):", active_anon);
	show_val_kb(m, "Inactive(anon):", lru_anon - active_anon);
	show_val_kb(m, "Active(file):", 0);
	show_val_kb(m, "Inactive(file):", 0);
	show_val_kb(m, "Unevictable:", 0);
	show_val_kb(m, "Mlocked:", 0);
	show_val_kb(m, "SwapTotal:", 0);
	show_val_kb(m, "SwapFree:", 0);
	show_val_kb(m, "Zswap:", 0);
	show_val_kb(m, "Zswapped:", 0);
	show_val_kb(m, "Dirty:", 0);
	show_val_kb(m, "Writeback:", 0);
	show_val_kb(m, "AnonPages:", u.anon);
	show_val_kb(m, "Mapped:", u.file_mapped);
	show_val_kb(m, "Shmem:", shmem);
	show_val_kb(m, "KReclaimable:", 0);
	show_val_kb(m, "Slab:", nr_slab_pages);
	show_val_kb(m, "SReclaimable:", 0);
	show_val_kb(m, "SUnreclaim:", nr_slab_pages);
	seq_printf(m, "%-16s%8lu kB\n", "KernelStack:", (unsigned long)nr_tasks * (KSTACK_SIZE / 1024));
	show_val_kb(m, "PageTables:", nr_pgtable_pages);
	show_val_kb(m, "SecPageTables:", 0);
	show_val_kb(m, "NFS_Unstable:", 0);
	show_val_kb(m, "Bounce:", 0);
	show_val_kb(m, "WritebackTmp:", 0);
	show_val_kb(m, "CommitLimit:", total / 2);
	show_val_kb(m, "Committed_AS:", total - free);
	seq_printf(m, "%-16s%8lu kB\n", "VmallocTotal:", 34359738367UL);
	show_val_kb(m, "VmallocUsed:", vmalloc_nr_pages()); /* modules (mm/vmalloc.c) */
	show_val_kb(m, "VmallocChunk:", 0);
	show_val_kb(m, "Percpu:", 0);
	seq_printf(m, "HardwareCorrupted: %5d kB\n", 0);
	show_val_kb(m, "AnonHugePages:", 0);
	show_val_kb(m, "ShmemHugePages:", 0);
	show_val_kb(m, "ShmemPmdMapped:", 0);
	show_val_kb(m, "FileHugePages:", 0);
	show_val_kb(m, "FilePmdMapped:", 0);
	seq_printf(m, "HugePages_Total:   %5d\nHugePages_Free:    %5d\nHugePages_Rsvd:    %5d\n"
		   "HugePages_Surp:    %5d\n", 0, 0, 0, 0);
	seq_printf(m, "%-16s%8d kB\n", "Hugepagesize:", 2048);
	show_val_kb(m, "Hugetlb:", 0);
	/* All of RAM is in the direct map, in 2 MiB pages. */
	seq_printf(m, "%-16s%8d kB\n", "DirectMap4k:", 0);
	seq_printf(m, "%-16s%8lu kB\n", "DirectMap2M:", (unsigned long)ALIGN_UP(total * 4, 2048));
	seq_printf(m, "%-16s%8d kB\n", "DirectMap1G:", 0);
	return 0;
}

/* ---- uptime, loadavg ---------------------------------------------------------------- */

static int show_uptime(struct seq_file *m)
{
	uint64_t up_cs, idle_cs, sum[NR_STATS];

	/* The boot-time clock as the reader's time namespace sees it. */
	up_cs = (uint64_t)timens_add(CLOCK_BOOTTIME, ktime_get_ns()) / 10000000;
	/* The ticks that found a CPU idle (kernel/sched/cputime.c), summed
	 * over the CPUs as Linux does: it only grows. */
	kcpustat_sum(sum);
	idle_cs = sum[CPUTIME_IDLE] / 10000000;
	seq_printf(m, "%lu.%02lu %lu.%02lu\n", (unsigned long)(up_cs / 100), (unsigned long)(up_cs % 100),
		   (unsigned long)(idle_cs / 100), (unsigned long)(idle_cs % 100));
	return 0;
}

/* The load average over 1, 5 and 15 minutes (kernel/sched/loadavg.c),
 * the runnable and all tasks, the last pid given out. */
static int show_loadavg(struct seq_file *m)
{
	int running = 0, total = 0;
	/* As Linux: the reader's namespace's last pid (ns_last_pid). */
	pid_t last = task_active_pid_ns(current)->last_pid;

	for (struct task *t = first_task(); t; t = t->next_task) {
		if (t->pid <= 0)
			continue;
		total++;
		if (t->state == TASK_RUNNABLE)
			running++;
	}
	seq_printf(m, "%lu.%02lu %lu.%02lu %lu.%02lu %d/%d %d\n", LOAD_INT(avenrun[0]),
		   LOAD_FRAC(avenrun[0]), LOAD_INT(avenrun[1]), LOAD_FRAC(avenrun[1]),
		   LOAD_INT(avenrun[2]), LOAD_FRAC(avenrun[2]), running, total, last);
	return 0;
}

/* ---- cpuinfo ----------------------------------------------------------------------------- */

static void cpuid(uint32_t leaf, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}

/* Linux's names of the cpuid leaf 1 feature bits (edx, then ecx). */
static const char *const edx_flags[32] = {
	"fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce", "cx8", "apic", NULL, "sep",
	"mtrr", "pge", "mca", "cmov", "pat", "pse36", "pn", "clflush", NULL, "dts", "acpi",
	"mmx", "fxsr", "sse", "sse2", "ss", "ht", "tm", "ia64", "pbe",
};
static const char *const ecx_flags[32] = {
	"pni", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est", "tm2", "ssse3",
	"cid", "sdbg", "fma", "cx16", "xtpr", "pdcm", NULL, "pcid", "dca", "sse4_1", "sse4_2",
	"x2apic", "movbe", "popcnt", "tsc_deadline_timer", "aes", "xsave", NULL, "avx", "f16c",
	"rdrand", "hypervisor",
};

/* CPU n of the machine; every CPU is alike, so this one's cpuid tells. */
static void show_cpuinfo_one(struct seq_file *m, int n)
{
	uint32_t a, b, c, d, max, family, model;
	char vendor[13], brand[49];

	cpuid(0, &max, &b, &c, &d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	cpuid(1, &a, &b, &c, &d);
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 6)
		model += ((a >> 16) & 0xf) << 4;
	strlcpy(brand, "unknown", sizeof(brand));
	{
		uint32_t ext, r[12];
		cpuid(0x80000000, &ext, &r[0], &r[1], &r[2]);
		if (ext >= 0x80000004) {
			for (int i = 0; i < 3; i++)
				cpuid(0x80000002 + i, &r[4 * i], &r[4 * i + 1], &r[4 * i + 2], &r[4 * i + 3]);
			memcpy(brand, r, 48);
			brand[48] = '\0';
		}
	}
	seq_printf(m, "processor\t: %d\nvendor_id\t: %s\ncpu family\t: %u\nmodel\t\t: %u\n"
		   "model name\t: %s\nstepping\t: %u\n", n, vendor, family, model, brand, a & 0xf);
	seq_printf(m, "physical id\t: 0\nsiblings\t: %d\ncore id\t\t: %d\ncpu cores\t: %d\n"
		   "apicid\t\t: %u\ninitial apicid\t: %u\nfpu\t\t: yes\nfpu_exception\t: yes\n"
		   "cpuid level\t: %u\nwp\t\t: yes\nflags\t\t:", nr_cpu_ids, n, nr_cpu_ids,
		   cpus[n].apic_id, cpus[n].apic_id, max);
	for (int i = 0; i < 32; i++)
		if ((d & (1u << i)) && edx_flags[i])
			seq_printf(m, " %s", edx_flags[i]);
	seq_puts(m, " syscall nx lm");
	for (int i = 0; i < 32; i++)
		if ((c & (1u << i)) && ecx_flags[i])
			seq_printf(m, " %s", ecx_flags[i]);
	seq_printf(m, "\nclflush size\t: %u\ncache_alignment\t: %u\n"
		   "address sizes\t: 40 bits physical, 48 bits virtual\npower management:\n\n",
		   ((b >> 8) & 0xff) * 8, ((b >> 8) & 0xff) * 8);
}

static int show_cpuinfo(struct seq_file *m)
{
	for_each_online_cpu(n)
		show_cpuinfo_one(m, n);
	return 0;
}

/* ---- small files ---------------------------------------------------------------------------- */

static int show_filesystems(struct seq_file *m)
{
	seq_puts(m, "nodev\ttmpfs\nnodev\tproc\nnodev\tpipefs\nnodev\tramfs\n");
	show_registered_filesystems(m);
	return 0;
}

static int show_ostype(struct seq_file *m)
{
	seq_puts(m, "Linux\n");
	return 0;
}

static int show_pid_max(struct seq_file *m)
{
	seq_puts(m, "32768\n");
	return 0;
}

static int show_threads_max(struct seq_file *m)
{
	seq_printf(m, "%d\n", max_tasks);
	return 0;
}

static int show_ngroups_max(struct seq_file *m)
{
	seq_puts(m, "65536\n");
	return 0;
}

static int show_pipe_max_size(struct seq_file *m)
{
	seq_puts(m, "1048576\n");
	return 0;
}

/* fs.protected_symlinks and fs.protected_hardlinks: on, as Debian's
 * kernel has them (fs/namei.c enforces both); protected_fifos and
 * protected_regular: off, as there. */
static int show_one(struct seq_file *m)
{
	seq_puts(m, "1\n");
	return 0;
}

static int show_zero(struct seq_file *m)
{
	seq_puts(m, "0\n");
	return 0;
}

static int show_mmap_min_addr(struct seq_file *m)
{
	seq_printf(m, "%lu\n", MMAP_MIN_ADDR);
	return 0;
}

/* ---- sysrq-trigger --------------------------------------------------------------------------- */

/* Not a constant: the compiler must emit the write, not a trap instruction. */
static int *volatile sysrq_null_pointer;

/* Not reported by UBSAN (make SANITIZE=ubsan) either: the crash is the point. */
static void __attribute__((no_sanitize_undefined)) sysrq_crash(void)
{
	*sysrq_null_pointer = 1;
}

static int write_sysrq(const char *buf, size_t count)
{
	if (!count)
		return 0;
	switch (buf[0]) {
	case 'c':
		printk(KERN_EMERG "sysrq: Trigger a crash\n");
		sysrq_crash();
		return 0;
	case 'o':
		printk(KERN_EMERG "sysrq: Power Off\n");
		machine_power_off();
	case 'b':
		printk(KERN_EMERG "sysrq: Resetting\n");
		machine_restart();
	case 'l':
		printk(KERN_INFO "sysrq: Show backtrace of all active CPUs\n");
		trigger_all_cpu_backtrace();
		return 0;
	default:
		printk(KERN_EMERG "sysrq: HELP : reboot(b) crash(c) show-backtrace-all-active-cpus(l) "
				  "poweroff(o)\n");
		return 0;
	}
}

void proc_misc_init(void)
{
	proc_create("meminfo", 0444, show_meminfo, NULL);
	proc_create("uptime", 0444, show_uptime, NULL);
	proc_create("loadavg", 0444, show_loadavg, NULL);
	proc_create("cpuinfo", 0444, show_cpuinfo, NULL);
	proc_create("filesystems", 0444, show_filesystems, NULL);
	proc_symlink("mounts", "self/mounts");
	proc_symlink("net", "self/net");
	proc_create("sysrq-trigger", 0200, NULL, write_sysrq);
	proc_create("sys/kernel/ostype", 0444, show_ostype, NULL);
	proc_create("sys/kernel/pid_max", 0444, show_pid_max, NULL);
	proc_create("sys/kernel/threads-max", 0444, show_threads_max, NULL);
	proc_create("sys/kernel/ngroups_max", 0444, show_ngroups_max, NULL);
	proc_create("sys/fs/pipe-max-size", 0444, show_pipe_max_size, NULL);
	proc_create("sys/fs/protected_fifos", 0644, show_zero, NULL);
	proc_create("sys/fs/protected_hardlinks", 0644, show_one, NULL);
	proc_create("sys/fs/protected_regular", 0644, show_zero, NULL);
	proc_create("sys/fs/protected_symlinks", 0644, show_one, NULL);
	proc_mkdir("sys/fs/binfmt_misc");
	proc_create("sys/vm/mmap_min_addr", 0444, show_mmap_min_addr, NULL);
}
