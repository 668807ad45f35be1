/*
 * serial.c - the 16550 UART at COM1 (I/O port 0x3f8), 115200 baud, 8N1.
 * Output is polled (the kernel may print from anywhere, even a fault
 * handler); input arrives by interrupt (IRQ 4) and goes to a handler that
 * the tty registers.
 */
#include <kernel.h>
#include <serial.h>
#include <trap.h>
#include <x86.h>

#define COM1 0x3f8
#define REG_DATA 0
#define REG_IER 1 /* interrupt enable */
#define REG_FCR 2 /* FIFO control */
#define REG_LCR 3 /* line control */
#define REG_MCR 4 /* modem control */
#define REG_LSR 5 /* line status */
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20
#define IRQ_COM1 4

static void (*rx_handler)(uint8_t c);

void serial_init(void)
{
	outb(COM1 + REG_IER, 0x00);
	outb(COM1 + REG_LCR, 0x80); /* divisor latch */
	outb(COM1 + 0, 0x01);       /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + REG_LCR, 0x03); /* 8 bits, no parity, one stop bit */
	outb(COM1 + REG_FCR, 0xc7); /* FIFOs on, cleared, 14-byte threshold */
	outb(COM1 + REG_MCR, 0x0b); /* DTR, RTS, OUT2 (routes the IRQ) */
}

void serial_putc(char c)
{
	while (!(inb(COM1 + REG_LSR) & LSR_THR_EMPTY))
		;
	outb(COM1 + REG_DATA, (uint8_t)c);
}

void serial_write(const char *buf, size_t n)
{
	while (n--)
		serial_putc(*buf++);
}

static void serial_irq(struct trapframe *tf)
{
	(void)tf;
	while (inb(COM1 + REG_LSR) & LSR_DATA_READY) {
		uint8_t c = inb(COM1 + REG_DATA);
		if (rx_handler)
			rx_handler(c);
	}
}

void serial_set_rx_handler(void (*fn)(uint8_t c))
{
	rx_handler = fn;
	irq_register(IRQ_COM1, serial_irq, "ttyS0");
	outb(COM1 + REG_IER, 0x01); /* interrupt when data arrives */
	irq_unmask(IRQ_COM1);
}
