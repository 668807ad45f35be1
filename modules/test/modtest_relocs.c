/*
 * modtest_relocs.c - a test module that makes the assembler emit every
 * x86-64 relocation type the loader handles, and checks at init that
 * each was filled in right (-EINVAL if not). The kernel-side checks are
 * in kernel/module/relocate.c.
 */
#include <errno.h>
#include <linux/module.h>
#include <string.h>

static int answer = 42;
int *answer_ptr = &answer;                      /* R_X86_64_64 */

extern const char relocs_pc64_from[];
extern const long relocs_pc64[];
/* R_X86_64_PC64: a 64-bit distance from the datum to a symbol; and
 * R_X86_64_NONE: a relocation that changes nothing. */
__asm__(".pushsection .rodata\n"
	".balign 8\n"
	"relocs_pc64: .quad answer - relocs_pc64\n"
	".reloc ., R_X86_64_NONE, answer\n"
	".quad 0\n"
	".popsection\n");

static long pc64_target(void)
{
	return (long)&answer - (long)relocs_pc64;
}

static int __init modtest_relocs_init(void)
{
	unsigned long abs32s;
	int *pc32;

	/* R_X86_64_32S: an address as a sign-extended 32-bit immediate. */
	__asm__("movq $answer, %0" : "=r"(abs32s));
	/* R_X86_64_PC32: a RIP-relative address. */
	__asm__("leaq answer(%%rip), %0" : "=r"(pc32));
	/* R_X86_64_PLT32: a call (strlen is the kernel's). */
	if (strlen("four") != 4)
		return -EINVAL;
	if (*answer_ptr != 42 || *(int *)abs32s != 42 || *pc32 != 42 ||
	    relocs_pc64[0] != pc64_target() || relocs_pc64[1] != 0)
		return -EINVAL;
	return 0;
}

static void __exit modtest_relocs_exit(void)
{
}

module_init(modtest_relocs_init);
module_exit(modtest_relocs_exit);
MODULE_LICENSE("GPL");
