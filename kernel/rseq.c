/*
 * kernel/rseq.c - restartable sequences (rseq(2)), as Linux 6.1 has them.
 *
 * A thread registers a struct rseq in its memory (glibc does it for every
 * thread). The kernel keeps two things true there:
 *  - cpu_id_start and cpu_id say which CPU the thread runs on, written
 *    before the thread returns to user mode after it was switched out
 *    (which any move to another CPU needs) or registered;
 *  - if the thread was preempted, or gets a signal, while inside the
 *    critical section that rseq_cs points to (start_ip, for
 *    post_commit_offset bytes), it resumes at the section's abort_ip
 *    instead, so that the section is either done whole or not at all.
 *    The 4 bytes before abort_ip must hold the signature given at
 *    registration, so that rseq cannot be used to jump anywhere.
 * A struct the kernel cannot read or write, or a bad rseq_cs, ends the
 * thread with SIGSEGV, as on Linux.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <signum.h>
#include <string.h>
#include <trap.h>
#include <uaccess.h>
#include <vm.h>

#define RSEQ_FLAG_UNREGISTER 1
#define RSEQ_CPU_ID_UNINITIALIZED ((uint32_t)-1)

/* The user's struct rseq (32 bytes, 32-byte aligned) and struct rseq_cs. */
struct rseq {
	uint32_t cpu_id_start;
	uint32_t cpu_id;
	uint64_t rseq_cs;
	uint32_t flags;
	uint32_t pad[3];
};

struct rseq_cs {
	uint32_t version;
	uint32_t flags;
	uint64_t start_ip;
	uint64_t post_commit_offset;
	uint64_t abort_ip;
};

#define RSEQ_FIELD(t, field) ((t)->rseq + offsetof(struct rseq, field))

/* The critical section rseq_cs names, checked as Linux checks it; a NULL
 * rseq_cs gives an empty one. */
static int get_rseq_cs(struct task *t, struct rseq_cs *cs)
{
	uint64_t ptr;
	uint32_t sig;

	if (copy_from_user(&ptr, (void __user *)RSEQ_FIELD(t, rseq_cs), sizeof(ptr)))
		return -EFAULT;
	memset(cs, 0, sizeof(*cs));
	if (!ptr)
		return 0;
	if (ptr >= TASK_SIZE)
		return -EINVAL;
	if (copy_from_user(cs, (void __user *)ptr, sizeof(*cs)))
		return -EFAULT;
	if (cs->start_ip >= TASK_SIZE || cs->start_ip + cs->post_commit_offset >= TASK_SIZE ||
	    cs->abort_ip >= TASK_SIZE || cs->version > 0 ||
	    cs->start_ip + cs->post_commit_offset < cs->start_ip ||
	    cs->abort_ip - cs->start_ip < cs->post_commit_offset) /* abort inside */
		return -EINVAL;
	if (copy_from_user(&sig, (void __user *)(cs->abort_ip - sizeof(sig)), sizeof(sig)))
		return -EFAULT;
	if (sig != t->rseq_sig) {
		printk(KERN_WARNING "Possible attack attempt. Unexpected rseq signature 0x%x, expecting 0x%x (pid=%d, addr=%lx).\n",
		       sig, t->rseq_sig, t->pid, cs->abort_ip - sizeof(sig));
		return -EINVAL;
	}
	return 0;
}

static int clear_rseq_cs(struct task *t)
{
	uint64_t zero = 0;
	return copy_to_user((void __user *)RSEQ_FIELD(t, rseq_cs), &zero, sizeof(zero)) ? -EFAULT : 0;
}

/* Move rip to the abort handler if it is inside the critical section and
 * something happened since (rseq_event). The deprecated no-restart flags
 * are refused (EINVAL), as in Linux 6.1. */
static int rseq_ip_fixup(struct task *t, struct trapframe *tf)
{
	struct rseq_cs cs;
	uint32_t flags;
	int err = get_rseq_cs(t, &cs);

	if (err)
		return err;
	if (tf->rip - cs.start_ip >= cs.post_commit_offset)
		return clear_rseq_cs(t); /* not in it: the pointer is stale */
	if (copy_from_user(&flags, (void __user *)RSEQ_FIELD(t, flags), sizeof(flags)))
		return -EFAULT;
	if (cs.flags || flags)
		return -EINVAL;
	if (!t->rseq_event)
		return 0;
	t->rseq_event = 0;
	err = clear_rseq_cs(t);
	if (!err)
		tf->rip = cs.abort_ip;
	return err;
}

static int update_cpu_id(struct task *t)
{
	uint32_t cpu = smp_processor_id();
	uint32_t ids[2] = { cpu, cpu }; /* cpu_id_start, cpu_id */
	return copy_to_user((void __user *)t->rseq, ids, sizeof(ids)) ? -EFAULT : 0;
}

/* On the way back to user mode (prepare_return_to_user), after a switch
 * or a registration, and before a signal handler's frame is made. */
void rseq_handle_notify_resume(struct trapframe *tf)
{
	struct task *t = current;

	if (!t->rseq || !t->rseq_resume)
		return;
	t->rseq_resume = false;
	if (rseq_ip_fixup(t, tf) || update_cpu_id(t))
		force_sig_fault(SIGSEGV, SI_KERNEL, 0);
}

void rseq_signal_deliver(struct trapframe *tf)
{
	if (!current->rseq)
		return;
	current->rseq_event = 1;
	current->rseq_resume = true;
	rseq_handle_notify_resume(tf);
}

/* The scheduler switches t out. */
void rseq_preempt(struct task *t)
{
	if (t->rseq) {
		t->rseq_event = 1;
		t->rseq_resume = true;
	}
}

/* fork: a new process keeps the registration (same memory), a thread
 * registers its own. exec: none. */
void rseq_fork(struct task *child, struct task *parent, bool same_vm)
{
	child->rseq = same_vm ? 0 : parent->rseq;
	child->rseq_sig = same_vm ? 0 : parent->rseq_sig;
	child->rseq_event = same_vm ? 0 : parent->rseq_event;
	child->rseq_resume = child->rseq != 0;
}

void rseq_execve(struct task *t)
{
	t->rseq = 0;
	t->rseq_sig = 0;
	t->rseq_event = 0;
	t->rseq_resume = false;
}

static long rseq_unregister(uint64_t rseq, uint32_t len, uint32_t sig)
{
	uint32_t ids[2] = { 0, RSEQ_CPU_ID_UNINITIALIZED };

	if (!current->rseq || current->rseq != rseq || len != sizeof(struct rseq))
		return -EINVAL;
	if (current->rseq_sig != sig)
		return -EPERM;
	if (copy_to_user((void __user *)rseq, ids, sizeof(ids)))
		return -EFAULT;
	current->rseq = 0;
	current->rseq_sig = 0;
	return 0;
}

long sys_rseq(uint64_t rseq, uint32_t len, int flags, uint32_t sig)
{
	uint64_t cs;

	if (flags & RSEQ_FLAG_UNREGISTER)
		return flags & ~RSEQ_FLAG_UNREGISTER ? -EINVAL : rseq_unregister(rseq, len, sig);
	if (flags)
		return -EINVAL;
	if (current->rseq) {
		if (current->rseq != rseq || len != sizeof(struct rseq))
			return -EINVAL;
		return current->rseq_sig != sig ? -EPERM : -EBUSY;
	}
	if (rseq % 32 || len != sizeof(struct rseq))
		return -EINVAL;
	if (rseq >= TASK_SIZE || TASK_SIZE - rseq < len)
		return -EFAULT;
	/* A stale rseq_cs (an old libc reusing the area) is cleared, not an error. */
	if (copy_from_user(&cs, (void __user *)(rseq + offsetof(struct rseq, rseq_cs)), sizeof(cs)))
		return -EFAULT;
	current->rseq = rseq;
	current->rseq_sig = sig;
	if (cs && clear_rseq_cs(current)) {
		current->rseq = 0;
		return -EFAULT;
	}
	current->rseq_resume = true;
	return 0;
}
