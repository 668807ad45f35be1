#!/bin/sh
# proc_stat.sh - /proc/stat, /proc/loadavg, /proc/interrupts, /proc/cmdline
# and /proc/meminfo as top, uptime and free read them (test proc_stat).
# The figures change from boot to boot, so what is printed is their shape
# (the fields of each line) and how they move (a fork counts, a sleep is
# idle time), as Linux's do.
mount -t proc proc /proc 2> /dev/null

# processes, ctxt and the cpu line's idle ticks, read at once: one
# process between the sleep and the reading, so that a slow start of each
# (under a sanitizer, on a loaded host) adds little to the second measured
stat3() { awk '$1 == "processes" { p = $2 } $1 == "ctxt" { c = $2 } $1 == "cpu" { i = $5 } END { print p, c, i }' /proc/stat; }
echo "--- /proc/stat: each line's name and count of numbers"
awk '{ n = NF - 1; if ($1 == "intr") n = "1+"; print $1, n }' /proc/stat
set -- $(stat3); p0=$1 c0=$2 i0=$3
/bin/true; /bin/true; sleep 1
set -- $(stat3); p1=$1 c1=$2 i1=$3
echo "processes after 3 forks: +$((p1 - p0))"
echo "ctxt grew: $([ "$c1" -gt "$c0" ] && echo yes || echo no)"
# (the cpu line sums every CPU's ticks: each is idle for the second)
n=$(grep -c '^cpu[0-9]' /proc/stat)
echo "idle grew by 50 to 150 ticks a CPU in 1 s: $([ $((i1 - i0)) -ge $((50 * n)) ] && [ $((i1 - i0)) -le $((150 * n)) ] && echo yes || echo "no ($((i1 - i0)) on $n CPUs)")"
awk '$1 == "btime" { print "btime is a date after 2020:", ($2 > 1577836800 ? "yes" : "no") }' /proc/stat

echo "--- /proc/loadavg"
sleep 0 & last=$!
wait
# (the newest pid is the awk's that reads the file, forked after sleep)
awk -v last="$last" '{
	ok = $1 ~ /^[0-9]+\.[0-9][0-9]$/ && $2 ~ /^[0-9]+\.[0-9][0-9]$/ && $3 ~ /^[0-9]+\.[0-9][0-9]$/
	split($4, rt, "/")
	print "three averages:", ok ? "yes" : "no: " $0
	print "running/total:", (rt[1] >= 1 && rt[2] >= rt[1]) ? "yes" : "no: " $4
	print "last pid is the newest:", ($5 == last + 1) ? "yes" : "no: " $5 " " last
}' /proc/loadavg

echo "--- /proc/interrupts"
awk 'NR == 1 { print "header:", $1 } $1 == "0:" { print "irq 0:", $NF } $1 == "4:" { print "irq 4:", $NF }' /proc/interrupts
# a count a CPU on each line of the CPUs' own interrupts
awk 'NR == 1 { n = NF }
     $1 ~ /^(NMI|LOC|RES|CAL|TLB):$/ { k = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) k++
       print $1, (k == n ? "a count for each of the header'"'"'s CPUs" : k " counts, " n " CPUs") }' /proc/interrupts

echo "--- /proc/cmdline"
cat /proc/cmdline

echo "--- /proc/meminfo"
kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
for k in AnonPages Mapped Active Inactive; do
	echo "$k > 0: $([ "$(kb $k)" -gt 0 ] && echo yes || echo no)"
done
echo "--- top -b -n 1: its first lines"
top -b -n 1 | awk 'NR <= 3 { print $1 } NR == 4 { print }' | sed 's/^Load$/Load average:/'
