# procstatus.sh - /proc mounted by the shell, then the fields of
# /proc/self/status that are the same on every boot and every kernel
# (no pids, sizes or memory figures), and /proc/self pointing at the reader.
mount -t proc proc /proc || exit 1
grep -E '^(Name|Umask|State|Uid|Gid|Groups|Threads|SigPnd|ShdPnd|SigBlk|SigIgn|NoNewPrivs):' /proc/self/status
sleep 5 &
pid=$!
# Until it has run execve and gone to sleep, it shows as running (R).
i=0
while [ $i -lt 50 ] && ! grep -q '^State:.S' /proc/$pid/status; do
	sleep 0.1
	i=$((i + 1))
done
grep '^State:' /proc/$pid/status
grep -q "^PPid:[[:space:]]*$$\$" /proc/$pid/status && echo "PPid of the background sleep is this shell"
[ "$(readlink /proc/self)" != "$$" ] && echo "/proc/self is the reader (readlink), not the shell"
tr '\0' ' ' < /proc/$pid/cmdline; echo
kill $pid
wait $pid 2> /dev/null # (no "Terminated" report: see killed.sh)
echo "sleep killed: status $?"
[ -d /proc/$pid ] || echo "reaped: its /proc directory is gone"
umount /proc && echo "umount /proc: done"
