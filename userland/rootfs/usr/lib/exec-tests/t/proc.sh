# proc.sh - procfs and mounts as busybox sees them: /proc/self links,
# cmdline, /proc/mounts, a tmpfs mounted and unmounted, meminfo's fields.
mount -t proc proc /proc || exit 1
readlink /proc/self/exe
readlink /proc/self/cwd
readlink /proc/self/fd/0
cd /tmp && readlink /proc/self/cwd && cd /
tr '\0' ' ' < /proc/self/cmdline; echo
grep -E '^(proc|none|tmpfs) ' /proc/mounts
mkdir /tmp/m
mount -t tmpfs scratch /tmp/m && echo kept > /tmp/m/file
grep ' /tmp/m ' /proc/mounts
cat /tmp/m/file
umount /tmp/m && ls /tmp/m | wc -l
awk -F: '/^(MemTotal|MemFree|MemAvailable|Buffers|Cached|SwapTotal):/ { print $1 }' /proc/meminfo
grep -c '^processor' /proc/cpuinfo
awk '{ print NF }' /proc/uptime
[ -d /proc/1 ] && tr '\0' ' ' < /proc/1/cmdline && echo
umount /proc
