/*
 * user_namespace.h - user namespaces (kernel/user_namespace.c): who is
 * who, and who may do what, inside a namespace.
 *
 * The kernel keeps one set of ids, the initial namespace's ("kernel ids",
 * Linux's kuid_t and kgid_t): a cred's uid, an inode's owner. A user
 * namespace shows part of them under other numbers, by its uid_map and
 * gid_map (/proc/PID/uid_map): each line "first lower count" says that
 * ids first..first+count-1 inside are lower..lower+count-1 in the parent
 * namespace. The maps are stored with their lower ids already taken down
 * to kernel ids, so one lookup translates:
 *
 *   make_kuid(ns, uid)   the kernel id of uid as ns names it; INVALID_UID
 *                        if ns maps no such uid
 *   from_kuid(ns, kuid)  the name ns gives kernel id kuid; (uid_t)-1 if none
 *   from_kuid_munged     the same, but the overflow uid (65534) for "none":
 *                        what getuid and stat show of an unmapped id
 *
 * Capabilities belong to a namespace: a cred's sets count in its
 * cred->user_ns and in the namespaces below it that it owns; a process
 * whose namespace is an ancestor of ns and who created (owns) the branch
 * of ns has every capability in ns (ns_capable, Linux's cap_capable).
 * Every other namespace (uts, ipc, mnt, pid, net, time, cgroup) records
 * the user namespace of its creator (its owner): creating or entering one
 * takes CAP_SYS_ADMIN there.
 *
 * The end of this file is the other half of Linux's header: what a user
 * holds across its processes (kernel/ucount.c, Linux's ucounts), the
 * signals its POSIX timers have ready (RLIMIT_SIGPENDING) and the bytes
 * its POSIX message queues may hold (RLIMIT_MSGQUEUE), counted by real
 * uid (kernel id; Linux counts in each user namespace too), kmalloc'd
 * the first time a user needs one and freed when all are 0.
 *
 * Namespaces form a tree of at most 33 levels below the initial one
 * (ENOSPC beyond, as Linux 6.1). Each holds a reference on its parent;
 * creds, nsfs files and the namespaces they own hold the others.
 */
#pragma once
#include <kernel.h>
#include <nsproxy.h>

struct cred;

/* One line of a map: ids first.. inside are lower_first.. (kernel ids). */
struct uid_gid_extent {
	uint32_t first;
	uint32_t lower_first;
	uint32_t count;
};

/* Linux 6.1's limit: 340 lines (five inline, the rest in two arrays). */
#define UID_GID_MAP_MAX_EXTENTS 340

struct uid_gid_map {
	uint32_t nr_extents;            /* 0: not written yet, nothing mapped */
	struct uid_gid_extent *extent;  /* nr_extents of them (kmalloc) */
};

#define USERNS_SETGROUPS_ALLOWED 1UL   /* /proc/PID/setgroups says "allow" */

struct user_namespace {
	struct ns_common ns;
	struct uid_gid_map uid_map, gid_map;
	struct user_namespace *parent;  /* NULL for the initial one; a reference */
	int level;                      /* 0 for the initial one */
	uid_t owner;                    /* the creator's euid and egid (kernel ids) */
	gid_t group;
	unsigned long flags;            /* USERNS_SETGROUPS_ALLOWED */
	bool parent_could_setfcap;      /* the creator had CAP_SETFCAP: it may map 0 */
};

#define USERNS_MAX_LEVEL 33
#define INVALID_UID ((uid_t)-1)
#define INVALID_GID ((gid_t)-1)
#define OVERFLOW_UID 65534      /* /proc/sys/kernel/overflowuid */
#define OVERFLOW_GID 65534

extern struct user_namespace init_user_ns;
extern const struct proc_ns_operations userns_operations;

static inline struct user_namespace *get_user_ns(struct user_namespace *ns)
{
	ns->ns.count++;
	return ns;
}
void put_user_ns(struct user_namespace *ns);

/* Translation (above). */
uid_t make_kuid(struct user_namespace *ns, uid_t uid);
gid_t make_kgid(struct user_namespace *ns, gid_t gid);
uid_t from_kuid(struct user_namespace *ns, uid_t kuid);
gid_t from_kgid(struct user_namespace *ns, gid_t kgid);
uid_t from_kuid_munged(struct user_namespace *ns, uid_t kuid);
gid_t from_kgid_munged(struct user_namespace *ns, gid_t kgid);
static inline bool kuid_has_mapping(struct user_namespace *ns, uid_t kuid)
{
	return from_kuid(ns, kuid) != INVALID_UID;
}
static inline bool kgid_has_mapping(struct user_namespace *ns, gid_t kgid)
{
	return from_kgid(ns, kgid) != INVALID_GID;
}

/* Is ns child, or below it? (a namespace is its own descendant) */
bool in_userns(const struct user_namespace *ancestor, const struct user_namespace *child);

/*
 * A new user namespace below new->user_ns, owned by new's euid and egid,
 * made new's, with every capability in it (clone and unshare with
 * CLONE_NEWUSER). 0 or -errno: ENOSPC (too deep), EPERM (chrooted, or the
 * owner has no id in the parent), ENOMEM.
 */
int create_user_ns(struct cred *new);

/* setgroups(2) is allowed in ns: a gid_map written, setgroups not denied. */
bool userns_may_setgroups(const struct user_namespace *ns);

/*
 * /proc/PID/uid_map, gid_map and setgroups (fs/proc/id_map.c keeps the
 * files; kernel/user_namespace_map.c the rules). A map's text as reader
 * (the opener's namespace) sees it, into buf: its length. A write of the
 * text kbuf (count bytes, NUL-terminated) by a file opener opened:
 * count or -errno.
 */
size_t userns_map_text(char *buf, size_t size, struct user_namespace *ns, bool gid,
		       struct user_namespace *reader);
/* Only the namespace itself or its parent may write its maps, and never
 * the initial one's: 0 or -EPERM, before the text is looked at. */
int userns_map_writer_check(struct user_namespace *ns, const struct cred *opener);
long userns_map_write(struct user_namespace *ns, bool gid, const char *kbuf, size_t count,
		      const struct cred *opener);
long userns_setgroups_write(struct user_namespace *ns, const char *kbuf, size_t count);

/* ---- what a user holds (kernel/ucount.c) ---- */

enum ucount_type {
	UCOUNT_RLIMIT_SIGPENDING,
	UCOUNT_RLIMIT_MSGQUEUE,
	UCOUNT_RLIMIT_COUNTS,
};

/* Add v to uid's count of type if the total stays within max (the
 * caller's rlimit): true, or false with nothing added (over the limit, or
 * no memory for a new user's counts). */
bool inc_rlimit_ucounts_max(uid_t uid, enum ucount_type type, uint64_t v, uint64_t max);
/* Give back what inc_rlimit_ucounts_max added. */
void dec_rlimit_ucounts(uid_t uid, enum ucount_type type, uint64_t v);
/* uid's count now (0 for a user with none). */
uint64_t get_rlimit_ucount(uid_t uid, enum ucount_type type);
