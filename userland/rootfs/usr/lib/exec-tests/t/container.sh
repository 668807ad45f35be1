# container.sh - a shell in new mount, UTS and pid namespaces, as a
# container runtime starts one: busybox unshare -m -u -p -f --mount-proc.
# Its hostname, its processes and its mounts are its own.
mount -t proc proc /proc 2>/dev/null
hostname host
unshare -m -u -p -f --mount-proc sh -c '
hostname box
echo "inside: hostname $(hostname), pid $$"
ps -o pid,comm
mount -t tmpfs none /mnt
grep -c " /mnt " /proc/mounts
'
echo "outside: hostname $(hostname), /mnt mounts: $(grep -c " /mnt " /proc/mounts)"
