/*
 * kernel/sched/membarrier.c - membarrier(2): a memory barrier on every CPU
 * that runs a thread of the caller's process (private) or of any process
 * (global), so that user space can make its fast path barrier-free.
 *
 * With one CPU the barrier is already there: the caller itself is the
 * only thing running, and a switch to another thread is a full barrier.
 * What remains is Linux's contract, which programs test: which commands
 * exist (QUERY), and that the private and global expedited ones need the
 * process to register first (EPERM), per memory map, kept across fork.
 */
#include <errno.h>
#include <kernel.h>
#include <sched.h>
#include <vm.h>

#define MEMBARRIER_CMD_QUERY 0
#define MEMBARRIER_CMD_GLOBAL (1 << 0)
#define MEMBARRIER_CMD_GLOBAL_EXPEDITED (1 << 1)
#define MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED (1 << 2)
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE (1 << 5)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE (1 << 6)
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ (1 << 7)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ (1 << 8)
#define MEMBARRIER_CMD_FLAG_CPU (1 << 0)

/* Every command but QUERY: what QUERY answers. */
#define MEMBARRIER_CMD_BITMASK 0x1ff

/* mm->membarrier_state: the commands a process registered for (each
 * register command's bit stands for its command). */
static int registered(int cmd)
{
	return current->mm && (current->mm->membarrier_state & cmd);
}

static int do_register(int cmd)
{
	if (!current->mm)
		return -EINVAL;
	current->mm->membarrier_state |= cmd;
	return 0;
}

/* An expedited command: allowed once its register command was made. */
static int expedited(int register_cmd)
{
	return registered(register_cmd) ? 0 : -EPERM;
}

long sys_membarrier(int cmd, unsigned int flags, int cpu_id)
{
	(void)cpu_id; /* one CPU: the barrier on it is the barrier on any */
	if (cmd == MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ ? flags & ~MEMBARRIER_CMD_FLAG_CPU : flags)
		return -EINVAL;

	switch (cmd) {
	case MEMBARRIER_CMD_QUERY:
		return MEMBARRIER_CMD_BITMASK;
	case MEMBARRIER_CMD_GLOBAL:
		return 0;
	case MEMBARRIER_CMD_GLOBAL_EXPEDITED:
		return 0; /* Linux's, too, asks no registration of the caller */
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED:
		return expedited(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE:
		return expedited(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE);
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ:
		return expedited(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ);
	case MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED:
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED:
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE:
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ:
		return do_register(cmd);
	default:
		return -EINVAL;
	}
}
