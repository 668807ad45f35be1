#!/usr/bin/env bash
# mm/hosttest/run.sh - test the memory code of mm/ on the host.
#
# The files of mm/ are compiled as an ordinary Linux program. "Physical
# memory" is 64 MiB of host memory mmapped at a fake direct-map base (the
# kernel's PHYS_MAP_BASE is not a user address, so a copy of include/ gets
# another value), and x86.h is replaced by stubs that record CR3 writes.
# The page tables are built exactly as in the kernel; only the CPU never
# walks them. uaccess.S runs for real: a SIGSEGV handler (segv.c) plays the
# page-fault handler and resumes at uaccess_fixup(rip), so the -EFAULT paths
# are tested.
#
#   mm/hosttest/run.sh        prints "ALL OK" or the first failed check
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# A directory of our own: several trees may run this test at once.
out=$(mktemp -d "${TMPDIR:-/tmp}/mm-hosttest.XXXXXX")
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/inc"
cp "$repo"/include/*.h "$out/inc/"
rm "$out/inc/string.h" # the host's is compatible
sed -i 's/^#define PHYS_MAP_BASE .*/#define PHYS_MAP_BASE 0x200000000000UL/' "$out/inc/kernel.h"
cp "$here/x86.h" "$out/inc/x86.h"
cflags=(-std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter -fsanitize=undefined)
# segv.c uses the host's <signal.h>, which a kernel header of the same name
# would hide: it is compiled apart, without the copy of include/.
gcc "${cflags[@]}" -c -o "$out/segv.o" "$here/segv.c"
# Not the kernel's own mappings (they need the real machine), nor the OOM
# killer (it needs processes).
srcs=()
for f in "$repo"/mm/*.c; do
	case $(basename "$f") in kernel_map.c | kstack.c | vmalloc.c | oom_kill.c | kasan.c) ;; *) srcs+=("$f") ;; esac
done
gcc "${cflags[@]}" -I"$out/inc" -o "$out/mmtest" "$here/test.c" "$out/segv.o" \
	"${srcs[@]}" "$repo/mm/uaccess.S"
"$out/mmtest"
