#!/usr/bin/env bash
# handin.sh NN - pack a student's work on lab NN (make handin LAB=NN):
# build/handin-labNN.tar.gz holds
#   labNN.diff    the changes since the starter commit (git diff against
#                 the commit in .lab-starter, which make lab wrote; files
#                 not yet added to git are included too)
#   answers.md    the answers to the handout's questions
#                 (labs/NN-name/answers.md)
#   grade.txt     the lab graded now, on this very tree (make grade
#                 LAB=NN's lines), with the date and the diff's sha256:
#                 never an older grade of other code
# Run it in the starter tree that `make lab LAB=NN DEST=dir` made, after
# make (make handin builds first). Environment: KERNEL, INITRD, JOBS, as
# scripts/grade.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/labs.sh

lab=$(lab_number "${1:-}")
if [ -z "$lab" ]; then
	echo "usage: make handin LAB=NN" >&2
	exit 2
fi
dir=$(lab_dir "$lab")
[ -n "$dir" ] || { echo "handin: no lab $lab in labs/" >&2; exit 2; }
if [ ! -f .lab-starter ] || ! git rev-parse -q --verify "$(cat .lab-starter)^{commit}" > /dev/null; then
	echo "handin: no starter commit (.lab-starter): run this in the tree that" >&2
	echo "        'make lab LAB=$lab DEST=dir' wrote" >&2
	exit 2
fi
starter=$(cat .lab-starter)
if [ ! -s "$dir/answers.md" ]; then
	echo "handin: $dir/answers.md is missing or empty: answer the handout's questions there" >&2
	exit 2
fi
if git cat-file -e "$starter:$dir/answers.md" 2> /dev/null &&
	git diff --quiet "$starter" -- "$dir/answers.md"; then
	echo "handin: warning: $dir/answers.md is still the starter's: no answers yet" >&2
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/lab$lab"
# New files count too: intent-to-add makes them part of the diff without
# staging their contents.
git ls-files -z --others --exclude-standard | xargs -0 -r git add -N
git diff "$starter" -- . ':(exclude)'"$dir/answers.md" > "$stage/lab$lab/lab$lab.diff"
cp "$dir/answers.md" "$stage/lab$lab/answers.md"
# The grade goes with the code it graded: the lab is graded again here,
# whatever an earlier make grade printed (its exit status is the score's,
# not ours).
echo "handin: grading lab $lab on this tree (make grade LAB=$lab)"
GRADE_LOGS=build/grade-logs scripts/grade.sh "$lab" || true
{
	cat build/grade-logs/lab"$lab".score
	echo "graded at handin, $(date -u '+%Y-%m-%d %H:%M UTC'), on the tree of lab$lab.diff" \
		"(sha256 $(sha256sum < "$stage/lab$lab/lab$lab.diff" | cut -c1-16))"
} > "$stage/lab$lab/grade.txt"
mkdir -p build
tar -C "$stage" -czf "build/handin-lab$lab.tar.gz" "lab$lab"
echo "build/handin-lab$lab.tar.gz: $(grep -c '^diff --git' "$stage/lab$lab/lab$lab.diff" || true) files changed since the starter," \
	"$dir/answers.md, and the grade just made ($(grep '^Score' "$stage/lab$lab/grade.txt"))"
[ -s "$stage/lab$lab/lab$lab.diff" ] || echo "handin: warning: no change since the starter" >&2
