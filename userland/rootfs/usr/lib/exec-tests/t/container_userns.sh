# container_userns.sh - a rootless container as busybox starts one:
# unshare -U -r (a user namespace, its root mapped to the caller) with new
# mount, UTS and pid namespaces and its own /proc, first as root, then as
# "user" (uid 1000, by su), who has no privilege outside.
mount -t proc proc /proc 2>/dev/null
cat > /tmp/inside.sh <<'END'
echo "uid $(id -u) gid $(id -g)"
cat /proc/self/uid_map /proc/self/gid_map /proc/self/setgroups
hostname box && echo "hostname $(hostname)"
ps -o pid,user,comm
mount -t tmpfs none /tmp && echo "tmpfs on /tmp: $(grep -c ' /tmp ' /proc/mounts)"
END
unshare -U -r -m -u -p -f --mount-proc sh /tmp/inside.sh
echo "outside: hostname $(hostname), uid $(id -u)"
su user -c 'unshare -U -r -m -u -p -f --mount-proc sh /tmp/inside.sh'
su user -c 'unshare -u true' || echo "user without a user namespace: refused"
su user -c 'id -u; unshare -U id -u'
rm /tmp/inside.sh
