/*
 * sys.c - small system calls about the process and the machine: pids,
 * sysinfo, reboot, getrandom, arch_prctl, set_tid_address, rlimits,
 * times and getrusage, prctl, process groups and sessions.
 */
#include <cred.h>
#include <cpu.h>
#include <errno.h>
#include <fs.h>
#include <kasan.h>
#include <kernel.h>
#include <linux/pid_namespace.h>
#include <mm.h>
#include <power.h>
#include <random.h>
#include <sched.h>
#include <security.h>
#include <smp.h>
#include <string.h>
#include <timekeeping.h>
#include <uaccess.h>
#include <vm.h>
#include <x86.h>

/* The process id is the thread group's; each thread has its own id. All
 * as numbered in the caller's pid namespace: a parent outside it is 0. */
long sys_getpid(void) { return task_tgid_vnr(current); }
long sys_gettid(void) { return task_pid_vnr(current); }
long sys_getppid(void) { return task_ppid_nr_ns(current, task_active_pid_ns(current)); }
long sys_getpgrp(void) { return pid_global_to_vnr(current->pgid); }

/* getcpu(2): the CPU the caller runs on (it may have moved by the time it
 * looks), and its memory node: there is one. */
long sys_getcpu(unsigned __user *cpu, unsigned __user *node, void __user *unused)
{
	(void)unused;
	if (cpu && put_user_u32(smp_processor_id(), cpu))
		return -EFAULT;
	if (node && put_user_u32(0, node))
		return -EFAULT;
	return 0;
}

/* LAB 01: BEGIN sched_getaffinity */
/*
 * sched_getaffinity(2): the CPUs a thread may run on, as a bit mask of
 * unsigned longs: those of its mask (sched_setaffinity) that are online.
 * This kernel has at most 64 CPUs, so the mask's size (Linux's
 * cpumask_size) is one unsigned long. The call returns how many bytes it
 * wrote; len must hold every CPU and be a multiple of the word.
 */
#define CPUMASK_SIZE sizeof(unsigned long)

long sys_sched_getaffinity(pid_t pid, unsigned int len, unsigned long __user *user_mask_ptr)
{
	struct task *t = pid ? (pid > 0 ? find_task(pid) : NULL) : current;
	unsigned int retlen = MIN(len, CPUMASK_SIZE);
	unsigned long mask;

	if (len * 8 < (unsigned int)nr_cpu_ids || (len & (sizeof(unsigned long) - 1)))
		return -EINVAL;
	if (!t)
		return -ESRCH;
	mask = t->cpus_allowed & cpu_online_mask();
	if (copy_to_user(user_mask_ptr, &mask, retlen))
		return -EFAULT;
	return retlen;
}
/* LAB 01: END */

long sys_sched_yield(void)
{
	schedule();
	return 0;
}

/* Process group and session belong to the process: every thread gets them. */
static void set_pgid_sid(struct task *p, pid_t pgid, pid_t sid)
{
	for_each_thread(p, t)
		set_pgrp_session(t, pgid, sid);
}

long sys_getpgid(pid_t pid)
{
	struct task *t = pid ? find_task(pid) : current;
	return t ? pid_global_to_vnr(t->pgid) : -ESRCH;
}

long sys_getsid(pid_t pid)
{
	struct task *t = pid ? find_task(pid) : current;
	return t ? pid_global_to_vnr(t->sid) : -ESRCH;
}

long sys_setpgid(pid_t pid, pid_t pgid)
{
	struct task *t = pid ? find_task(pid) : current;

	if (pgid < 0)
		return -EINVAL;
	if (!t || (!same_thread_group(t, current) &&
		   !(thread_group_leader(t) && t->parent && same_thread_group(t->parent, current))))
		return -ESRCH;
	if (t->tgid == t->sid)
		return -EPERM; /* a session leader cannot move */
	if (pgid && !(pgid = pid_vnr_to_global(pgid)))
		return -EPERM; /* no such group in the caller's namespace */
	set_pgid_sid(t, pgid ? pgid : t->tgid, t->sid);
	return 0;
}

long sys_setsid(void)
{
	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->pgid == current->tgid && t->state != TASK_DEAD)
			return -EPERM;
	set_pgid_sid(current, current->tgid, current->tgid);
	return task_tgid_vnr(current);
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
	kmalloc_quarantine_flush(); /* KASAN's quarantine is not memory in use */
	ktime_get_monotonic(&ts);
	si.uptime = ts.tv_sec;
	si.totalram = nr_total_pages() * PAGE_SIZE;
	si.freeram = nr_free_pages() * PAGE_SIZE;
	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->state != TASK_DEAD)
			si.procs++; /* Linux counts threads */
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
	if (!capable(CAP_SYS_BOOT))
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

static uint64_t xorshift64(uint64_t x)
{
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	return x;
}

/* Any CPU, with or without the big kernel lock (exec draws its addresses
 * without it): the state moves on by one compare-and-swap, so that two
 * CPUs never draw the same number. */
uint64_t get_random_u64(void)
{
	uint64_t old = __atomic_load_n(&rng_state, __ATOMIC_RELAXED), new;

	do
		new = xorshift64(old ? old : rdtsc() | 1);
	while (!__atomic_compare_exchange_n(&rng_state, &old, new, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED));
	return new * 0x2545f4914f6cdd1dUL;
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
		/* The selector becomes 0, as on Linux: the base is the one set. */
		load_fs_index(0);
		current->fsindex = 0;
		current->fs_base = addr;
		wrmsr(MSR_FS_BASE, addr);
		return 0;
	case ARCH_SET_GS:
		if (addr >= TASK_SIZE)
			return -EPERM;
		load_gs_index(0);
		current->gsindex = 0;
		current->gs_base = addr;
		wrmsr(MSR_KERNEL_GS_BASE, addr); /* the active one is the kernel's */
		return 0;
	case ARCH_GET_FS:
		save_fsgs(current);
		return put_user_u64(current->fs_base, (void __user *)addr);
	case ARCH_GET_GS:
		save_fsgs(current);
		return put_user_u64(current->gs_base, (void __user *)addr);
	}
	return -EINVAL;
}

long sys_set_tid_address(int __user *tidptr)
{
	current->clear_child_tid = (uint64_t)tidptr;
	return task_pid_vnr(current);
}

/* ---- resource limits and usage ---- */

static long do_prlimit(struct task *t, unsigned resource, const struct rlimit *new, struct rlimit *old)
{
	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (old)
		*old = t->rlim[resource];
	if (new && (!t->signal || t->state == TASK_ZOMBIE))
		return -ESRCH;
	if (new) {
		if (new->cur > new->max)
			return -EINVAL;
		/* Raising the hard limit needs privilege (CAP_SYS_RESOURCE). */
		if (new->max > t->rlim[resource].max && !capable(CAP_SYS_RESOURCE))
			return -EPERM;
		if (resource == RLIMIT_NOFILE && new->max > NR_OPEN)
			return -EPERM; /* above fs.nr_open */
		for_each_thread(t, th) /* a limit of the process */
			th->rlim[resource] = *new;
	}
	return 0;
}

long sys_getrlimit(unsigned resource, struct rlimit __user *rl)
{
	struct rlimit old;
	long err = do_prlimit(current, resource, NULL, &old);
	return err ? err : copy_to_user(rl, &old, sizeof(old));
}

long sys_setrlimit(unsigned resource, const struct rlimit __user *rl)
{
	struct rlimit new;

	if (copy_from_user(&new, rl, sizeof(new)))
		return -EFAULT;
	return do_prlimit(current, resource, &new, NULL);
}

/*
 * Another process's limits may be read or set only by the same user in
 * all its ids (real, effective, saved; uid and gid), or with
 * CAP_SYS_RESOURCE (Linux's check_prlimit_permission).
 */
static int check_prlimit_permission(struct task *t)
{
	const struct cred *cred = current_cred(), *tcred = task_cred(t);

	if (t == current)
		return 0;
	if (cred->uid == tcred->uid && cred->uid == tcred->euid && cred->uid == tcred->suid &&
	    cred->gid == tcred->gid && cred->gid == tcred->egid && cred->gid == tcred->sgid)
		return 0;
	return capable(CAP_SYS_RESOURCE) ? 0 : -EPERM;
}

long sys_prlimit64(pid_t pid, unsigned resource, const struct rlimit __user *new_rl,
		   struct rlimit __user *old_rl)
{
	struct rlimit new, old;
	struct task *t = pid ? find_task(pid) : current;
	long err;

	if (!t || t->state == TASK_ZOMBIE)
		return -ESRCH;
	err = check_prlimit_permission(t);
	if (err)
		return err;
	if (new_rl && copy_from_user(&new, new_rl, sizeof(new)))
		return -EFAULT;
	err = do_prlimit(t, resource, new_rl ? &new : NULL, &old);
	if (err)
		return err;
	return old_rl ? copy_to_user(old_rl, &old, sizeof(old)) : 0;
}

struct tms {
	int64_t tms_utime, tms_stime, tms_cutime, tms_cstime;
};

/* Clock ticks (USER_HZ = HZ = 100) since boot. */
long sys_times(struct tms __user *buf)
{
	uint64_t ut = current->signal->utime, st = current->signal->stime;
	for_each_thread(current, th) {
		if (th->state != TASK_ZOMBIE)
			ut += th->utime, st += th->stime;
	}
	struct tms t = { ut, st, current->signal->cutime, current->signal->cstime };

	if (buf && copy_to_user(buf, &t, sizeof(t)))
		return -EFAULT;
	return jiffies;
}

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD 1

long sys_getrusage(int who, void __user *ru)
{
	int64_t r[18] = { 0 }; /* two timevals, then 14 counters */
	uint64_t ut, st, flt;

	switch (who) {
	case RUSAGE_SELF:
		ut = current->signal->utime, st = current->signal->stime;
		flt = current->signal->min_flt;
		for_each_thread(current, th) {
			if (th->state != TASK_ZOMBIE)
				ut += th->utime, st += th->stime, flt += th->min_flt;
		}
		break;
	case RUSAGE_THREAD:
		ut = current->utime, st = current->stime, flt = current->min_flt;
		break;
	case RUSAGE_CHILDREN:
		ut = current->signal->cutime, st = current->signal->cstime;
		flt = current->signal->cmin_flt;
		break;
	default:
		return -EINVAL;
	}
	r[0] = ut / HZ, r[1] = ut % HZ * (1000000 / HZ);
	r[2] = st / HZ, r[3] = st % HZ * (1000000 / HZ);
	r[8] = flt; /* ru_minflt, after maxrss, ixrss, idrss, isrss */
	return copy_to_user(ru, r, sizeof(r));
}

#define PR_SET_PDEATHSIG 1
#define PR_GET_PDEATHSIG 2
#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_SET_NAME 15
#define PR_GET_NAME 16
#define PR_SET_NO_NEW_PRIVS 38
#define PR_GET_NO_NEW_PRIVS 39

/* The basic options; the rest are not supported (EINVAL, as Linux for an
 * unknown option). */
long sys_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5)
{
	char name[TASK_COMM_LEN];
	long ret;

	/* The capability options first, as Linux asks its security modules. */
	ret = cap_task_prctl(option, arg2, arg3, arg4, arg5);
	if (ret != -ENOSYS)
		return ret;
	switch (option) {
	case PR_SET_PDEATHSIG:
		if (arg2 > NSIG)
			return -EINVAL;
		current->pdeath_signal = arg2;
		return 0;
	case PR_GET_PDEATHSIG:
		return put_user_u32(current->pdeath_signal, (void __user *)arg2);
	case PR_GET_DUMPABLE:
		return current->mm ? current->mm->dumpable : SUID_DUMP_DISABLE;
	case PR_SET_DUMPABLE:
		if (arg2 != SUID_DUMP_DISABLE && arg2 != SUID_DUMP_USER)
			return -EINVAL;
		if (current->mm)
			current->mm->dumpable = arg2;
		return 0;
	case PR_SET_NAME: {
		long n = strncpy_from_user(name, (const char __user *)arg2, sizeof(name));
		if (n == -EFAULT)
			return -EFAULT;
		name[sizeof(name) - 1] = '\0';
		memcpy(current->comm, name, sizeof(name));
		return 0;
	}
	case PR_GET_NAME:
		return copy_to_user((void __user *)arg2, current->comm, sizeof(current->comm));
	case PR_SET_NO_NEW_PRIVS:
		if (arg2 != 1 || arg3 || arg4 || arg5)
			return -EINVAL;
		current->no_new_privs = true;
		return 0;
	case PR_GET_NO_NEW_PRIVS:
		return current->no_new_privs;
	}
	return -EINVAL;
}

/* The robust futex list (kernel/futex.c walks it when the thread ends):
 * its head is struct robust_list_head, 24 bytes on x86-64. */
long sys_set_robust_list(void __user *head, size_t len)
{
	if (len != 24)
		return -EINVAL;
	current->robust_list = (uint64_t)head;
	return 0;
}

long sys_get_robust_list(pid_t pid, uint64_t __user *head_ptr, uint64_t __user *len_ptr)
{
	struct task *t = pid ? find_task(pid) : current;

	if (!t)
		return -ESRCH;
	/* Linux asks for ptrace access: ours, or another we may look into. */
	if (!ptrace_may_access(t, PTRACE_MODE_READ_REALCREDS))
		return -EPERM;
	if (put_user_u64(24, len_ptr))
		return -EFAULT;
	return put_user_u64(t->robust_list, head_ptr);
}
