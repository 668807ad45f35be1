/*
 * time_namespace.h - time namespaces (kernel/time/namespace.c): a process
 * sees the monotonic and boot-time clocks moved by its namespace's
 * offsets, so that a checkpointed container can be restored on another
 * machine with its clocks going on from where they were. The wall clock
 * (CLOCK_REALTIME) is the same for all.
 *
 * unshare(CLONE_NEWTIME) makes a namespace for the caller's future
 * children, not for the caller (/proc/PID/ns/time_for_children); its
 * offsets may be written to /proc/PID/timens_offsets until a first task
 * enters it (the next fork, an exec of the caller, or setns), and are
 * fixed from then on (EACCES). The vDSO reads them from a page of their
 * own that the namespace maps where [vvar]'s data page is
 * (kernel/vdso.c).
 *
 * References (ns.count): each nsproxy that holds it as time_ns or
 * time_ns_for_children, each open nsfs file. Counts and offsets change
 * under the rule of include/nsproxy.h (one CPU, no preemption).
 */
#pragma once
#include <nsproxy.h>
#include <timekeeping.h>

struct time_namespace {
	struct ns_common ns;
	int64_t monotonic_offset_ns;    /* added to CLOCK_MONOTONIC and its kin */
	int64_t boottime_offset_ns;     /* added to CLOCK_BOOTTIME and its kin */
	bool frozen_offsets;            /* a task has entered: offsets fixed */
	void *vvar_page;                /* the vDSO's view: NULL for the initial one */
	struct user_namespace *user_ns; /* its owner (a reference) */
};

extern struct time_namespace init_time_ns;
extern const struct proc_ns_operations timens_operations;
extern const struct proc_ns_operations timens_for_children_operations;

static inline struct time_namespace *get_time_ns(struct time_namespace *ns)
{
	ns->ns.count++;
	return ns;
}
void put_time_ns(struct time_namespace *ns);

/* CLONE_NEWTIME: a new namespace with no offsets; else old with one more
 * reference. ERR_PTR(-errno). */
struct time_namespace *copy_time_ns(uint64_t flags, struct user_namespace *user_ns,
				    struct time_namespace *old);
/* A new task t (fork, not a thread) or an exec enters its nsproxy's
 * time_ns_for_children, if that differs from its time_ns. */
void timens_on_fork(struct nsproxy *nsproxy, struct task *t);

/* setns: t, now in ns, enters it (the offsets are fixed, its vDSO shows
 * them). */
void timens_commit(struct task *t, struct time_namespace *ns);
/* The current task's namespace (the initial one at boot). */
struct time_namespace *current_time_ns(void);
/* A clock's value as the current task sees it, from the host's, and back
 * (absolute timers and sleeps): only the monotonic and boot-time clocks
 * (and their _RAW, _COARSE, _ALARM kin) move. */
int64_t timens_add(int clock, int64_t host_ns);
int64_t timens_to_host(int clock, int64_t ns);
/* Seconds to subtract from the boot time /proc/stat shows ("btime"). */
int64_t timens_boottime_offset_sec(void);

/* /proc/PID/timens_offsets of t (the namespace of its children). */
struct seq_file;
int timens_show_offsets(struct seq_file *m, struct task *t);
/* Write that file: "monotonic|1|boottime|7 SECONDS NANOSECONDS" lines, at
 * most two; the bytes taken, or -errno. */
long timens_write_offsets(struct task *t, const char *buf, size_t count);
