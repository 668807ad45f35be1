# modules.sh - busybox's insmod, rmmod, modprobe, lsmod and depmod, and
# /proc/modules, run the same on Linux (tests/cases/shell/sh_modules).
#
# Linux cannot load our modules, nor we its own: each kernel uses a pair
# of its own where the second needs symbols the first exports. On Linux
# they are Debian's quota_tree and quota_v2 (scripts/modules-install.sh
# copies them into the initramfs), here modtest_lib and modtest_user
# (modules/test/). Their names, files, sizes and addresses differ, so they
# are printed as LIB, USER, LIB.ko, USER.ko, SIZE and ADDR.
mount -t proc proc /proc || exit 1
cd "/lib/modules/$(uname -r)" || exit 1
if [ -f kernel/modules/test/modtest_lib.ko ]; then
	LIB=modtest_lib USER=modtest_user
	LIBKO=kernel/modules/test/modtest_lib.ko USERKO=kernel/modules/test/modtest_user.ko
else
	LIB=quota_tree USER=quota_v2
	LIBKO=kernel/fs/quota/quota_tree.ko USERKO=kernel/fs/quota/quota_v2.ko
fi
norm() { sed -e "s|$LIBKO|LIB.ko|g; s|$USERKO|USER.ko|g; s/$LIB/LIB/g; s/$USER/USER/g"; }
lsm() { lsmod | norm | awk 'NR == 1 { print; next } { $2 = "SIZE"; print }'; }
procmod() { norm < /proc/modules | awk '{ $2 = "SIZE"; if ($6 ~ /^0x[0-9a-f]+$/) $6 = "ADDR"; print }'; }
run() {
	echo "# $*" | norm
	"$@" > /tmp/out 2>&1
	set -- $?
	norm < /tmp/out
	echo "status $1"
}

lsm
run insmod "$USERKO"
run insmod "$LIBKO"
run insmod "$LIBKO"
run insmod "$USERKO"
lsm
procmod
run rmmod "$LIB"
run rmmod "$USER"
run rmmod "$LIB"
lsm
run modprobe "$USER"
lsm
run modprobe "$USER"
run modprobe -r "$USER"
lsm
run rmmod "$LIB"
run rmmod no_such_module
run modprobe no_such_module
run modprobe -q no_such_module
run modprobe binfmt_script
procmod
# Options neither module knows: warned about in the kernel log, ignored.
run insmod "$LIBKO" no_such_option=1 flag
lsm
run rmmod "$LIB"
# busybox's depmod makes modules.dep anew from the modules' .modinfo.
run depmod
run modprobe "$USER"
lsm
run modprobe -r "$USER"
lsm
rm /tmp/out
