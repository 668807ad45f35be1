/*
 * timer.c - the periodic tick: PIT channel 0 at HZ (100) interrupts a
 * second. Each tick counts jiffies, feeds the profiler (profile=N), wakes sleepers whose time has come and,
 * if it interrupted user code, lets the scheduler pick another task.
 */
#include <kernel.h>
#include <log_buf.h>
#include <profile.h>
#include <sched.h>
#include <trap.h>
#include <x86.h>

#define PIT_HZ 1193182
#define IRQ_TIMER 0

volatile uint64_t jiffies;

static void timer_interrupt(struct trapframe *tf)
{
	jiffies++;
	profile_tick(tf);
	sched_tick(trap_from_user(tf));
	sched_tick_global();
	/* Work left for a holder of the big kernel lock, as this handler is
	 * (Linux's irq_work, run from the tick): a printk without it. */
	if (log_readers_to_wake())
		log_wake_readers();
}

void timer_init(void)
{
	uint16_t divisor = PIT_HZ / HZ;

	outb(0x43, 0x34); /* channel 0, lobyte/hibyte, rate generator */
	outb(0x40, divisor & 0xff);
	outb(0x40, divisor >> 8);
	irq_register(IRQ_TIMER, timer_interrupt, "timer");
	irq_unmask(IRQ_TIMER);
}
