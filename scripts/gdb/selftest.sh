#!/usr/bin/env bash
# selftest.sh - show that the gdb helpers (scripts/gdb/execve.py) work on
# the kernel: gdb loads them without an error, lx-ps without a target says
# so, then a batch session on
# QEMU's gdbstub stops in load_script when /usr/lib/exec-tests/do_execve runs the script
# ./wrapper_args and runs each command (make test runs this).
# Prints "PASS gdb helpers" or "FAIL gdb helpers" and the session.
set -euo pipefail
cd "$(dirname "$0")/../.."
KERNEL=${KERNEL:-build/kernel}
log=build/gdb-selftest.log
port=$((20000 + $$ % 20000))
fail() { echo "FAIL gdb helpers: $1 (session: $log)"; exit 1; }

command -v gdb > /dev/null || { echo "SKIP gdb helpers (no gdb)"; exit 0; }
out=$(gdb -q -batch -nx -x scripts/gdb/execve.py "$KERNEL" 2>&1) || fail "gdb exited with $?"
grep -q '^execve.py: lx-ps' <<< "$out" && ! grep -qi 'error' <<< "$out" ||
	{ echo "$out" > "$log"; fail "loading execve.py"; }
# Without QEMU (or after it went away) the commands say so, rather than
# print the tables of the file's own zeros.
out=$(gdb -q -batch -nx -x scripts/gdb/execve.py -ex lx-ps "$KERNEL" 2>&1) || true
grep -q '^no target' <<< "$out" || { echo "$out" > "$log"; fail "lx-ps without a target"; }

qemu-system-x86_64 -accel tcg -cpu max,la57=off -m 256M -display none -no-reboot \
	-serial file:build/gdb-selftest.serial -kernel "$KERNEL" -initrd build/initramfs.cpio \
	-append "console=ttyS0 quiet -- /usr/lib/exec-tests/do_execve ./wrapper_args" -S -gdb tcp:127.0.0.1:$port &
qpid=$!
trap 'kill $qpid 2> /dev/null || true' EXIT
# load_script is asked about every exec: stop at the first "#!" file.
timeout 120 gdb -q -batch -nx -x scripts/gdb/execve.py \
	-ex "target remote 127.0.0.1:$port" -ex "break load_script if bprm->buf[0] == '#'" \
	-ex continue -ex lx-ps -ex lx-bprm -ex 'lx-pagetables bprm->mm' \
	-ex 'lx-pte bprm->p bprm->mm' -ex 'lx-pagetables 1' -ex kill "$KERNEL" > "$log" 2>&1 || true
for want in 'do_execve .*<- current' 'filename "./wrapper_args"' "buf's first line: '#!./show_info" \
	'bprm->mm: pml4 at' 'PT  \[.*\] = 0x.* rw-u' 'pid 1 \(init\): pml4 at'; do
	grep -Eq -- "$want" "$log" || fail "no line matches /$want/"
done
if grep -Eq 'Error|Traceback|Python Exception' "$log"; then
	fail "a command failed"
fi
echo "PASS gdb helpers"
