/*
 * ptrace.c - may one process look into another? There is no ptrace(2)
 * yet; this is the check that it and /proc share (Linux's
 * ptrace_may_access): /proc/PID/maps, environ, the exe, cwd and root
 * links, and the fd links of another process ask it.
 */
#include <cred.h>
#include <kernel.h>
#include <sched.h>
#include <security.h>
#include <vm.h>

bool ptrace_may_access(struct task *t, unsigned mode)
{
	const struct cred *cred = current_cred(), *tcred = task_cred(t);
	uid_t uid = (mode & PTRACE_MODE_FSCREDS) ? cred->fsuid : cred->uid;
	gid_t gid = (mode & PTRACE_MODE_FSCREDS) ? cred->fsgid : cred->gid;

	/* A process may always look into itself, any of its threads. */
	if (same_thread_group(t, current))
		return true;
	/* The same user in every one of t's ids, or CAP_SYS_PTRACE in t's
	 * user namespace. */
	if (!(uid == tcred->uid && uid == tcred->euid && uid == tcred->suid &&
	      gid == tcred->gid && gid == tcred->egid && gid == tcred->sgid) &&
	    !ns_capable(tcred->user_ns, CAP_SYS_PTRACE))
		return false;
	/* A process that gained privileges at exec (set-user-ID) is not its
	 * user's to look into: it is not dumpable. (Linux asks in the user
	 * namespace of its memory, which is that of its exec.) */
	if (t->mm && t->mm->dumpable != SUID_DUMP_USER && !ns_capable(tcred->user_ns, CAP_SYS_PTRACE))
		return false;
	return security_ptrace_access_check(t, mode) == 0;
}
