/*
 * ucount.c - per-user counts checked against rlimits (Linux's
 * kernel/ucount.c, its rlimit part): a short list of the users that hold
 * something, each with its counts (include/linux/user_namespace.h).
 *
 * Lock: none of its own. One CPU, the kernel is not preempted and no
 * interrupt handler counts: a caller runs each call to the end. With
 * several CPUs, a spinlock around the list, innermost of all.
 */
#include <linux/user_namespace.h>
#include <mm.h>

struct ucounts {
	struct ucounts *next;
	uid_t uid;
	uint64_t count[UCOUNT_RLIMIT_COUNTS];
};

static struct ucounts *ucounts_list;

static struct ucounts *find_ucounts(uid_t uid)
{
	for (struct ucounts *u = ucounts_list; u; u = u->next)
		if (u->uid == uid)
			return u;
	return NULL;
}

/* A user whose counts all came back to 0 leaves the list. */
static void put_ucounts(struct ucounts *u)
{
	for (int i = 0; i < UCOUNT_RLIMIT_COUNTS; i++)
		if (u->count[i])
			return;
	for (struct ucounts **pp = &ucounts_list; *pp; pp = &(*pp)->next) {
		if (*pp == u) {
			*pp = u->next;
			kfree(u);
			return;
		}
	}
}

bool inc_rlimit_ucounts_max(uid_t uid, enum ucount_type type, uint64_t v, uint64_t max)
{
	struct ucounts *u = find_ucounts(uid);

	if (!u) {
		u = kzalloc(sizeof(*u));
		if (!u)
			return false;
		u->uid = uid;
		u->next = ucounts_list;
		ucounts_list = u;
	}
	uint64_t total = u->count[type] + v;
	if (total < v || total > max) {
		put_ucounts(u);
		return false;
	}
	u->count[type] = total;
	return true;
}

void dec_rlimit_ucounts(uid_t uid, enum ucount_type type, uint64_t v)
{
	struct ucounts *u = find_ucounts(uid);

	if (!u || u->count[type] < v) {
		pr_warn("ucounts: uid %u gives back more than it held\n", uid);
		return;
	}
	u->count[type] -= v;
	put_ucounts(u);
}

uint64_t get_rlimit_ucount(uid_t uid, enum ucount_type type)
{
	struct ucounts *u = find_ucounts(uid);

	return u ? u->count[type] : 0;
}
