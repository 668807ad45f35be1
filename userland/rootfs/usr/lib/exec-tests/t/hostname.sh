# hostname.sh - the system's names: hostname(1) through sethostname(2) and
# /proc/sys/kernel/hostname, and what uname reports that is the same on
# any Linux-compatible kernel.
mount -t proc proc /proc 2>/dev/null
echo "hostname at boot: $(hostname)"
hostname box
echo "after hostname box: $(hostname) / $(cat /proc/sys/kernel/hostname)"
echo other > /proc/sys/kernel/hostname
echo "after writing /proc: $(hostname)"
echo "uname -s -n -m: $(uname -s -n -m)"
echo "domainname: $(cat /proc/sys/kernel/domainname)"
