# orphans.sh - zombies and orphans: a child that exits before its parent
# waits is a zombie; a process whose parent exits is handed to init (pid 1),
# which reaps it. Seen through /proc.
mount -t proc proc /proc || exit 1
# sh starts a short sleep, then becomes (exec) a longer one that never waits.
sh -c 'sleep 0.3 & echo $! > /tmp/child; exec sleep 2' &
parent=$!
sleep 1
child=$(cat /tmp/child)
grep '^State:' /proc/$child/status
grep -q "^PPid:[[:space:]]*$parent\$" /proc/$child/status && echo "its parent is the sleep that does not wait"
wait $parent
sleep 0.5
[ -d /proc/$child ] || echo "after its parent exited, init reaped it"
# An orphan that is still running: its parent is now init.
sh -c 'sleep 2 & echo $! > /tmp/child'
child=$(cat /tmp/child)
grep '^PPid:' /proc/$child/status
kill $child
sleep 0.5
[ -d /proc/$child ] || echo "killed, and reaped by init"
rm /tmp/child
umount /proc
