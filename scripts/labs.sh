# labs.sh - sourced by the lab scripts (mklab.sh, grade.sh, handin.sh,
# check-labs.sh), run from the top of the tree.

# all_labs: the number of every lab in labs/ (01, 02, ...), one a line.
all_labs() {
	local d
	for d in labs/[0-9][0-9]-*/; do
		d=${d#labs/}
		echo "${d%%-*}"
	done
}

# lab_number N: N as two digits (LAB=2 is lab 02), or nothing if N is not
# a lab number.
lab_number() {
	[[ $1 =~ ^[0-9]{1,2}$ ]] && printf '%02d\n' "$((10#$1))"
	return 0
}

# lab_dir NN: the lab's folder (labs/NN-name), or nothing if there is none.
lab_dir() {
	local d
	d=$(ls -d labs/"$1"-*/ 2> /dev/null | head -n1 || true)
	echo "${d%/}"
}
