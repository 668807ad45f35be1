/*
 * kernel/sched/sched.h - the scheduler's own declarations: the run queues.
 *
 * Each CPU has a run queue: the runnable tasks waiting for that CPU, in
 * the order they will run (round robin). A runnable task is in exactly
 * one place: running on a CPU (on_cpu, that CPU's current; it is on no
 * queue), or queued on the run queue of t->cpu (on_rq). A task that
 * stops running while still runnable goes back on a queue in schedule().
 *
 * Locks: rq->lock guards the queue, its count, and the on_rq and
 * rq_next/rq_prev of the tasks on it. It is taken with interrupts off
 * (wake-ups come from interrupt handlers). Two run queues are locked
 * lower CPU number first (double_rq_lock). Order, outermost first:
 *     big kernel lock  >  rq->lock (lower CPU first)
 * The big kernel lock still serializes the scheduler's callers; a task's
 * state and cpus_allowed are under it, not under rq->lock.
 */
#pragma once
#include <kernel.h>
#include <percpu.h>
#include <sched.h>
#include <spinlock.h>

struct rq {
	spinlock_t lock;
	struct task *head, *tail; /* queued tasks, head runs next */
	unsigned int nr_queued;   /* tasks on the queue (not counting current) */
	int cpu;
};

extern struct rq runqueues[NR_CPUS];

static inline struct rq *cpu_rq(int n)
{
	return &runqueues[n];
}

/* kernel/sched/runqueue.c; the caller holds rq->lock. */
void enqueue_task(struct rq *rq, struct task *t);  /* at the tail */
void dequeue_task(struct rq *rq, struct task *t);
struct task *pick_queued(struct rq *rq);           /* take the head; NULL if empty */
void double_rq_lock(struct rq *a, struct rq *b);
void double_rq_unlock(struct rq *a, struct rq *b);

/* kernel/sched/balance.c: which CPU, and moving tasks between CPUs. */
bool cpu_idle_now(int n);                  /* running its idle task, nothing queued */
int select_task_rq(struct task *t);        /* the CPU to queue a woken task on */
int select_task_rq_fork(struct task *t);   /* ... a new task on */
struct task *pull_task(int this_cpu);      /* steal a queued task for an idle CPU */
void rebalance_tick(int this_cpu);         /* every few ticks of a busy CPU */
bool work_queued_elsewhere(int this_cpu);  /* tasks this CPU could pull? (no lock) */
