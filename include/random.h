/* random.h - kernel random numbers (kernel/sys.c, behind getrandom). */
#pragma once
#include <kernel.h>

uint64_t get_random_u64(void);
