#!/usr/bin/env bash
# run.sh [TEST...] - the test harness (make test). Boots QEMU once per test
# case, captures the serial console, and compares it with the expected output.
#
# A test case NAME lives in tests/cases/:
#   NAME.args      the words given to init, after "--" on the kernel command
#                  line, e.g. "/segv ; /hello"
#   NAME.expected  the exact console output, kernel log lines removed
#                  (lines that start with a "[    0.123456] " time stamp)
#   NAME.append    optional: the kernel words before "--"
#                  (default "console=ttyS0 quiet")
#   NAME.kgrep     optional: extended regexes, one a line, that must each
#                  match some line of the raw console log (kernel messages)
#   NAME.status    optional: QEMU's expected exit status (default 0, the
#                  status of a normal power-off)
#   NAME.nolinux   optional: one line saying why Linux cannot run this test
#                  (scripts/oracle.sh skips it)
# Every expected file is what Linux printed (scripts/oracle.sh --update).
#
# Tests run in parallel; each prints "PASS name" or "FAIL name (reason)" with
# a diff, and the run ends with "N passed, N failed". Logs are kept in
# build/test-logs/NAME.log (raw), NAME.out (normalised), NAME.stderr (QEMU).
#
# Environment: ACCEL=tcg|kvm (default tcg), JOBS (default nproc),
# KERNEL (default build/kernel), INITRD (default build/initramfs.cpio),
# LOG_DIR, ORACLE=1 (the kernel is Linux: skip .nolinux tests, ignore
# .kgrep and .status), UPDATE=1 (with ORACLE=1: write NAME.expected),
# CASES (default tests/cases), TIMEOUT (seconds a boot may take, default 120).
set -euo pipefail

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$self")/.."
CASES=${CASES:-tests/cases}
ACCEL=${ACCEL:-tcg}
KERNEL=${KERNEL:-build/kernel}
INITRD=${INITRD:-build/initramfs.cpio}
LOG_DIR=${LOG_DIR:-build/test-logs}
ORACLE=${ORACLE:-0}
UPDATE=${UPDATE:-0}
TIMEOUT=${TIMEOUT:-120}
DEFAULT_APPEND="console=ttyS0 quiet"
export CASES ACCEL KERNEL INITRD LOG_DIR ORACLE UPDATE TIMEOUT

# The words of a file, on one line.
words() { tr -s ' \t\n' '   ' < "$1" | sed 's/^ //; s/ $//'; }

# Run one test; write its report to $LOG_DIR/NAME.result and print it.
run_one() {
	local name=$1 base=$CASES/$1 log=$LOG_DIR/$1
	local append=$DEFAULT_APPEND args status=0 want=0 fails=()
	local cpu=(-cpu "max,la57=off")

	[ "$ACCEL" = tcg ] || cpu=(-cpu host)
	[ -f "$base.append" ] && append=$(words "$base.append")
	args=$(words "$base.args")
	timeout "$TIMEOUT" qemu-system-x86_64 -accel "$ACCEL" "${cpu[@]}" -m 256M \
		-kernel "$KERNEL" -initrd "$INITRD" -append "$append -- $args" \
		-serial stdio -display none -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		< /dev/null > "$log.log" 2> "$log.stderr" || status=$?

	tr -d '\r' < "$log.log" | { grep -Ev '^\[ *[0-9]+\.[0-9]+\] ' || true; } > "$log.out"

	if [ "$ORACLE" != 1 ] && [ -f "$base.status" ]; then
		want=$(words "$base.status")
	fi
	if [ "$status" = 124 ]; then
		fails+=("timeout after ${TIMEOUT} s")
	elif [ "$status" != "$want" ]; then
		fails+=("QEMU exit status $status, expected $want")
	fi
	if [ "$UPDATE" = 1 ] && [ ${#fails[@]} = 0 ] && ! cmp -s "$log.out" "$base.expected"; then
		cp "$log.out" "$base.expected"
		echo "updated $base.expected" > "$log.result"
	fi
	if [ ! -f "$base.expected" ]; then
		fails+=("no $base.expected")
	elif ! diff -u --label "$base.expected" --label "$log.out" \
		"$base.expected" "$log.out" > "$log.diff"; then
		fails+=("output differs")
	fi
	if [ "$ORACLE" != 1 ] && [ -f "$base.kgrep" ]; then
		local re
		while IFS= read -r re; do
			[ -z "$re" ] && continue
			tr -d '\r' < "$log.log" | grep -Eq -- "$re" ||
				fails+=("no kernel line matches /$re/")
		done < "$base.kgrep"
	fi

	{
		if [ ${#fails[@]} = 0 ]; then
			echo "PASS $name"
		else
			local f reason=
			for f in "${fails[@]}"; do reason=${reason:+$reason; }$f; done
			echo "FAIL $name ($reason)"
			[ -s "$log.diff" ] && cat "$log.diff"
			[ -s "$log.stderr" ] && sed 's/^/qemu: /' "$log.stderr"
			echo "    log: $log.log"
		fi
	} >> "$log.result"
	cat "$log.result"
}

if [ "${1:-}" = --one ]; then
	run_one "$2"
	exit 0
fi

if [ ! -f "$KERNEL" ] || [ ! -f "$INITRD" ]; then
	echo "run.sh: $KERNEL or $INITRD is missing: run make first" >&2
	exit 2
fi

names=()
if [ $# -gt 0 ]; then
	for n in "$@"; do
		n=$(basename "$n" .args)
		[ -f "$CASES/$n.args" ] || { echo "run.sh: no test $CASES/$n.args" >&2; exit 2; }
		names+=("$n")
	done
else
	for f in "$CASES"/*.args; do
		names+=("$(basename "$f" .args)")
	done
fi

mkdir -p "$LOG_DIR"
todo=()
for n in "${names[@]}"; do
	rm -f "$LOG_DIR/$n".{log,out,diff,stderr,result}
	if [ "$ORACLE" = 1 ] && [ -f "$CASES/$n.nolinux" ]; then
		echo "SKIP $n (not for Linux: $(head -n1 "$CASES/$n.nolinux"))"
	else
		todo+=("$n")
	fi
done

if [ ${#todo[@]} -gt 0 ]; then
	printf '%s\n' "${todo[@]}" | xargs -P "${JOBS:-$(nproc)}" -n 1 "$self" --one || true
fi

passed=0 failed=0
for n in "${todo[@]}"; do
	if grep -q '^PASS ' "$LOG_DIR/$n.result" 2>/dev/null; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
