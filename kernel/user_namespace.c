/*
 * user_namespace.c - user namespaces (include/linux/user_namespace.h):
 * their tree, their life, the translation of ids through their maps, and
 * setns into one. The rules for writing the maps (/proc/PID/uid_map,
 * gid_map, setgroups) are in kernel/user_namespace_map.c.
 */
#include "../fs/vfs.h" /* fs_struct: Linux's <linux/fs_struct.h> */
#include <cred.h>
#include <errno.h>
#include <mm.h>
#include <nsproxy.h>
#include <sched.h>
#include <linux/user_namespace.h>

/* The initial namespace maps every id to itself (4294967295 of them:
 * (u32)-1 is no id). */
static struct uid_gid_extent init_identity = { 0, 0, 4294967295U };

struct user_namespace init_user_ns = {
	.ns = { .inum = PROC_USER_INIT_INO, .count = 1, .ops = &userns_operations },
	.uid_map = { .nr_extents = 1, .extent = &init_identity },
	.gid_map = { .nr_extents = 1, .extent = &init_identity },
	.flags = USERNS_SETGROUPS_ALLOWED,
	.parent_could_setfcap = true,
};

/* ---- translation ---------------------------------------------------------- */

/* The lower id of id (inside), or (u32)-1 if no line of map holds it. */
static uint32_t map_id_down(const struct uid_gid_map *map, uint32_t id)
{
	for (uint32_t i = 0; i < map->nr_extents; i++) {
		const struct uid_gid_extent *e = &map->extent[i];
		if (id - e->first < e->count)
			return e->lower_first + (id - e->first);
	}
	return (uint32_t)-1;
}

/* The id inside whose lower id is id, or (u32)-1. */
static uint32_t map_id_up(const struct uid_gid_map *map, uint32_t id)
{
	for (uint32_t i = 0; i < map->nr_extents; i++) {
		const struct uid_gid_extent *e = &map->extent[i];
		if (id - e->lower_first < e->count)
			return e->first + (id - e->lower_first);
	}
	return (uint32_t)-1;
}

uid_t make_kuid(struct user_namespace *ns, uid_t uid) { return map_id_down(&ns->uid_map, uid); }
gid_t make_kgid(struct user_namespace *ns, gid_t gid) { return map_id_down(&ns->gid_map, gid); }
uid_t from_kuid(struct user_namespace *ns, uid_t kuid) { return map_id_up(&ns->uid_map, kuid); }
gid_t from_kgid(struct user_namespace *ns, gid_t kgid) { return map_id_up(&ns->gid_map, kgid); }

uid_t from_kuid_munged(struct user_namespace *ns, uid_t kuid)
{
	uid_t uid = from_kuid(ns, kuid);

	return uid == INVALID_UID ? OVERFLOW_UID : uid;
}

gid_t from_kgid_munged(struct user_namespace *ns, gid_t kgid)
{
	gid_t gid = from_kgid(ns, kgid);

	return gid == INVALID_GID ? OVERFLOW_GID : gid;
}

bool in_userns(const struct user_namespace *ancestor, const struct user_namespace *child)
{
	const struct user_namespace *ns = child;

	while (ns->level > ancestor->level)
		ns = ns->parent;
	return ns == ancestor;
}

/* ---- life ----------------------------------------------------------------- */

/* What a cred has in a namespace it enters or creates: every capability,
 * bound to that namespace (Linux's set_cred_user_ns). Takes over ns's
 * reference. */
static void set_cred_user_ns(struct cred *cred, struct user_namespace *ns)
{
	cred->securebits = 0;
	cred->cap_inheritable = CAP_EMPTY_SET;
	cred->cap_permitted = CAP_FULL_SET;
	cred->cap_effective = CAP_FULL_SET;
	cred->cap_ambient = CAP_EMPTY_SET;
	cred->cap_bset = CAP_FULL_SET;
	cred->user_ns = ns;
}

int create_user_ns(struct cred *new)
{
	struct user_namespace *parent = new->user_ns, *ns;

	if (parent->level >= USERNS_MAX_LEVEL)
		return -ENOSPC;
	if (current_chrooted())
		return -EPERM;
	/* The creator needs a name in the parent, to be told who made it. */
	if (!kuid_has_mapping(parent, new->euid) || !kgid_has_mapping(parent, new->egid))
		return -EPERM;
	ns = kzalloc(sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	if (ns_common_init(&ns->ns, &userns_operations)) {
		kfree(ns);
		return -ENOSPC;
	}
	ns->parent_could_setfcap = cap_raised(new->cap_effective, CAP_SETFCAP);
	ns->parent = parent; /* new's reference on parent passes to ns */
	ns->level = parent->level + 1;
	ns->owner = new->euid;
	ns->group = new->egid;
	ns->flags = parent->flags;
	set_cred_user_ns(new, ns);
	return 0;
}

/* A namespace's last put frees it, then drops its parent (a loop, not
 * recursion: the tree may be 33 deep). */
void put_user_ns(struct user_namespace *ns)
{
	while (ns && --ns->ns.count == 0) {
		struct user_namespace *parent = ns->parent;

		BUG_ON(ns == &init_user_ns);
		kfree(ns->uid_map.extent);
		kfree(ns->gid_map.extent);
		ns_free_inum(ns->ns.inum);
		kfree(ns);
		ns = parent;
	}
}

/* ---- /proc/PID/ns/user and setns ------------------------------------------ */

static struct user_namespace *to_user_ns(struct ns_common *ns)
{
	return container_of(ns, struct user_namespace, ns);
}

static struct ns_common *userns_get(struct task *t)
{
	if (!t->real_cred)
		return NULL;
	return &get_user_ns(task_cred(t)->user_ns)->ns;
}

static void userns_put(struct ns_common *ns)
{
	put_user_ns(to_user_ns(ns));
}

/* setns: the creds setns will commit get every capability in ns. */
static int userns_install(struct nsset *nsset, struct ns_common *new)
{
	struct user_namespace *ns = to_user_ns(new);

	/* Re-entering one's own namespace would refill the capabilities. */
	if (ns == current_user_ns())
		return -EINVAL;
	/* The threads of a process, and who shares its root, share it. */
	if (!thread_group_empty(current->group_leader) || current->fs->count != 1)
		return -EINVAL;
	if (!ns_capable(ns, CAP_SYS_ADMIN))
		return -EPERM;
	put_user_ns(nsset->cred->user_ns);
	set_cred_user_ns(nsset->cred, get_user_ns(ns));
	return 0;
}

/* The owner of a user namespace is its parent. */
static struct user_namespace *userns_owner(struct ns_common *ns)
{
	return to_user_ns(ns)->parent;
}

/* NS_GET_PARENT: the parent, if the caller's namespace is it or above it. */
static struct ns_common *userns_get_parent(struct ns_common *ns)
{
	return ns_get_owner(ns);
}

const struct proc_ns_operations userns_operations = {
	.name = "user",
	.type = CLONE_NEWUSER,
	.get = userns_get,
	.put = userns_put,
	.install = userns_install,
	.get_parent = userns_get_parent,
	.owner = userns_owner,
};
