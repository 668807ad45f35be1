# dmesg.sh - busybox dmesg reads the kernel log (syslog(2)); /dev/kmsg
# takes lines from user space into it.
[ -e /dev/kmsg ] || mknod /dev/kmsg c 1 11
echo "<5>dmesg test: from the shell" > /dev/kmsg
dmesg | grep 'dmesg test' | sed 's/^\[[ 0-9.]*\] //'
dmesg -r | grep 'dmesg test' | sed 's/\[[ 0-9.]*\] //'
echo "kernel lines about init: $(dmesg | grep -c 'Run /init as init process')"
dmesg -c > /dev/null
echo "lines after dmesg -c: $(dmesg | wc -l)"
su -s /bin/sh user -c dmesg
echo "dmesg as user: status $?"
