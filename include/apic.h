/*
 * apic.h - the local APIC of each CPU and the I/O APIC
 * (arch/x86/kernel/apic.c, io_apic.c).
 *
 * Vectors 0xe0 and up are the "system vectors", as Linux numbers them:
 * each CPU's timer and the interprocessor interrupts (IPIs). Device
 * interrupts stay at IRQ_BASE + n (include/trap.h).
 */
#pragma once
#include <kernel.h>

#define FIRST_SYSTEM_VECTOR 0xe0
#define LOCAL_TIMER_VECTOR 0xec
#define CALL_FUNCTION_VECTOR 0xfc
#define RESCHEDULE_VECTOR 0xfd
#define SPURIOUS_APIC_VECTOR 0xff

struct trapframe;

extern uint64_t lapic_phys;      /* the local APICs' registers (MADT) */
void lapic_init(void);           /* the calling CPU's local APIC, on */
void lapic_timer_calibrate(void); /* once, on the boot CPU */
void lapic_timer_start(void);    /* the calling CPU's tick, at HZ */
uint32_t lapic_id(void);
void lapic_send_ipi(uint32_t apic_id, uint32_t icr_low);
void lapic_send_init_sipi(uint32_t apic_id, uint64_t start_phys);
void apic_interrupt(struct trapframe *tf); /* a system vector arrived */
void lapic_eoi(void);            /* end the interrupt being handled */
void lapic_mask_lint0(void);     /* the 8259 PICs' line: no longer used */
void io_apic_setup(void);        /* device interrupts through the I/O APIC */
