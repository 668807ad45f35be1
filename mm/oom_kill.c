/*
 * oom_kill.c - when memory runs out, kill the process that holds the most
 * of it, as Linux's OOM killer does (its mm/oom_kill.c).
 *
 * Design notes:
 *  - Memory is promised to no one in advance (mm/fault.c): a process gets
 *    a page when it first touches it. When none is free, the page fault
 *    cannot be satisfied, and something must give. Killing the process
 *    that faulted would be unfair (it may be small and the hog another)
 *    and useless if the hog keeps growing; so, as Linux, kill the largest.
 *  - "Largest" is Linux's oom_badness without its adjustments: the pages
 *    it has present (its resident set) plus its page tables, what killing
 *    it gives back. On a tie the later process in the list goes, as in
 *    Linux's scan. Never pid 1 (the machine would stop with it), nor a task
 *    without an address space. Every process sharing the victim's address
 *    space (a vfork child and its parent) goes with it.
 *  - The console says who and how much, in Linux's words:
 *      hog invoked oom-killer: order=0, oom_score_adj=0
 *      Out of memory: Killed process 42 (hog) total-vm:262144kB, ...
 *  - The victim needs to run to die (SIGKILL takes effect on its way back
 *    to user mode, exit frees its memory). Until it is gone, a process
 *    whose fault needs memory waits: out_of_memory picks no second victim
 *    while the first is alive, and the caller gives up the CPU and retries.
 */
#include <cred.h>
#include <linux/pid_namespace.h>
#include <mm.h>
#include <sched.h>
#include <vm.h>

#include "internal.h"

static pid_t victim_pid; /* killed, perhaps not gone yet */

static bool dying(const struct task *t)
{
	return t->state == TASK_ZOMBIE || fatal_signal_pending((struct task *)t);
}

/* Is the last victim still around? */
static bool victim_alive(void)
{
	struct task *t = victim_pid ? find_task_by_pid_ns(victim_pid, &init_pid_ns) : NULL;
	return t && t->state != TASK_ZOMBIE;
}

/* Linux's oom_badness: what killing t would give back, in pages. */
static uint64_t badness(struct task *t)
{
	struct mm_counts c;

	mm_count(t->mm, &c);
	return c.rss + c.pt_pages;
}

static void oom_kill_process(struct task *victim)
{
	struct mm_counts c;
	struct mm *mm = victim->mm;

	mm_count(mm, &c);
	printk(KERN_WARNING "%s invoked oom-killer: order=0, oom_score_adj=0\n", current->comm);
	printk(KERN_ERR "Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
	       "file-rss:%lukB, shmem-rss:0kB, UID:%u pgtables:%lukB oom_score_adj:0\n",
	       victim->pid, victim->comm, (unsigned long)c.total * 4,
	       (unsigned long)(c.rss - c.file_rss) * 4, (unsigned long)c.file_rss * 4, victim->cred->uid,
	       (unsigned long)c.pt_pages * 4);
	for (struct task *t = first_task(); t; t = t->next_task)
		if (t->mm == mm && t->pid != 1)
			send_sig(SIGKILL, t);
	victim_pid = victim->pid;
}

bool out_of_memory(void)
{
	struct task *victim = NULL;
	uint64_t best = 0;

	if (victim_alive())
		return true; /* the last one is still on its way out */
	for (struct task *t = first_task(); t; t = t->next_task) {
		if (t->pid <= 1 || !t->mm || t->state == TASK_ZOMBIE)
			continue;
		if (dying(t))
			return true; /* it is giving its memory back already */
		uint64_t points = badness(t);
		if (points >= best) {
			best = points;
			victim = t;
		}
	}
	if (!victim)
		return false;
	oom_kill_process(victim);
	return true;
}
