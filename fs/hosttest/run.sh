#!/usr/bin/env bash
# fs/hosttest/run.sh - test the filesystem code on the host, against Linux.
#
# The files of fs/ (all but exec and the binfmt handlers) are compiled for
# the host with AddressSanitizer, on top of stubs.c (kmalloc is malloc, the
# uaccess helpers treat addresses below 64 KiB as faults, one fake task).
# test.c is one list of system calls built twice: against this kernel's
# sys_* functions, and against the host's real Linux in a tmpfs directory
# (/dev/shm, since our ramfs mimics tmpfs). The two transcripts must agree
# line for line. ktest.c then checks what user space cannot see (leaks,
# ETXTBSY, the tty line discipline, cpio parsing) against kernel.expected;
# given an archive, it also unpacks it and lists the result.
#
#   fs/hosttest/run.sh [ARCHIVE.cpio]     (as root: it tests setuid too)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# A directory of our own: several trees may run this test at once.
out=$(mktemp -d "${TMPDIR:-/tmp}/fs-hosttest.XXXXXX")
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/obj"
san="-fsanitize=address,undefined -fno-omit-frame-pointer"
kf="-std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter -nostdinc -ffreestanding
    -isystem $(gcc -print-file-name=include) -I$here/inc -I$repo/include $san"
objs=()
# kernel/log_buf.c: the kernel log behind /dev/kmsg (fs/kmsg.c).
for f in "$repo"/fs/*.c "$repo"/fs/proc/*.c "$repo"/kernel/log_buf.c; do
	b=$(basename "$f" .c)
	case $b in exec | exec_* | binfmt_* | exports) continue ;; esac
	b=$(basename "$(dirname "$f")")_$b
	gcc $kf -c "$f" -o "$out/obj/$b.o"
	objs+=("$out/obj/$b.o")
done
gcc $kf -Wno-builtin-declaration-mismatch -c "$here/stubs.c" -o "$out/obj/stubs.o"
gcc $kf -Wno-builtin-declaration-mismatch -Wno-format -c "$here/ktest.c" -o "$out/obj/ktest.o"
gcc -O1 -g -Wno-int-conversion -Wno-unused-result $san -c "$here/test.c" -o "$out/obj/test.o"
gcc $san -o "$out/fstest" "$out/obj/test.o" "$out/obj/stubs.o" "$out/obj/ktest.o" "${objs[@]}"
gcc -O1 -g -DREAL -Wno-int-conversion -Wno-unused-result -o "$out/fsreal" "$here/test.c"

"$out/fsreal" > "$out/linux.out"
"$out/fstest" > "$out/ours.out"
if ! diff -u "$out/linux.out" "$out/ours.out"; then
	echo "FAIL: the transcripts differ (- Linux, + ours)"
	exit 1
fi
echo "syscalls: same as Linux ($(grep -c '^[0-9]' "$out/ours.out") calls)"
"$out/fstest" k > "$out/kernel.out"
if ! diff -u "$here/kernel.expected" "$out/kernel.out"; then
	echo "FAIL: kernel-side tests differ from kernel.expected"
	exit 1
fi
echo "kernel-side: as expected (leaks, ETXTBSY, O_PATH, tty, cpio)"
if [ $# -gt 0 ]; then
	"$out/fstest" k "$1"
fi
