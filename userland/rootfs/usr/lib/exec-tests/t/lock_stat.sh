#!/bin/sh
# lock_stat.sh - the big kernel lock's statistics (test lock_stat):
# /proc/sys/kernel/lock_stat turns them on and off, /proc/lock_stat shows
# them with Linux's columns and "0" written to it clears them.
mount -t proc proc /proc 2> /dev/null

# acquisitions of the kernel_lock line ($9: name, 2 bounce and contention
# counts, 4 wait times, acq-bounces, acquisitions)
taken() { awk '$1 == "kernel_lock:" { print $9 }' /proc/lock_stat; }
echo "off at boot: $(cat /proc/sys/kernel/lock_stat)"
echo 1 > /proc/sys/kernel/lock_stat
/bin/true
head -1 /proc/lock_stat
awk '$1 == "class" { print "columns:", NF - 2 } $1 == "kernel_lock:" { print "kernel_lock figures:", NF - 1 }' /proc/lock_stat
a0=$(taken); /bin/true; a1=$(taken)
echo "a program's run counted: $([ "$a1" -gt "$a0" ] && echo yes || echo no)"
echo 0 > /proc/lock_stat
echo "fewer after clearing: $([ "$(taken)" -lt "$a1" ] && echo yes || echo no)"
echo 0 > /proc/sys/kernel/lock_stat
a2=$(taken); /bin/true; a3=$(taken)
echo "nothing counted while off: $([ "$a2" = "$a3" ] && echo yes || echo no)"
# an integer, as Linux's proc_dointvec takes it; anything else is refused
for v in 2 x; do
	if echo $v > /proc/sys/kernel/lock_stat 2> /dev/null; then echo "$v accepted"; else echo "$v refused"; fi
done
echo "now: $(cat /proc/sys/kernel/lock_stat)"
