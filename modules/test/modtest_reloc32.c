/*
 * modtest_reloc32.c - a test module with an R_X86_64_32 relocation: a
 * zero-extended 32-bit address, which no address in the kernel's top
 * 2 GiB fits. The loader refuses it: "overflow in relocation type 10",
 * ENOEXEC (code compiled without -mcmodel=kernel looks like this).
 */
#include <linux/module.h>

int reloc32_answer = 42;

__asm__(".pushsection .data\n"
	".balign 4\n"
	"reloc32_address: .long reloc32_answer\n"
	".popsection\n");

static int __init modtest_reloc32_init(void)
{
	return reloc32_answer == 42 ? 0 : -1;
}

module_init(modtest_reloc32_init);
MODULE_LICENSE("GPL");
