/*
 * lock_stat.c - lock statistics and their /proc files (include/lock_stat.h
 * says what is counted and who may touch the counts).
 *
 * /proc/lock_stat prints, as Linux's does, a version line and one line a
 * lock class: contentions and acquisitions with their "bounces" (those
 * that moved the lock to another CPU), then the wait and hold times'
 * minimum, maximum, total and average in microseconds with two decimals.
 * Linux adds the call sites that waited most; these are not kept here.
 */
#include <errno.h>
#include <kernel.h>
#include <lock_stat.h>
#include <proc_fs.h>
#include <smp.h>
#include <smp_lock.h>
#include <string.h>
#include <timekeeping.h>
#include <linux/init.h>

int lock_stat_enabled;

static struct lock_class_stats *const classes[] = { &kernel_lock_stats };

uint64_t __lock_stat_clock(void) { return ktime_get_ns(); }

static void add_time(uint64_t t, uint64_t *min, uint64_t *max, uint64_t *total)
{
	if (!t)
		return;
	if (!*min || t < *min)
		*min = t;
	if (t > *max)
		*max = t;
	*total += t;
}

void __lock_stat_acquired(struct lock_class_stats *s, uint64_t wait_start)
{
	int cpu = smp_processor_id();
	bool bounced = s->last_cpu != -1 && s->last_cpu != cpu;

	s->held_since = ktime_get_ns();
	s->acquisitions++;
	s->acq_bounces += bounced;
	s->last_cpu = cpu;
	if (!wait_start)
		return;
	s->contentions++;
	s->con_bounces += bounced;
	add_time(s->held_since - wait_start, &s->wait_min, &s->wait_max, &s->wait_total);
}

void __lock_stat_released(struct lock_class_stats *s)
{
	/* A lock taken before the statistics were turned on has no start. */
	if (!s->held_since)
		return;
	add_time(ktime_get_ns() - s->held_since, &s->hold_min, &s->hold_max, &s->hold_total);
	s->held_since = 0;
}

static void clear_stats(struct lock_class_stats *s)
{
	const char *name = s->name;
	uint64_t held_since = s->held_since;

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->held_since = held_since; /* the reader holds it: keep its start */
	s->last_cpu = -1;
}

/* A time in ns as Linux prints it: microseconds, two decimals. */
static void show_time(struct seq_file *m, uint64_t ns)
{
	seq_printf(m, " %11lu.%02lu", (unsigned long)(ns / 1000), (unsigned long)(ns % 1000 / 10));
}

static void show_class(struct seq_file *m, const struct lock_class_stats *s)
{
	seq_printf(m, "%40s: %14lu %14lu", s->name, (unsigned long)s->con_bounces,
		   (unsigned long)s->contentions);
	show_time(m, s->wait_min);
	show_time(m, s->wait_max);
	show_time(m, s->wait_total);
	show_time(m, s->contentions ? s->wait_total / s->contentions : 0);
	seq_printf(m, " %14lu %14lu", (unsigned long)s->acq_bounces, (unsigned long)s->acquisitions);
	show_time(m, s->hold_min);
	show_time(m, s->hold_max);
	show_time(m, s->hold_total);
	show_time(m, s->acquisitions ? s->hold_total / s->acquisitions : 0);
	seq_printf(m, "\n");
}

static const char *const columns[] = {
	"con-bounces", "contentions", "waittime-min", "waittime-max", "waittime-total",
	"waittime-avg", "acq-bounces", "acquisitions", "holdtime-min", "holdtime-max",
	"holdtime-total", "holdtime-avg",
};

static void show_rule(struct seq_file *m)
{
	for (size_t i = 0; i < 40 + 2 + ARRAY_SIZE(columns) * 15; i++)
		seq_printf(m, "-");
	seq_printf(m, "\n");
}

static int show_lock_stat(struct seq_file *m)
{
	seq_printf(m, "lock_stat version 0.4\n");
	show_rule(m);
	seq_printf(m, "%40s  ", "class name");
	for (size_t i = 0; i < ARRAY_SIZE(columns); i++)
		seq_printf(m, " %14s", columns[i]);
	seq_printf(m, "\n");
	show_rule(m);
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++) {
		seq_printf(m, "\n");
		show_class(m, classes[i]);
	}
	return 0;
}

/* Only "0" (clear) is understood, as on Linux. */
static int write_lock_stat(const char *buf, size_t count)
{
	if (count && buf[0] == '0')
		for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
			clear_stats(classes[i]);
	return 0;
}

static int show_enabled(struct seq_file *m)
{
	seq_printf(m, "%d\n", lock_stat_enabled);
	return 0;
}

/* Any integer, as Linux's proc_dointvec takes it: not 0 turns them on. */
static int write_enabled(const char *buf, size_t count)
{
	int on, err = kstrtoint(buf, 10, &on);

	(void)count;
	if (err)
		return err;
	/* A lock held now was taken untimed: its release counts nothing. */
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		classes[i]->held_since = 0;
	lock_stat_enabled = on;
	return 0;
}

static int lock_stat_init(void)
{
	int err = proc_create("lock_stat", 0600, show_lock_stat, write_lock_stat);

	return err ? err : proc_create("sys/kernel/lock_stat", 0644, show_enabled, write_enabled);
}
fs_initcall(lock_stat_init);
