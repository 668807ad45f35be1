/*
 * ipc_sysctl.c - /proc/sys/kernel/{shmmax,shmall,shmmni,shm_rmid_forced,
 * shm_next_id}: shared memory's limits (Linux: ipc/ipc_sysctl.c). Like
 * the semaphores' (sem.c) and the queues' (msg.c), each is the reader's
 * IPC namespace's: a new namespace starts with Linux's defaults.
 *
 * shmmax and shmall are unsigned longs (proc_doulongvec_minmax: no sign);
 * shmmni is 0..IPCMNI, shm_rmid_forced 0 or 1 (setting it destroys the
 * orphaned segments at once), shm_next_id 0..INT_MAX (-1 when read:
 * none asked).
 */
#include <errno.h>
#include <linux/init.h>
#include <proc_fs.h>
#include "util.h"

/* One unsigned decimal (blanks around it): 0 or -EINVAL. */
static int parse_ulong(const char *buf, size_t count, uint64_t *v)
{
	const char *p = buf, *end = buf + count;
	uint64_t n = 0;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	if (p >= end || *p < '0' || *p > '9')
		return -EINVAL;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (n > (UINT64_MAX - (*p - '0')) / 10)
			return -EINVAL;
		n = n * 10 + (*p - '0');
	}
	if (p < end && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\0')
		return -EINVAL;
	*v = n;
	return 0;
}

#define ULONG_SYSCTL(name, field)                                                      \
	static int name##_show(struct seq_file *m)                                     \
	{                                                                              \
		seq_printf(m, "%lu\n", (unsigned long)current_ipc_ns()->field);         \
		return 0;                                                              \
	}                                                                              \
	static int name##_write(const char *buf, size_t count)                         \
	{                                                                              \
		uint64_t v;                                                            \
		int err = parse_ulong(buf, count, &v);                                 \
		if (!err)                                                              \
			current_ipc_ns()->field = v;                                   \
		return err;                                                            \
	}
ULONG_SYSCTL(shmmax, shm_ctlmax)
ULONG_SYSCTL(shmall, shm_ctlall)

#define INT_SYSCTL(name, field, min, max)                                              \
	static int name##_show(struct seq_file *m)                                     \
	{                                                                              \
		seq_printf(m, "%d\n", current_ipc_ns()->field);                        \
		return 0;                                                              \
	}                                                                              \
	static int name##_set(const char *buf, size_t count)                           \
	{                                                                              \
		int v, n = ipc_parse_ints(buf, count, &v, 1, (min), (max));            \
		if (n > 0)                                                             \
			current_ipc_ns()->field = v;                                   \
		return n < 0 ? n : 0;                                                  \
	}
INT_SYSCTL(shmmni, shm_ctlmni, 0, IPCMNI)
INT_SYSCTL(shm_rmid_forced, shm_rmid_forced, 0, 1)
INT_SYSCTL(shm_next_id, ids[IPC_SHM_IDS].next_id, 0, INT32_MAX)

static int shmmni_write(const char *buf, size_t count) { return shmmni_set(buf, count); }
static int shm_next_id_write(const char *buf, size_t count) { return shm_next_id_set(buf, count); }

static int shm_rmid_forced_write(const char *buf, size_t count)
{
	int err = shm_rmid_forced_set(buf, count);

	if (!err && current_ipc_ns()->shm_rmid_forced)
		shm_destroy_orphaned(current_ipc_ns());
	return err;
}

static int ipc_sysctl_init(void)
{
	proc_create("sys/kernel/shmmax", 0644, shmmax_show, shmmax_write);
	proc_create("sys/kernel/shmall", 0644, shmall_show, shmall_write);
	proc_create("sys/kernel/shmmni", 0644, shmmni_show, shmmni_write);
	proc_create("sys/kernel/shm_rmid_forced", 0644, shm_rmid_forced_show, shm_rmid_forced_write);
	return proc_create("sys/kernel/shm_next_id", 0644, shm_next_id_show, shm_next_id_write);
}
device_initcall(ipc_sysctl_init);
