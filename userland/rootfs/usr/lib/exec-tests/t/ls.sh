# ls.sh - ls -l over the initramfs: names, modes, links, owners, sizes and
# times come from the cpio archive (mkinitramfs.sh gives every file the
# same time), so Linux and our kernel must print the same. Only entries
# that stay put are listed: not the test programs (their sizes change with
# their code), not /dev/console (writing to it updates its time), and not
# /proc mounted (its entries carry the boot's own time).
ls -ld /bin /dev /etc /proc /sbin /tmp
ls -l /etc /dev/null /usr/lib/exec-tests/show_info.sh
ls -ln /etc/passwd /bin/sh
ls -lL /bin/sh | cut -c1-10
ls /bin | head -n 5
echo "applets in /bin: $(ls /bin | wc -l), in /sbin: $(ls /sbin | wc -l)"
ls -d /tmp /nonexistent 2>&1
stat -c '%n %F %a %h %u %g' /tmp /dev/console /dev/null /bin/busybox
