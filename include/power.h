/* power.h - stopping the machine (arch/x86/kernel/power.c). */
#pragma once
#include <kernel.h>

void __noreturn machine_power_off(void);
void __noreturn machine_restart(void);
/* After a kernel fault: make QEMU exit with a non-zero status if it has
 * the isa-debug-exit device, otherwise stop the CPU for good. */
void __noreturn machine_halt_with_error(void);
