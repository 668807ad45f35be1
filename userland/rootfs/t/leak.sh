# leak.sh - 1000 runs of "sh -c true": free memory (busybox free, which
# reads /proc/meminfo; the script mounts /proc) must be the same before and
# after. The measurement must not itself use memory that stays: free writes
# to the same file each time (a new file in /tmp keeps a page), and the two
# variables exist before the first measurement (a new one can grow this
# shell's heap by a page). 10 runs warm up first.
mount -t proc proc /proc || exit 1
run() { i=0; while [ $i -lt $1 ]; do sh -c true; i=$((i + 1)); done; }
free_kib() { free > /tmp/free && awk '/^Mem:/ { print $4 }' /tmp/free; }
before=0 after=0
run 10
before=$(free_kib)
[ "$before" -gt 0 ] || { echo "leak.sh: no free memory figure from free"; exit 1; }
run 1000
after=$(free_kib)
if [ "$before" = "$after" ]; then
	echo "free memory before and after 1000 runs of sh -c true: same"
else
	echo "free memory before and after 1000 runs of sh -c true: $before KiB, $after KiB"
fi
rm /tmp/free
