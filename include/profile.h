/* profile.h - the kernel profiler, profile=N (kernel/profile.c). */
#pragma once
#include <kernel.h>

struct trapframe;

/* The value of profile= on the command line: turns the profiler on. */
void profile_setup(const char *value);
/* Each timer tick: count the interrupted kernel instruction. */
void profile_tick(const struct trapframe *tf);
