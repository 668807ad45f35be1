# leak.sh - 1000 runs of "sh -c true": free memory (busybox free, which
# reads /proc/meminfo; the script mounts /proc) must be the same before and
# after. 10 runs warm up first.
mount -t proc proc /proc || exit 1
free_kib() { free | awk '/^Mem:/ { print $4 }'; }
run() { i=0; while [ $i -lt $1 ]; do sh -c true; i=$((i + 1)); done; }
run 10
before=$(free_kib)
[ -n "$before" ] || { echo "leak.sh: no free memory figure from free"; exit 1; }
run 1000
after=$(free_kib)
if [ "$before" = "$after" ]; then
	echo "free memory before and after 1000 runs of sh -c true: same"
else
	echo "free memory before and after 1000 runs of sh -c true: $before KiB, $after KiB"
fi
