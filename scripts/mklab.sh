#!/usr/bin/env bash
# mklab.sh [--no-git] NN DEST - write the starter tree of lab NN (make lab).
#
# DEST gets a copy of this repository's files (those git tracks, and new
# ones it does not ignore, as they are in the working tree) with each
# region of lab NN replaced by its placeholder. A region is marked in the
# source by comment lines:
#
#     /* LAB NN: BEGIN what */        the solution starts after this line
#     ...                             the solution
#     /* LAB NN: ELSE ...             optional: the placeholder starts after
#     ...                             this line, inside the comment
#        LAB NN: END */               the placeholder ends; or, without an
#                                     ELSE, a line "/* LAB NN: END */"
#                                     and the placeholder is empty
#
# In the starter, the BEGIN line stays as "/* LAB NN: TODO what */" and
# the placeholder (if any) follows it. The other labs' regions keep their
# solutions. Files keep their modification times, except those changed,
# so that a build directory copied from this tree rebuilds only them.
#
# DEST becomes a git repository with one commit, "starter for lab NN",
# whose hash is written to DEST/.lab-starter (make handin diffs against
# it). The packages this tree has fetched (build/busybox, ...) are
# copied into DEST/build as hard links (a plain copy across filesystems),
# so that the starter's build downloads nothing again and owns its files:
# a `make clean` here leaves every starter tree whole. --no-git leaves out the repository (scripts/check-labs.sh).
set -euo pipefail

git=yes
if [ "${1:-}" = --no-git ]; then
	git=no
	shift
fi
dest=${2:-}
cd "$(dirname "$0")/.."
. scripts/labs.sh
lab=$(lab_number "${1:-}")
if [ $# != 2 ] || [ -z "$lab" ]; then
	echo "usage: make lab LAB=NN DEST=dir   (NN: the lab's number, e.g. 02)" >&2
	exit 2
fi
src=$PWD
handout=$(lab_dir "$lab")
[ -n "$handout" ] || { echo "mklab: no lab $lab in labs/" >&2; exit 2; }
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
	echo "mklab: $dest exists and is not empty" >&2
	exit 2
fi
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)

# The files, with their times (tar keeps them).
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar --null -T - -cf - | tar -xf - -C "$dest"

# The regions of lab NN.
mapfile -t files < <(git grep -l --untracked -e "LAB $lab: BEGIN" -- '*.[chS]' | sort)
if [ ${#files[@]} = 0 ]; then
	echo "mklab: no region of lab $lab is marked in the sources" >&2
	exit 1
fi
for f in "${files[@]}"; do
	awk -v lab="LAB $lab:" -v file="$f" '
	function fail(msg) { printf "mklab: %s:%d: %s\n", file, NR, msg > "/dev/stderr"; bad = 1; exit 1 }
	index($0, lab " BEGIN") {
		if (state) fail("BEGIN inside a region")
		state = "solution"; begin = NR
		sub(lab " BEGIN", lab " TODO")
		print; next
	}
	index($0, lab " ELSE") {
		if (state != "solution") fail("ELSE outside a region")
		state = "placeholder"; next
	}
	index($0, lab " END") {
		if (!state) fail("END outside a region")
		state = ""; regions++; next
	}
	state == "solution" { next }
	{ print }
	END {
		if (bad) exit 1
		if (state) { printf "mklab: %s:%d: region not closed\n", file, begin > "/dev/stderr"; exit 1 }
	}' "$f" > "$dest/$f.tmp"
	mv "$dest/$f.tmp" "$dest/$f"
	echo "  LAB $lab  $f"
done

# The packages already fetched, not downloaded again. The fetch scripts
# never write into a file they unpacked (they remove the folder and unpack
# afresh), so hard links are as good as copies.
mkdir -p "$dest/build"
for p in busybox qemu-user debian glibc oracle; do
	[ -d "$src/build/$p" ] || continue
	rm -rf "${dest:?}/build/$p"
	cp -al "$src/build/$p" "$dest/build/$p" 2> /dev/null || cp -a "$src/build/$p" "$dest/build/$p"
done

if [ "$git" = yes ]; then
	(
		cd "$dest"
		git init -q
		git add -A
		git -c user.name="${GIT_AUTHOR_NAME:-lab}" -c user.email="${GIT_AUTHOR_EMAIL:-lab@localhost}" \
			commit -q -m "starter for lab $lab"
		git rev-parse HEAD > .lab-starter
		echo /.lab-starter >> .git/info/exclude
	)
fi
echo "$dest: the starter tree of $handout ($(head -n1 "$src/$handout/README.md" | sed 's/^# *//'))"
echo "next: cd $dest && less $handout/README.md"
