/* Host stubs: the kernel services fs/ needs, on top of libc. */
#include <kernel.h>
#include <boot.h>
#include <cred.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <serial.h>
#include <uaccess.h>
#include <timekeeping.h>
#include <string.h>
#include <syscalls.h>
#include <fs.h>
#include <kernel_stat.h>
#include <vm.h>

extern void *malloc(size_t); extern void free(void *); extern void *calloc(size_t, size_t);
extern void *aligned_alloc(size_t, size_t);
extern int vprintf(const char *, va_list); extern int printf(const char *, ...);
extern void abort(void) __attribute__((noreturn)); extern void exit(int);
extern int clock_gettime(int, struct timespec *);
extern long write(int, const void *, size_t);

long nr_allocs, nr_pages;
size_t nr_slab_pages, nr_pgtable_pages;
void *kmalloc(size_t n) { void *p = malloc(n ? n : 1); if (p) nr_allocs++; return p; }
void *kzalloc(size_t n) { void *p = calloc(1, n ? n : 1); if (p) nr_allocs++; return p; }
void kfree(void *p) { if (p) { nr_allocs--; free(p); } }
void *alloc_page(void) { void *p = aligned_alloc(4096, 4096); memset(p, 0, 4096); nr_pages++; return p; }
void free_page(void *p) { nr_pages--; free(p); }
/* Modules (fs/super.c's filesystem types): the host test has none. */
struct module;
bool try_module_get(struct module *m) { (void)m; return true; }
void module_put(struct module *m) { (void)m; }
int request_module(const char *fmt, ...) { (void)fmt; return -ENOENT; }
/* (fs/kernel_read_file.c's buffers) */
void *vmalloc(size_t n) { return kzalloc(n); }
void vfree(const void *p) { kfree((void *)p); }
size_t vmalloc_nr_pages(void) { return 0; }
const char *ksym_lookup(uint64_t addr, uint64_t *off) { (void)addr; (void)off; return NULL; } /* no symbols: wchan says 0 */
/* ramfs drops its pages with put_page, since mmap may share them (mm/fault.c);
 * nothing here maps one, so a page has one owner and get_page is never called. */
void put_page(void *p) { free_page(p); }
void get_page(void *p) { (void)p; abort(); }
size_t strlcpy(char *d, const char *s, size_t n) { size_t l = strlen(s); if (n) { size_t c = l < n - 1 ? l : n - 1; memcpy(d, s, c); d[c] = 0; } return l; }
char *strdup_k(const char *s) { size_t n = strlen(s) + 1; char *p = kmalloc(n); if (p) memcpy(p, s, n); return p; }

static bool bad(const void *p, size_t n) { (void)n; return (uintptr_t)p < 0x10000; }
int copy_from_user(void *d, const void *s, size_t n) { if (n && bad(s, n)) return -EFAULT; memcpy(d, s, n); return 0; }
int copy_to_user(void *d, const void *s, size_t n) { if (n && bad(d, n)) return -EFAULT; memcpy(d, s, n); return 0; }
int clear_user(void *d, size_t n) { if (n && bad(d, n)) return -EFAULT; memset(d, 0, n); return 0; }
long strncpy_from_user(char *d, const char *s, long n) {
	if (bad(s, 1)) return -EFAULT;
	for (long i = 0; i < n; i++) { d[i] = s[i]; if (!s[i]) return i; }
	return -ENAMETOOLONG;
}

void printk(const char *fmt, ...) { va_list ap; va_start(ap, fmt); if (fmt[0] == 1) fmt += 2; printf("[k] "); vprintf(fmt, ap); va_end(ap); }
void printk_emit(int facility, int level, const char *text) { printf("[k %d,%d] %s", facility, level, text); }
void panic(const char *fmt, ...) { va_list ap; va_start(ap, fmt); printf("PANIC: "); vprintf(fmt, ap); va_end(ap); abort(); }
void ktime_get_real(struct timespec *ts) { clock_gettime(0, ts); }

static struct task task;
struct task *current;
static void (*rx)(uint8_t);
void serial_set_rx_handler(void (*fn)(uint8_t)) { rx = fn; }
void serial_write(const char *b, size_t n) { write(1, "<", 1); write(1, b, n); write(1, ">", 1); }
int sleeps;
void sleep_on(void *chan) { (void)chan; if (++sleeps > 3) { printf("would block forever\n"); exit(1);} task.pending.signal = 1; }
void wakeup(void *chan) { (void)chan; }

volatile uint64_t jiffies;
bool signal_pending(struct task *t) { return (t->pending.signal & ~t->blocked) != 0; }
/* signalfd (no signals are sent here) and memfd's seals (mm/). */
int dequeue_signal(uint64_t allowed, struct ksiginfo *info) { (void)allowed, (void)info; return 0; }
long memfd_fcntl(struct file *file, unsigned int cmd, unsigned long arg)
{
	(void)file, (void)cmd, (void)arg;
	return -EINVAL;
}
int last_sig; /* silent: the transcript must match Linux's, where SIGPIPE is ignored */
void send_sig(int sig, struct task *t) { (void)t; last_sig = sig; }
int kill_pgrp(pid_t pgrp, int sig) { printf("[kill_pgrp %d %d]\n", pgrp, sig); return 0; }
struct task *first_task(void) { return current; }
struct task *find_task(pid_t pid) { return current && current->pid == pid ? current : NULL; }
struct inode; void unmap_mapping_range(struct inode *inode, uint64_t from) { (void)inode, (void)from; }
int mm_read(struct mm *mm, uint64_t va, void *dst, size_t len) { (void)mm, (void)va, (void)dst, (void)len; return -EFAULT; }
/* /proc/PID/mem (fs/proc/mem.c): no process memory here. */
int mm_write(struct mm *mm, uint64_t va, const void *src, size_t len) { (void)mm, (void)va, (void)src, (void)len; return -EFAULT; }
struct vma *vma_find(struct mm *mm, uint64_t addr) { (void)mm, (void)addr; return NULL; }
struct mm *mm_get(struct mm *mm) { return mm; }
void mm_put(struct mm *mm) { (void)mm; }
void mm_count(struct mm *mm, struct mm_counts *c) { (void)mm; memset(c, 0, sizeof(*c)); }
uint64_t mm_locked_pages(struct mm *mm, uint64_t start, uint64_t end) { (void)mm, (void)start, (void)end; return 0; }
/* One thread on the host: nothing to lock, and the big lock always held
 * (the log wakes its readers at once). */
void mmap_read_lock(struct mm *mm) { (void)mm; }
void mmap_read_unlock(struct mm *mm) { (void)mm; }
bool kernel_locked(void) { return true; }
bool release_kernel_lock(void) { return false; }
void cpu_relax_answering_calls(void) {}
void reacquire_kernel_lock(bool was_held) { (void)was_held; }
struct percpu host_cpu; /* this_cpu_read: never in an NMI (in_nmi) */
unsigned page_count(const void *page) { (void)page; return 1; }
void walk_page_range(struct mm *mm, uint64_t start, uint64_t end,
		     void (*fn)(uint64_t va, uint64_t pte, void *arg), void *arg)
{
	(void)mm, (void)start, (void)end, (void)fn, (void)arg; /* no pages: the host has no mm */
}
void count_user_pages(struct user_page_stats *s) { memset(s, 0, sizeof(*s)); }
struct kernel_stat kstat;
/* One CPU. */
struct percpu cpus[NR_CPUS] = { [0] = { .online = true } };
int nr_cpu_ids = 1;
struct kernel_cpustat kcpustat[NR_CPUS];
struct irq_cpustat irq_stat[NR_CPUS];
void kcpustat_sum(uint64_t sum[NR_STATS])
{
	for (int i = 0; i < NR_STATS; i++)
		sum[i] = kcpustat[0].cpustat[i];
}
struct boot_info boot_info;
unsigned long avenrun[3];
int nr_running(void) { return 1; }
const char *irq_chip_name(int irq, unsigned *pin) { *pin = irq; return "XT-PIC"; }
const char *irq_name(int irq) { (void)irq; return NULL; }
size_t nr_total_pages(void) { return 65536; }
size_t nr_free_pages(void) { return 32768; }
void ktime_get_monotonic(struct timespec *ts) { ts->tv_sec = 12; ts->tv_nsec = 340000000; }
uint64_t ktime_get_ns(void) { struct timespec ts; clock_gettime(1, &ts); return ts.tv_sec * 1000000000ULL + ts.tv_nsec; }
/* fs/timerfd.c: the wall clock's offset from the monotonic one. */
int64_t ktime_mono_to_real_offset(void) { struct timespec r, m; clock_gettime(0, &r); clock_gettime(1, &m); return (r.tv_sec - m.tv_sec) * 1000000000LL + r.tv_nsec - m.tv_nsec; }
int nr_tasks = 1, max_tasks = 1024;
void machine_power_off(void) { printf("power off\n"); exit(0); }
void machine_restart(void) { printf("restart\n"); exit(0); }
void trigger_all_cpu_backtrace(void) {}

void h_feed(const char *s) { while (*s) rx((uint8_t)*s++); }
/* One set of credentials, changed in place (the kernel's are copied and
 * committed: kernel/cred.c is not part of this test). Root has every
 * capability, anyone else none. */
static struct group_info h_groups = { .usage = 1 };
static struct cred h_cred = { .usage = 1, .group_info = &h_groups, .user_ns = &init_user_ns };
void h_setuid(int uid, int gid)
{
	h_cred.uid = h_cred.euid = h_cred.suid = h_cred.fsuid = uid;
	h_cred.gid = h_cred.egid = h_cred.sgid = h_cred.fsgid = gid;
	h_cred.cap_permitted = h_cred.cap_effective = uid == 0 ? CAP_FULL_SET : 0;
	h_cred.cap_bset = CAP_FULL_SET;
}
bool in_group_p(gid_t gid) { return gid == h_cred.fsgid; }
bool in_egroup_p(gid_t gid) { return gid == h_cred.egid; }
struct cred *prepare_creds(void) { struct cred *c = kmalloc(sizeof(*c)); *c = *task.cred; c->usage = 1; return c; }
const struct cred *override_creds(const struct cred *new) { const struct cred *old = task.cred; task.cred = get_cred(new); return old; }
void revert_creds(const struct cred *old) { const struct cred *o = task.cred; task.cred = old; put_cred(o); }
void __put_cred(struct cred *c) { if (c == &h_cred) abort(); kfree(c); }
void h_sigclear(void) { task.pending.signal = 0; sleeps = 0; }
long h_allocs(void) { return nr_allocs; }
long h_pages(void) { return nr_pages; }

void h_boot(const void *cpio, size_t len)
{
	vfs_init();
	if (cpio) unpack_initramfs(cpio, len);
	current = &task;
	task.real_cred = task.cred = &h_cred;
	h_setuid(0, 0);
	task.pid = task.tgid = task.pgid = task.sid = 1;
	task.group_leader = &task;
	task.rlim[RLIMIT_NOFILE].cur = 256;
	task.rlim[RLIMIT_FSIZE] = (struct rlimit){ RLIM_INFINITY, RLIM_INFINITY };
	task.files = files_alloc();
	task.fs = fs_alloc_root();
}

long ksys(long nr, long a, long b, long c, long d, long e, long f)
{
	switch (nr) {
#define CASE(n, name) case n: return ((syscall_fn)sys_##name)(a, b, c, d, e, f);
	SYSCALL_LIST(CASE)
	}
	return -ENOSYS;
}
/* Every syscall of the list, weakly: fs/'s own definitions override these;
 * the other subsystems' calls are never made here. */
#define STUB(nr, name) long sys_##name() __attribute__((weak)); long sys_##name() { return -ENOSYS; }
SYSCALL_LIST(STUB)
/* One task: it may always look into itself. */
bool ptrace_may_access(struct task *t, unsigned mode) { (void)mode; return t == current; }

/* kernel/utsname.c: /proc/PID/ns/uts's kind (fs/proc/namespaces.c). */
#include <nsproxy.h>
const struct proc_ns_operations utsns_operations = { .name = "uts", .type = CLONE_NEWUTS };
const struct proc_ns_operations ipcns_operations = { .name = "ipc", .type = CLONE_NEWIPC };
/* net/core/net_namespace.c: /proc/PID/ns/net and /proc/PID/net (fs/proc/). */
#include <net_namespace.h>
const struct proc_ns_operations netns_operations = { .name = "net", .type = CLONE_NEWNET };
struct net *get_task_net(struct task *t) { (void)t; return NULL; }
void put_net(struct net *net) { (void)net; }
/* kernel/time/namespace.c, timens_offsets.c: /proc's time namespace files
 * (fs/proc/); the host has only the initial namespace, without offsets. */
#include <time_namespace.h>
const struct proc_ns_operations timens_operations = { .name = "time", .type = CLONE_NEWTIME };
const struct proc_ns_operations timens_for_children_operations = { .name = "time_for_children",
								   .type = CLONE_NEWTIME };
int64_t timens_add(int clock, int64_t host_ns) { (void)clock; return host_ns; }
int64_t timens_to_host(int clock, int64_t ns) { (void)clock; return ns; }
int64_t timens_boottime_offset_sec(void) { return 0; }
int timens_show_offsets(struct seq_file *m, struct task *t) { (void)m, (void)t; return 0; }
long timens_write_offsets(struct task *t, const char *buf, size_t count)
{
	(void)t, (void)buf, (void)count;
	return -EPERM;
}
/* kernel/nsproxy.c: inode numbers of new mount namespaces (fs/namespace.c). */
static unsigned int next_inum = PROC_DYNAMIC_FIRST + 2;
unsigned int ns_alloc_inum(void) { return next_inum++; }
void ns_free_inum(unsigned int inum) { (void)inum; }
int ns_common_init(struct ns_common *ns, const struct proc_ns_operations *ops)
{
	ns->inum = ns_alloc_inum();
	ns->count = 1;
	ns->ops = ops;
	return 0;
}
/* kernel/pid.c, kernel/pid_namespace.c: one pid namespace, the task's
 * number is its pid (fs/proc's per-process files, proc mounts). */
#include <linux/pid_namespace.h>
const struct proc_ns_operations pidns_operations = { .name = "pid", .type = CLONE_NEWPID };
const struct proc_ns_operations pidns_for_children_operations = { .name = "pid_for_children", .type = CLONE_NEWPID };
struct pid_namespace init_pid_ns = { .ns = { .inum = PROC_PID_INIT_INO, .count = 1 }, .adding = true };
void put_pid_ns(struct pid_namespace *ns) { (void)ns; }
struct pid_namespace *task_active_pid_ns(const struct task *t) { (void)t; return &init_pid_ns; }
pid_t task_pid_nr_ns(const struct task *t, const struct pid_namespace *ns) { (void)ns; return t->pid; }
pid_t task_tgid_nr_ns(const struct task *t, const struct pid_namespace *ns) { (void)ns; return t->tgid; }
pid_t task_ppid_nr_ns(const struct task *t, const struct pid_namespace *ns)
{
	(void)ns;
	return t->parent ? t->parent->tgid : 0;
}
pid_t pid_global_to_ns(pid_t global, const struct pid_namespace *ns) { (void)ns; return global; }
struct task *find_task_by_pid_ns(pid_t nr, const struct pid_namespace *ns) { (void)ns; return find_task(nr); }
pid_t pid_global_to_vnr(pid_t global) { return global; }
pid_t pid_vnr_to_global(pid_t nr) { return nr; }
/* kernel/user_namespace.c, kernel/cgroup/namespace.c: one user
 * namespace, naming every id as itself; a capability is the effective
 * set's; no map is ever written. */
#include <linux/user_namespace.h>
const struct proc_ns_operations userns_operations = { .name = "user", .type = CLONE_NEWUSER };
const struct proc_ns_operations cgroupns_operations = { .name = "cgroup", .type = CLONE_NEWCGROUP };
struct user_namespace init_user_ns = { .ns = { .inum = PROC_USER_INIT_INO, .count = 1 } };
bool ns_capable(struct user_namespace *ns, int cap) { (void)ns; return cap_raised(current_cred()->cap_effective, cap); }
uid_t from_kuid_munged(struct user_namespace *ns, uid_t kuid) { (void)ns; return kuid; }
uid_t make_kuid(struct user_namespace *ns, uid_t uid) { (void)ns; return uid; }
gid_t make_kgid(struct user_namespace *ns, gid_t gid) { (void)ns; return gid; }
gid_t from_kgid_munged(struct user_namespace *ns, gid_t kgid) { (void)ns; return kgid; }
void put_user_ns(struct user_namespace *ns) { (void)ns; }
struct ns_common *ns_get_owner(struct ns_common *ns) { (void)ns; return ERR_PTR(-EPERM); }
size_t userns_map_text(char *buf, size_t size, struct user_namespace *ns, bool gid, struct user_namespace *reader)
{
	(void)buf, (void)size, (void)ns, (void)gid, (void)reader;
	return 0;
}
int userns_map_writer_check(struct user_namespace *ns, const struct cred *opener)
{
	(void)ns, (void)opener;
	return -EPERM;
}
long userns_map_write(struct user_namespace *ns, bool gid, const char *kbuf, size_t count, const struct cred *opener)
{
	(void)ns, (void)gid, (void)kbuf, (void)count, (void)opener;
	return -EPERM;
}
long userns_setgroups_write(struct user_namespace *ns, const char *kbuf, size_t count)
{
	(void)ns, (void)kbuf, (void)count;
	return -EPERM;
}
/* kernel/time/posix-timers.c: /proc/PID/timers (no timers here). */
int proc_timers_show(struct seq_file *m, struct task *t) { (void)m; (void)t; return 0; }
