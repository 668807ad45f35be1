/*
 * kernel/sched/balance.c - which CPU a task runs on: where a waking or
 * new task is queued, and moving queued tasks to CPUs with less to do.
 *
 * Linux's load balancing (kernel/sched/fair.c), much simplified: a CPU's
 * load is the number of tasks it has, running and queued, and only queued
 * tasks move (a running task's registers are on its CPU). Three moments:
 *  - a task wakes or is created: an idle CPU it may run on takes it, so
 *    that no CPU idles while another has a queue;
 *  - a CPU finds its queue empty in schedule(): it pulls a task from the
 *    busiest queue before it goes idle (idle CPUs also look at each tick,
 *    when some queue has tasks: cpu_idle);
 *  - a busy CPU's tick, every BALANCE_INTERVAL ticks: it pulls one task
 *    from a CPU that has two tasks more than it.
 */
#include <smp.h>
#include "sched.h"

#define BALANCE_INTERVAL 4 /* ticks: 40 ms at HZ=100 */

static unsigned int ticks_to_balance[NR_CPUS];

static bool allowed_on(const struct task *t, int n)
{
	return t->cpus_allowed >> n & 1;
}

/* Reads without locks: a hint, checked again under the lock by whoever
 * acts on it. */
static unsigned int cpu_load(int n)
{
	return __atomic_load_n(&cpu_rq(n)->nr_queued, __ATOMIC_RELAXED) +
	       (__atomic_load_n(&cpus[n].current_task, __ATOMIC_RELAXED) != cpus[n].idle);
}

bool cpu_idle_now(int n)
{
	return cpu_load(n) == 0;
}

/* The online CPU t may use with the least load; prefer wins a tie. */
static int least_loaded_cpu(const struct task *t, int prefer)
{
	unsigned int best_load = ~0u;
	int best = -1;

	for_each_online_cpu(n) {
		unsigned int load = cpu_load(n);
		if (allowed_on(t, n) && (load < best_load || (load == best_load && n == prefer))) {
			best = n;
			best_load = load;
		}
	}
	return best;
}

/*
 * A woken task: the CPU it last ran on if that one is idle (its cache may
 * still hold the task's memory), else any idle CPU it may use, else this
 * CPU (the task runs when the waker leaves the kernel, as Linux preempts
 * for a woken sleeper), else the least loaded one it may use.
 */
int select_task_rq(struct task *t)
{
	int prev = t->cpu, here = smp_processor_id();

	if (allowed_on(t, prev) && cpus[prev].online && cpu_idle_now(prev))
		return prev;
	int n = least_loaded_cpu(t, prev);
	if (cpu_idle_now(n) || !allowed_on(t, here))
		return n;
	return here;
}

/* A new task: the least loaded CPU, this one on a tie (Linux's
 * find_idlest_cpu at fork). */
int select_task_rq_fork(struct task *t)
{
	return least_loaded_cpu(t, smp_processor_id());
}

/* Take a task from src's queue that may run on this CPU; NULL if none. */
static struct task *steal_from(struct rq *src, struct rq *dst)
{
	struct task *t;

	double_rq_lock(src, dst);
	for (t = src->head; t; t = t->rq_next)
		if (allowed_on(t, dst->cpu) && !t->on_cpu)
			break;
	if (t)
		dequeue_task(src, t);
	double_rq_unlock(src, dst);
	return t;
}

/* The CPU other than this one with the most queued tasks, at least min. */
static int busiest_cpu(int this_cpu, unsigned int min)
{
	int busiest = -1;

	for_each_online_cpu(n) {
		unsigned int queued = __atomic_load_n(&cpu_rq(n)->nr_queued, __ATOMIC_RELAXED);
		if (n != this_cpu && queued >= min) {
			busiest = n;
			min = queued + 1;
		}
	}
	return busiest;
}

/* With interrupts off: a queued task of the busiest CPU, for this idle
 * one to run; NULL if none may run here. The caller runs it. */
struct task *pull_task(int this_cpu)
{
	int src = busiest_cpu(this_cpu, 1);

	return src < 0 ? NULL : steal_from(cpu_rq(src), cpu_rq(this_cpu));
}

bool work_queued_elsewhere(int this_cpu)
{
	return busiest_cpu(this_cpu, 1) >= 0;
}

/* A busy CPU's tick, interrupts off: every BALANCE_INTERVAL ticks, queue
 * here one task of a CPU whose load is two more than ours. */
void rebalance_tick(int this_cpu)
{
	struct rq *rq = cpu_rq(this_cpu);

	if (++ticks_to_balance[this_cpu] < BALANCE_INTERVAL)
		return;
	ticks_to_balance[this_cpu] = 0;
	int src = busiest_cpu(this_cpu, rq->nr_queued + 2);
	if (src < 0)
		return;
	struct task *t = steal_from(cpu_rq(src), rq);
	if (!t)
		return;
	spin_lock(&rq->lock);
	enqueue_task(rq, t);
	spin_unlock(&rq->lock);
}
