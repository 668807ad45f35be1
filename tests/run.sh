#!/usr/bin/env bash
# run.sh [--pending] [TEST...] - the test harness (make test). Boots QEMU
# once per test case, captures the serial console, and compares it with the
# expected output.
#
# A test case NAME lives in a subject folder of tests/cases/ (exec/,
# elf/, ... as userland/'s), as tests/cases/SUBJECT/NAME.*; names are
# unique across folders:
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
#   NAME.input     optional: lines typed on the serial console while the test
#                  runs, with <wait TEXT>, <sleep N> and ^C tokens (see
#                  tests/type-input.sh). An empty NAME.args with an input
#                  file boots init's make-run mode: the busybox shell.
#   NAME.requires  optional: paths, one a line (e.g. /bin/busybox), that
#                  the initramfs must hold; else the test is skipped (as
#                  when busybox could not be downloaded)
#   NAME.build     optional: the make variables of the build the test boots,
#                  "MODULES=y": build/modules-y/kernel and its initramfs
#                  (make MODULES=y; make test builds both). The oracle
#                  boots Linux with that initramfs.
#   NAME.rootfs    optional: the word "debian": boot the initramfs with
#                  Debian's bash, coreutils and python3 (the initramfs's
#                  name with -debian before .cpio; make builds it)
#   NAME.initrd    optional: another archive than INITRD, e.g.
#                  build/initramfs-small.cpio
#   NAME.mem       optional: the guest's memory (QEMU's -m), if not 256M
#                  (Linux runs the test with 256M: its expected output is
#                  what our kernel must print with less)
#   NAME.timeout   optional: seconds the boot may take, if more than
#                  TIMEOUT (a long run such as a fuzzer's)
#   NAME.sanitize  optional: the sanitizer (ubsan, kasan) the kernel must be
#                  built with (make SANITIZE=...), else the test is skipped;
#                  or !kasan: skipped on a kernel built with it
# Every expected file is what Linux printed (scripts/oracle.sh --update).
#
# Tests that do not pass on our kernel yet wait in tests/pending/ (same
# layout, not run by make test): `tests/run.sh --pending [NAME...]` runs
# them; a test moves to tests/cases/ once it passes.
#
# Tests run in parallel; each prints "PASS name", "SKIP name (reason)" or
# "FAIL name (reason)" with a diff, and the run ends with "N passed, N
# failed" (", N skipped" added when some were). Logs are kept in
# build/test-logs/NAME.log (raw), NAME.out (normalised), NAME.stderr (QEMU).
#
# A kernel sanitizer's report ("UBSAN: ...") fails a test unless its
# .kgrep expects it.
#
# Environment: ACCEL=tcg|kvm (default tcg), JOBS (default nproc),
# SANITIZE (the sanitizers the kernel was built with, as make's),
# KERNEL (default build/kernel), INITRD (default build/initramfs.cpio),
# LOG_DIR, ORACLE=1 (the kernel is Linux: skip .nolinux tests, ignore
# .kgrep and .status), UPDATE=1 (with ORACLE=1: write NAME.expected),
# CASES (default tests/cases), TIMEOUT (seconds a boot may take, default 120),
# INPUT_WAIT (seconds a <wait> of NAME.input may take, default 60),
# APPEND_EXTRA (kernel words added to every test's, e.g. "strace": then
# build/test-logs/NAME.log shows every system call and its result),
# SHARD=k/n (run only every n-th case, those whose index in the sorted
# list is k-1 modulo n: n CI machines split the suite), JUNIT (the JUnit
# XML report written at the end, default build/test.xml; empty: none).
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
JUNIT=${JUNIT-build/test.xml}
SHARD=${SHARD:-}
export CASES ACCEL KERNEL INITRD LOG_DIR ORACLE UPDATE TIMEOUT

# The words of a file, on one line.
words() { tr -s ' \t\n' '   ' < "$1" | sed 's/^ //; s/ $//'; }

# case_base NAME: the path of test NAME's files without their extension,
# CASES/SUBJECT/NAME (nothing if there is no such test).
case_base() {
	local f
	for f in "$CASES"/*/"$1.args"; do
		[ -f "$f" ] && echo "${f%.args}"
	done
	true
}

# build_dir NAME: the build directory of test NAME's NAME.build ("MODULES=y"
# gives build/modules-y, as the Makefile names it), or nothing.
build_dir() {
	local base
	base=$(case_base "$1")
	[ -f "$base.build" ] && echo "build/$(words "$base.build" | tr 'A-Z =' 'a-z--')"
	true
}

# Run one test; write its report to $LOG_DIR/NAME.result and print it.
run_one() {
	local name=$1 base log=$LOG_DIR/$1
	local append=$DEFAULT_APPEND args status=0 want=0 fails=()
	local cpu=(-cpu "max,la57=off")
	local KERNEL=$KERNEL INITRD=$INITRD dir
	base=$(case_base "$name")
	dir=$(build_dir "$name")
	if [ -n "$dir" ]; then
		INITRD=$dir/initramfs.cpio
		[ "$ORACLE" = 1 ] || KERNEL=$dir/kernel
	fi
	[ -f "$base.rootfs" ] && INITRD=${INITRD%.cpio}-$(words "$base.rootfs").cpio
	[ -f "$base.initrd" ] && INITRD=$(words "$base.initrd")

	[ "$ACCEL" = tcg ] || cpu=(-cpu host)
	[ -f "$base.append" ] && append=$(words "$base.append")
	[ -n "${APPEND_EXTRA:-}" ] && append+=" $APPEND_EXTRA"
	args=$(words "$base.args")
	local timeout=$TIMEOUT mem=256M
	[ -f "$base.timeout" ] && timeout=$(words "$base.timeout")
	[ "$ORACLE" != 1 ] && [ -f "$base.mem" ] && mem=$(words "$base.mem")
	local started=$SECONDS
	local qemu=(timeout "$timeout" qemu-system-x86_64 -accel "$ACCEL" "${cpu[@]}"
		-m "$mem" -kernel "$KERNEL" -initrd "$INITRD" -append "$append -- $args"
		-serial stdio -display none -no-reboot
		-device isa-debug-exit,iobase=0xf4,iosize=0x04)
	if [ -f "$base.input" ]; then
		# The serial input is a FIFO that type-input.sh writes into
		# while it watches the console log.
		local typist qpid
		rm -f "$log.fifo" "$log.log.input-error"
		mkfifo "$log.fifo"
		"${qemu[@]}" < "$log.fifo" > "$log.log" 2> "$log.stderr" &
		qpid=$!
		tests/type-input.sh "$base.input" "$log.log" "$qpid" > "$log.fifo" &
		typist=$!
		wait "$qpid" || status=$?
		kill "$typist" 2> /dev/null || true
		wait "$typist" 2> /dev/null || true
		rm -f "$log.fifo"
		[ -f "$log.log.input-error" ] &&
			fails+=("typing the input: $(cat "$log.log.input-error")")
	else
		"${qemu[@]}" < /dev/null > "$log.log" 2> "$log.stderr" || status=$?
	fi

	echo $((SECONDS - started)) > "$log.time"
	tr -d '\r' < "$log.log" | { grep -Ev '^\[ *[0-9]+\.[0-9]+\] ' || true; } > "$log.out"

	if [ "$ORACLE" != 1 ] && [ -f "$base.status" ]; then
		want=$(words "$base.status")
	fi
	if [ ${#fails[@]} != 0 ]; then
		: # QEMU was stopped by type-input.sh
	elif [ "$status" = 124 ]; then
		fails+=("timeout after ${timeout} s")
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
		tr -d '\r' < "$log.log" > "$log.raw"
		while IFS= read -r re; do
			[ -z "$re" ] && continue
			# Not "tr | grep -q": grep -q quits at the first match, tr
			# then dies of SIGPIPE, and pipefail would call it a miss.
			grep -Eq -- "$re" "$log.raw" ||
				fails+=("no kernel line matches /$re/")
		done < "$base.kgrep"
	fi

	# A sanitizer's report (make SANITIZE=ubsan) is a kernel bug: it fails
	# every test but those that provoke one on purpose (their .kgrep says so).
	if [ "$ORACLE" != 1 ] && ! grep -qsE 'UBSAN|KASAN' "$base.kgrep" &&
		grep -aqE '(UBSAN|KASAN): ' "$log.log"; then
		fails+=("sanitizer report: $(grep -aE -m1 '(UBSAN|KASAN): ' "$log.log" | tr -d '\r')")
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
if [ "${1:-}" = --pending ]; then
	CASES=tests/pending
	shift
fi

if [ ! -f "$KERNEL" ] || [ ! -f "$INITRD" ]; then
	echo "run.sh: $KERNEL or $INITRD is missing: run make first" >&2
	exit 2
fi

names=()
if [ $# -gt 0 ]; then
	for n in "$@"; do
		n=$(basename "$n" .args)
		[ -n "$(case_base "$n")" ] || { echo "run.sh: no test $CASES/*/$n.args" >&2; exit 2; }
		names+=("$n")
	done
else
	# In the order of the sorted NAME.args file names (SHARD's order; it
	# was the order of one folder's *.args before there were subjects).
	mapfile -t names < <(for f in "$CASES"/*/*.args; do
		[ -f "$f" ] && basename "$f"
	done | sort | sed 's/\.args$//')
fi

# missing NAME: why NAME cannot run: the first path of NAME.requires that
# the initramfs lacks (each archive's list is read once), or the test's
# NAME.build was not built. Nothing if it can.
declare -A archive_list=()
missing() {
	local path initrd=$INITRD dir base
	base=$(case_base "$1")
	dir=$(build_dir "$1")
	[ -n "$dir" ] && initrd=$dir/initramfs.cpio
	[ -f "$base.rootfs" ] && initrd=${initrd%.cpio}-$(words "$base.rootfs").cpio
	[ -f "$base.initrd" ] && initrd=$(words "$base.initrd")
	if [ ! -f "$initrd" ]; then
		echo "no $initrd: make $(words "$base.build")"
		return 0
	fi
	[ -f "$base.requires" ] || return 0
	if [ -z "${archive_list[$initrd]:-}" ]; then
		archive_list[$initrd]=$(cpio -it --quiet < "$initrd" | sed 's,^\./,/,; s,^\([^/]\),/\1,')
	fi
	while IFS= read -r path; do
		[ -z "$path" ] && continue
		grep -qxF -- "$path" <<< "${archive_list[$initrd]}" ||
			{ echo "the initramfs has no $path$(no_busybox_reason)"; return 0; }
	done < "$base.requires"
}

# Why NAME cannot run on this kernel's sanitizers (NAME.sanitize), or "".
sanitize_mismatch() {
	local w base
	base=$(case_base "$1")
	[ -f "$base.sanitize" ] || return 0
	for w in $(words "$base.sanitize"); do
		case $w in
		!*) grep -qw -- "${w#!}" <<< "${SANITIZE:-}" &&
			echo "not for a kernel built with SANITIZE=${w#!}" ;;
		*) grep -qw -- "$w" <<< "${SANITIZE:-}" ||
			echo "needs a kernel built with SANITIZE=$w" ;;
		esac
	done
}

# Why the initramfs lacks a package, if fetch-busybox.sh or
# fetch-debian.sh said so.
no_busybox_reason() {
	local f
	for f in busybox debian glibc; do
		f=$(dirname "$INITRD")/$f/unavailable
		[ -f "$f" ] && echo ": $(cat "$f")"
	done
	true
}

# SHARD=k/n: every n-th case, from the k-th.
if [ -n "$SHARD" ]; then
	if ! [[ $SHARD =~ ^([0-9]+)/([0-9]+)$ ]] || [ "${BASH_REMATCH[1]}" -lt 1 ] ||
		[ "${BASH_REMATCH[1]}" -gt "${BASH_REMATCH[2]}" ]; then
		echo "run.sh: SHARD must be k/n with 1 <= k <= n, not '$SHARD'" >&2
		exit 2
	fi
	k=${BASH_REMATCH[1]} shards=${BASH_REMATCH[2]} all=("${names[@]}") names=()
	for i in "${!all[@]}"; do
		[ $((i % shards)) = $((k - 1)) ] && names+=("${all[$i]}")
	done
	echo "shard $SHARD: ${#names[@]} of ${#all[@]} cases"
fi

mkdir -p "$LOG_DIR"
todo=()
skipped=0
declare -A skip_reason=()
for n in "${names[@]}"; do
	rm -f "$LOG_DIR/$n".{log,out,diff,stderr,result,time}
	base=$(case_base "$n")
	lack=$(missing "$n")
	if [ "$ORACLE" = 1 ] && [ -f "$base.nolinux" ]; then
		echo "SKIP $n (not for Linux: $(head -n1 "$base.nolinux"))"
	elif [ -n "$(sanitize_mismatch "$n")" ]; then
		skip_reason[$n]=$(sanitize_mismatch "$n")
		echo "SKIP $n (${skip_reason[$n]})"
		skipped=$((skipped + 1))
	elif [ -n "$lack" ]; then
		skip_reason[$n]=$lack
		echo "SKIP $n ($lack)"
		skipped=$((skipped + 1))
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
if [ -n "$JUNIT" ] && [ "$ORACLE" != 1 ]; then
	for n in "${!skip_reason[@]}"; do
		echo "SKIP $n (${skip_reason[$n]})" > "$LOG_DIR/$n.result"
	done
	mkdir -p "$(dirname "$JUNIT")"
	for n in "${names[@]}"; do
		echo "tests $n $LOG_DIR"
	done | scripts/junit.py > "$JUNIT"
fi
if [ "$skipped" = 0 ]; then
	echo "$passed passed, $failed failed"
else
	echo "$passed passed, $failed failed, $skipped skipped"
fi
[ "$failed" = 0 ]
