# ls.sh - ls -l over the initramfs: names, modes, links, owners, sizes and
# times all come from the cpio archive (mkinitramfs.sh gives every file the
# same time), so Linux and our kernel must print the same. /proc is left
# unmounted here: its entries would carry the boot's own time.
ls -l /
ls -l /dev /etc /t
ls -ln /etc/passwd /bin/sh
ls -lL /bin/sh | cut -c1-10
ls /bin | head -n 5
echo "applets in /bin: $(ls /bin | wc -l), in /sbin: $(ls /sbin | wc -l)"
ls -d /tmp /nonexistent 2>&1
stat -c '%n %F %a %h %u %g' / /tmp /dev/console /dev/null /bin/busybox
