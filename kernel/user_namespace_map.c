/*
 * user_namespace_map.c - writing a user namespace's uid_map and gid_map
 * (/proc/PID/uid_map, user_namespaces(7)), and its setgroups switch.
 *
 * A map is written once, in one write(2) of less than a page at offset
 * 0, each line "first lower count": ids first.. inside the namespace are
 * lower.. in its parent. Who may write what (Linux 6.1's rules):
 *
 *   - the writer's namespace (the opener's) must be the map's namespace
 *     or its parent (EPERM); the opener needs CAP_SYS_ADMIN in the map's
 *     namespace (EPERM);
 *   - a map of one line of one id is the owner's own: the owner may map
 *     its euid (its egid, once "deny" was written to setgroups: else
 *     setgroups(2) could drop a group that denies it access);
 *   - anything else needs CAP_SETUID (CAP_SETGID) in the parent, for the
 *     writer and the opener both;
 *   - mapping the parent's uid 0 needs CAP_SETFCAP (for the creator: at
 *     its creation), since file capabilities would then be trusted.
 *
 * A malformed line, a zero count, an overlap, more than 340 lines: EINVAL.
 * A lower id the parent does not map: EPERM.
 */
#include <cred.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <string.h>
#include <linux/user_namespace.h>

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static const char *skip_spaces(const char *p)
{
	while (is_space(*p))
		p++;
	return p;
}

/* Linux's simple_strtoul into 32 bits: the digits there are (none: 0). */
static uint32_t parse_u32(const char **pp)
{
	const char *p = *pp;
	unsigned long v = 0;

	while (*p >= '0' && *p <= '9')
		v = v * 10 + (unsigned long)(*p++ - '0');
	*pp = p;
	return (uint32_t)v;
}

/* One line "first lower count" into e: 0 or -EINVAL. */
static int parse_extent(const char *line, struct uid_gid_extent *e)
{
	const char *p = skip_spaces(line);

	e->first = parse_u32(&p);
	if (!is_space(*p))
		return -EINVAL;
	p = skip_spaces(p);
	e->lower_first = parse_u32(&p);
	if (!is_space(*p))
		return -EINVAL;
	p = skip_spaces(p);
	e->count = parse_u32(&p);
	if (*p && !is_space(*p))
		return -EINVAL;
	if (*skip_spaces(p))
		return -EINVAL; /* trailing words */
	if (e->first == (uint32_t)-1 || e->lower_first == (uint32_t)-1)
		return -EINVAL;
	/* No zero count, no range that wraps. */
	if (e->first + e->count <= e->first || e->lower_first + e->count <= e->lower_first)
		return -EINVAL;
	return 0;
}

static bool ranges_meet(uint32_t a, uint32_t b, uint32_t count, uint32_t b_count)
{
	return a <= b + b_count - 1 && a + count - 1 >= b;
}

/* Does e meet one of map's lines, above or below? */
static bool mappings_overlap(const struct uid_gid_map *map, const struct uid_gid_extent *e)
{
	for (uint32_t i = 0; i < map->nr_extents; i++) {
		const struct uid_gid_extent *p = &map->extent[i];
		if (ranges_meet(e->first, p->first, e->count, p->count) ||
		    ranges_meet(e->lower_first, p->lower_first, e->count, p->count))
			return true;
	}
	return false;
}

/* Every line of text into map (an array of the maximum): 0 or -EINVAL. */
static int parse_map(char *text, struct uid_gid_map *map)
{
	char *line = text, *next;

	for (; line; line = next) {
		struct uid_gid_extent e;

		next = strchr(line, '\n');
		if (next) {
			*next++ = '\0';
			if (!*next)
				next = NULL;
		}
		if (parse_extent(line, &e) || mappings_overlap(map, &e))
			return -EINVAL;
		if (map->nr_extents + 1 == UID_GID_MAP_MAX_EXTENTS && next)
			return -EINVAL;
		map->extent[map->nr_extents++] = e;
	}
	return map->nr_extents ? 0 : -EINVAL;
}

/* The first of count ids from id, translated down through map, if map
 * holds all of them in one line; (u32)-1 otherwise. */
static uint32_t map_id_range_down(const struct uid_gid_map *map, uint32_t id, uint32_t count)
{
	uint32_t last = id + count - 1;

	for (uint32_t i = 0; i < map->nr_extents; i++) {
		const struct uid_gid_extent *e = &map->extent[i];
		if (id - e->first < e->count && last - e->first < e->count)
			return e->lower_first + (id - e->first);
	}
	return (uint32_t)-1;
}

/* Mapping the parent's uid 0 (Linux's verify_root_map). */
static bool root_map_permitted(struct user_namespace *ns, const struct uid_gid_map *map,
			       const struct cred *opener)
{
	for (uint32_t i = 0; i < map->nr_extents; i++) {
		if (map->extent[i].lower_first != 0)
			continue;
		if (ns == opener->user_ns)
			return ns->parent_could_setfcap;
		return cap_capable(opener, ns->parent, CAP_SETFCAP);
	}
	return true;
}

/* Linux's new_idmap_permitted. */
static bool new_idmap_permitted(struct user_namespace *ns, bool gid, const struct uid_gid_map *map,
				const struct cred *opener)
{
	int cap = gid ? CAP_SETGID : CAP_SETUID;

	if (!gid && !root_map_permitted(ns, map, opener))
		return false;
	/* The owner's own id alone. */
	if (map->nr_extents == 1 && map->extent[0].count == 1 && ns->owner == opener->euid) {
		uint32_t id = map->extent[0].lower_first;
		if (!gid && make_kuid(ns->parent, id) == opener->euid)
			return true;
		if (gid && !(ns->flags & USERNS_SETGROUPS_ALLOWED) && make_kgid(ns->parent, id) == opener->egid)
			return true;
	}
	return ns_capable(ns->parent, cap) && cap_capable(opener, ns->parent, cap);
}

/* Sort the lines by their first id (a map of more than five is looked up
 * in that order in Linux, and read back so). */
static void sort_extents(struct uid_gid_map *map)
{
	for (uint32_t i = 1; i < map->nr_extents; i++) {
		struct uid_gid_extent e = map->extent[i];
		uint32_t j = i;
		for (; j > 0 && map->extent[j - 1].first > e.first; j--)
			map->extent[j] = map->extent[j - 1];
		map->extent[j] = e;
	}
}

int userns_map_writer_check(struct user_namespace *ns, const struct cred *opener)
{
	if (!ns->parent)
		return -EPERM; /* the initial namespace's maps are fixed */
	if (opener->user_ns != ns && opener->user_ns != ns->parent)
		return -EPERM;
	return 0;
}

long userns_map_write(struct user_namespace *ns, bool gid, const char *kbuf, size_t count,
		      const struct cred *opener)
{
	struct uid_gid_map *map = gid ? &ns->gid_map : &ns->uid_map;
	struct uid_gid_map *parent_map;
	struct uid_gid_map new_map = { 0 };
	char *text;
	long err;

	if ((err = userns_map_writer_check(ns, opener)))
		return err;
	parent_map = gid ? &ns->parent->gid_map : &ns->parent->uid_map;
	if (map->nr_extents != 0 || !cap_capable(opener, ns, CAP_SYS_ADMIN))
		return -EPERM; /* written once, by someone with power over ns */
	text = kmalloc(count + 1);
	new_map.extent = kmalloc(UID_GID_MAP_MAX_EXTENTS * sizeof(*new_map.extent));
	err = -ENOMEM;
	if (!text || !new_map.extent)
		goto out;
	memcpy(text, kbuf, count);
	text[count] = '\0';
	if ((err = parse_map(text, &new_map)))
		goto out;
	err = -EPERM;
	if (!new_idmap_permitted(ns, gid, &new_map, opener))
		goto out;
	/* Store the lower ids as kernel ids. */
	for (uint32_t i = 0; i < new_map.nr_extents; i++) {
		struct uid_gid_extent *e = &new_map.extent[i];
		e->lower_first = map_id_range_down(parent_map, e->lower_first, e->count);
		if (e->lower_first == (uint32_t)-1)
			goto out;
	}
	if (new_map.nr_extents > 5)
		sort_extents(&new_map);
	map->extent = new_map.extent;
	map->nr_extents = new_map.nr_extents;
	new_map.extent = NULL;
	err = (long)count;
out:
	kfree(new_map.extent);
	kfree(text);
	return err;
}

size_t userns_map_text(char *buf, size_t size, struct user_namespace *ns, bool gid,
		       struct user_namespace *reader)
{
	const struct uid_gid_map *map = gid ? &ns->gid_map : &ns->uid_map;
	size_t len = 0;

	/* The lower ids as the reader names them: its parent's, if it reads
	 * its own namespace's map. */
	if (reader == ns && reader->parent)
		reader = reader->parent;
	for (uint32_t i = 0; i < map->nr_extents && len < size; i++) {
		const struct uid_gid_extent *e = &map->extent[i];
		uint32_t lower = gid ? from_kgid(reader, e->lower_first) : from_kuid(reader, e->lower_first);
		len += (size_t)snprintf(buf + len, size - len, "%10u %10u %10u\n", e->first, lower, e->count);
	}
	return MIN(len, size);
}

bool userns_may_setgroups(const struct user_namespace *ns)
{
	return ns->gid_map.nr_extents != 0 && (ns->flags & USERNS_SETGROUPS_ALLOWED);
}

/* "allow" or "deny" (and spaces); "deny" is for good, and only before the
 * gid_map is written. */
long userns_setgroups_write(struct user_namespace *ns, const char *kbuf, size_t count)
{
	bool allow;
	const char *p = kbuf;

	if (!strncmp(p, "allow", 5)) {
		allow = true;
		p += 5;
	} else if (!strncmp(p, "deny", 4)) {
		allow = false;
		p += 4;
	} else {
		return -EINVAL;
	}
	if (*skip_spaces(p))
		return -EINVAL;
	if (allow) {
		if (!(ns->flags & USERNS_SETGROUPS_ALLOWED))
			return -EPERM;
	} else {
		if (ns->gid_map.nr_extents != 0)
			return -EPERM;
		ns->flags &= ~USERNS_SETGROUPS_ALLOWED;
	}
	return (long)count;
}
