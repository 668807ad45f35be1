#!/usr/bin/env bash
# grade.sh [NN...] - grade labs (make grade LAB=NN; every lab without one).
#
# A lab's graded tests and their points are in labs/NN-name/grade.txt,
# "TEST POINTS" a line (TEST is the name of a case of tests/cases/). Each
# is booted with tests/run.sh; the output is one line a test, then a score:
#
#     lab 02 (#! scripts)
#       PASS  exec_script               6/6
#       FAIL  exec_article_chain        0/2   output differs
#     Score: 8/10
#
# and, for several labs, a "Total: X/Y" line. The diffs of the failed
# tests are in build/grade-logs/NAME.diff (and .log, the whole console);
# the lines above in build/grade-logs/labNN.score.
# The results go to build/grade.xml too (JUnit, one testsuite a lab, the
# points as a property of each test). Exit status 1 below full marks.
# Run `make` first (make grade does). Environment: KERNEL, JOBS, as
# tests/run.sh's; GRADE_XML (default build/grade.xml), GRADE_LOGS
# (default build/grade-logs).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/labs.sh
# A lab's score needs all its tests, whatever shard of the suite this
# machine runs (SHARD=k/n would pick some of them).
unset SHARD

labs=("$@")
[ ${#labs[@]} = 0 ] && mapfile -t labs < <(all_labs)
LOG_DIR=${GRADE_LOGS:-build/grade-logs}
GRADE_XML=${GRADE_XML:-build/grade.xml}
mkdir -p "$LOG_DIR"

# printf to the terminal and to the lab's score file (make handin packs it).
say() {
	# shellcheck disable=SC2059
	printf "$@" | tee -a "$scorefile"
}

total=0 max=0
xml_lines=()
for lab in "${labs[@]}"; do
	lab=$(lab_number "$lab")
	dir=$(lab_dir "$lab")
	if [ -z "$lab" ] || [ -z "$dir" ] || [ ! -f "$dir/grade.txt" ]; then
		echo "grade: no lab $lab (labs/$lab-*/grade.txt)" >&2
		exit 2
	fi
	tests=() points=()
	while read -r t p _; do
		case $t in ''|'#'*) continue ;; esac
		tests+=("$t")
		points+=("$p")
	done < "$dir/grade.txt"

	start=$SECONDS
	LOG_DIR=$LOG_DIR JUNIT= tests/run.sh "${tests[@]}" > "$LOG_DIR/lab$lab.run" 2>&1 || true
	scorefile=$LOG_DIR/lab$lab.score
	: > "$scorefile"
	say "lab %s (%s)\n" "$lab" "$(head -n1 "$dir/README.md" | sed 's/^# *//; s/^Lab [0-9]*: *//')"
	score=0 out_of=0
	for i in "${!tests[@]}"; do
		t=${tests[$i]} p=${points[$i]}
		result=$(head -n1 "$LOG_DIR/$t.result" 2>/dev/null || echo "FAIL $t (did not run: see $LOG_DIR/lab$lab.run)")
		out_of=$((out_of + p))
		case $result in
		PASS*)
			score=$((score + p))
			say '  PASS  %-24s %d/%d\n' "$t" "$p" "$p" ;;
		SKIP*)
			reason=${result#SKIP "$t" }
			say '  SKIP  %-24s %d/%d   %s\n' "$t" 0 "$p" "$reason" ;;
		*)
			reason=${result#FAIL "$t" }
			say '  FAIL  %-24s %d/%d   %s\n' "$t" 0 "$p" "$reason" ;;
		esac
		xml_lines+=("lab$lab $t $LOG_DIR $p")
	done
	say 'Score: %d/%d   (%d s; diffs in %s/)\n' "$score" "$out_of" $((SECONDS - start)) "$LOG_DIR"
	total=$((total + score))
	max=$((max + out_of))
done
if [ ${#labs[@]} -gt 1 ]; then
	echo "Total: $total/$max"
fi
mkdir -p "$(dirname "$GRADE_XML")"
printf '%s\n' "${xml_lines[@]}" | scripts/junit.py > "$GRADE_XML"
[ "$total" = "$max" ]
