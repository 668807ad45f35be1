# modules_ours.sh - what only our modules can show (Linux cannot load
# them): the example format module, loaded by exec itself or with insmod,
# and the test modules of modules/test/ that are broken on purpose.
mount -t proc proc /proc || exit 1
cd "/lib/modules/$(uname -r)/kernel/modules" || exit 1
run() {
	echo "# $*"
	"$@" > /tmp/out 2>&1
	set -- $?
	cat /tmp/out
	echo "status $1"
}
# lsmod and /proc/modules without the sizes and addresses, which change
# with the code.
lsm() { lsmod | awk 'NR == 1 { print; next } { $2 = "SIZE"; print }'; }
procmod() { awk '{ $2 = "SIZE"; if ($6 ~ /^0x[0-9a-f]+$/) $6 = "ADDR"; print }' /proc/modules; }

echo "---- the example: a format handler (modules/binfmt_example.c)"
printf '#\177RUN /bin/sh\necho "hello from $0, with $# arguments: $*"\n' > /tmp/hello.run
chmod +x /tmp/hello.run
# No handler takes the file, and its first bytes are not all text: the
# kernel asks modprobe for binfmt-5552 (bytes 2 and 3, "RU"), the
# module's alias, and tries again. /usr/lib/exec-tests/modprobe_log shows the call.
echo /usr/lib/exec-tests/modprobe_log > /proc/sys/kernel/modprobe
run /usr/lib/exec-tests/do_execve /tmp/hello.run
cat /tmp/modprobe.log
rm /tmp/modprobe.log
lsm
run /tmp/hello.run a b c
run rmmod binfmt_example
# Without modprobe (an empty path), nothing loads it.
echo > /proc/sys/kernel/modprobe
run /usr/lib/exec-tests/do_execve /tmp/hello.run
run insmod binfmt_example.ko
lsm
run /usr/lib/exec-tests/do_execve /tmp/hello.run
run rmmod binfmt_example
run modinfo binfmt_example.ko

echo "---- every relocation type"
run insmod test/modtest_relocs.ko
run rmmod modtest_relocs
echo "---- refused"
run insmod test/modtest_reloc32.ko
run insmod test/modtest_gotpcrel.ko
run insmod test/modtest_undefined.ko
run insmod test/modtest_dup.ko
run insmod test/modtest_init_fail.ko
lsm
echo "---- no exit function: it stays"
run insmod test/modtest_permanent.ko
procmod
run rmmod modtest_permanent
echo "---- a license that is not GPL: no GPL-only symbols, and a taint"
cat /proc/sys/kernel/tainted
run insmod test/modtest_lib.ko
run insmod test/modtest_proprietary.ko
cat /proc/sys/kernel/tainted
lsm
run rmmod modtest_lib
rm /tmp/out /tmp/hello.run
