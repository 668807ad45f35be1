#!/bin/sh
# /usr/lib/kselftests/run [-v] [DIR|DIR/PROG...] - run Linux's selftests in the guest
# (make kselftest; scripts/fetch-kselftests.sh built them), one after the
# other, each in its own directory with a time limit, and print one line a
# subtest:
#
#   PASS DIR/PROG: NAME      the subtest passed
#   FAIL DIR/PROG: NAME      it failed (or the program timed out, crashed)
#   SKIP DIR/PROG: NAME      it was skipped
#
# A subtest is a TAP result line ("ok 3 NAME", "not ok 4 NAME # SKIP why",
# as kselftest.h and kselftest_harness.h print them; named "3 NAME", as
# some NAMEs say what happened), or, in the x86
# tests, an [OK], [FAIL] or [SKIP] line, named by the [RUN] line above it
# (with #N when one [RUN] has several results); a leading "[PID] " is
# dropped from a TAP name, as PIDs differ from kernel to kernel; and each
# program is one
# more, named "exit status", by how it ended (0 passes, 4 is kselftest's
# skip, a timeout or a signal fails). -v prints each program's output too.
# The same archive boots Linux: what it prints is NAME.expected, and
# tests/run.sh checks that every subtest Linux passes passes here.
#
# Each program gets TIMEOUT seconds (60; a directory's "settings" file may
# say timeout=N, as kselftest's runner reads it).
# What the tests expect of a running system, which init does not give a
# list of programs: /proc, /sys, a /tmp and /dev/shm of their own.
[ -e /proc/self ] || mount -t proc proc /proc
[ -e /sys/kernel ] || mount -t sysfs sysfs /sys 2> /dev/null
mkdir -p /dev/shm
mount -t tmpfs tmpfs /dev/shm 2> /dev/null
mount -t tmpfs tmpfs /tmp 2> /dev/null
cd /usr/lib/kselftests || exit 1
verbose=0
[ "$1" = -v ] && verbose=1 && shift
which=" $* " # directories, or single programs as DIR/PROG
out=/tmp/kselftest.out

# results DIR/PROG < OUTPUT: the subtest lines of one program's output.
results() {
	awk -v test="$1" '
	function emit(result, name) {
		gsub(/[\t ]+/, " ", name); sub(/^ /, "", name); sub(/ $/, "", name)
		if (seen[name]++) name = name " #" seen[name]
		print result " " test ": " name
	}
	/^\[RUN\]/ { run = $0; sub(/^\[RUN\][ \t]*/, "", run); next }
	/^\[(OK|FAIL|SKIP)\]/ {
		r = $0; sub(/\].*/, "", r); sub(/^\[/, "", r)
		text = $0; sub(/^\[[A-Z]*\][ \t]*/, "", text)
		emit(r == "OK" ? "PASS" : r, run != "" ? run : text)
		next
	}
	/^(not )?ok [0-9]+/ {
		line = $0; r = "PASS"
		if (line ~ /^not /) { r = "FAIL"; sub(/^not /, "", line) }
		sub(/^ok /, "", line)
		n = line; sub(/ .*/, "", n)
		sub(/^[0-9]+ ?(- )?/, "", line)
		sub(/^\[[0-9]+\] /, "", line) # a pid (clone3): not the same on Linux
		# clone3_set_tid: "PIDs in all namespaces as expected (105,42,1)",
		# the first is the pid in the initial namespace: not the same on Linux
		sub(/as expected \([0-9]+,/, "as expected (PID,", line)
		line = n " " line
		if (line ~ /# *[Ss][Kk][Ii][Pp]/) r = "SKIP"
		sub(/ *#.*/, "", line)
		emit(r, line)
	}'
}

while IFS=: read -r dir prog; do
	[ "$which" = "  " ] || case $which in *" $dir "* | *" $dir/$prog "*) ;; *) continue ;; esac
	limit=60
	[ -f "$dir/settings" ] && limit=$(sed -n 's/^timeout=//p' "$dir/settings")
	[ -n "$limit" ] && [ "$limit" != 0 ] || limit=60
	(cd "$dir" && timeout "$limit" "./$prog" < /dev/null > "$out" 2>&1)
	status=$?
	[ $verbose = 1 ] && sed "s|^|# $dir/$prog: |" "$out"
	results "$dir/$prog" < "$out"
	case $status in
	0) echo "PASS $dir/$prog: exit status" ;;
	4) echo "SKIP $dir/$prog: exit status" ;;
	124|137|143) echo "FAIL $dir/$prog: exit status (timeout after $limit s)" ;;
	*) echo "FAIL $dir/$prog: exit status" ;;
	esac
done < list
rm -f "$out"
