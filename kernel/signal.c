/*
 * signal.c - signals, as far as this kernel has them: a fault or an
 * out-of-memory kill marks a signal pending, and the task acts on it on its
 * way back to user mode. Every signal sent so far is fatal with its default
 * action (terminate), so the task exits with the signal in its wait status.
 * Handlers, masks and delivery frames come with the shell issue.
 */
#include <kernel.h>
#include <sched.h>

#define SIG_DFL 0
#define SIG_IGN 1

void send_sig(int sig, struct task *t)
{
	if (sig < 1 || sig > NSIG)
		return;
	t->sigpending |= 1UL << (sig - 1);
	make_runnable(t); /* interrupt a sleep */
}

void flush_signal_handlers(struct task *t)
{
	for (int i = 0; i < NSIG; i++)
		if (t->sig_handlers[i] != SIG_IGN)
			t->sig_handlers[i] = SIG_DFL;
}

/* The lowest pending signal, or 0. */
static int next_signal(struct task *t)
{
	return t->sigpending ? __builtin_ctzl(t->sigpending) + 1 : 0;
}

void prepare_return_to_user(struct trapframe *tf)
{
	(void)tf;
	int sig = next_signal(current);
	if (sig)
		do_exit(W_EXITCODE(0, sig));
	if (need_resched)
		schedule();
}
