/*
 * security.c - the security hooks (include/security.h): each security_*
 * function asks the capability rules first, then every module enabled
 * with lsm= on the command line, in that order, and stops at the first
 * refusal.
 *
 * Linux builds the list of modules from CONFIG_LSM and lsm=; here only
 * lsm= counts, and no module is on unless it names it: "lsm=execguard".
 * "capability" may be named too, and is always on, first, as in Linux.
 * Names of modules that are not built in are ignored.
 */
#include <cred.h>
#include <errno.h>
#include <kernel.h>
#include <linux/binfmts.h>
#include <sched.h>
#include <security.h>
#include <string.h>

extern struct lsm execguard_lsm; /* security/execguard.c */

/* Every module built into the kernel. */
static struct lsm *const builtin_lsms[] = { &execguard_lsm };

static char lsm_list[128];        /* lsm= as given */
static struct lsm *enabled_lsms;  /* in lsm= order */

void security_set_lsm_list(const char *list)
{
	strlcpy(lsm_list, list, sizeof(lsm_list));
}

static struct lsm *find_lsm(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtin_lsms); i++)
		if (strlen(builtin_lsms[i]->name) == len && !strncmp(builtin_lsms[i]->name, name, len))
			return builtin_lsms[i];
	return NULL;
}

static bool lsm_enabled(const struct lsm *lsm)
{
	for (const struct lsm *e = enabled_lsms; e; e = e->next)
		if (e == lsm)
			return true;
	return false;
}

/* Enable the modules of lsm=, in its order, each once. */
void security_init(void)
{
	struct lsm **tail = &enabled_lsms;
	char names[sizeof(lsm_list) + 16] = "capability";

	for (const char *p = lsm_list; *p;) {
		size_t len = strcspn(p, ",");
		struct lsm *lsm = find_lsm(p, len);

		if (lsm && !lsm_enabled(lsm) && (!lsm->init || lsm->init() == 0)) {
			*tail = lsm;
			tail = &lsm->next;
			strlcpy(names + strlen(names), ",", sizeof(names) - strlen(names));
			strlcpy(names + strlen(names), lsm->name, sizeof(names) - strlen(names));
		}
		p += len;
		if (*p == ',')
			p++;
	}
	pr_info("LSM: initializing lsm=%s\n", names);
}

#define for_each_lsm(lsm) for (struct lsm *lsm = enabled_lsms; lsm; lsm = lsm->next)

/* Ask each module's hook that is set; the first error wins. */
#define call_int_hook(hook, ...)                                      \
	({                                                            \
		int __rc = 0;                                         \
		for_each_lsm(lsm) {                                   \
			if (lsm->hook && (__rc = lsm->hook(__VA_ARGS__))) \
				break;                                \
		}                                                     \
		__rc;                                                 \
	})

#define call_void_hook(hook, ...)                   \
	do {                                        \
		for_each_lsm(lsm)                   \
			if (lsm->hook)              \
				lsm->hook(__VA_ARGS__); \
	} while (0)

int security_bprm_creds_for_exec(struct linux_binprm *bprm)
{
	return call_int_hook(bprm_creds_for_exec, bprm);
}

int security_bprm_check(struct linux_binprm *bprm)
{
	return call_int_hook(bprm_check, bprm);
}

int security_bprm_creds_from_file(struct linux_binprm *bprm, struct file *file)
{
	int rc = cap_bprm_creds_from_file(bprm, file);

	return rc ? rc : call_int_hook(bprm_creds_from_file, bprm, file);
}

void security_bprm_committing_creds(struct linux_binprm *bprm)
{
	call_void_hook(bprm_committing_creds, bprm);
}

void security_bprm_committed_creds(struct linux_binprm *bprm)
{
	call_void_hook(bprm_committed_creds, bprm);
}

int security_task_fix_setuid(struct cred *new, const struct cred *old, int flags)
{
	int rc = cap_task_fix_setuid(new, old, flags);

	return rc ? rc : call_int_hook(task_fix_setuid, new, old, flags);
}

int security_ptrace_access_check(struct task *t, unsigned mode)
{
	return cap_ptrace_access_check(t, mode);
}
