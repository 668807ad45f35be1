# module_script.sh - binfmt_script as a module (make MODULES=y). Without it
# a "#!" file is no executable (ENOEXEC), and the kernel asks modprobe for
# nothing: its first four bytes are printable, so Linux would not either.
# modprobe loads it, lsmod lists it, scripts run; rmmod takes it away.
mount -t proc proc /proc || exit 1
lsm() { lsmod | awk 'NR > 1 { print "lsmod:", $1, $3, $4 }'; }
echo "modules: $(cat /proc/modules | wc -l)"
/do_execve /show_info.sh
modprobe binfmt_script; echo "modprobe binfmt_script: $?"
lsm
/do_execve /show_info.sh
rmmod binfmt_script; echo "rmmod binfmt_script: $?"
echo "modules: $(cat /proc/modules | wc -l)"
/do_execve /show_info.sh
