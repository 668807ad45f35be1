#!/usr/bin/env bash
# mm/hosttest/run.sh - test the memory code of mm/ on the host.
#
# The files of mm/ are compiled as an ordinary Linux program. "Physical
# memory" is 64 MiB of host memory mmapped at a fake direct-map base (the
# kernel's PHYS_MAP_BASE is not a user address, so a copy of include/ gets
# another value), and x86.h is replaced by stubs that record CR3 writes.
# The page tables are built exactly as in the kernel; only the CPU never
# walks them. uaccess.S runs for real: a SIGSEGV handler plays the page-fault
# handler and resumes at uaccess_fixup(rip), so the -EFAULT paths are tested.
#
#   mm/hosttest/run.sh        prints "ALL OK" or the first failed check
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${TMPDIR:-/tmp}/mm-hosttest
rm -rf "$out"
mkdir -p "$out/inc"
cp "$repo"/include/*.h "$out/inc/"
rm "$out/inc/string.h" # the host's is compatible
sed -i 's/^#define PHYS_MAP_BASE .*/#define PHYS_MAP_BASE 0x200000000000UL/' "$out/inc/kernel.h"
cp "$here/x86.h" "$out/inc/x86.h"
gcc -std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter -fsanitize=undefined \
	-I"$out/inc" -o "$out/mmtest" "$here/test.c" \
	"$repo"/mm/*.c "$repo/mm/uaccess.S"
"$out/mmtest"
