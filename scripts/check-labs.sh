#!/usr/bin/env bash
# check-labs.sh [NN...] - show that every lab's starter tree is right (make
# test runs it before the QEMU cases; make check-labs alone).
#
# For each lab (all of labs/NN-*/ by default): write its starter tree
# (scripts/mklab.sh) under build/labs-check/NN, build its kernel there
# (from a copy of build/obj, so only the files the lab changed are
# compiled; the user programs and the initramfs are the same as this
# tree's and are not rebuilt), boot it for every lab's graded tests, and
# expect:
#   - the lab's own graded tests FAIL, and none with a kernel panic or
#     oops (a placeholder fails cleanly: an errno, a wrong output);
#   - every other lab's graded tests PASS.
# Each run's JUnit report must parse and agree. Then make grade itself is
# checked: on this tree, full marks and exit status 0; on the first lab's
# starter, no marks and exit status 1; build/grade.xml parses, with the
# failures it should have; make handin on that starter packs the grade it
# makes then, not an older one left in build/grade-logs. And tests/run.sh's SHARD=k/n picks the right
# cases, while a SHARD in check-labs's own environment does not reach its
# runs.
# One line a check, then "labs: N checks right, N wrong"; exit status 1
# if any is wrong. Run `make` first. Environment: JOBS, TIMEOUT (as run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f build/kernel ] || [ ! -f build/initramfs.cpio ]; then
	echo "check-labs: build/kernel or build/initramfs.cpio is missing: run make first" >&2
	exit 2
fi
. scripts/labs.sh
# Every lab's run needs every graded test, whatever shard of the suite
# this machine runs (make test SHARD=k/n passes SHARD on to us): a shard
# of the graded tests would leave a lab's tests "not run".
unset SHARD

labs=("$@")
[ ${#labs[@]} = 0 ] && mapfile -t labs < <(all_labs)

# Every lab's graded tests: "NN test" lines.
graded() {
	local d
	for d in labs/[0-9][0-9]-*/; do
		d=${d%/}
		awk -v lab="${d#labs/}" '!/^#/ && NF { print substr(lab, 1, 2), $1 }' "$d/grade.txt"
	done
}
mapfile -t all_tests < <(graded | awk '{ print $2 }' | sort -u)

# Each check's line, counted: "PASS what" or "FAIL what" (its details follow).
right=0 wrong=0
pass() { echo "PASS $1"; right=$((right + 1)); }
fail() { echo "FAIL $1"; wrong=$((wrong + 1)); }
top=build/labs-check
mkdir -p "$top"
for lab in "${labs[@]}"; do
	tree=$top/$lab logs=$top/logs-$lab
	start=$SECONDS
	problems=()
	rm -rf "$tree" "$logs"
	if ! scripts/mklab.sh --no-git "$lab" "$tree" > "$top/$lab.mklab.log" 2>&1; then
		fail "lab $lab: make lab failed:"
		sed 's/^/    /' "$top/$lab.mklab.log"
		continue
	fi
	mkdir -p "$tree/build"
	cp -a build/obj build/vdso "$tree/build/"
	if ! make -C "$tree" build/kernel > "$top/$lab.build.log" 2>&1; then
		fail "lab $lab: the starter does not compile:"
		grep -E 'error|warning' "$top/$lab.build.log" | head -n 20 | sed 's/^/    /'
		continue
	fi
	KERNEL=$tree/build/kernel LOG_DIR=$logs JUNIT=$logs/test.xml tests/run.sh "${all_tests[@]}" \
		> "$top/$lab.tests.log" 2>&1 || true
	own=0 others=0
	while read -r owner name; do
		result=$(head -n1 "$logs/$name.result" 2>/dev/null || echo "NONE $name")
		if [ "$owner" = "$lab" ]; then
			own=$((own + 1))
			case $result in
			PASS*) problems+=("its test $name passes") ;;
			NONE*) problems+=("its test $name did not run") ;;
			esac
			if grep -aqE 'Kernel panic|Oops|general protection fault|BUG: ' "$logs/$name.log" 2>/dev/null ||
				grep -q 'QEMU exit status 3,' "$logs/$name.result" 2>/dev/null; then
				problems+=("its test $name panics the kernel")
			fi
		else
			others=$((others + 1))
			case $result in
			PASS*) ;;
			*) problems+=("lab $owner's test $name: ${result#FAIL }") ;;
			esac
		fi
	done < <(graded)
	# The run's JUnit report parses, and counts what the results say.
	junit=$(python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
print(s.get("tests"), s.get("failures"))' "$logs/test.xml" 2>&1) || junit="unreadable: $junit"
	[ "$junit" = "${#all_tests[@]} $own" ] ||
		problems+=("its JUnit report $logs/test.xml says $junit, not ${#all_tests[@]} tests, $own failures")
	if [ ${#problems[@]} = 0 ]; then
		pass "lab $lab: the starter compiles, its $own graded tests fail without a panic, the other labs' $others pass ($((SECONDS - start)) s)"
	else
		fail "lab $lab ($((SECONDS - start)) s):"
		printf '    %s\n' "${problems[@]}"
		echo "    logs: $logs/"
	fi
done

# No lab's run was a shard: run.sh says "shard k/n: ..." when it is one.
leaked=()
for lab in "${labs[@]}"; do
	grep -qs '^shard ' "$top/$lab.tests.log" && leaked+=("$lab")
done
if [ ${#leaked[@]} = 0 ]; then
	pass "every lab's run had every graded test (no SHARD reached it)"
else
	fail "a SHARD reached the runs of lab ${leaked[*]}: $(grep -h '^shard ' "$top/${leaked[0]}.tests.log")"
fi

# make grade: its lines, score, exit status and JUnit report, on this tree
# (full marks) and on the first lab's starter (none).
check_grade() { # TAG KERNEL WANT_STATUS WANT_SCORE_LINE WANT_FAILURES LAB...
	local xml=$top/grade-$1.xml kernel=$2 want_status=$3 want_line=$4 want_failures=$5 status=0 out
	shift 5
	out=$(KERNEL=$kernel GRADE_LOGS=$top/grade-logs GRADE_XML=$xml scripts/grade.sh "$@" 2>&1) || status=$?
	local problems=()
	[ "$status" = "$want_status" ] || problems+=("exit status $status, expected $want_status")
	grep -qE -- "^$want_line( |\$)" <<< "$out" || problems+=("no line '$want_line'")
	grep -qE '^  (PASS|FAIL|SKIP)  [a-z0-9_]+ +[0-9]+/[0-9]+' <<< "$out" || problems+=("no test lines")
	local failures
	failures=$(python3 -c '
import sys, xml.etree.ElementTree as ET
print(sum(int(s.get("failures")) for s in ET.parse(sys.argv[1]).getroot()))' "$xml" 2>&1) ||
		failures="unreadable: $failures"
	[ "$failures" = "$want_failures" ] || problems+=("$xml counts $failures failures, not $want_failures")
	if [ ${#problems[@]} = 0 ]; then
		pass "make grade ${*:-(every lab)} on $kernel: '$want_line', exit status $want_status, $xml parses"
	else
		fail "make grade ${*:-(every lab)} on $kernel:"
		printf '    %s
' "${problems[@]}"
		sed 's/^/    | /' <<< "$out"
	fi
}
first=${labs[0]}
first_points=$(awk '!/^#/ && NF { p += $2 } END { print p }' labs/"$first"-*/grade.txt)
first_tests=$(awk '!/^#/ && NF { n++ } END { print n }' labs/"$first"-*/grade.txt)
all_points=$(cat labs/[0-9][0-9]-*/grade.txt | awk '!/^#/ && NF { p += $2 } END { print p }')
check_grade full build/kernel 0 "Total: $all_points/$all_points" 0
if [ -f "$top/$first/build/kernel" ]; then
	check_grade "starter-$first" "$top/$first/build/kernel" 1 "Score: 0/$first_points" "$first_tests" "$first"
fi

# make handin grades the tree it packs: a full score left over in the
# first lab's starter (build/grade-logs) must not reach its archive.
check_handin() {
	local tree=$top/$first here=$PWD grade status=0
	(cd "$tree" && git init -q && git add -A &&
		git -c user.name=check-labs -c user.email=check-labs@localhost commit -qm starter &&
		git rev-parse HEAD > .lab-starter) > "$top/handin.log" 2>&1 || status=$?
	mkdir -p "$tree/build/grade-logs"
	printf 'lab %s\nScore: %s/%s\n' "$first" "$first_points" "$first_points" > "$tree/build/grade-logs/lab$first.score"
	[ "$status" = 0 ] && (cd "$tree" && KERNEL=$tree/build/kernel INITRD=$here/build/initramfs.cpio \
		scripts/handin.sh "$first") >> "$top/handin.log" 2>&1 || status=$?
	grade=$(tar -xzOf "$tree/build/handin-lab$first.tar.gz" "lab$first/grade.txt" 2>&1) || status=$?
	if [ "$status" = 0 ] && grep -qx "Score: 0/$first_points .*" <<< "$grade" &&
		grep -q '^graded at handin' <<< "$grade"; then
		pass "make handin $first regrades: a stale 'Score: $first_points/$first_points' became 'Score: 0/$first_points' in its grade.txt"
	else
		fail "make handin $first (status $status; log $top/handin.log); its grade.txt:"
		sed 's/^/    | /' <<< "$grade"
	fi
}
[ -f "$top/$first/build/kernel" ] && check_handin

# make test SHARD=k/n: of five cases, shard 2/3 runs the 2nd and the 5th,
# and its JUnit report has those two.
five=("${all_tests[@]:0:5}")
out=$(SHARD=2/3 LOG_DIR=$top/shard JUNIT=$top/shard.xml tests/run.sh "${five[@]}" 2>&1) || true
ran=$(grep -E '^(PASS|FAIL|SKIP) ' <<< "$out" | awk '{ print $2 }' | sort | tr '\n' ' ') # in any order
want_ran=$(printf '%s\n' "${five[1]}" "${five[4]}" | sort | tr '\n' ' ')
xml_names=$(python3 -c '
import sys, xml.etree.ElementTree as ET
print(" ".join(c.get("name") for c in ET.parse(sys.argv[1]).getroot().iter("testcase")))' "$top/shard.xml" 2>&1) || true
if grep -qx 'shard 2/3: 2 of 5 cases' <<< "$out" && [ "$ran" = "$want_ran" ] &&
	[ "$xml_names" = "${five[1]} ${five[4]}" ] && [ "$(tail -n1 <<< "$out")" = "2 passed, 0 failed" ]; then
	pass "make test SHARD=2/3 of ${five[*]}: ${five[1]} and ${five[4]}, $top/shard.xml parses"
else
	fail "make test SHARD=2/3 of ${five[*]}: ran '$ran', JUnit '$xml_names':"
	sed 's/^/    | /' <<< "$out"
fi
echo "labs: $right checks right, $wrong wrong"
[ "$wrong" = 0 ]
