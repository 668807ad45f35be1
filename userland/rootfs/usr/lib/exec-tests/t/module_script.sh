# module_script.sh - binfmt_script as a module (make MODULES=y). Without it
# a "#!" file is no executable (ENOEXEC), and the kernel asks modprobe for
# nothing: its first four bytes are printable, so Linux would not either.
# modprobe loads it, lsmod lists it, scripts run; rmmod takes it away.
# A format's module is in use only while exec asks its handler about a
# file (Linux's search_binary_handler): a script that runs is its
# interpreter, an ELF program, and does not keep the module loaded.
mount -t proc proc /proc || exit 1
lsm() { lsmod | awk 'NR > 1 { print "lsmod:", $1, $3, $4 }'; }
echo "modules: $(cat /proc/modules | wc -l)"
/usr/lib/exec-tests/do_execve /usr/lib/exec-tests/show_info.sh
modprobe binfmt_script; echo "modprobe binfmt_script: $?"
lsm
/usr/lib/exec-tests/do_execve /usr/lib/exec-tests/show_info.sh
printf '#!/bin/sh\necho "$0 runs" > /tmp/up\nread line < /tmp/go\necho "$0 ends: $line"\n' > /tmp/wait.sh
chmod +x /tmp/wait.sh
mkfifo /tmp/up /tmp/go
/usr/lib/exec-tests/do_execve /tmp/wait.sh &
cat /tmp/up
lsm
rmmod binfmt_script; echo "rmmod binfmt_script while the script runs: $?"
echo "modules: $(cat /proc/modules | wc -l)"
echo go > /tmp/go
wait
/usr/lib/exec-tests/do_execve /usr/lib/exec-tests/show_info.sh
rm /tmp/wait.sh /tmp/up /tmp/go
