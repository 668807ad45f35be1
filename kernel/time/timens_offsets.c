/*
 * timens_offsets.c - /proc/PID/timens_offsets: the offsets of the time
 * namespace PID's children will be in (its time_for_children), shown as
 *
 *   monotonic          0         0
 *   boottime           0         0
 *
 * (seconds, nanoseconds) and set by writing one or two lines "CLOCK
 * SECONDS NANOSECONDS", CLOCK being "monotonic" or 1, "boottime" or 7.
 * Writing needs CAP_SYS_TIME (EPERM) and a namespace no task has entered
 * yet (EACCES); a clock moved before its zero, or further than Linux's
 * ktime can count, is ERANGE; anything else malformed EINVAL.
 */
#include <cred.h>
#include <errno.h>
#include <proc_fs.h>
#include <sched.h>
#include <string.h>
#include <time_namespace.h>

#define KTIME_SEC_MAX (INT64_MAX / NSEC_PER_SEC)

struct timens_offset {
	int clock;
	int64_t sec, nsec;
};

int timens_show_offsets(struct seq_file *m, struct task *t)
{
	struct time_namespace *ns;

	if (!t->nsproxy)
		return 0;
	ns = t->nsproxy->time_ns_for_children;
	seq_printf(m, "%-10s %10ld %9ld\n", "monotonic", (long)(ns->monotonic_offset_ns / NSEC_PER_SEC),
		   (long)(ns->monotonic_offset_ns % NSEC_PER_SEC));
	seq_printf(m, "%-10s %10ld %9ld\n", "boottime", (long)(ns->boottime_offset_ns / NSEC_PER_SEC),
		   (long)(ns->boottime_offset_ns % NSEC_PER_SEC));
	return 0;
}

/* The next word of *p (at most max bytes kept), *p moved past it; its
 * length, 0 at the end of the line. */
static size_t next_word(const char **p, char *word, size_t max)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	while (*s && *s != ' ' && *s != '\t') {
		if (n < max)
			word[n] = *s;
		n++;
		s++;
	}
	word[n < max ? n : max] = '\0';
	*p = s;
	return n;
}

/* One line into off: 0 or -EINVAL. The nanoseconds may be followed by
 * anything (scanf's rule); the seconds may not. */
static int parse_offset_line(const char *line, struct timens_offset *off)
{
	char clock[16], sec[24], nsec[24];
	unsigned long long ns;
	long long s;
	size_t n;

	if (!next_word(&line, clock, 9) || !next_word(&line, sec, 23) || !next_word(&line, nsec, 23))
		return -EINVAL;
	if (kstrtoll(sec, 10, &s))
		return -EINVAL;
	for (n = 0; nsec[n] >= '0' && nsec[n] <= '9'; n++)
		;
	nsec[n] = '\0';
	if (!n || kstrtoull(nsec, 10, &ns) || ns >= NSEC_PER_SEC)
		return -EINVAL;
	if (!strcmp(clock, "monotonic") || !strcmp(clock, "1"))
		off->clock = CLOCK_MONOTONIC;
	else if (!strcmp(clock, "boottime") || !strcmp(clock, "7"))
		off->clock = CLOCK_BOOTTIME;
	else
		return -EINVAL;
	off->sec = s;
	off->nsec = (int64_t)ns;
	return 0;
}

/* The clock moved by off must stay within [0, KTIME_SEC_MAX / 2]
 * seconds: -ERANGE otherwise. (Both clocks are the same here.) */
static int check_offset(const struct timens_offset *off)
{
	struct timespec now;
	int64_t sec;

	if (off->sec > KTIME_SEC_MAX || off->sec < -KTIME_SEC_MAX)
		return -ERANGE;
	ktime_get_monotonic(&now);
	sec = now.tv_sec + off->sec + (now.tv_nsec + off->nsec) / NSEC_PER_SEC;
	return sec < 0 || sec > KTIME_SEC_MAX / 2 ? -ERANGE : 0;
}

static int set_offsets(struct task *t, const struct timens_offset *offs, int n)
{
	struct time_namespace *ns;
	int err;

	if (!t->nsproxy)
		return -ESRCH;
	ns = t->nsproxy->time_ns_for_children;
	if (!ns_capable(ns->user_ns, CAP_SYS_TIME))
		return -EPERM;
	for (int i = 0; i < n; i++)
		if ((err = check_offset(&offs[i])))
			return err;
	if (ns->frozen_offsets)
		return -EACCES;
	for (int i = 0; i < n; i++) {
		int64_t v = offs[i].sec * NSEC_PER_SEC + offs[i].nsec;
		if (offs[i].clock == CLOCK_MONOTONIC)
			ns->monotonic_offset_ns = v;
		else
			ns->boottime_offset_ns = v;
	}
	return 0;
}

long timens_write_offsets(struct task *t, const char *buf, size_t count)
{
	struct timens_offset offs[2];
	char line[128];
	const char *p = buf;
	int n = 0, err;

	while (*p && n < 2) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len >= sizeof(line))
			return -EINVAL;
		memcpy(line, p, len);
		line[len] = '\0';
		if ((err = parse_offset_line(line, &offs[n++])))
			return err;
		p = end ? end + 1 : p + len;
	}
	if (!n)
		return -EINVAL;
	err = set_offsets(t, offs, n);
	/* Two lines taken: what follows them is left for another write. */
	return err ? err : (long)(*p && n == 2 ? (size_t)(p - buf) : count);
}
