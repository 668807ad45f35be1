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
# One line a lab, then "labs: N starters right, N wrong"; exit status 1 if
# any is wrong. Run `make` first. Environment: JOBS, TIMEOUT (as run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f build/kernel ] || [ ! -f build/initramfs.cpio ]; then
	echo "check-labs: build/kernel or build/initramfs.cpio is missing: run make first" >&2
	exit 2
fi
labs=("$@")
if [ ${#labs[@]} = 0 ]; then
	for d in labs/[0-9][0-9]-*/; do
		d=${d#labs/}
		labs+=("${d%%-*}")
	done
fi

# Every lab's graded tests: "NN test" lines.
graded() {
	local d
	for d in labs/[0-9][0-9]-*/; do
		d=${d%/}
		awk -v lab="${d#labs/}" '!/^#/ && NF { print substr(lab, 1, 2), $1 }' "$d/grade.txt"
	done
}
mapfile -t all_tests < <(graded | awk '{ print $2 }' | sort -u)

right=0 wrong=0
top=build/labs-check
mkdir -p "$top"
for lab in "${labs[@]}"; do
	tree=$top/$lab logs=$top/logs-$lab
	start=$SECONDS
	problems=()
	rm -rf "$tree" "$logs"
	if ! scripts/mklab.sh --no-git "$lab" "$tree" > "$top/$lab.mklab.log" 2>&1; then
		echo "FAIL lab $lab: make lab failed:"
		sed 's/^/    /' "$top/$lab.mklab.log"
		wrong=$((wrong + 1))
		continue
	fi
	mkdir -p "$tree/build"
	cp -a build/obj build/vdso "$tree/build/"
	if ! make -C "$tree" build/kernel > "$top/$lab.build.log" 2>&1; then
		echo "FAIL lab $lab: the starter does not compile:"
		grep -E 'error|warning' "$top/$lab.build.log" | head -n 20 | sed 's/^/    /'
		wrong=$((wrong + 1))
		continue
	fi
	KERNEL=$tree/build/kernel LOG_DIR=$logs JUNIT= tests/run.sh "${all_tests[@]}" \
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
			if grep -aqE 'Kernel panic|Oops|general protection fault|BUG: ' "$logs/$name.log" 2>/dev/null; then
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
	if [ ${#problems[@]} = 0 ]; then
		echo "PASS lab $lab: the starter compiles, its $own graded tests fail without a panic, the other labs' $others pass ($((SECONDS - start)) s)"
		right=$((right + 1))
	else
		echo "FAIL lab $lab ($((SECONDS - start)) s):"
		printf '    %s\n' "${problems[@]}"
		echo "    logs: $logs/"
		wrong=$((wrong + 1))
	fi
done
echo "labs: $right starters right, $wrong wrong"
[ "$wrong" = 0 ]
