# fs_mount.sh - mounts and the filesystem calls busybox's applets use, with
# what is the same on every boot: /proc/mounts, statfs types, mount and
# umount errors, /proc's fixed files (names, not figures), sendfile (cat),
# utimensat (touch -d), fsync, FIFOs and /proc/self links.
mount -t proc proc /proc || exit 1
mkdir -p /tmp/a /tmp/b
mount -t tmpfs -o mode=0750 tmpfs /tmp/a && echo "tmpfs mounted"
mount -t ramfs ramfs /tmp/b && echo "ramfs mounted"
# rootfs's options carry its size in Linux: only its first fields.
head -n 1 /proc/mounts | cut -d' ' -f1-3
grep -v '^rootfs' /proc/mounts
stat -f -c '%n %T' / /proc /tmp/a /tmp/b
ls -ld /tmp/a /tmp/b | cut -c1-10
mount -t nosuchfs none /tmp/b 2>&1
mount -t tmpfs none /nonexistent 2>&1
mount -t tmpfs none /proc/meminfo 2>&1
echo hello > /tmp/b/file
cat /tmp/b/file
cd /tmp/b
umount /tmp/b 2>&1
cd /
exec 3< /tmp/b/file
umount /tmp/b 2>&1
exec 3<&-
umount /tmp/b && echo "ramfs unmounted"
ls /tmp/b
mount -o remount,ro /tmp/a && grep /tmp/a /proc/mounts
touch /tmp/a/x 2>&1
mkdir /tmp/a/d 2>&1
stat -f -c '%n %T' /tmp/a
mount -o remount,rw /tmp/a && touch /tmp/a/x && ls /tmp/a
umount /tmp/a && echo "tmpfs unmounted"
umount /tmp/a 2>&1
umount / 2>&1
echo "--- /proc"
grep -c . /proc/cpuinfo > /dev/null && echo "cpuinfo has lines"
sed 's/:.*//' /proc/meminfo | head -5
head -c 2 /proc/uptime | grep -q '[0-9]' && echo "uptime is a number"
readlink /proc/self/exe
readlink /proc/self/fd/0
readlink /proc/self/cwd
cd /tmp && readlink /proc/self/cwd && cd /
tr '\0' ' ' < /proc/self/cmdline; echo
cat /proc/self/comm
ls /proc/self/fd
[ -d /proc/1 ] && echo "/proc/1 is there"
[ -e /proc/99999 ] || echo "/proc/99999 is not"
cut -d' ' -f2,3 /proc/self/stat
grep -E '^(Name|State|Uid):' /proc/self/status
cat /proc/sys/kernel/ostype
echo "--- files"
echo data > /tmp/f
touch -d '2001-02-03 04:05:06' /tmp/f && ls -l --full-time /tmp/f 2>/dev/null | cut -c44- || stat -c '%y' /tmp/f
stat -c '%y %s' /tmp/f
sync && echo synced
mkfifo /tmp/fifo
ls -l /tmp/fifo | cut -c1-10
(echo "through the fifo" > /tmp/fifo &) ; cat /tmp/fifo
rm /tmp/fifo /tmp/f
echo one two three | wc -w
seq 1 5000 | tail -n 1
dd if=/bin/busybox bs=1k count=100 2>/dev/null | wc -c
umount /proc && echo "proc unmounted"
