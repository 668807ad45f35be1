#!/usr/bin/env bash
# run.sh [--pending] [--list] [TEST...] - the test harness (make test).
# Boots QEMU once per test case, captures the serial console, and compares
# it with the expected output.
#
# tests/README.md documents it all in one place: the cases' layout
# (tests/cases/SUBJECT/NAME.*), every kind of file a case has, every key
# of NAME.conf with its default, and the environment variables (JOBS,
# SHARD=k/n, JUNIT, ORACLE, UPDATE, ...).
#
#   tests/run.sh                 every case of tests/cases/
#   tests/run.sh NAME...         those cases (NAME, or the path of NAME.args)
#   tests/run.sh --pending ...   the cases of tests/pending/ instead
#   tests/run.sh --list          "SUBJECT/NAME" for every case, one a line
#
# Each test prints "PASS name", "SKIP name (reason)" or "FAIL name
# (reason)" with a diff, and the run ends with "N passed, N failed" (",
# N skipped" added when some were). Logs are kept in build/test-logs/NAME.log
# (raw), NAME.out (normalised), NAME.stderr (QEMU).
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
SMP=${SMP:-2}
DEFAULT_APPEND="console=ttyS0 quiet"
JUNIT=${JUNIT-build/test.xml}
SHARD=${SHARD:-}
export CASES ACCEL KERNEL INITRD LOG_DIR ORACLE UPDATE TIMEOUT SMP

# The words of a file, on one line.
words() { tr -s ' \t\n' '   ' < "$1" | sed 's/^ //; s/ $//'; }

# ---- the cases: CASES/SUBJECT/NAME.KIND (tests/README.md) ----

# The first lines of the sanitizers' reports (kernel/ubsan.c, mm/kasan.c,
# kernel/locking/lockdep_report.c), and what a .kgrep that expects one
# says. The lock validator's last line is there too: it also follows a
# report of its own limits ("BUG: MAX_LOCKDEP_KEYS too low!").
SANITIZER_REPORTS='(UBSAN|KASAN): |WARNING: (possible circular locking|possible recursive locking|inconsistent lock state|bad unlock balance)|BUG: sleeping function called from invalid context|turning off the locking correctness validator'
SANITIZER_NAMES='UBSAN|KASAN|locking|lock state|unlock balance|sleeping function'

# The kinds of file a case may have, and the keys NAME.conf may set.
CASE_KINDS="args expected input kgrep conf"
CONF_KEYS="append status requires build rootfs initrd mem timeout sanitize nolinux compare racy smp"

declare -A case_dir=() # NAME -> its subject folder, e.g. tests/cases/exec
declare -A conf=()     # "NAME KEY" -> the value NAME.conf gives KEY
layout_problems=()

# is_one_of WORD "LIST": WORD is a word of LIST.
is_one_of() { [[ " $2 " == *" $1 "* ]]; }

# read_conf NAME FILE: KEY VALUE lines into conf[NAME KEY]; "#" lines and
# empty ones are comments. The value is the rest of the line, its words
# joined by one space. Unknown or repeated keys are layout problems.
read_conf() {
	local name=$1 file=$2 line w n=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		read -r -a w <<< "$line"
		[ ${#w[@]} = 0 ] && continue
		[[ ${w[0]} == '#'* ]] && continue
		if ! is_one_of "${w[0]}" "$CONF_KEYS"; then
			layout_problems+=("$file:$n: unknown key '${w[0]}' (the keys: $CONF_KEYS)")
		elif [ ${#w[@]} = 1 ]; then
			layout_problems+=("$file:$n: '${w[0]}' has no value")
		elif [ -n "${conf[$name ${w[0]}]+set}" ]; then
			layout_problems+=("$file:$n: '${w[0]}' is set twice")
		else
			conf[$name ${w[0]}]=${w[*]:1}
		fi
	done < "$file"
}

# index_cases: find every case of CASES (case_dir) and read its NAME.conf.
# What the layout does not allow stops the run, with every problem said:
# a file outside a subject folder, a folder deeper down, an unknown kind of
# file, a file without its NAME.args beside it, two cases of one name, a
# bad NAME.conf. (A name is unique across folders: logs, SHARD's order,
# grade.txt and make test's output know a case by its name alone.)
index_cases() {
	local f base name kind
	for f in "$CASES"/*; do
		[ -e "$f" ] || continue
		[ -d "$f" ] || [ "${f##*/}" = README.md ] ||
			layout_problems+=("$f: not in a subject folder ($CASES/SUBJECT/NAME.KIND)")
	done
	for f in "$CASES"/*/*; do
		[ -e "$f" ] || continue
		base=${f##*/} name=${f##*/} kind=
		[[ $base == *.* ]] && name=${base%.*} kind=${base##*.}
		if [ -d "$f" ]; then
			layout_problems+=("$f: a folder inside a subject folder (cases lie one folder deep)")
		elif is_one_of "$kind" "$CONF_KEYS"; then
			# (the form of these options before NAME.conf)
			layout_problems+=("$f: '.$kind' is no file of its own: write '$kind VALUE' in $name.conf")
		elif ! is_one_of "$kind" "$CASE_KINDS"; then
			layout_problems+=("$f: unknown kind of file${kind:+ '.$kind'} (the kinds: $CASE_KINDS)")
		elif [ ! -f "${f%/*}/$name.args" ]; then
			layout_problems+=("$f: no $name.args beside it")
		elif [ "$kind" = args ] && [ -n "${case_dir[$name]:-}" ]; then
			layout_problems+=("$f: a second test named $name (the first: ${case_dir[$name]}/$name.args)")
		elif [ "$kind" = args ]; then
			case_dir[$name]=${f%/*}
		fi
	done
	for name in "${!case_dir[@]}"; do
		f=${case_dir[$name]}/$name.conf
		[ -f "$f" ] && read_conf "$name" "$f"
	done
	if [ ${#layout_problems[@]} != 0 ]; then
		echo "run.sh: the cases of $CASES are not laid out as tests/README.md says:" >&2
		printf '    %s\n' "${layout_problems[@]}" >&2
		exit 2
	fi
}

# get NAME KEY [DEFAULT]: what NAME.conf says of KEY, else DEFAULT (or
# nothing); the status is 1 if the key is not set.
get() {
	if [ -n "${conf[$1 $2]+set}" ]; then
		echo "${conf[$1 $2]}"
	else
		[ $# -lt 3 ] || echo "$3"
		return 1
	fi
}

# build_dir NAME: the build directory of test NAME's build key ("MODULES=y"
# gives build/modules-y, as the Makefile names it), or nothing.
build_dir() {
	local b
	b=$(get "$1" build) && echo "build/$(tr 'A-Z =' 'a-z--' <<< "$b")"
	true
}

# initrd_of NAME: the archive test NAME boots.
initrd_of() {
	local initrd=$INITRD dir
	dir=$(build_dir "$1")
	[ -n "$dir" ] && initrd=$dir/initramfs.cpio
	get "$1" rootfs > /dev/null && initrd=${initrd%.cpio}-$(get "$1" rootfs).cpio
	get "$1" initrd || echo "$initrd"
}

# compare_passes EXPECTED OUT [RACY]: "compare passes" (Linux's selftests):
# every "PASS ..." line of EXPECTED must be in OUT, in any order. Prints
# each that is not ("-PASS ..."), then the counts; the status is 1 if one
# was missing. What Linux failed or skipped is counted, not checked; so is
# the subtest RACY names (the case's racy key), when it is missing.
compare_passes() {
	local want missing others racy=${3:+PASS $3}
	want=$(grep -c '^PASS ' "$1" || true)
	others=$(grep -Ec '^(FAIL|SKIP) ' "$1" || true)
	missing=$(grep '^PASS ' "$1" | LC_ALL=C sort | LC_ALL=C comm -23 - <(LC_ALL=C sort "$2"))
	if [ -n "$racy" ] && grep -qxF -- "$racy" <<< "$missing"; then
		echo "not counted, racy in Linux's own test (the case's racy key): ${racy#PASS }"
		missing=$(grep -vxF -- "$racy" <<< "$missing" || true)
		want=$((want - 1))
	fi
	[ -z "$missing" ] || sed 's/^/-/' <<< "$missing"
	echo "$((want - $(grep -c . <<< "$missing"))) of the $want subtests Linux passes pass here" \
		"($others that Linux fails or skips not counted)"
	[ -z "$missing" ] || {
		echo "$(grep -c . <<< "$missing") of the $want subtests Linux passes do not pass here"
		return 1
	}
}

# Run one test; write its report to $LOG_DIR/NAME.result and print it.
run_one() {
	local name=$1 base=${case_dir[$1]}/$1 log=$LOG_DIR/$1
	local append args status=0 want=0 fails=()
	local cpu=(-cpu "max,la57=off")
	local KERNEL=$KERNEL INITRD=$INITRD dir
	dir=$(build_dir "$name")
	[ -n "$dir" ] && [ "$ORACLE" != 1 ] && KERNEL=$dir/kernel
	INITRD=$(initrd_of "$name")

	[ "$ACCEL" = tcg ] || cpu=(-cpu host)
	append=$(get "$name" append "$DEFAULT_APPEND") || true
	[ -n "${APPEND_EXTRA:-}" ] && append+=" $APPEND_EXTRA"
	args=$(words "$base.args")
	local timeout mem=256M smp accel=$ACCEL smp_flags=()
	timeout=$(get "$name" timeout "$TIMEOUT") || true
	# Several CPUs (SMP, or the case's smp key, on Linux too): TCG runs
	# each in a host thread of its own. One CPU: the flags of old.
	smp=$(get "$name" smp "$SMP") || true
	if [ "$smp" != 1 ]; then
		smp_flags=(-smp "$smp")
		[ "$ACCEL" = tcg ] && accel=tcg,thread=multi
	fi
	mem=$(get "$name" mem 256M) || true
	# Linux gets at least 256M: what it prints with that much, our kernel
	# must print with less (boot_16m); a case that needs more gets more.
	if [ "$ORACLE" = 1 ] && [[ $mem =~ ^[0-9]+M$ ]] && [ "${mem%M}" -lt 256 ]; then
		mem=256M
	fi
	local started=$SECONDS
	local qemu=(timeout "$timeout" qemu-system-x86_64 -accel "$accel" "${smp_flags[@]}" "${cpu[@]}"
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

	if [ "$ORACLE" != 1 ]; then
		want=$(get "$name" status 0) || true
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
	elif [ "$(get "$name" compare exact)" = passes ]; then
		compare_passes "$base.expected" "$log.out" "$(get "$name" racy)" > "$log.diff" ||
			fails+=("$(tail -n1 "$log.diff")")
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

	# A sanitizer's report (make SANITIZE=ubsan, kasan, lockdep) is a
	# kernel bug: it fails every test but those that provoke one on purpose
	# (their .kgrep names it).
	if [ "$ORACLE" != 1 ] && ! grep -qsE "$SANITIZER_NAMES" "$base.kgrep" &&
		grep -aqE "$SANITIZER_REPORTS" "$log.log"; then
		fails+=("sanitizer report: $(grep -aE -m1 "$SANITIZER_REPORTS" "$log.log" | tr -d '\r')")
	fi

	{
		if [ ${#fails[@]} = 0 ]; then
			echo "PASS $name"
			[ "$(get "$name" compare exact)" != passes ] || sed 's/^/    /' "$log.diff"
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
	index_cases
	run_one "$2"
	exit 0
fi
if [ "${1:-}" = --pending ]; then
	CASES=tests/pending
	shift
fi
index_cases
# Every name, in the order of the sorted NAME.args file names (SHARD's
# order: it was the order of one folder's *.args before the cases had
# subject folders).
mapfile -t all_names < <(for n in "${!case_dir[@]}"; do echo "$n.args"; done | sort | sed 's/\.args$//')
if [ "${1:-}" = --list ]; then
	for n in "${all_names[@]}"; do
		echo "${case_dir[$n]#"$CASES"/}/$n"
	done
	exit 0
fi

if [ ! -f "$KERNEL" ] || [ ! -f "$INITRD" ]; then
	echo "run.sh: $KERNEL or $INITRD is missing: run make first" >&2
	exit 2
fi

names=()
if [ $# -gt 0 ]; then
	for n in "$@"; do
		case $n in
		-*)
			echo "usage: tests/run.sh [--pending] [--list] [TEST...] (tests/README.md)" >&2
			exit 2
			;;
		esac
		n=$(basename "$n" .args)
		[ -n "${case_dir[$n]:-}" ] || { echo "run.sh: no test $n in $CASES/*/" >&2; exit 2; }
		names+=("$n")
	done
else
	names=("${all_names[@]}")
fi

# missing NAME: why NAME cannot run: the first path of its requires key
# that the initramfs lacks (each archive's list is read once), or the
# test's build was not built. Nothing if it can.
declare -A archive_list=()
missing() {
	local path initrd paths
	initrd=$(initrd_of "$1")
	if [ ! -f "$initrd" ]; then
		echo "no $initrd: make $(get "$1" build)"
		return 0
	fi
	paths=$(get "$1" requires) || return 0
	if [ -z "${archive_list[$initrd]:-}" ]; then
		archive_list[$initrd]=$(cpio -it --quiet < "$initrd" | sed 's,^\./,/,; s,^\([^/]\),/\1,')
	fi
	for path in $paths; do
		grep -qxF -- "$path" <<< "${archive_list[$initrd]}" ||
			{ echo "the initramfs has no $path$(no_busybox_reason)"; return 0; }
	done
}

# Why NAME cannot run on this kernel's sanitizers (its sanitize key), or "".
sanitize_mismatch() {
	local w words
	words=$(get "$1" sanitize) || return 0
	for w in $words; do
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
	lack=$(missing "$n")
	if [ "$ORACLE" = 1 ] && get "$n" nolinux > /dev/null; then
		echo "SKIP $n (not for Linux: $(get "$n" nolinux))"
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
