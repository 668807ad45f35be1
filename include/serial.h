/* serial.h - the COM1 UART (drivers/tty/serial.c): kernel console and the line
 * under /dev/console. Bytes go out as given; newline translation is the
 * caller's business (printk and the tty both turn "\n" into "\r\n"). */
#pragma once
#include <kernel.h>

void serial_init(void);
void serial_putc(char c);
void serial_write(const char *buf, size_t n);
/* fn is called from the interrupt handler for every byte received. */
void serial_set_rx_handler(void (*fn)(uint8_t c));
