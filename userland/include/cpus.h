/*
 * cpus.h - what the SMP tests (userland/smp/) share: how many CPUs this
 * process may run on, pinning the calling thread to one of them, and a
 * CPU mask as the list of its CPUs ("0,1").
 *
 * sched_setaffinity(0, ...) pins the calling thread only (pid 0 is the
 * caller, a thread, not its whole process), as Linux has it.
 */
#ifndef CPUS_H
#define CPUS_H

#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>

/* The CPUs the caller may run on: at start, every online CPU. */
static inline int cpus_allowed(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	return CPU_COUNT(&set);
}

/* Pin the calling thread to CPU cpu; 0, or -1 with errno. */
static inline int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The CPUs of set, as "0,2,3" ("none" if it has none), in a static buffer. */
static inline const char *cpu_list(const cpu_set_t *set)
{
	static char buf[256];
	size_t n = 0;

	buf[0] = 0;
	for (int c = 0; c < CPU_SETSIZE && n < sizeof(buf) - 8; c++)
		if (CPU_ISSET(c, set))
			n += snprintf(buf + n, sizeof(buf) - n, "%s%d", n ? "," : "", c);
	return n ? buf : "none";
}

/* The calling thread's affinity as cpu_list prints it. */
static inline const char *my_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return "error";
	return cpu_list(&set);
}

#endif
