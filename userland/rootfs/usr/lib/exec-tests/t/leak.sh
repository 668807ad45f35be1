# leak.sh - 1000 runs of "sh -c true": free memory (busybox free, which
# reads /proc/meminfo; the script mounts /proc) must be the same before and
# after. The measurement must not itself use memory that stays: free writes
# to the same file each time (a new file in /tmp keeps a page), and all the
# shell's work between the two figures is in functions parsed beforehand
# and run once to warm up (parsing a new line, or a new variable, can grow
# this shell's heap by a page). The test boots with norandmaps: with the
# stack's random offset, the loop's three-digit counter can take the
# shell's stack one page deeper than the warm-up did, now and then.
mount -t proc proc /proc || exit 1
run() { i=0; while [ $i -lt $1 ]; do sh -c true; i=$((i + 1)); done; }
free_kib() { free > /tmp/free && awk '/^Mem:/ { print $4 }' /tmp/free; }
around() { before=$(free_kib); run $1; after=$(free_kib); }
around 10
around 1000
if [ -z "$before" ]; then
	echo "leak.sh: no free memory figure from free"
elif [ "$before" = "$after" ]; then
	echo "free memory before and after 1000 runs of sh -c true: same"
else
	echo "free memory before and after 1000 runs of sh -c true: $before KiB, $after KiB"
fi
rm /tmp/free
