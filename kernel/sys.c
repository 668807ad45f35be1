/*
 * sys.c - small system calls about the process and the machine: ids,
 * uname, sysinfo, reboot, getrandom, arch_prctl, set_tid_address,
 * process groups and sessions.
 */
#include <errno.h>
#include <kernel.h>
#include <mm.h>
#include <power.h>
#include <random.h>
#include <sched.h>
#include <string.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

long sys_getpid(void) { return current->pid; }
long sys_getppid(void) { return current->parent ? current->parent->pid : 0; }
long sys_getuid(void) { return current->uid; }
long sys_geteuid(void) { return current->euid; }
long sys_getgid(void) { return current->gid; }
long sys_getegid(void) { return current->egid; }
long sys_getpgrp(void) { return current->pgid; }

long sys_sched_yield(void)
{
	schedule();
	return 0;
}

long sys_getpgid(pid_t pid)
{
	struct task *t = pid ? find_task(pid) : current;
	return t ? t->pgid : -ESRCH;
}

long sys_getsid(pid_t pid)
{
	struct task *t = pid ? find_task(pid) : current;
	return t ? t->sid : -ESRCH;
}

long sys_setpgid(pid_t pid, pid_t pgid)
{
	struct task *t = pid ? find_task(pid) : current;

	if (pgid < 0)
		return -EINVAL;
	if (!t || (t != current && t->parent != current))
		return -ESRCH;
	if (t->pid == t->sid)
		return -EPERM; /* a session leader cannot move */
	t->pgid = pgid ? pgid : t->pid;
	return 0;
}

long sys_setsid(void)
{
	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->pgid == current->pid)
			return -EPERM;
	current->sid = current->pgid = current->pid;
	return current->sid;
}

struct new_utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

long sys_uname(struct new_utsname __user *buf)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, "Linux", sizeof(u.sysname));
	strlcpy(u.nodename, "(none)", sizeof(u.nodename));
	strlcpy(u.release, "6.1.0-execve", sizeof(u.release));
	strlcpy(u.version, "#1 teaching kernel", sizeof(u.version));
	strlcpy(u.machine, "x86_64", sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(buf, &u, sizeof(u));
}

struct sysinfo {
	int64_t uptime;
	uint64_t loads[3];
	uint64_t totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	uint64_t totalhigh, freehigh;
	uint32_t mem_unit;
	char _f[4];
};

long sys_sysinfo(struct sysinfo __user *info)
{
	struct sysinfo si;
	struct timespec ts;

	memset(&si, 0, sizeof(si));
	ktime_get_monotonic(&ts);
	si.uptime = ts.tv_sec;
	si.totalram = nr_total_pages() * PAGE_SIZE;
	si.freeram = nr_free_pages() * PAGE_SIZE;
	for (struct task *t = first_task(); t; t = t->next_task)
		si.procs++;
	si.mem_unit = 1;
	return copy_to_user(info, &si, sizeof(si));
}

#define LINUX_REBOOT_MAGIC1 0xfee1dead
#define LINUX_REBOOT_MAGIC2 672274793
#define LINUX_REBOOT_MAGIC2A 85072278
#define LINUX_REBOOT_MAGIC2B 369367448
#define LINUX_REBOOT_MAGIC2C 537993216
#define LINUX_REBOOT_CMD_RESTART 0x01234567
#define LINUX_REBOOT_CMD_HALT 0xcdef0123
#define LINUX_REBOOT_CMD_CAD_ON 0x89abcdef
#define LINUX_REBOOT_CMD_CAD_OFF 0x00000000
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedc

long sys_reboot(unsigned magic1, unsigned magic2, unsigned cmd)
{
	if (current->euid != 0)
		return -EPERM;
	if (magic1 != LINUX_REBOOT_MAGIC1 ||
	    (magic2 != LINUX_REBOOT_MAGIC2 && magic2 != LINUX_REBOOT_MAGIC2A &&
	     magic2 != LINUX_REBOOT_MAGIC2B && magic2 != LINUX_REBOOT_MAGIC2C))
		return -EINVAL;
	switch (cmd) {
	case LINUX_REBOOT_CMD_POWER_OFF:
		printk(KERN_EMERG "reboot: Power down\n");
		machine_power_off();
	case LINUX_REBOOT_CMD_RESTART:
		printk(KERN_EMERG "reboot: Restarting system\n");
		machine_restart();
	case LINUX_REBOOT_CMD_HALT:
		printk(KERN_EMERG "reboot: System halted\n");
		for (;;)
			__asm__ volatile("cli; hlt");
	case LINUX_REBOOT_CMD_CAD_ON:
	case LINUX_REBOOT_CMD_CAD_OFF:
		return 0;
	}
	return -EINVAL;
}

/* getrandom: xorshift64* seeded from the TSC. Not cryptographic: enough for
 * musl's and glibc's start-up and for AT_RANDOM. */
static uint64_t rng_state;

uint64_t get_random_u64(void)
{
	if (!rng_state)
		rng_state = rdtsc() | 1;
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dUL;
}

#define GRND_NONBLOCK 1
#define GRND_RANDOM 2
#define GRND_INSECURE 4

long sys_getrandom(char __user *buf, size_t len, unsigned flags)
{
	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & GRND_INSECURE) && (flags & GRND_RANDOM))
		return -EINVAL;
	if (len > 0x1ffffff)
		len = 0x1ffffff;
	for (size_t done = 0; done < len;) {
		uint64_t r = get_random_u64();
		size_t n = MIN(len - done, sizeof(r));
		if (copy_to_user(buf + done, &r, n))
			return -EFAULT;
		done += n;
	}
	return len;
}

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004

long sys_arch_prctl(int code, unsigned long addr)
{
	switch (code) {
	case ARCH_SET_FS:
		if (addr >= TASK_SIZE)
			return -EPERM;
		current->fs_base = addr;
		wrmsr(MSR_FS_BASE, addr);
		return 0;
	case ARCH_SET_GS:
		if (addr >= TASK_SIZE)
			return -EPERM;
		current->gs_base = addr;
		wrmsr(MSR_GS_BASE, addr);
		return 0;
	case ARCH_GET_FS:
		return put_user_u64(current->fs_base, (void __user *)addr);
	case ARCH_GET_GS:
		return put_user_u64(current->gs_base, (void __user *)addr);
	}
	return -EINVAL;
}

long sys_set_tid_address(int __user *tidptr)
{
	current->clear_child_tid = (uint64_t)tidptr;
	return current->pid;
}
