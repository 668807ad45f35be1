# modules_autoload.sh - mount -t binfmt_misc loads binfmt_misc.ko by
# itself (make MODULES=y here; Debian's Linux has it as a module too):
# the type is unknown, so the kernel runs modprobe for "fs-binfmt_misc",
# which modules.alias maps to binfmt_misc. /usr/lib/exec-tests/modprobe_log stands in for
# modprobe, to show each call. The mount holds the module: rmmod fails
# until umount. The module's size differs between the kernels (SIZE).
mount -t proc proc /proc || exit 1
echo /usr/lib/exec-tests/modprobe_log > /proc/sys/kernel/modprobe
bm=/proc/sys/fs/binfmt_misc
mkdir /tmp/bm2
lsm() { lsmod | awk 'NR == 1 { print; next } { $2 = "SIZE"; print }'; }
log() { cat /tmp/modprobe.log 2> /dev/null; rm -f /tmp/modprobe.log; }
run() {
	echo "# $*"
	"$@" > /tmp/out 2>&1
	set -- $?
	cat /tmp/out
	echo "status $1"
}

lsm
grep binfmt_misc /proc/filesystems
run mount -t binfmt_misc binfmt_misc $bm
log
lsm
grep binfmt_misc /proc/filesystems
cat $bm/status
run mount -t binfmt_misc binfmt_misc /tmp/bm2
log
lsm
run rmmod binfmt_misc
run umount $bm
run rmmod binfmt_misc
run umount /tmp/bm2
lsm
run rmmod binfmt_misc
lsm
grep binfmt_misc /proc/filesystems
run mount -t binfmt_misc binfmt_misc $bm
log
lsm
run umount $bm
run rmmod binfmt_misc
run mount -t nosuchfs none /tmp/bm2
log
echo > /proc/sys/kernel/modprobe
run mount -t binfmt_misc binfmt_misc $bm
log
rm /tmp/out
rmdir /tmp/bm2
