/*
 * kernel/sched/runqueue.c - a CPU's run queue: a FIFO of runnable tasks
 * (kernel/sched/sched.h says what it holds and how it is locked).
 */
#include "sched.h"

struct rq runqueues[NR_CPUS];

void enqueue_task(struct rq *rq, struct task *t)
{
	t->rq_next = NULL;
	t->rq_prev = rq->tail;
	if (rq->tail)
		rq->tail->rq_next = t;
	else
		rq->head = t;
	rq->tail = t;
	rq->nr_queued++;
	t->on_rq = true;
	t->cpu = rq->cpu;
}

void dequeue_task(struct rq *rq, struct task *t)
{
	if (t->rq_prev)
		t->rq_prev->rq_next = t->rq_next;
	else
		rq->head = t->rq_next;
	if (t->rq_next)
		t->rq_next->rq_prev = t->rq_prev;
	else
		rq->tail = t->rq_prev;
	t->rq_next = t->rq_prev = NULL;
	rq->nr_queued--;
	t->on_rq = false;
}

struct task *pick_queued(struct rq *rq)
{
	struct task *t = rq->head;

	if (t)
		dequeue_task(rq, t);
	return t;
}

/* Lock two run queues (they may be the same), lower CPU first, so that two
 * CPUs locking the same pair cannot each hold one and wait for the other.
 * The second is of the first's lock class: spin_lock_nested tells the
 * lock validator that this order is the rule, not a recursion. */
void double_rq_lock(struct rq *a, struct rq *b)
{
	if (a == b) {
		spin_lock(&a->lock);
	} else if (a->cpu < b->cpu) {
		spin_lock(&a->lock);
		spin_lock_nested(&b->lock, SINGLE_DEPTH_NESTING);
	} else {
		spin_lock(&b->lock);
		spin_lock_nested(&a->lock, SINGLE_DEPTH_NESTING);
	}
}

void double_rq_unlock(struct rq *a, struct rq *b)
{
	spin_unlock(&a->lock);
	if (a != b)
		spin_unlock(&b->lock);
}
